"""The fault rule: a faulting seat forfeits the deal, its opponents score the top of the scale."""

from __future__ import annotations

import pytest

from sixtysix.core.faults import FORFEIT_POINTS, FaultKind, PlayerFault, forfeit
from sixtysix.core.outcome import Reason
from sixtysix.core.phase import Phase
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from tests.helpers import act, deal_any, legal


def variant(name: str) -> Variant:
    return get_registry().variant(name)()


def test_a_two_player_fault_gives_the_opponent_three() -> None:
    state = deal_any(variant("66"))
    faulter = state.to_act
    outcome = forfeit(state, faulter)
    assert outcome.reason is Reason.FORFEIT
    assert outcome.game_points[faulter] == 0
    assert outcome.game_points[1 - faulter] == FORFEIT_POINTS
    assert state.phase == Phase.OVER and state.to_act == -1 and state.legal_actions() == []
    assert state.outcome is outcome


def test_a_fault_before_the_sides_are_formed_gives_every_other_seat_three() -> None:
    state = deal_any(variant("66-3"))
    assert state.phase == Phase.TRUMP_CALL
    outcome = forfeit(state, state.to_act)
    assert sorted(outcome.game_points) == [0, FORFEIT_POINTS, FORFEIT_POINTS]


def test_a_partner_fault_scores_by_the_true_sides() -> None:
    state = deal_any(variant("66-4"))
    caller = state.to_act
    act(state, "trump H")
    act(state, legal(state)[0])
    assert state.phase == Phase.PLAY
    partner_side = state.sides[caller]
    other = next(s for s in range(4) if state.sides[s] != partner_side)
    outcome = forfeit(state, other)
    for s in range(4):
        expected = 0 if state.sides[s] != partner_side else FORFEIT_POINTS
        assert outcome.game_points[s] == expected


def test_an_ended_deal_cannot_be_forfeited() -> None:
    state = deal_any(variant("66"))
    forfeit(state, 0)
    with pytest.raises(ValueError):
        forfeit(state, 1)


def test_the_fault_names_its_seat_and_kind() -> None:
    fault = PlayerFault(2, FaultKind.TIMEOUT, "no answer in 5 s")
    assert str(fault) == "seat 2 faulted (timeout): no answer in 5 s"
    assert fault.seat == 2 and fault.kind is FaultKind.TIMEOUT
