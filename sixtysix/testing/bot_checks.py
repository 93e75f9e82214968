"""The checks every bot plugin must pass: legal choices from views alone, reproducibly.

A bot plugin runs in the referee's process, so nothing stops it from reading what its view
hides (the caller's frame, the garbage collector, a module global its copies at other seats
fill in). What the kit can do is catch it: :func:`check_bot_view_only` deals the cards a seat
cannot see differently and asks the bot again with the identical view and seed; an honest bot
answers the same, a bot that looks elsewhere soon does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum

from sixtysix.bots.base import Bot
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.answers import canonical_action
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.faults import PlayerFault
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.testing.play import MAX_STEPS, consistent_redeal, fail, play_random, random_deal


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


def snapshot(obj: object) -> object:
    """A value copy of ``obj`` and of everything it holds, types included.

    A frozen dataclass can still be changed through ``object.__setattr__`` (and an interned
    card's class reassigned), so what a bot was given is compared by value before and after
    it chooses, never trusted to be immutable.
    """
    kind = type(obj)
    if isinstance(obj, Enum):
        return (kind, obj.name, obj.value)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (kind, tuple(snapshot(getattr(obj, f.name)) for f in dataclasses.fields(obj)))
    if isinstance(obj, tuple):
        return (kind, tuple(map(snapshot, obj)))
    if isinstance(obj, frozenset):
        return (kind, frozenset(map(snapshot, obj)))
    if isinstance(obj, int):
        return (kind, int.__int__(obj))
    if isinstance(obj, str):
        return (kind, str.__str__(obj))
    return (kind, obj)


def _where(cls: type[Bot], variant: Variant, number: int, seat: int) -> str:
    return f"bot {cls.name} in {variant.name}, deal {number + 1}, seat {seat}"


def _canonical(answer: object, state: DealState, where: str) -> int:
    """The answer as the drivers take it (:func:`canonical_action`), or a failure saying why."""
    seat = state.to_act
    try:
        return canonical_action(answer, seat, state.legal_actions())
    except PlayerFault as fault:
        legal = [ACTION_NAMES[a] for a in state.legal_actions()]
        raise fail(
            f"{where}: {fault.detail} (legal: {legal}); the drivers count that as a fault and"
            " the seat forfeits the deal"
        ) from None


def _play(
    variant: Variant, cls: type[Bot], seed: Seed, number: int, params: Mapping[str, str]
) -> list[tuple[int, int]]:
    """One deal with the bot in every seat (each with a seed of its own); every answer must
    be a legal action in its plain form, and leave the view the bot was given as it was."""
    state = random_deal(variant, seed, number)
    bots = [cls(s, seed.child(("bot", number, s)), params) for s in range(variant.seats)]
    steps = 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        before = snapshot(view)
        answer = bots[seat].choose(view)
        where = _where(cls, variant, number, seat)
        if snapshot(view) != before:
            raise fail(
                f"{where}: changed the view it was given (object.__setattr__ on it, its rules"
                " or what it holds); a bot must leave what it is given as it is"
            )
        state.apply_legal(_canonical(answer, state, where))
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
    """The bot finishes deals of ``variant`` in every seat with legal actions only, each in its
    plain form (an ``int`` or ``Action`` exactly), and leaves every view it is given unchanged."""
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


def _decide(
    variant: Variant,
    cls: type[Bot],
    params: Mapping[str, str],
    seeds: list[Seed],
    setup: DealSetup,
    history: list[tuple[int, int]],
    seat: int,
    number: int,
) -> tuple[int, list[View]]:
    """Fresh bots (seeded by ``seeds``) in every seat, asked at every step of ``history`` as a
    driver asks them (``choose(state.view(seat))`` in a loop over the true state) while the
    recorded actions are played; then asked once more: ``seat``'s last answer, and every view
    ``seat`` was given."""
    bots = [cls(s, seeds[s], params) for s in range(variant.seats)]
    state = variant.new_deal(setup)
    views: list[View] = []
    answer = -1
    for step in range(len(history) + 1):
        to_act = state.to_act
        view = state.view(to_act)
        answer = _canonical(bots[to_act].choose(view), state, _where(cls, variant, number, to_act))
        if to_act == seat:
            views.append(view)
        if step < len(history):
            state.apply_legal(history[step][1])
    return answer, views


def check_bot_view_only(
    cls: type[Bot],
    variant: Variant,
    seed: Seed,
    deals: int = 4,
    params: Mapping[str, str] | None = None,
) -> None:
    """The bot decides from its view and seed alone: at ``4 * deals`` positions with a choice,
    dealing the cards the seat to act cannot see differently (consistently with everything play
    revealed) and asking fresh bots with the same seeds never changes its answer."""
    params = params or {}
    positions = 4 * deals
    stream = seed.stream(("view-only",))
    compared = 0
    changed: list[str] = []
    for number in range(8 * positions):
        if compared >= positions:
            break
        state = random_deal(variant, seed, number)
        play_random(state, stream, stop=stream.below(2 * state.rules.hand_size * state.n))
        if state.is_over or len(state.legal_actions()) < 2:
            continue
        seat = state.to_act
        other = consistent_redeal(variant, state, seat, seed.child(("view-only", number)))
        setup, history = state.setup, list(state.history)
        del state  # only the deal being asked about is alive while the bots are asked
        if other is None:
            continue
        seeds = [seed.child(("view-only", number, "bot", s)) for s in range(variant.seats)]
        first, seen = _decide(variant, cls, params, seeds, setup, history, seat, number)
        second, seen_again = _decide(variant, cls, params, seeds, other, history, seat, number)
        if seen != seen_again:
            continue  # not the same information after all: no comparison
        compared += 1
        if first != second:
            changed.append(
                f"deal {number + 1}, step {len(history) + 1}, seat {seat}:"
                f" {ACTION_NAMES[first]}, then {ACTION_NAMES[second]}"
            )
    if changed:
        raise fail(
            f"bot {cls.name} in {variant.name}: {len(changed)} of {compared} choices changed when"
            f" only cards its seat cannot see were dealt differently (first: {changed[0]});"
            " a bot must decide from its view and seed alone, not from the caller's frame, the"
            " garbage collector or what its copies at other seats share"
        )
    if compared == 0:
        raise fail(f"bot {cls.name} in {variant.name}: no position could be compared")
