"""Click's own words (usage, headings, defaults, errors) follow the command's language."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.i18n import LANGUAGES
from sixtysix.i18n.build import compiled, mo_path
from sixtysix.i18n.click_catalog import CLICK_DOMAIN, click_text


def run(args: list[str], lang: str | None = None) -> tuple[int, str]:
    # The terminal's width and locale come from the test, not from whoever runs it.
    env: dict[str, str | None] = {"LANG": "C.UTF-8", "SIXTYSIX_LANG": lang or "", "COLUMNS": "100"}
    env |= {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None}
    result = CliRunner().invoke(cli, args, env=env, prog_name="sixtysix")
    return result.exit_code, result.output  # stdout and stderr as a terminal shows them


def test_help_headings_and_defaults_in_turkish() -> None:
    code, out = run(["duel", "--lang", "tr", "--help"])
    assert code == 0
    assert out.startswith("Kullanım: sixtysix duel [OPTIONS] VARIANT BOT_A BOT_B")
    flat = " ".join(out.split())
    assert "Seçenekler:" in out and "[varsayılan: 200;" in flat
    assert "Bu iletiyi göster ve çık." in out
    for english in ("Usage:", "Options:", "[default:", "Show this message"):
        assert english not in out
    code, out = run(["--help"], "tr")
    assert "Komutlar:" in out and "Commands:" not in out


@pytest.mark.parametrize("order", [["--lang", "tr", "--help"], ["--help", "--lang", "tr"]])
def test_help_is_turkish_wherever_lang_stands(order: list[str]) -> None:
    code, out = run(["simulate", *order])
    assert code == 0 and out.startswith("Kullanım:")
    flat = " ".join(out.split())
    assert "Tek tek dağıtımlar yerine" in flat and "instead of single deals" not in flat


def test_the_same_process_switches_back_to_english() -> None:
    run(["play", "--lang", "tr", "--help"])
    code, out = run(["play", "--lang", "en", "--help"])
    assert (
        code == 0
        and out.startswith("Usage: sixtysix play")
        and "Show this message and exit." in out
    )
    assert "Kullanım" not in out and "göster" not in out
    code, out = run(["play", "--help"], "en")
    assert code == 0 and "Options:" in out and "Seçenekler" not in out


@pytest.mark.parametrize(
    ("args", "turkish", "english"),
    [
        (
            ["play", "--lang", "tr", "--bogus"],
            "Hata: '--bogus' diye bir seçenek yok. Yardım için 'sixtysix play --help' yazın.",
            "Error: No such option '--bogus'. Try 'sixtysix play --help' for help.",
        ),
        (["duel", "--lang", "tr"], "Hata: Eksik argüman 'VARIANT'.", "Error: Missing argument"),
        (
            ["play", "66", "--seat", "x", "--lang", "tr"],
            "Hata: '--seat' için geçersiz değer: 'x' geçerli bir tam sayı değil.",
            "Error: Invalid value for '--seat': 'x' is not a valid integer.",
        ),
        (
            ["rules", "66", "--lang", "tr", "--lang", "xx"],
            "şunlardan biri değil: 'en', 'tr'",
            "is not one of 'en', 'tr'",
        ),
    ],
)
def test_usage_errors_are_one_line_in_the_commands_language(
    args: list[str], turkish: str, english: str
) -> None:
    code, out = run(args)
    assert code == 2
    assert turkish in out, out
    assert len(out.strip().splitlines()) == 1
    code, out = run([a if a != "tr" else "en" for a in args])
    assert code == 2 and english in out and "Hata" not in out, out


def test_the_locale_alone_chooses_clicks_language_too() -> None:
    code, out = run(["nosuchcommand"], "tr")
    assert code == 2 and out.startswith("Hata: 'nosuchcommand' diye bir komut yok."), out
    code, out = run(["nosuchcommand"], "en")
    assert out.startswith("Error: No such command 'nosuchcommand'."), out


def test_clicks_catalog_is_compiled_and_round_trips() -> None:
    for lang in LANGUAGES[1:]:
        assert mo_path(lang, CLICK_DOMAIN).read_bytes() == compiled(lang, CLICK_DOMAIN), (
            "click.mo is stale: run `python -m sixtysix.cli.catalogs compile`"
        )
    assert click_text("Show this message and exit.", "tr") == "Bu iletiyi göster ve çık."
    assert click_text("Bu iletiyi göster ve çık.", "en") == "Show this message and exit."
    assert click_text("Anything else", "tr") is None


@pytest.mark.parametrize("command", ["duel", "simulate", "tournament"])
def test_the_measuring_commands_take_lang(command: str) -> None:
    code, out = run([command, "--lang", "tr", "--help"])
    assert code == 0 and "--lang [en|tr]" in out and "Kullanım:" in out


def test_simulate_reports_in_turkish() -> None:
    code, out = run(["simulate", "66", "--games", "10", "--seed", "1", "--lang", "tr"])
    assert code == 0, out
    assert "10 oyun, 10 dağıtım" in out and "Dağıtımlar nasıl bitti" in out
    assert "kazanılan" in out and "games won" not in out and "won" not in out
    code, out = run(["simulate", "66", "--games", "10", "--seed", "1", "--lang", "en"])
    assert "10 games, 10 deals" in out and "How the deals ended" in out
