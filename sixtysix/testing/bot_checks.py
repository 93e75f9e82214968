"""The checks every bot plugin must pass: legal choices from views alone, reproducibly."""

from __future__ import annotations

from collections.abc import Mapping

from sixtysix.bots.base import Bot
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.testing.play import MAX_STEPS, fail, random_deal


def check_bot_metadata(cls: type[Bot]) -> None:
    """A lower-case name, a description, documented parameters, unknown ones refused."""
    name = getattr(cls, "name", "")
    if not isinstance(name, str) or not name or name != name.strip().lower() or " " in name:
        raise fail(f"{cls.__name__}.name must be a lower-case word, not {name!r}")
    if not cls.description.strip():
        raise fail(f"bot {name}: a one-line description is needed (sixtysix bots shows it)")
    for param, doc in cls.parameters.items():
        if param != param.lower() or not doc.strip():
            raise fail(f"bot {name}: parameter {param!r} needs a lower-case name and a doc")
    try:
        cls(0, Seed(0), {"no_such_parameter": "1"})
    except UnknownBotError as exc:
        if "no_such_parameter" not in str(exc):
            raise fail(f"bot {name}: the unknown-parameter error must name it: {exc}") from None
    else:
        raise fail(f"bot {name}: an unknown parameter was accepted")


def _play(
    variant: Variant, cls: type[Bot], seed: Seed, number: int, params: Mapping[str, str]
) -> list[tuple[int, int]]:
    """One deal with the bot in every seat; every choice must be one of the view's actions."""
    state = random_deal(variant, seed, number)
    bots = [cls(s, seed.child(("bot", number)), params) for s in range(variant.seats)]
    steps = 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = bots[seat].choose(view)
        if not isinstance(view, View) or action not in view.legal_actions:
            shown = ACTION_NAMES[action] if isinstance(action, int) and 0 <= action < 42 else action
            raise fail(
                f"bot {cls.name} in {variant.name}, deal {number + 1}, seat {seat}: chose"
                f" {shown!r}, not one of {[str(a) for a in view.legal_actions]}"
            )
        state.apply(action)
        steps += 1
        if steps > MAX_STEPS:
            raise fail(f"bot {cls.name} in {variant.name}: the deal did not end")
    return state.history


def check_bot_plays(
    cls: type[Bot],
    variant: Variant,
    seed: Seed,
    deals: int = 6,
    params: Mapping[str, str] | None = None,
) -> None:
    """The bot finishes deals of ``variant`` in every seat with legal actions only."""
    for number in range(deals):
        _play(variant, cls, seed, number, params or {})


def check_bot_reproducible(
    cls: type[Bot],
    variant: Variant,
    seed: Seed,
    deals: int = 3,
    params: Mapping[str, str] | None = None,
) -> None:
    """The same seed gives the same choices: a bot never uses an unseeded generator."""
    for number in range(deals):
        first = _play(variant, cls, seed, number, params or {})
        second = _play(variant, cls, seed, number, params or {})
        if first != second:
            raise fail(
                f"bot {cls.name} in {variant.name}, deal {number + 1}: the same seed gave"
                " different choices (draw randomness from self.seed, e.g. self.seed.stream(...))"
            )
