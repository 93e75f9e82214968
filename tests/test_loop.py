"""The one game loop (core.match): its hooks, the direct pick and the turn's guard."""

from __future__ import annotations

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.bots.seating import bot_seats
from sixtysix.core.faults import FaultKind
from sixtysix.core.match import Seats, play_deal, take_turn
from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.variants.sixtysix import SixtySix


def _deal(seed: int = 3) -> DealState:
    v = SixtySix()
    return v.new_deal(v.deal(Seed(seed), ("deal",), 0))


def _randoms(seed: int = 9) -> list[RandomBot]:
    return [RandomBot(s, Seed(seed).child(("bot", s))) for s in range(2)]


def test_the_direct_pick_plays_the_same_deal_as_asking_with_views() -> None:
    by_view, by_pick = _deal(), _deal()
    play_deal(by_view, [b.choose for b in _randoms()], [])
    seats = bot_seats(_randoms())
    assert all(p is not None for p in seats.picks)
    play_deal(by_pick, seats, [])
    assert by_pick.history == by_view.history
    assert by_pick.outcome == by_view.outcome


def test_hooks_see_every_asked_decision_and_the_end() -> None:
    state = _deal()
    bots = _randoms()
    timed: list[int] = []
    ended: list[DealState] = []
    seats = Seats([b.choose for b in bots], over=ended.append)
    play_deal(
        state,
        seats,
        [],
        timing=lambda seat, seconds: timed.append(seat) if seconds >= 0 else None,
    )
    assert [seat for seat, _ in state.history] == timed
    assert ended == [state]


def test_a_fault_forfeits_and_the_end_of_deal_is_still_told() -> None:
    state = _deal()
    faulter = state.to_act
    ended: list[DealState] = []

    def cheat(view: View) -> int:
        return 999

    players = [cheat, cheat]
    faults: list[tuple[int, str]] = []
    outcome = play_deal(state, Seats(players, over=ended.append), faults)
    assert faults == [(faulter, "illegal")]
    assert outcome.reason is Reason.FORFEIT and ended == [state]


def test_take_turn_applies_the_plain_action_or_returns_the_fault() -> None:
    state = _deal()
    seat = state.to_act
    first = state.legal_actions()[0]
    action, fault = take_turn(state, seat, lambda view: view.legal_actions[0])
    assert (action, fault) == (first, None) and state.history[-1] == (seat, first)
    seat = state.to_act
    action, fault = take_turn(state, seat, lambda view: -5)
    assert action == -1 and fault is not None
    assert fault.seat == seat and fault.kind is FaultKind.ILLEGAL and state.is_over
