"""Play deals and matches: the one loop that both the CLI and the simulator drive.

A *player* is any callable from a :class:`~sixtysix.core.view.View` to an action; bots are
players through their ``choose`` method. The loop hands each seat its own view and nothing else,
and takes back only a plain legal action (:func:`~sixtysix.core.answers.canonical_action`);
with a faults list, a player that answers anything else, or raises, forfeits the deal (the one
fault rule, :mod:`sixtysix.core.faults`) and the match goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sixtysix.core.answers import canonical_action
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import MatchError
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import DealRecord, Record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.turn import Fault, Turn
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

Player = Callable[[View], int]


def _answer(state: DealState, players: Sequence[Player], seat: int) -> int:
    """The plain legal action ``seat``'s player answers with its view (else its fault)."""
    return canonical_action(players[seat](state.view(seat)), seat, state.legal_actions())


def play_deal(
    state: DealState, players: Sequence[Player], faults: list[Fault] | None = None
) -> Outcome:
    """Play a deal to its end, asking each seat's player with that seat's view.

    With a ``faults`` list, a player's fault forfeits the deal and is appended there (the
    referee's way); without one, whatever a player raises propagates (a test's way).
    """
    while state.phase != Phase.OVER:
        seat = state.to_act
        if faults is None:
            state.apply_legal(_answer(state, players, seat))
            continue
        with Turn(state, seat) as turn:
            state.apply_legal(_answer(state, players, seat))
        if turn.fault is not None:
            faults.append((turn.fault.seat, str(turn.fault.kind)))
    assert state.outcome is not None
    return state.outcome


@dataclass
class MatchResult:
    record: Record
    outcomes: list[Outcome]
    totals: list[int]
    winners: list[int]
    #: The faults of the match's players, when it was played with ``faults=True``.
    faults: list[Fault] = field(default_factory=list)


def play_match(
    variant: Variant,
    players: Sequence[Player],
    seed: Seed,
    path: tuple[int | str, ...] = (),
    max_deals: int = 10_000,
    on_deal: Callable[[DealSetup, DealState], None] | None = None,
    faults: bool = False,
) -> MatchResult:
    """Play deals until the variant's match format ends the match (a seat's total at the
    target, or a fixed number of deals played); the first dealer is drawn.

    With ``faults``, a player's fault forfeits that deal only (the match goes on) and is
    listed in the result; without, whatever a player raises propagates.
    """
    n = variant.seats
    record = Record(variant.name, variant.options.diff(), seed.value)
    totals = [0] * n
    outcomes: list[Outcome] = []
    seen: list[Fault] | None = [] if faults else None
    dealer = variant.first_dealer(seed, path)
    for number in range(max_deals):
        setup = variant.deal(seed, (*path, "deal", number), dealer)
        state = variant.new_deal(setup)
        deal_record = DealRecord(setup, state.history)
        record.deals.append(deal_record)
        if on_deal is not None:
            on_deal(setup, state)
        outcome = play_deal(state, players, seen)
        outcomes.append(outcome)
        for s in range(n):
            totals[s] += outcome.game_points[s]
        winners = variant.match_winners(totals, number + 1)
        if winners:
            return MatchResult(record, outcomes, totals, winners, seen or [])
        dealer = variant.next_dealer(dealer)
    raise MatchError(f"no match winner after {max_deals} deals")
