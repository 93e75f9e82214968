"""Seeded random play and the bookkeeping the conformance checks share.

Every choice comes from a :class:`~sixtysix.core.rng.Stream`, so a failing check names a seed
and a deal number and the same positions come back when it is run again.
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.core.cards import iter_mask, mask_of
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant

#: No deal of the family lasts this long; a longer one means the engine is looping.
MAX_STEPS = 400


class ConformanceError(AssertionError):
    """A variant or bot broke the contract every plugin must keep; the message says where."""


def fail(message: str) -> ConformanceError:
    return ConformanceError(message)


def describe(variant: Variant) -> str:
    """A variant as a failing check names it: its name and the options that differ."""
    diff = variant.options.diff()
    shown = ", ".join(f"{k}={v}" for k, v in diff.items()) or "defaults"
    return f"{variant.name} ({shown})"


def random_deal(variant: Variant, seed: Seed, number: int) -> DealState:
    """Deal ``number`` of a check: the dealer and the cards drawn from ``seed``."""
    dealer = seed.words(("dealer", number), 1)[0] % variant.seats
    return variant.new_deal(variant.deal(seed, ("deal", number), dealer))


def choose(stream: Stream, legal: Sequence[int]) -> int:
    return legal[stream.below(len(legal))]


def play_random(state: DealState, stream: Stream, stop: int | None = None) -> None:
    """Random legal actions until the deal ends (or ``stop`` actions have been taken)."""
    steps = 0
    while not state.is_over and (stop is None or len(state.history) < stop):
        state.apply(choose(stream, state.legal_actions()))
        steps += 1
        if steps > MAX_STEPS:
            raise fail(f"the deal did not end after {MAX_STEPS} actions")


def located(state: DealState) -> int:
    """Every card the state accounts for, as a mask; a card in two places is a failure."""
    places = [*state.hands, *state.won, mask_of(state.talon), mask_of(c for _, c in state.trick)]
    if state.turnup >= 0:
        places.append(1 << state.turnup)
    total = 0
    for m in places:
        if total & m:
            raise fail("a card is in two places at once")
        total |= m
    return total


def hidden_from(state: DealState, seat: int) -> int:
    """Cards whose place ``seat`` may not know: others' unknown cards and the face-down talon."""
    hidden = mask_of(state.talon)
    for s in range(state.n):
        if s != seat:
            hidden |= state.hands[s] & ~state.known[s]
    if state.phase == Phase.TRUMP_CALL:
        hidden |= mask_of(state.setup.hands[seat][state.rules.call_after :])
    return hidden


def redeal_unseen(state: DealState, seat: int, seed: Seed, k: int) -> DealSetup | None:
    """Permutation ``k`` of the cards ``seat`` cannot see among the places it cannot see
    (None when there is nothing to permute); it may break what play revealed (a void)."""
    hidden = list(iter_mask(hidden_from(state, seat)))
    if len(hidden) < 2:
        return None
    shuffled = seed.shuffled(hidden, ("redeal", k))
    return state.setup.relabel(dict(zip(hidden, shuffled, strict=True)))


def replayed(variant: Variant, state: DealState, setup: DealSetup) -> DealState | None:
    """``state``'s actions replayed on the deal ``setup``, or None where that contradicts
    what play showed: an action no longer legal (a void revealed), or the deal over where
    ``state``'s is not, or the other way round (a side at 66 with a hidden partner)."""
    alt = state.redealt(setup)
    try:
        for _, action in state.history:
            alt.apply(action)
    except IllegalActionError:
        return None
    return alt if alt.is_over == state.is_over else None


def consistent_redeal(
    variant: Variant, state: DealState, seat: int, seed: Seed, tries: int = 12
) -> DealSetup | None:
    """The deal of ``state`` with the cards ``seat`` cannot see dealt differently, such that
    play so far is consistent with it (:func:`replayed`; the first of ``tries`` permutations
    that is), or None.
    """
    for k in range(tries):
        other = redeal_unseen(state, seat, seed, k)
        if other is None:
            return None
        if replayed(variant, state, other) is not None:
            return other
    return None
