"""Each rule where Santase differs from sixtysix's two-player 66, on hand-built positions."""

from __future__ import annotations

import pytest
from santase_helpers import act, cards, fresh, legal, position
from sixtysix.core.deal import deal_from_order
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.outcome import Reason
from sixtysix.variants.sixtysix import SixtySix

from sixtysix_santase import Santase, SantaseDeal


def santase(**options: object) -> Santase:
    return Santase(Santase.options_class.build(options))


def test_defaults_differ_from_66_where_santase_does() -> None:
    s, sixty = Santase(), SixtySix()
    assert s.target == 11 and sixty.target == 7
    diff = {k: v for k, v in s.options.as_dict().items() if sixty.options.as_dict().get(k) != v}
    assert diff == {
        "claim": "manual",
        "target": 11,
        "failed_close": "2or3",
        "tie": "draw",
        "close_needs_trick": True,
        "marriage_needs_trick": True,
        "close_min_talon": 4,
    }


def test_deal_is_three_turn_up_three() -> None:
    # Cards dealt in deck order 0, 1, 2, ...: forehand 3, dealer 3, turn-up, forehand 3, dealer 3.
    setup = deal_from_order(Santase().rules, list(range(24)), dealer=1)
    assert setup.hands[0] == (0, 1, 2, 7, 8, 9)
    assert setup.hands[1] == (3, 4, 5, 10, 11, 12)
    assert setup.trump_card == 6 and setup.talon == tuple(range(13, 24))
    # Two-player 66 turns the 13th card up after both rounds.
    assert deal_from_order(SixtySix().rules, list(range(24)), dealer=1).trump_card == 12


def test_no_marriage_and_no_going_out_on_the_first_lead() -> None:
    state = fresh(Santase(), ["KH QH AS TS 9C JC", "AH TH KS QS 9D JD"], "9H")
    assert isinstance(state, SantaseDeal)
    assert legal(state) == ["play 9C", "play AS", "play JC", "play KH", "play QH", "play TS"]
    with pytest.raises(IllegalActionError, match="a marriage needs a trick won first"):
        act(state, "marry H")
    with pytest.raises(IllegalActionError, match="going out needs a trick won first"):
        act(state, "claim")
    assert "marry H" in legal(fresh(SixtySix(), ["KH QH AS TS 9C JC", "AH TH KS QS 9D JD"], "9H"))


def test_marriage_after_winning_a_trick_counts_at_once() -> None:
    state = fresh(Santase(), ["KH QH AS TS 9C JC", "AH TH KS QS 9D JD"], "JS")
    act(state, "AS", "9D")  # seat 0 wins the first trick and leads again
    assert state.to_act == 0 and "marry H" in legal(state)
    act(state, "marry H")
    assert state.valid_points(0) == 11 + 20


def test_closing_needs_a_trick_and_more_than_two_talon_cards() -> None:
    first = fresh(Santase(), ["KH QH AS TS 9C JC", "AH TH KS QS 9D JD"], "9H")
    assert "close" not in legal(first)  # no closing before a card is played
    with pytest.raises(IllegalActionError, match="must have won a trick first"):
        act(first, "close")
    four = position(
        Santase(),
        ["AS TS KS QS JS 9S", "AD TD KD QD JD 9D"],
        trump="H",
        turnup="9H",
        talon="AC TC JC",
        tricks=(2, 1),
    )
    assert four.talon_size == 4 and "close" in legal(four)
    two = position(
        Santase(),
        ["AS TS KS QS JS 9S", "AD TD KD QD JD 9D"],
        trump="H",
        turnup="9H",
        talon="AC",
        tricks=(3, 2),
    )
    assert two.talon_size == 2 and "close" not in legal(two)
    with pytest.raises(IllegalActionError, match=r"at least 4 cards \(it holds 2\)"):
        act(two, "close")
    relaxed = position(
        santase(close_min_talon=1),
        ["AS TS KS QS JS 9S", "AD TD KD QD JD 9D"],
        trump="H",
        turnup="9H",
        talon="AC",
        tricks=(3, 2),
    )
    assert "close" in legal(relaxed)


def test_exchange_is_as_in_66() -> None:
    state = position(
        Santase(),
        ["9H TS KS QS JS 9S", "AD TD KD QD JD 9D"],
        trump="H",
        turnup="AH",
        talon="AC TC JC",
        tricks=(1, 0),
    )
    act(state, "exchange")
    assert state.turnup == cards("9H")[0] and state.hands[0] >> cards("AH")[0] & 1


def test_true_claim_after_a_trick_wins_on_the_scale() -> None:
    state = position(
        Santase(),
        ["AS TS", "AD TD"],
        trump="H",
        turnup=None,
        to_act=0,
        tricks=(5, 5),
        card_points=(70, 40),
    )
    act(state, "claim")
    assert state.outcome is not None and state.outcome.reason == Reason.REACHED_66
    assert state.outcome.game_points == (1, 0)


def test_false_claim_gives_the_opponent_two() -> None:
    state = position(
        Santase(), ["AS TS", "AD TD"], trump="H", turnup=None, tricks=(5, 5), card_points=(60, 50)
    )
    act(state, "claim")
    assert state.outcome is not None and state.outcome.reason == Reason.FALSE_CLAIM
    assert state.outcome.game_points == (0, 2)


def test_cards_out_without_going_out_the_higher_total_wins_on_the_scale() -> None:
    # Seat 0 has 100 and takes the last trick (+10 bonus); seat 1 stays at 20: 2 game points.
    state = position(
        Santase(),
        ["AS", "9S"],
        trump="H",
        turnup=None,
        tricks=(10, 1),
        card_points=(89, 20),
    )
    act(state, "AS", "9S")
    out = state.outcome
    assert out is not None and out.reason == Reason.PLAYED_OUT
    assert out.points == (89 + 11 + 10, 20) and out.game_points == (2, 0)


def test_cards_out_with_equal_totals_is_a_draw() -> None:
    state = position(
        Santase(), ["9S", "JS"], trump="H", turnup=None, tricks=(5, 6), card_points=(53, 65)
    )
    act(state, "9S", "JS")  # seat 1 takes the last trick: 2 points and the 10 bonus
    out = state.outcome
    assert out is not None
    assert out.points == (53, 77) and out.reason == Reason.PLAYED_OUT
    tied = position(
        Santase(), ["9S", "JS"], trump="H", turnup=None, tricks=(5, 6), card_points=(65, 53)
    )
    act(tied, "9S", "JS")
    assert tied.outcome is not None
    assert tied.outcome.points == (65, 65) and tied.outcome.reason == Reason.DRAW
    assert tied.outcome.game_points == (0, 0)


def test_closers_opponent_going_out_first_scores_a_flat_two() -> None:
    # Seat 0 closed while seat 1 had no trick; seat 1 then wins a trick and goes out.
    state = position(
        Santase(),
        ["9S JS", "AS KS"],
        trump="H",
        turnup="9H",
        talon="AC TC JC",
        to_act=0,
        tricks=(3, 0),
        card_points=(40, 0),
    )
    act(state, "close")
    state.card_points[1] = 60  # as if earlier tricks had gone to seat 1 (hand-built)
    state.tricks[1] = 0
    act(state, "9S", "AS", "claim")
    out = state.outcome
    assert out is not None and out.reason == Reason.FAILED_CLOSE
    assert out.game_points == (0, 2)  # 66 with failed_close=2or3 would give 3 here


def test_failed_close_gives_three_when_the_opponent_had_no_trick() -> None:
    state = position(
        Santase(),
        ["9S", "AS"],
        trump="H",
        turnup="9H",
        talon="AC TC JC",
        to_act=0,
        tricks=(3, 0),
        card_points=(40, 0),
    )
    act(state, "close", "9S", "AS")
    out = state.outcome
    assert out is not None and out.reason == Reason.FAILED_CLOSE
    assert out.game_points == (0, 3)
