"""Play deals and matches: the one loop that every driver runs.

A *player* is any callable from a :class:`~sixtysix.core.view.View` to an action; bots are
players through their ``choose`` method. The loop hands each seat its own view and nothing else,
and takes back only a plain legal action (:func:`~sixtysix.core.answers.canonical_action`);
with a faults list, a player that answers anything else, or raises, forfeits the deal (the one
fault rule, :mod:`sixtysix.core.faults`) and the match goes on.

Drivers differ only in what they watch, and say so through :class:`Seats` (a seat's direct
pick, the end-of-deal notice) and :func:`play_deal`'s hook for the time of each answer:
``simulate``, ``duel``, ``tournament`` and ``play_match`` all run :func:`play_deal`, and
``play``'s session takes its computer players' turns through :func:`take_turn`, the one
statement of the turn's guard and check.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sixtysix.core.answers import canonical_action
from sixtysix.core.deal import DealSetup
from sixtysix.core.faults import FaultKind, PlayerFault
from sixtysix.core.match_state import MAX_DEALS, MatchState
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import Record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.turn import Fault, Turn
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

Player = Callable[[View], int]
#: A seat's choice made straight from the engine's legal actions, with no view built: for a
#: player whose choice depends on nothing else (the random bot), the same games, faster.
Pick = Callable[[list[int]], int]
#: Called after each answer with the seat and the seconds its player took (not the engine's).
Timing = Callable[[int, float], None]


@dataclass(frozen=True, slots=True)
class Seats:
    """The players of a deal's seats as the loop asks them.

    ``picks[s]``, when given and not None, replaces asking seat ``s``'s player with a view
    (it cannot fault); ``over`` is told every ended deal (an external program's result
    notice; :func:`sixtysix.bots.seating.bot_seats` builds them for bots).
    """

    players: Sequence[Player]
    picks: Sequence[Pick | None] = ()
    over: Callable[[DealState], None] | None = None


def _answer(state: DealState, player: Player, seat: int, timing: Timing | None) -> int:
    """The plain legal action ``seat``'s player answers with its view (else its fault)."""
    view = state.view(seat)
    if timing is None:
        answer = player(view)
    else:
        start = time.perf_counter()
        answer = player(view)
        timing(seat, time.perf_counter() - start)
    return canonical_action(answer, seat, state.legal_actions())


def take_turn(
    state: DealState, seat: int, player: Player, timing: Timing | None = None
) -> tuple[int, PlayerFault | None]:
    """``seat``'s turn under the referee's eye: its player's answer, as the plain legal action
    it stands for, is applied; a fault forfeits the deal instead.

    Returns the action applied (-1 after a fault) and the fault, if any.
    """
    action = -1
    with Turn(state, seat) as turn:
        action = _answer(state, player, seat, timing)
        state.apply_legal(action)
    if turn.fault is not None:
        return -1, turn.fault
    return action, None


def play_deal(
    state: DealState,
    players: Seats | Sequence[Player],
    faults: list[Fault] | None = None,
    *,
    timing: Timing | None = None,
) -> Outcome:
    """Play a deal to its end, asking each seat's player with that seat's view.

    With a ``faults`` list, a player's fault forfeits the deal and is appended there (the
    referee's way); without one, whatever a player raises propagates (a test's way).
    ``timing``: see :data:`Timing`.
    """
    seats = players if isinstance(players, Seats) else Seats(players)
    choose = seats.players
    picks = seats.picks
    legal_actions = state.legal_actions
    while state.phase != Phase.OVER:
        seat = state.to_act
        pick = picks[seat] if picks else None
        if pick is not None:
            state.apply_legal(pick(legal_actions()))
            continue
        if faults is None:
            state.apply_legal(_answer(state, choose[seat], seat, timing))
            continue
        _, fault = take_turn(state, seat, choose[seat], timing)
        if fault is not None:
            faults.append((fault.seat, str(fault.kind)))
    if seats.over is not None:
        seats.over(state)
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
    players: Seats | Sequence[Player],
    seed: Seed,
    path: tuple[int | str, ...] = (),
    max_deals: int = MAX_DEALS,
    on_deal: Callable[[DealSetup, DealState], None] | None = None,
    faults: bool = False,
) -> MatchResult:
    """Play deals until the variant's match format ends the match (a seat's total at the
    target, or a fixed number of deals played): a loop over one :class:`MatchState`, whose
    first dealer is drawn.

    With ``faults``, a player's fault forfeits that deal only (the match goes on), is listed
    in the result and ends that deal's record as its ``forfeit``; without, whatever a player
    raises propagates.
    """
    match = MatchState(variant, seed, path, max_deals=max_deals)
    seen: list[Fault] | None = [] if faults else None
    while not match.over:
        state = match.next_deal()
        if on_deal is not None:
            on_deal(state.setup, state)
        before = len(seen) if seen is not None else 0
        play_deal(state, players, seen)
        if seen is not None and len(seen) > before:
            seat, kind = seen[-1]
            match.note_forfeit(seat, FaultKind(kind))
        match.settle()
    return MatchResult(match.record, match.outcomes, match.totals, match.winners, seen or [])
