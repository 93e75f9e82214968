"""The variants and random positions the encoding tests run over."""

from __future__ import annotations

import random

from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry, build_registry

REGISTRY: Registry = build_registry()

#: The built-in variants, and option sets that turn on or off what the encodings read.
CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("sixtysix", {}),
    ("sixtysix", {"claim": "manual", "failed_close": "2or3", "tie": "draw"}),
    ("sixtysix", {"talonless": True}),
    ("sixtysix", {"exchange_needs_trick": False, "marriage_after_close": False}),
    ("sixtysix", {"exchange_anytime": True, "exchange_needs_trick": False}),
    ("sixtysix", {"close_needs_trick": True, "marriages": False, "exchange": False}),
    ("schnapsen", {}),
    ("schnapsen", {"claim": "manual", "closing": False}),
    ("sixtysix-3", {}),
    ("sixtysix-3", {"must_overtrump": True, "no66": "last_trick_wins"}),
    ("sixtysix-4", {}),
    ("sixtysix-4", {"trump_from_below": True, "solo_loss": "double", "must_overtrump": True}),
]


def make(name: str, options: dict[str, object] | None = None) -> Variant:
    cls = REGISTRY.variant(name)
    return cls(cls.options_class.build(options or {}))


def new_deal(variant: Variant, rnd: random.Random) -> DealState:
    seed = Seed(rnd.getrandbits(64))
    return variant.new_deal(variant.deal(seed, ("envs",), rnd.randrange(variant.seats)))


def played_to(variant: Variant, rnd: random.Random, stop: int) -> DealState:
    """A random deal after ``stop`` random legal actions (or at its end, if sooner)."""
    state = new_deal(variant, rnd)
    while not state.is_over and len(state.history) < stop:
        state.apply(rnd.choice(state.legal_actions()))
    return state
