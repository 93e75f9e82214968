"""Play deals and matches: the one loop that both the CLI and the simulator drive.

A *player* is any callable from a :class:`~sixtysix.core.view.View` to an action; bots are
players through their ``choose`` method. The loop hands each seat its own view and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import MatchError
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import DealRecord, Record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

Player = Callable[[View], int]


def play_deal(state: DealState, players: Sequence[Player]) -> Outcome:
    """Play a deal to its end, asking each seat's player with that seat's view."""
    while state.phase != Phase.OVER:
        seat = state.to_act
        state.apply(players[seat](state.view(seat)))
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
) -> MatchResult:
    """Play deals until the variant's match format ends the match (a seat's total at the
    target, or a fixed number of deals played); the first dealer is drawn."""
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
        outcome = play_deal(state, players)
        outcomes.append(outcome)
        for s in range(n):
            totals[s] += outcome.game_points[s]
        winners = variant.match_winners(totals, number + 1)
        if winners:
            return MatchResult(record, outcomes, totals, winners)
        dealer = variant.next_dealer(dealer)
    raise MatchError(f"no match winner after {max_deals} deals")
