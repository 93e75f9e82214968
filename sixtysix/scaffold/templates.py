"""The files a new plugin package starts from, as :class:`string.Template` texts.

Kept as Python strings (not package data files) so they install with the code wherever it
goes. ``$$`` is a literal dollar sign. Every generated file is ruff-clean and its tests pass
as generated (``tests/scaffold`` proves both).
"""

from __future__ import annotations

from string import Template

PYPROJECT = Template("""\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$dist"
version = "0.1.0"
description = "$summary"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["sixtysix>=$sixtysix_version"]

[project.optional-dependencies]
test = ["pytest>=8"]

# This is what makes sixtysix find the plugin: the entry-point group "sixtysix".
[project.entry-points.sixtysix]
$name = "$module"

[tool.setuptools]
packages = ["$module"]

[tool.pytest.ini_options]
testpaths = ["tests"]

[tool.ruff]
line-length = 100
target-version = "py311"
""")

GITIGNORE = """\
__pycache__/
*.egg-info/
.pytest_cache/
build/
dist/
"""

VARIANT_MODULE = Template('''\
"""$title: a house variant of $base_name, packaged as a sixtysix plugin.

The ``sixtysix`` entry point in pyproject.toml names this module; after ``pip install -e .``
the variant appears in ``sixtysix variants`` and plays, replays and simulates like a built-in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

$imports


@dataclass(frozen=True)
class ${cls}Options($base_options):
    """The options of $name: every option of $base_name, with $name's own defaults.

    Declare an inherited option again to change its default, or add one with
    ``option(default, "one-line doc")``; ``sixtysix rules $name`` lists them all.
    """

    variant_name: ClassVar[str] = "$name"
$target_field

class $cls($base_class):
    """$title: the rules of $base_name, unchanged so far.

    Say here, in a few sentences, how $name differs from $base_name:
    ``sixtysix rules $name`` shows this docstring as the rules summary.
    """

    name = "$name"
    aliases = ()
    description = "house variant of $base_name"
    options_class = ${cls}Options

    def make_rules(self, options: Options) -> Rules:
        """The engine knobs of $base_name, adjusted for $name.

        Change them with ``dataclasses.replace(rules, knob=value)``; every knob is documented
        in ``sixtysix.core.rules.Rules`` (deal rounds, exchange, closing, bonuses...).
        """
        rules = super().make_rules(options)
        return dataclasses.replace(rules)


@hookimpl
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    register($cls)
''')

TARGET_FIELD = Template("""
    target: int = option($target, "game points that end a match")
""")

VARIANT_CONFORMANCE_TEST = Template('''\
"""$name passes sixtysix's conformance kit: the checks every variant plugin runs.

Random-play invariants, legal actions, record round trips, hidden information, options
validation and simulation, over the defaults, every preset and each option in turn.
"""

from __future__ import annotations

import pytest
from sixtysix.testing import Check, ConformanceKit

from $module import $cls


@pytest.mark.parametrize("check", ConformanceKit($cls).checks(), ids=str)
def test_conformance(check: Check) -> None:
    check()
''')

VARIANT_TEST = Template('''\
"""$name is found by the plugin manager and works from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.testing import invoke_cli, registry_with

import $module
from $module import $cls


def test_registered_under_its_name() -> None:
    reg = registry_with($module)
    assert reg.variant("$name") is $cls
    assert not [line for line in reg.errors if "$module" in line]


def test_rules_from_the_cli() -> None:
    result = invoke_cli(["rules", "$name", "--json"], $module)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["name"] == "$name"


def test_simulate_from_the_cli() -> None:
    args = ["simulate", "$name", "--games", "50", "--seed", "1", "--json"]
    result = invoke_cli(args, $module)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 50


def test_a_played_match_replays(tmp_path: Path) -> None:
    variant = $cls()
    bots = [RandomBot(seat, Seed(7).child(("bot", seat))) for seat in range(variant.seats)]
    match = play_match(variant, [bot.choose for bot in bots], Seed(7))
    path = tmp_path / "match.json"
    match.record.save(path)
    result = invoke_cli(["replay", str(path), "--json"], $module)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["match"]["winners"] == match.winners
''')

VARIANT_README = Template("""\
# $dist

**$title**, a house variant of `$base_name` for sixtysix.

```bash
pip install -e '.[test]'      # install; sixtysix finds it through its entry point
sixtysix variants             # $name is listed
sixtysix rules $name          # its rules summary and options
sixtysix simulate $name --games 1000 --seed 1
pytest                        # the conformance kit and the CLI tests
```

## How $name differs from $base_name

Nothing yet: the variant starts as an exact copy of `$base_name`. Change its options in
`${cls}Options` (declare an inherited option again with a new default) and its engine knobs in
`$cls.make_rules`; override `settle` to score deals differently. Write the differences here
and in the class docstring, and add a test for each of them next to `tests/test_conformance.py`.
""")

BOT_MODULE = Template('''\
"""$title: a computer player for sixtysix, packaged as a plugin.

The ``sixtysix`` entry point in pyproject.toml names this module; after ``pip install -e .``
the bot appears in ``sixtysix bots`` and can take a seat: ``--bots $name,random``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from sixtysix.bots.base import Bot
from sixtysix.core.actions import MARRY, Action
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl


class $cls(Bot):
    """$title: declares a marriage whenever it can, otherwise plays a random legal action.

    A starting point for a strategy. It sees only ``view``, its seat's information set, and
    draws every random choice from ``self.stream`` so games reproduce from a seed.
    """

    name = "$name"
    description = "declares marriages, otherwise random (a starting point)"
    parameters: ClassVar[Mapping[str, str]] = {"seed": "an integer seed of its own"}

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.stream = self.seed.stream(("bot", "$name", seat))

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        marriages = [a for a in legal if MARRY <= a < MARRY + 4]
        if marriages:
            return marriages[0]
        return legal[self.stream.below(len(legal))]


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register($cls)
''')

BOT_CONFORMANCE_TEST = Template('''\
"""$name passes sixtysix's bot conformance kit in every built-in variant.

Every choice is one of the view's legal actions, the same seed gives the same choices, and
unknown parameters are refused.
"""

from __future__ import annotations

import pytest
from sixtysix.testing import BotKit, Check

from $module import $cls


@pytest.mark.parametrize("check", BotKit($cls).checks(), ids=str)
def test_conformance(check: Check) -> None:
    check()
''')

BOT_TEST = Template('''\
"""$name is found by the plugin manager and plays from the command line."""

from __future__ import annotations

import json

from sixtysix.testing import invoke_cli, registry_with

import $module
from $module import $cls


def test_registered_under_its_name() -> None:
    reg = registry_with($module)
    assert reg.bot("$name") is $cls


def test_plays_a_simulation_from_the_cli() -> None:
    args = ["simulate", "66", "--bots", "$name,random", "--games", "40", "--seed", "1", "--json"]
    result = invoke_cli(args, $module)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 40 and summary["bots"] == ["$name", "random"]
''')

BOT_README = Template("""\
# $dist

**$title**, a computer player for sixtysix.

```bash
pip install -e '.[test]'      # install; sixtysix finds it through its entry point
sixtysix bots                 # $name is listed
sixtysix simulate 66 --bots $name,random --games 1000 --seed 1
pytest                        # the bot conformance kit and the CLI tests
```

The bot receives a `View` (its seat's information set: own hand, trump, public history,
legal actions) and returns one of `view.legal_actions`. It never sees other hands or the
talon. Draw randomness from `self.stream` so that games reproduce from a seed.
""")
