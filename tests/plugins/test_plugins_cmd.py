"""``sixtysix plugins`` and broken plugins: each is reported in one line, the rest works.

Every kind of breakage a third-party plugin can have is simulated with a fake plugin module:
an import error (through a fake entry point), an unknown (misspelt) hook, a hook with a wrong
signature, a hook that raises, a registration of something that is not a Variant or Bot, and
a name or alias that another plugin already took.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from types import ModuleType
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.plugins import hookimpl, manager
from sixtysix.plugins.manager import build_registry
from sixtysix.testing import using_registry
from sixtysix.variants.sixtysix import SixtySix, SixtySixOptions


def fake_plugin(name: str, **hooks: Callable[..., None]) -> ModuleType:
    module = ModuleType(name)
    for hook_name, func in hooks.items():
        setattr(module, hook_name, hookimpl(func))
    return module


@dataclass(frozen=True)
class _CopyOptions(SixtySixOptions):
    variant_name: ClassVar[str] = "copycat"


class Copycat(SixtySix):
    """66 again, under a name that is free but an alias that is not."""

    name = "copycat"
    aliases = ("66",)
    description = "a plugin whose alias clashes"
    options_class = _CopyOptions


@dataclass(frozen=True)
class _ParlourOptions(SixtySixOptions):
    variant_name: ClassVar[str] = "parlour"


class Parlour(SixtySix):
    """66 under a new name: a well-behaved plugin."""

    name = "parlour"
    aliases = ()
    description = "a working third-party variant"
    options_class = _ParlourOptions


def _register_int(register: Callable[[Any], None]) -> None:
    register(int)


def _register_copycat(register: Callable[[Any], None]) -> None:
    register(Copycat)


def _register_parlour(register: Callable[[Any], None]) -> None:
    register(Parlour)


def _raise(register: Callable[[Any], None]) -> None:
    raise RuntimeError("database unavailable")


def _wrong_signature(regster: Callable[[Any], None]) -> None:
    """Misspelt argument: pluggy refuses the hook."""


GOOD = fake_plugin("good_plugin", register_variants=_register_parlour)

BROKEN: dict[str, tuple[ModuleType, str]] = {
    "bad registration": (
        fake_plugin("bad_registration", register_variants=_register_int),
        "plugin 'bad_registration' registered <class 'int'>, not a Variant subclass",
    ),
    "duplicate name": (
        fake_plugin("duplicate_name", register_variants=_register_copycat),
        "plugin 'duplicate_name': variant name '66' is already taken by 'sixtysix'",
    ),
    "misspelt hook": (
        fake_plugin("misspelt_hook", register_varients=_register_parlour),
        "plugin 'misspelt_hook' is broken: unknown hook 'register_varients'",
    ),
    "wrong signature": (
        fake_plugin("wrong_signature", register_variants=_wrong_signature),
        "plugin 'wrong_signature' is broken",
    ),
    "hook raises": (
        fake_plugin("hook_raises", register_bots=_raise),
        "plugin 'hook_raises' failed in register_bots: database unavailable",
    ),
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.mark.parametrize("kind", list(BROKEN))
def test_each_breakage_is_one_line_naming_the_plugin(kind: str) -> None:
    plugin, expected = BROKEN[kind]
    reg = build_registry(autoload=False, extra=(plugin, GOOD))
    assert len(reg.errors) == 1, reg.errors
    assert expected in reg.errors[0] and "\n" not in reg.errors[0]
    # The rest keeps working: the built-ins, and the good plugin loaded beside the broken one.
    assert reg.variant("66").name == "sixtysix"
    assert reg.variant("parlour") is Parlour
    assert reg.bot("random").name == "random"


def test_several_broken_plugins_are_each_reported() -> None:
    plugins = tuple(p for p, _ in BROKEN.values())
    reg = build_registry(autoload=False, extra=(*plugins, GOOD))
    assert len(reg.errors) == len(BROKEN)
    for _, expected in BROKEN.values():
        assert any(expected in line for line in reg.errors), expected
    assert "parlour" in reg.variants


@pytest.fixture
def ghost_entry_point(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An installed plugin whose module cannot be imported, found through its entry point."""
    real = manager.entry_points

    def fake(group: str) -> list[EntryPoint]:
        ghost = EntryPoint("ghost", "sixtysix_ghost_not_installed", group)
        return [*real(group=group), ghost]

    monkeypatch.setattr(manager, "entry_points", fake)
    monkeypatch.delenv(manager.DISABLE_AUTOLOAD_ENV, raising=False)
    monkeypatch.setattr(manager, "_cached", None)
    yield
    manager._cached = None


def test_import_error_is_reported_by_entry_point(ghost_entry_point: None) -> None:
    reg = build_registry()
    assert len(reg.errors) == 1
    line = reg.errors[0]
    assert "plugin 'ghost' (sixtysix_ghost_not_installed) failed to load" in line
    assert "No module named 'sixtysix_ghost_not_installed'" in line
    assert reg.variant("schnapsen").name == "schnapsen"


def test_cli_plugins_reports_the_broken_and_lists_the_rest(
    runner: CliRunner, ghost_entry_point: None
) -> None:
    result = runner.invoke(cli, ["plugins"])
    assert result.exit_code == 0, result.output
    assert "sixtysix.variants.sixtysix" in result.stdout and "random" in result.stdout
    assert "Broken plugins (1):" in result.stdout
    assert "plugin 'ghost' (sixtysix_ghost_not_installed) failed to load" in result.stdout
    # Other commands keep working and warn once on stderr.
    listed = runner.invoke(cli, ["variants", "--json"])
    assert listed.exit_code == 0
    assert "sixtysix" in {r["name"] for r in json.loads(listed.stdout)}
    assert "Warning: plugin 'ghost'" in listed.stderr
    sim = runner.invoke(cli, ["simulate", "66", "--games", "20", "--seed", "1", "--json"])
    assert sim.exit_code == 0 and json.loads(sim.stdout)["games"] == 20


def test_under_turkish_the_broken_plugins_are_reported_in_turkish(
    runner: CliRunner, ghost_entry_point: None
) -> None:
    """Every breakage speaks the command's language: the plugins listing, and the warning of
    any other command; ``--json`` keeps the English lines for machines."""
    plugins = tuple(p for p, _ in BROKEN.values())
    with using_registry(build_registry(autoload=False, extra=(*plugins, GOOD))):
        result = runner.invoke(cli, ["plugins", "--lang", "tr"])
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert "Kurulu eklentiler" in out and f"Bozuk eklentiler ({len(BROKEN)}):" in out
        assert "'misspelt_hook' eklentisi bozuk: unknown hook 'register_varients'" in out
        assert "'hook_raises' eklentisi register_bots içinde hata verdi" in out
        assert "'duplicate_name' eklentisi: '66' oyun adı zaten" in out
        for english in ("Installed plugins", "Broken plugins", "is broken", "failed in"):
            assert english not in out
        machines = runner.invoke(cli, ["plugins", "--json", "--lang", "tr"])
        errors = json.loads(machines.stdout)["errors"]
        assert all(any(e in line for line in errors) for _, e in BROKEN.values())
    listed = runner.invoke(cli, ["variants", "--json"], env={"SIXTYSIX_LANG": "tr"})
    assert listed.exit_code == 0
    assert "Uyarı: 'ghost' eklentisi (sixtysix_ghost_not_installed) yüklenemedi" in listed.stderr


def test_cli_plugins_json_attributes_registrations(runner: CliRunner) -> None:
    plugin, expected = BROKEN["duplicate name"]
    with using_registry(build_registry(autoload=False, extra=(GOOD, plugin))):
        result = runner.invoke(cli, ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {row["name"]: row for row in data["plugins"]}
    assert rows["sixtysix.variants.sixtysix"]["variants"] == ["sixtysix"]
    assert rows["sixtysix.variants.sixtysix"]["builtin"] is True
    assert rows["sixtysix.bots.players.random_bot"]["bots"] == ["random"]
    assert rows["good_plugin"] == {
        "name": "good_plugin",
        "package": None,
        "version": None,
        "entry_point": None,
        "builtin": False,
        "variants": ["parlour"],
        "bots": [],
    }
    assert [expected in line for line in data["errors"]] == [True]
    # Built-ins come first, so a user sees at once what the project itself provides.
    builtin_flags = [row["builtin"] for row in data["plugins"]]
    assert builtin_flags == sorted(builtin_flags, reverse=True)


def test_cli_plugins_shows_an_installed_package(runner: CliRunner) -> None:
    """With the project installed, the built-ins come from its entry points and say so."""
    result = runner.invoke(cli, ["plugins", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    names = {row["name"] for row in data["plugins"]}
    assert set(manager.DEFAULT_PLUGINS) <= names
