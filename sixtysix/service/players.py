"""Who sits at the table besides the person: bots by name, by spec or by difficulty level.

Bots and levels come from the plugin registry at run time, so ``expert`` and the levels work
as soon as their plugins are installed and nothing here names a particular bot class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sixtysix.bots.base import Bot, parse_bot_spec
from sixtysix.bots.external import exec_bot_class, is_exec_spec
from sixtysix.bots.levels import LEVEL_PREFIX, LEVELS, resolve_player
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import Registry
from sixtysix.service.terms import typed_bot_name

if TYPE_CHECKING:
    from sixtysix.bots.external import Deadlines
    from sixtysix.core.variant import Variant

#: Strongest first: the default opponent is the first of these that is installed.
STRENGTH_ORDER = ("expert", "pimc", "hard", "heuristic", "medium", "easy", "random")


@dataclass(frozen=True, slots=True)
class Opponent:
    spec: str
    cls: type[Bot]
    params: Mapping[str, str]


def default_opponent(registry: Registry) -> str:
    """``expert`` when registered, else the strongest registered bot."""
    for name in STRENGTH_ORDER:
        if name in registry.bots:
            return name
    if not registry.bots:
        raise UnknownBotError("no computer players are installed")
    return sorted(registry.bots)[0]


def resolve(spec: str, registry: Registry, seats: int) -> Opponent:
    """A bot spec (``expert:samples=64``) or a level (``hard``, ``@hard``, ``@hard:seed=3``)
    for a table of ``seats``, checked against the registry; a bot's own name wins over a level
    of the same name, and a name typed in another language of the interface is accepted
    (:func:`own_name`), whoever sent the spec (``play --vs``, a table's seats from any
    client)."""
    text = own_name(spec.strip().lower(), registry)
    name, _ = parse_bot_spec(text.removeprefix(LEVEL_PREFIX))
    bare_level = not text.startswith(LEVEL_PREFIX) and name not in registry.bots
    wanted = LEVEL_PREFIX + text if bare_level and name in LEVELS else text
    _, cls, params = resolve_player(wanted, registry, seats=seats)
    return Opponent(text, cls, params)


def opponents_for(vs: str | None, seats: int, me: int, registry: Registry) -> list[str]:
    """One spec per seat (``""`` for the person's). ``--vs`` names one bot or level for every
    other seat, or one per other seat in seat order, separated by commas; a spec's own
    ``key=value`` parameters stay with it (``expert:samples=8,seed=2,random``)."""
    text = (vs or default_opponent(registry)).strip()
    others = seats - 1
    specs = [s.strip() for s in text.split(";")] if ";" in text else _split(text)
    specs = [own_name(s, registry) for s in specs]
    if len(specs) == 1:
        specs = specs * others
    if len(specs) != others:
        raise UnknownBotError(
            f"--vs names {len(specs)} players, but there are {others} other seats"
        )
    out: list[str] = []
    it = iter(specs)
    for seat in range(seats):
        out.append("" if seat == me else next(it))
    return out


def own_name(spec: str, registry: Registry) -> str:
    """``spec`` with a bot or level name typed in another language of the interface put as
    the registry knows it (``@uzman:seed=3`` -> ``@expert:seed=3``); a registered bot's own
    name is kept, whatever it means in another language."""
    at = spec.startswith("@")
    name, sep, params = spec.removeprefix("@").partition(":")
    if name.strip().lower() in registry.bots:
        return spec
    return ("@" if at else "") + typed_bot_name(name) + sep + params


def _split(text: str) -> list[str]:
    """``expert,random`` -> two specs; ``expert:samples=8,seed=2`` stays one."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    specs: list[str] = []
    for p in parts:
        if specs and "=" in p and ":" in specs[-1]:
            specs[-1] += "," + p
        else:
            specs.append(p)
    return specs


def build_bots(
    specs: list[str],
    registry: Registry,
    seed: Seed,
    variant: Variant | None = None,
    deadlines: Deadlines | None = None,
) -> list[Bot | None]:
    """The bot of each seat (None for the person), each with its own seed branch; with the
    ``variant``, an ``exec:`` spec is an external program (checked by the caller)."""
    bots: list[Bot | None] = []
    for seat, spec in enumerate(specs):
        if not spec:
            bots.append(None)
            continue
        if variant is not None and is_exec_spec(spec):
            bots.append(exec_bot_class(spec, variant, deadlines)(seat, seed, {}))
            continue
        opp = resolve(spec, registry, len(specs))
        bots.append(opp.cls(seat, seed.child(("bot", seat)), opp.params))
    return bots
