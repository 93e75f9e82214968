"""A small referee loop for the protocol tests: deals and matches played through
:class:`SeatPlayer` objects, every public action told to every seat, as a driver does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sixtysix.core.cards import cards_of
from sixtysix.core.faults import PlayerFault, forfeit
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.protocol.referee import SeatPlayer


@dataclass
class Played:
    """One deal as played: every ``(seat, action)`` and the outcome; the fault, if any."""

    actions: list[tuple[int, int]] = field(default_factory=list)
    outcome: Outcome | None = None
    fault: PlayerFault | None = None


#: Called with the true state when a deal starts and after each action (before the seats
#: are told of it): a test's look at what was hidden when each message went out.
Observe = Callable[[DealState], None]


def play_deal(
    state: DealState, seats: Sequence[SeatPlayer], number: int, observe: Observe | None = None
) -> Played:
    played = Played()
    try:
        if observe is not None:
            observe(state)
        for player in seats:
            player.new_deal(number, state.dealer)
        while not state.is_over:
            seat = state.to_act
            action = seats[seat].choose(state.view(seat))
            state.apply(action)
            played.actions.append((seat, int(action)))
            if observe is not None:
                observe(state)
            for player in seats:
                player.event(seat, action)
    except PlayerFault as fault:
        played.fault = fault
        forfeit(state, fault.seat)
    assert state.outcome is not None
    played.outcome = state.outcome
    hands = [cards_of(m) for m in state.hands]
    for player in seats:
        try:
            player.deal_over(number, state.outcome, hands)
        except PlayerFault as fault:
            played.fault = played.fault or fault
    return played


def play_match(
    variant: Variant,
    seats: Sequence[SeatPlayer],
    seed: Seed,
    max_deals: int = 200,
    observe: Observe | None = None,
) -> list[Played]:
    """A match to its end, the deals from ``seed`` (path ``("deal", number)``)."""
    for s, player in enumerate(seats):
        player.new_match(variant, s)
    totals = [0] * variant.seats
    deals: list[Played] = []
    dealer = variant.first_dealer(seed)
    for number in range(1, max_deals + 1):
        state = variant.new_deal(variant.deal(seed, ("deal", number), dealer))
        played = play_deal(state, seats, number, observe)
        deals.append(played)
        assert played.outcome is not None
        totals = [t + g for t, g in zip(totals, played.outcome.game_points, strict=True)]
        winners = variant.match_winners(totals, number)
        if winners:
            for player in seats:
                player.match_over(totals, winners)
            return deals
        dealer = variant.next_dealer(dealer)
    raise AssertionError("no winner")
