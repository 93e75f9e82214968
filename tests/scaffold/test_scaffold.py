"""``sixtysix new-variant`` and ``new-bot`` write packages that work as generated.

The fast tests import the generated module from a temporary directory and register it with
``build_registry(extra=...)``; ``test_installed_package_*`` (marked ``integration``) really
pip-installs one into a throwaway virtual environment and drives the installed CLI.
"""

from __future__ import annotations

import importlib
import json
import site
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from sixtysix.bots.base import Bot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.cli import cli
from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import build_registry
from sixtysix.scaffold import Names, ScaffoldError
from sixtysix.testing import BotKit, ConformanceKit, invoke_cli

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def load(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Import a generated package's module from its directory; forget it afterwards."""
    loaded: list[str] = []

    def _load(package: Path, module: str) -> ModuleType:
        monkeypatch.syspath_prepend(str(package))
        loaded.append(module)
        return importlib.import_module(module)

    yield _load
    for name in loaded:
        sys.modules.pop(name, None)


def scaffold(runner: CliRunner, *args: str) -> None:
    result = runner.invoke(cli, list(args))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("base", ["sixtysix", "66", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_new_variant_subclasses_its_base_and_registers(
    tmp_path: Path, load: object, base: str
) -> None:
    runner = CliRunner()
    name = "house-" + base.replace("sixtysix", "ss")
    scaffold(runner, "new-variant", name, "--base", base, "--dir", str(tmp_path))
    names = Names.of(name)
    package = tmp_path / names.dist
    assert {p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()} == {
        "pyproject.toml",
        "README.md",
        ".gitignore",
        f"{names.module}/__init__.py",
        "tests/test_conformance.py",
        f"tests/test_{names.short}.py",
    }
    pyproject = (package / "pyproject.toml").read_text()
    assert f'[project.entry-points.sixtysix]\n{name} = "{names.module}"' in pyproject
    module = load(package, names.module)  # type: ignore[operator]
    reg = build_registry(autoload=False, extra=(module,))
    assert not reg.errors
    cls = reg.variant(name)
    base_cls = reg.variant(base)
    assert issubclass(cls, base_cls) and cls is not base_cls
    assert issubclass(cls.options_class, base_cls.options_class)
    assert cls.seats == base_cls.seats and cls.aliases == ()
    assert cls().target == base_cls().target
    ConformanceKit(cls, [{}], deals=3).run()


def test_new_variant_plays_replays_and_simulates(tmp_path: Path, load: object) -> None:
    scaffold(CliRunner(), "new-variant", "parlour", "--dir", str(tmp_path))
    module = load(tmp_path / "sixtysix-parlour", "sixtysix_parlour")  # type: ignore[operator]
    listed = invoke_cli(["variants", "--json"], module)
    rows = {r["name"]: r for r in json.loads(listed.stdout)}
    assert rows["parlour"]["plugin"] == "sixtysix_parlour"
    sim = invoke_cli(["simulate", "parlour", "--games", "30", "--seed", "2", "--json"], module)
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.stdout)["games"] == 30
    cls: type[Variant] = module.Parlour
    players = [RandomBot(s, Seed(4)).choose for s in range(2)]
    match = play_match(cls(), players, Seed(4))
    record = tmp_path / "match.json"
    match.record.save(record)
    replayed = invoke_cli(["replay", str(record), "--json"], module)
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["match"]["game_points"] == match.totals


def test_new_bot_plays_in_every_variant(tmp_path: Path, load: object) -> None:
    scaffold(CliRunner(), "new-bot", "marrier", "--dir", str(tmp_path))
    module = load(tmp_path / "sixtysix-marrier", "sixtysix_marrier")  # type: ignore[operator]
    reg = build_registry(autoload=False, extra=(module,))
    cls = reg.bot("marrier")
    assert issubclass(cls, Bot) and cls.plugin == "sixtysix_marrier"
    BotKit(cls, deals=2).run()
    args = ["simulate", "66", "--bots", "marrier,random", "--games", "20", "--seed", "1"]
    sim = invoke_cli([*args, "--json"], module)
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.stdout)["bots"] == ["marrier", "random"]


def test_generated_packages_are_lint_clean_and_their_tests_pass(tmp_path: Path) -> None:
    """The generated tests themselves run green, and ruff finds nothing to change."""
    runner = CliRunner()
    scaffold(runner, "new-variant", "tidy", "--base", "schnapsen", "--dir", str(tmp_path))
    scaffold(runner, "new-bot", "neat", "--dir", str(tmp_path))
    for package in ("sixtysix-tidy", "sixtysix-neat"):
        root = tmp_path / package
        for cmd in (["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]):
            lint = subprocess.run(
                [sys.executable, "-m", "ruff", *cmd], cwd=root, capture_output=True, text=True
            )
            assert lint.returncode == 0, lint.stdout + lint.stderr
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib"]
        + [str(tmp_path / p / "tests") for p in ("sixtysix-tidy", "sixtysix-neat")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=_env(tmp_path / "sixtysix-tidy", tmp_path / "sixtysix-neat"),
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-3000:]


def _env(*paths: Path) -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*(str(p) for p in paths), str(REPO)])
    return env


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new-variant", "Bad_Name"], "invalid name 'Bad_Name'"),
        (["new-variant", "66"], "invalid name '66'"),
        (["new-variant", "altmisalti"], "variant name 'altmisalti' is already taken"),
        (["new-variant", "house", "--base", "bridge"], "unknown variant 'bridge'"),
        (["new-bot", "random"], "bot name 'random' is already taken"),
        (["new-bot", "view"], "its class View would shadow"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, [*args, "--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_refuses_to_overwrite(tmp_path: Path) -> None:
    (tmp_path / "sixtysix-mine").mkdir()
    (tmp_path / "sixtysix-mine" / "notes.txt").write_text("keep me")
    result = CliRunner().invoke(cli, ["new-bot", "mine", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "already exists and is not empty" in result.output
    assert (tmp_path / "sixtysix-mine" / "notes.txt").read_text() == "keep me"


def test_names_are_spelt_consistently() -> None:
    names = Names.of("speed-schnapsen")
    assert (names.dist, names.module, names.cls) == (
        "sixtysix-speed-schnapsen",
        "sixtysix_speed_schnapsen",
        "SpeedSchnapsen",
    )
    with pytest.raises(ScaffoldError):
        Names.of("-dash")


def _see_this_environment(python: Path) -> None:
    """Let the venv of ``python`` import what the running interpreter can, sixtysix included.

    ``system_site_packages`` would only show the base interpreter's site-packages, which lack
    sixtysix when it is installed in a virtual environment (the README's way). A ``.pth`` line
    that calls ``site.addsitedir`` adds this environment's site directories after the new venv's
    own, and processes their ``.pth`` files too, so an editable install of sixtysix resolves.
    """
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dirs = [d for d in site.getsitepackages() if Path(d).is_dir()]
    lines = "".join(f"import site; site.addsitedir({d!r})\n" for d in dirs)
    (Path(purelib) / "_sixtysix_test_parent_env.pth").write_text(lines)


@pytest.mark.integration
def test_installed_package_appears_in_the_cli(tmp_path: Path) -> None:
    """pip-install a scaffolded variant into a venv that sees this sixtysix, then use it."""
    scaffold(CliRunner(), "new-variant", "installed", "--dir", str(tmp_path))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    _see_this_environment(python)
    # Build isolation fetches setuptools, as any `pip install -e` of the package would.
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
    package = str(tmp_path / "sixtysix-installed")
    install = subprocess.run([*pip, "--no-deps", "-e", package], capture_output=True, text=True)
    assert install.returncode == 0, install.stdout + install.stderr

    def sixtysix(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-m", "sixtysix", *args], capture_output=True, text=True, cwd=tmp_path
        )

    listed = sixtysix("variants", "--json")
    assert listed.returncode == 0, listed.stderr
    assert "installed" in {r["name"] for r in json.loads(listed.stdout)}
    plugins = json.loads(sixtysix("plugins", "--json").stdout)
    row = next(p for p in plugins["plugins"] if p["name"] == "sixtysix_installed")
    assert row["package"] == "sixtysix-installed" and row["variants"] == ["installed"]
    assert row["entry_point"] == "installed" and not plugins["errors"]
    sim = sixtysix("simulate", "installed", "--games", "50", "--seed", "1", "--json")
    assert sim.returncode == 0 and json.loads(sim.stdout)["games"] == 50
