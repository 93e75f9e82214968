"""Every built-in variant and bot passes the conformance kit that plugins run against themselves.

The built-ins are held to the same standard as third-party plugins: if the kit is too strict
or too lax, it shows here first.
"""

from __future__ import annotations

import pytest

from sixtysix.plugins.manager import DEFAULT_PLUGINS, build_registry
from sixtysix.testing import BotKit, Check, ConformanceKit

REGISTRY = build_registry(autoload=False)
BUILTIN_VARIANTS = sorted(
    (cls for cls in REGISTRY.variants.values() if cls.plugin in DEFAULT_PLUGINS),
    key=lambda cls: cls.name,
)
CHECKS: list[Check] = [c for cls in BUILTIN_VARIANTS for c in ConformanceKit(cls).checks()]
BUILTIN_BOTS = sorted(
    (cls for cls in REGISTRY.bots.values() if cls.plugin in DEFAULT_PLUGINS),
    key=lambda cls: cls.name,
)
#: Search bots are checked with a tiny budget: the contract, not the strength, is under test.
SMALL_BUDGET = {"samples": "2", "nodes": "200", "depth": "2"}
BOT_CHECKS: list[Check] = [
    c
    for cls in BUILTIN_BOTS
    for c in BotKit(
        cls,
        params={k: v for k, v in SMALL_BUDGET.items() if k in cls.parameters},
        deals=2,
    ).checks()
]


def test_every_builtin_variant_is_covered() -> None:
    assert {cls.name for cls in BUILTIN_VARIANTS} >= {
        "sixtysix",
        "schnapsen",
        "sixtysix-3",
        "sixtysix-4",
    }
    assert "random" in {cls.name for cls in BUILTIN_BOTS}


@pytest.mark.parametrize("check", CHECKS, ids=str)
def test_builtin_variant_conformance(check: Check) -> None:
    check()


@pytest.mark.parametrize("check", BOT_CHECKS, ids=str)
def test_builtin_bot_conformance(check: Check) -> None:
    check()
