"""The documentation site stays whole: every page is in the navigation, every English rules
page has its Turkish version, and the tutorial's complete module really works.

``mkdocs build --strict`` (the docs extra) checks links and renders the generated CLI and API
references; these tests need no docs dependencies and run with the rest of the suite.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry
from sixtysix.testing import ConformanceKit, invoke_cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def nav_pages() -> set[str]:
    return set(re.findall(r":\s*([\w./-]+\.md)\s*$", MKDOCS, re.MULTILINE))


def test_every_page_is_in_the_navigation() -> None:
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert pages == nav_pages()


@pytest.mark.parametrize(
    ("english", "turkish"),
    [
        ("index.md", "index.md"),
        ("sixtysix.md", "sixtysix.md"),
        ("schnapsen.md", "schnapsen.md"),
        ("sixtysix-3.md", "sixtysix-3.md"),
        ("sixtysix-4.md", "sixtysix-4.md"),
        ("glossary.md", "sozluk.md"),
    ],
)
def test_every_rules_page_has_a_turkish_version(english: str, turkish: str) -> None:
    en = (DOCS / "rules" / english).read_text(encoding="utf-8")
    tr = (DOCS / "rules" / "tr" / turkish).read_text(encoding="utf-8")
    # The same option names and action strings appear in both: nothing was left out.
    code = re.compile(r"`([a-z_0-9]+(?:=[a-z_0-9]+)?)`")
    assert set(code.findall(en)) <= set(code.findall(tr)) | {"name", "value"}
    assert len(tr) > 0.6 * len(en)


def test_turkish_rules_list_every_option_of_each_variant() -> None:
    reg = build_registry(autoload=False)
    for page, name in [
        ("sixtysix.md", "sixtysix"),
        ("schnapsen.md", "schnapsen"),
        ("sixtysix-3.md", "sixtysix-3"),
        ("sixtysix-4.md", "sixtysix-4"),
    ]:
        text = (DOCS / "rules" / "tr" / page).read_text(encoding="utf-8")
        for spec in reg.variant(name).options_class.specs():
            assert f"| `{spec.name}` |" in text, f"{page} does not list option {spec.name}"


def test_cli_reference_is_generated_from_the_application() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert "::: mkdocs-click" in text and ":module: sixtysix.cli" in text
    assert ":command: cli" in text and "mkdocs-click" in MKDOCS


def tutorial_module() -> ModuleType:
    text = (DOCS / "plugins" / "writing-a-variant.md").read_text(encoding="utf-8")
    match = re.search(r'```python title="sixtysix_cafe/__init__.py"\n(.*?)```', text, re.DOTALL)
    assert match, "the tutorial's complete module is missing"
    module = ModuleType("sixtysix_cafe")
    sys.modules["sixtysix_cafe"] = module
    try:
        exec(compile(match.group(1), "sixtysix_cafe/__init__.py", "exec"), module.__dict__)
    finally:
        del sys.modules["sixtysix_cafe"]
    return module


def test_tutorial_variant_registers_and_passes_the_kit() -> None:
    module = tutorial_module()
    reg = build_registry(autoload=False, extra=(module,))
    assert not reg.errors
    cafe = reg.variant("cafe")
    variant = cafe()
    assert variant.target == 5 and variant.rules.last_trick_bonus == 20
    ConformanceKit(cafe, deals=3).run()
    rules = invoke_cli(["rules", "cafe", "--json"], module)
    assert rules.exit_code == 0 and "schwarz_bonus" in rules.stdout


def test_tutorial_schwarz_bonus_scores_four() -> None:
    from sixtysix.bots.players.random_bot import RandomBot

    cafe = tutorial_module().Cafe
    on, off = cafe(), cafe(cafe.options_class.build({"schwarz_bonus": False}))
    seen = 0
    for i in range(400):
        outcomes = []
        for variant in (on, off):
            seed = Seed(i)
            state = variant.new_deal(variant.deal(seed, ("d",), 0))
            bots = [RandomBot(s, seed) for s in range(2)]
            while not state.is_over:
                state.apply(bots[state.to_act].choose(state.view(state.to_act)))
            outcomes.append(state.outcome)
        with_bonus, without = outcomes
        assert with_bonus is not None and without is not None
        if 3 in without.game_points and without.reason == Reason.REACHED_66:
            winner = without.game_points.index(3)
            if without.tricks[1 - winner] == 0:
                assert with_bonus.game_points[winner] == 4
                seen += 1
        else:
            assert with_bonus.game_points == without.game_points
    assert seen > 0
