"""Translations: every message has Turkish, the shipped catalogs are compiled from the .po files,
and the language comes from --lang or the locale."""

from __future__ import annotations

import gettext
import re

import pytest
from click.testing import CliRunner

pytest.importorskip("babel")

from sixtysix.cli import cli
from sixtysix.cli.catalogs import extract, help_texts, localized_commands
from sixtysix.cli.localized import LocalizedCommand, LocalizedGroup, help_paragraphs
from sixtysix.i18n import LANGUAGES, LOCALE_DIR, Translator, default_language
from sixtysix.i18n.build import compiled, mo_path, read_catalog

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def test_every_message_of_the_code_and_the_variants_has_a_turkish_translation() -> None:
    catalog = read_catalog("tr")
    missing = [
        m.id
        for m in extract()
        if m.id and not (catalog.get(m.id, m.context) and catalog.get(m.id, m.context).string)
    ]
    assert not missing, (
        f"{len(missing)} messages lack Turkish (run `python -m sixtysix.cli.catalogs update`,"
        f" translate the .po, then `compile`): {missing[:5]}"
    )


def test_no_empty_or_fuzzy_translation_and_placeholders_kept() -> None:
    catalog = read_catalog("tr")
    assert not catalog.fuzzy
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:  # every plural form too, with the singular's placeholders
            assert text, message.id
            assert sorted(PLACEHOLDER.findall(ids[-1])) == sorted(PLACEHOLDER.findall(text)), (
                message.id
            )


def test_shipped_mo_files_are_up_to_date_with_the_po_files() -> None:
    for lang in LANGUAGES[1:]:
        assert mo_path(lang).read_bytes() == compiled(lang), (
            f"{mo_path(lang)} is stale: run `python -m sixtysix.cli.catalogs compile`"
        )
        # and gettext reads it
        t = gettext.translation("sixtysix", localedir=LOCALE_DIR, languages=[lang])
        assert t.gettext("hearts") == "kupa"


def test_rule_terms_in_turkish() -> None:
    tr = Translator("tr")
    assert tr._("Trump") == "Koz"
    assert "evliliğini" in tr._("{who} declares the marriage in {suit} ({points})")
    assert tr._("close the talon") == "talonu kapat"
    assert "daha yetişir" in tr._('"{points} more is enough!" 66 with the marriage: {who}.')
    assert tr._("draw") == "pata"
    assert "Yalnız gidiyorum" in tr._('{who} plays solo: "I go alone!"')
    assert Translator("en")._("hearts") == "hearts"


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "tr_TR.UTF-8"}, "tr"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "tr_TR.UTF-8", "LANG": "en_US.UTF-8"}, "tr"),
        ({"LANGUAGE": "de:tr", "LANG": "tr_TR.UTF-8"}, "en"),
        ({"LANGUAGE": "tr:en", "LANG": "en_US.UTF-8"}, "tr"),
        ({"LC_MESSAGES": "tr_TR", "LANG": "C"}, "tr"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_default_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert default_language(env) == lang


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        Translator("de")


def test_rules_in_turkish() -> None:
    result = CliRunner().invoke(cli, ["rules", "66", "--lang", "tr"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seçenekler (-o ad=değer)" in out and "varsayılan" in out
    assert "İki kişilik 66" in out  # the summary
    assert "koz 9'lusu açık koz kartıyla değiştirilebilir" in out  # an option doc
    assert "Hazır ayarlar" in out and "hepsi varsayılan" in out
    en = CliRunner().invoke(cli, ["rules", "66", "--lang", "en"], terminal_width=200).output
    assert "Options (-o name=value)" in en and "Seçenekler" not in en


def test_rules_language_from_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    result = CliRunner().invoke(cli, ["rules", "schnapsen"], terminal_width=200)
    assert result.exit_code == 0 and "Seçenekler" in result.output


def test_command_help_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    runner = CliRunner()
    en = runner.invoke(cli, ["play", "--help"]).output
    assert "Play VARIANT in the terminal" in en and "Your seat (default 0)." in en
    tr = runner.invoke(cli, ["play", "--lang", "tr", "--help"]).output
    assert "VARIANT oyununu terminalde oyna" in tr and "Senin yerin (varsayılan 0)." in tr
    # The example block is kept as written, but for its heading.
    assert "\nÖrnekler:\nsixtysix play 66\n" in tr.replace("  ", "") and "Examples" not in tr
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    out = runner.invoke(cli, ["standings", "--help"]).output
    assert "Puanlı sonuçlarını" in out
    out = runner.invoke(cli, ["analyse", "--help"]).output
    assert "uzmana göre" in out
    listing = runner.invoke(cli, ["--help"]).output
    assert "VARIANT oyununu terminalde oyna" in listing


def test_every_command_is_localized() -> None:
    """A new sub-command must translate its help, or `sixtysix --help` is half English."""
    for command in localized_commands():
        assert isinstance(command, (LocalizedCommand, LocalizedGroup)), command.name


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_whole_help_speaks_one_language(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Under a Turkish locale every help text shown is the Turkish one, and under an English
    locale the English one: the group's, each command's line in the list, and each command's
    own help and options (Click's --help included)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "tr_TR.UTF-8" if lang == "tr" else "C.UTF-8")
    tr = Translator(lang)
    runner = CliRunner()

    def shown(text: str) -> str:
        return " ".join(text.split())

    top = shown(runner.invoke(cli, ["--help"], terminal_width=400).output)
    assert shown(tr.text("Show this message and exit.")) in top
    for command in localized_commands():
        expected = help_texts(command)
        if command is cli:
            out = top
        else:
            assert command.name is not None
            out = shown(runner.invoke(cli, [command.name, "--help"], terminal_width=400).output)
            first = tr.text(help_paragraphs(command.help or "")[0])
            assert shown(first)[:40] in top, command.name  # its line in the list
        for text in expected:
            if lang == "tr":  # really translated, not the English key falling through
                assert tr.text(text) != text, (command.name, text)
            assert shown(tr.text(text)) in out, (command.name, text)
    if lang == "tr":
        assert "Kurulu oyunları listele" in top and "BOT_A'yı BOT_B'ye karşı ölç" in top
        out = runner.invoke(cli, ["simulate", "--help"], terminal_width=400).output
        assert "Ana tohum" in out and "Master seed" not in out


def test_lang_before_help_picks_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    out = CliRunner().invoke(cli, ["rules", "--lang", "tr", "--help"]).output
    assert "kural özetini" in out
    out = CliRunner().invoke(cli, ["rules", "--lang", "TR", "66"]).output
    assert "Seçenekler" in out


@pytest.mark.parametrize(
    ("lang", "one", "three"),
    [
        ("en", "Resumed 1 unfinished table.", "Resumed 3 unfinished tables."),
        ("tr", "Bitmemiş 1 masa sürdürüldü.", "Bitmemiş 3 masa sürdürüldü."),
    ],
)
def test_a_count_takes_the_languages_own_plural(lang: str, one: str, three: str) -> None:
    tr = Translator(lang)
    single, plural = "Resumed {count} unfinished table.", "Resumed {count} unfinished tables."
    assert tr.n_(single, plural, 1).format(count=1) == one
    assert tr.n_(single, plural, 3).format(count=3) == three
