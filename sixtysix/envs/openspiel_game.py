"""Every installed variant as an OpenSpiel game (``pyspiel``), loadable by a short name.

One OpenSpiel episode is one deal. Chance deals the cards one at a time (each outcome a card id
among those not yet dealt, all equally likely): the order they come in is the shuffled deck of
:func:`sixtysix.core.deal.deal_from_order`, so every deal the engine can deal is reached with its
true probability. The dealer is a game parameter: a fixed seat (``dealer=0`` by default) or
``dealer=-1``, a first chance node that names it. Then the seats act with the engine's action
codes (the ids of :mod:`sixtysix.envs.actions`, 42 of them) until the deal is over; the returns are
:func:`deal_returns` of its game points.

This module imports no ``pyspiel``: the OpenSpiel classes are in
:mod:`sixtysix.envs.openspiel_state`, imported when a game is first asked for, so that importing
:mod:`sixtysix.envs` works without the ``openspiel`` extra.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import TYPE_CHECKING, Any

from sixtysix.envs.extras import require
from sixtysix.envs.openspiel_deal import (
    DEALER_PARAMETER,
    RANDOM_DEALER,
    check_dealer,
    deal_order,
    deal_returns,
)
from sixtysix.plugins.manager import get_registry, variant_from

if TYPE_CHECKING:
    from sixtysix.core.variant import Variant

__all__ = [
    "DEALER_PARAMETER",
    "GAME_PREFIX",
    "RANDOM_DEALER",
    "check_dealer",
    "deal_order",
    "deal_returns",
    "game_name",
    "openspiel_game",
    "register_openspiel_games",
]

#: Every short name starts with this: ``sixtysix_66``, ``sixtysix_schnapsen``...
GAME_PREFIX = "sixtysix_"


def _pyspiel() -> ModuleType:
    """``pyspiel``, or one clear line saying which extra to install."""
    return require("pyspiel", "openspiel", "the OpenSpiel game")


def _state_module() -> ModuleType:
    _pyspiel()
    from sixtysix.envs import openspiel_state  # the openspiel extra

    return openspiel_state


def game_name(variant: type[Variant]) -> str:
    """The OpenSpiel short name of a variant: the prefix and its first alias (else its name),
    anything but letters and digits made ``_``: ``sixtysix_66``, ``sixtysix_66_3``."""
    label = variant.aliases[0] if variant.aliases else variant.name
    return GAME_PREFIX + re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


_registered: dict[str, str] = {}  # variant name -> short name registered in this process


def _short_names() -> dict[str, str]:
    """Variant name -> short name for every installed variant, clashes resolved by name."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for cls in get_registry().variants.values():
        name = game_name(cls)
        if name in used:
            name = GAME_PREFIX + re.sub(r"[^a-z0-9]+", "_", cls.name.lower()).strip("_")
        used.add(name)
        out[cls.name] = name
    return out


def _register(cls: type[Variant]) -> str:
    name = _registered.get(cls.name)
    if name is None:
        name = _short_names()[cls.name]
        _state_module().register_variant(cls, name)
        _registered[cls.name] = name
    return name


def register_openspiel_games() -> list[str]:
    """Register every installed variant with OpenSpiel (once per process); their short names.

    After it, ``pyspiel.load_game("sixtysix_66")`` (or with parameters,
    ``pyspiel.load_game("sixtysix_66", {"target": 11, "dealer": -1})``) loads a game.
    """
    return [_register(cls) for cls in get_registry().variants.values()]


def openspiel_game(
    variant: str, *, preset: str | None = None, dealer: int = 0, **options: object
) -> Any:
    """The OpenSpiel game (a ``pyspiel.Game``) of a variant by name or alias, with a preset
    and options applied as ``Variant.configure`` does; ``dealer`` is a seat or -1 (dealt by
    chance). Its game parameters are all the variant's option values and the dealer."""
    spiel = _pyspiel()
    configured = variant_from(get_registry(), variant, options, preset)
    cls = type(configured)
    check_dealer(dealer, cls.seats)
    name = _register(cls)
    params: dict[str, object] = {**configured.options.as_dict(), DEALER_PARAMETER: dealer}
    return spiel.load_game(name, params)
