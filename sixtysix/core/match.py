"""Play deals and matches: the one loop that both the CLI and the simulator drive.

A *player* is any callable from a :class:`~sixtysix.core.view.View` to an action; bots are
players through their ``choose`` method. The loop hands each seat its own view and nothing else,
and takes back only a plain legal action (:func:`~sixtysix.core.answers.canonical_action`): a
player that answers anything else, or raises :class:`~sixtysix.core.faults.PlayerFault`,
forfeits the deal and the match goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sixtysix.core.answers import canonical_action
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import MatchError
from sixtysix.core.faults import PlayerFault, forfeit
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import DealRecord, Record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

Player = Callable[[View], int]


def play_deal(
    state: DealState,
    players: Sequence[Player],
    on_fault: Callable[[PlayerFault], None] | None = None,
) -> Outcome:
    """Play a deal to its end, asking each seat's player with that seat's view.

    A fault ends the deal by :func:`~sixtysix.core.faults.forfeit` of the seat that was asked
    (whatever seat the fault names: a player cannot make another seat forfeit); ``on_fault``
    is told of it.
    """
    while state.phase != Phase.OVER:
        seat = state.to_act
        try:
            action = canonical_action(players[seat](state.view(seat)), seat, state.legal_actions())
        except PlayerFault as fault:
            if fault.seat != seat:
                fault = PlayerFault(seat, fault.kind, fault.detail)
            forfeit(state, seat)
            if on_fault is not None:
                on_fault(fault)
            break
        state.apply_legal(action)
    assert state.outcome is not None
    return state.outcome


@dataclass
class MatchResult:
    record: Record
    outcomes: list[Outcome]
    totals: list[int]
    winners: list[int]


def play_match(
    variant: Variant,
    players: Sequence[Player],
    seed: Seed,
    path: tuple[int | str, ...] = (),
    max_deals: int = 10_000,
    on_deal: Callable[[DealSetup, DealState], None] | None = None,
    on_fault: Callable[[PlayerFault], None] | None = None,
) -> MatchResult:
    """Play deals until the variant's match format ends the match (a seat's total at the
    target, or a fixed number of deals played); the first dealer is drawn. A faulting player
    forfeits its deal (``on_fault``: as for :func:`play_deal`)."""
    n = variant.seats
    record = Record(variant.name, variant.options.diff(), seed.value)
    totals = [0] * n
    outcomes: list[Outcome] = []
    dealer = variant.first_dealer(seed, path)
    for number in range(max_deals):
        setup = variant.deal(seed, (*path, "deal", number), dealer)
        state = variant.new_deal(setup)
        deal_record = DealRecord(setup, state.history)
        record.deals.append(deal_record)
        if on_deal is not None:
            on_deal(setup, state)
        outcome = play_deal(state, players, on_fault)
        outcomes.append(outcome)
        for s in range(n):
            totals[s] += outcome.game_points[s]
        winners = variant.match_winners(totals, number + 1)
        if winners:
            return MatchResult(record, outcomes, totals, winners)
        dealer = variant.next_dealer(dealer)
    raise MatchError(f"no match winner after {max_deals} deals")
