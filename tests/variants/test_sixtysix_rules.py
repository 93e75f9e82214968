"""Two-player 66: every rule of RULES.md from hand-built positions."""

from __future__ import annotations

import pytest

from sixtysix.core.cards import parse_card
from sixtysix.core.errors import IllegalActionError, OptionError
from sixtysix.core.outcome import Reason
from sixtysix.variants.sixtysix import SixtySix
from tests.helpers import act, cards, deal, legal, position

C = parse_card


def v66(**opts: object) -> SixtySix:
    return SixtySix.configure(None, opts)


# --------------------------------------------------------------------------- deal and open phase


def test_deal_three_and_three_turn_up_under_the_talon() -> None:
    from sixtysix.core.deal import deal_from_order

    v = v66()
    order = list(range(24))
    setup = deal_from_order(v.rules, order, dealer=1)
    # Non-dealer (seat 0) gets cards 0-2, dealer 3-5, then 6-8 and 9-11; the 13th is turned up.
    assert setup.hands[0] == (0, 1, 2, 6, 7, 8)
    assert setup.hands[1] == (3, 4, 5, 9, 10, 11)
    assert setup.trump_card == 12
    assert setup.talon == tuple(range(13, 24))
    st = v.new_deal(setup)
    assert st.to_act == 0 and st.talon_size == 12 and st.trump == 12 // 6


def test_open_phase_follower_may_play_any_card() -> None:
    st = deal(v66(), ["AS TS KH QH 9D JC", "9S JS QS KD 9C QC"], "AH")
    act(st, "AS")
    assert legal(st) == sorted(f"play {c}" for c in "9S JS QS KD 9C QC".split())


def test_winner_draws_first_then_loser() -> None:
    st = deal(v66(), ["AS TS KH QH 9D JC", "9S JS QS KD 9C QC"], "AH", talon="TD AD")
    act(st, "9D", "KD")  # seat 1 wins with the higher diamond
    assert st.last_winner == 1 and st.to_act == 1
    assert st.hands[1] >> C("TD") & 1 and st.hands[0] >> C("AD") & 1
    assert st.talon_size == 10


def test_last_face_down_card_to_winner_and_turn_up_to_loser() -> None:
    st = position(v66(), ["AS 9D", "9S JD"], trump="H", turnup="JH", talon="KC", tricks=[3, 2])
    act(st, "AS", "9S")
    assert st.hands[0] >> C("KC") & 1
    assert st.hands[1] >> C("JH") & 1
    assert st.talon_size == 0 and st.strict
    # Who holds the turn-up is public: the winner's view knows it.
    assert C("JH") in st.view(0).known[1]


# --------------------------------------------------------------------------- strict phase duties


def test_strict_must_follow_with_a_higher_card() -> None:
    st = position(v66(), ["AD", "KH 9H AS 9C"], trump="S", trick="QH", to_act=1, tricks=[3, 3])
    assert legal(st) == ["play KH"]
    with pytest.raises(IllegalActionError) as err:
        st.apply(C("9H"))
    assert str(err.value) == "seat 1 cannot play 9H: must follow suit with a higher heart (KH)"


def test_strict_must_follow_even_without_beating() -> None:
    st = position(v66(), ["AD", "9H AS 9C"], trump="S", trick="QH", to_act=1, tricks=[3, 3])
    assert legal(st) == ["play 9H"]
    with pytest.raises(IllegalActionError, match=r"must follow suit \(9H\)"):
        st.apply(C("AS"))


def test_strict_void_must_trump() -> None:
    st = position(v66(), ["AD", "9S AS 9C"], trump="S", trick="QH", to_act=1, tricks=[3, 3])
    assert legal(st) == ["play 9S", "play AS"]
    with pytest.raises(IllegalActionError, match=r"must trump \(9S, AS\)"):
        st.apply(C("9C"))


def test_strict_void_without_trump_plays_anything() -> None:
    st = position(v66(), ["AD", "9D 9C"], trump="S", trick="QH", to_act=1, tricks=[3, 3])
    assert legal(st) == ["play 9C", "play 9D"]


def test_strict_trump_lead_must_be_beaten() -> None:
    st = position(v66(), ["AD", "9S AS KH"], trump="S", trick="QS", to_act=1, tricks=[3, 3])
    assert legal(st) == ["play AS"]


def test_open_phase_has_no_duty_but_closed_talon_does() -> None:
    st = position(
        v66(), ["QH AD TC", "KH 9H AS"], trump="S", turnup="JS", talon="9D 9C", tricks=[1, 1]
    )
    act(st, "QH")
    assert len(st.legal_actions()) == 3
    st = position(
        v66(), ["QH AD TC", "KH 9H AS"], trump="S", turnup="JS", talon="9D 9C", tricks=[1, 1]
    )
    act(st, "close", "QH")
    assert legal(st) == ["play KH"]


# --------------------------------------------------------------------------- trump exchange


def _exchange_position(talon: str = "9D 9C QC", **kw: object) -> object:
    v = v66(**kw)
    return position(
        v,
        ["9S AD TC KD QD JC", "KH 9H AS JD TD AC"],
        trump="S",
        turnup="KS",
        talon=talon,
        tricks=[1, 1],
    )


def test_exchange_on_lead_with_a_trick_and_talon_of_four() -> None:
    st = _exchange_position()
    assert st.talon_size == 4
    assert "exchange" in legal(st)
    act(st, "exchange")
    assert st.turnup == C("9S")
    assert st.hands[0] >> C("KS") & 1 and not st.hands[0] >> C("9S") & 1
    assert C("KS") in st.view(1).known[0]
    assert st.to_act == 0  # the same seat acts again
    assert "exchange" not in legal(st)


def test_no_exchange_with_talon_of_two() -> None:
    st = _exchange_position(talon="9D")
    assert st.talon_size == 2
    assert "exchange" not in legal(st)
    with pytest.raises(IllegalActionError, match="fewer than 3"):
        st.apply(28)


def test_exchange_min_talon_option() -> None:
    st = _exchange_position(exchange_min_talon=5)
    assert "exchange" not in legal(st)
    st = _exchange_position(talon="9D", exchange_min_talon=2)
    assert "exchange" in legal(st)


def test_exchange_needs_a_trick_unless_the_option_says_otherwise() -> None:
    v = v66()
    st = deal(v, ["9H AD TC KD QD JC", "KS 9S AS JD TD AC"], "AH")
    assert "exchange" not in legal(st)
    with pytest.raises(IllegalActionError, match="must have won a trick first"):
        st.apply(28)
    v = v66(exchange_needs_trick=False)
    st = deal(v, ["9H AD TC KD QD JC", "KS 9S AS JD TD AC"], "AH")
    assert "exchange" in legal(st)


def test_exchange_off_and_not_for_follower_or_after_close() -> None:
    assert "exchange" not in legal(_exchange_position(exchange=False))
    st = _exchange_position()
    act(st, "close")
    assert "exchange" not in legal(st)
    st = _exchange_position()
    act(st, "AD")
    assert "exchange" not in legal(st)


def test_exchanged_nine_goes_to_the_loser_of_the_last_draw() -> None:
    st = position(
        v66(), ["9S AD", "KH 9H"], trump="S", turnup="KS", talon="9D 9C QC", tricks=[1, 1]
    )
    act(st, "exchange")
    st.talon = [C("9D")]  # now a talon of two: one face-down card and the 9 under it
    st._legal = None
    act(st, "AD", "9H")
    assert st.hands[0] >> C("9D") & 1
    assert st.hands[1] >> C("9S") & 1


# --------------------------------------------------------------------------- closing


def _closing(**kw: object) -> object:
    return position(
        v66(**kw),
        ["AH TH AD", "9H JC 9C"],
        trump="S",
        turnup="JS",
        talon="9D QC KC",
        tricks=[1, 0],
        card_points=[40, 0],
    )


def test_close_is_allowed_at_any_talon_size_and_starts_the_strict_phase() -> None:
    st = position(v66(), ["AH", "9H"], trump="S", turnup="JS", talon="9D", tricks=[1, 1])
    assert st.talon_size == 2 and "close" in legal(st)
    act(st, "close")
    assert st.strict and st.closed_by == 0


def test_close_needs_trick_option() -> None:
    v = v66(close_needs_trick=True)
    st = deal(v, ["9H AD TC KD QD JC", "KS 9S AS JD TD AC"], "AH")
    assert "close" not in legal(st)
    st = deal(v66(), ["9H AD TC KD QD JC", "KS 9S AS JD TD AC"], "AH")
    assert "close" in legal(st)


def test_closed_talon_no_draws_and_closer_wins_from_final_points() -> None:
    st = _closing()
    act(st, "close", "AH", "9H")
    assert st.talon_size == 4  # no draw
    act(st, "TH", "JC")  # 40 + 11 + 10 + 2 = 63: still playing
    assert st.outcome is None
    act(st, "AD", "9C")  # 74: closer reached 66
    assert st.outcome is not None
    assert st.outcome.reason == Reason.REACHED_66
    assert st.outcome.game_points == (3, 0)  # the opponent took no trick


def test_failed_close_when_opponent_reaches_66_flat2_and_2or3() -> None:
    for mode, expected in (("flat2", 2), ("2or3", 3)):
        st = position(
            v66(failed_close=mode),
            ["9H 9C", "AH TH"],
            trump="S",
            turnup="JS",
            talon="9D",
            tricks=[1, 0],
            card_points=[20, 50],
        )
        act(st, "close", "9H", "AH")  # the opponent reaches 61 ... not yet
        assert st.outcome is None
        act(st, "TH", "9C")
        assert st.outcome is not None
        assert st.outcome.reason == Reason.FAILED_CLOSE
        assert st.outcome.game_points == (0, expected)


def test_failed_close_2or3_gives_2_when_opponent_had_a_trick() -> None:
    st = position(
        v66(failed_close="2or3"),
        ["9H 9C", "AH TH"],
        trump="S",
        turnup="JS",
        talon="9D",
        tricks=[1, 1],
        card_points=[20, 50],
    )
    act(st, "close", "9H", "AH", "TH", "9C")
    assert st.outcome is not None and st.outcome.game_points == (0, 2)


def test_failed_close_beats_the_usual_scale() -> None:
    # The opponent reaches 66 while the closer has no trick: the usual scale would be 3.
    st = position(
        v66(),
        ["9H 9C", "AH TH"],
        trump="S",
        turnup="JS",
        talon="9D",
        tricks=[0, 1],
        card_points=[0, 55],
    )
    act(st, "close", "9H", "AH")
    assert st.outcome is not None
    assert st.outcome.reason == Reason.FAILED_CLOSE and st.outcome.game_points == (0, 2)


def test_cards_run_out_after_close_with_closer_below_66() -> None:
    st = position(
        v66(),
        ["AH", "9H"],
        trump="S",
        turnup="JS",
        talon="9D",
        tricks=[1, 1],
        card_points=[30, 20],
    )
    act(st, "close", "AH", "9H")
    assert st.outcome is not None
    assert st.outcome.reason == Reason.FAILED_CLOSE and st.outcome.game_points == (0, 2)
    assert st.outcome.points == (41, 20)  # no last-trick bonus after a close


def test_exchange_then_close_in_one_lead() -> None:
    st = _exchange_position()
    act(st, "exchange", "close")
    assert st.closed_by == 0 and st.turnup == C("9S")


# --------------------------------------------------------------------------- marriages


def test_marriage_then_only_king_or_queen() -> None:
    st = deal(v66(), ["KH QH 9D JC AS TS", "9S JS QS KD 9C QC"], "AD")
    assert "marry H" in legal(st)
    act(st, "marry H")
    assert legal(st) == ["play KH", "play QH"]
    with pytest.raises(IllegalActionError, match="must lead KH or QH"):
        st.apply(C("AS"))
    with pytest.raises(IllegalActionError):
        st.apply(24 + 2)  # a second marriage in the same lead


def test_marriage_on_first_lead_stays_pending_until_a_trick() -> None:
    st = deal(v66(), ["KH QH 9D JC AS TS", "9S JS QS KD 9C AH"], "AD", talon="9H JH")
    act(st, "marry H", "QH", "AH")  # the opponent wins the trick
    assert st.marriage_points[0] == 20 and st.valid_points(0) == 0
    act(st, "9C", "JC")  # seat 1 leads 9C, seat 0 wins with JC
    assert st.valid_points(0) == 2 + 20


def test_trump_marriage_counts_forty() -> None:
    st = deal(v66(), ["KH QH 9D JC AS TS", "9S JS QS KD 9C AC"], "AH")
    act(st, "marry H")
    assert st.marriage_points[0] == 40


def test_auto_claim_at_marriage_when_side_has_a_trick() -> None:
    # "40 daha yetişir": with 30 points and a trick, the trump marriage ends the deal at once.
    st = position(
        v66(),
        ["KS QS 9D", "9H JC 9C"],
        trump="S",
        turnup="JS",
        talon="AD TD QC KC",
        tricks=[1, 0],
        card_points=[30, 0],
    )
    act(st, "marry S")
    assert st.outcome is not None and st.outcome.reason == Reason.REACHED_66
    assert st.outcome.points == (70, 0) and st.outcome.game_points == (3, 0)
    assert st.history[-1] == (0, 24 + 3)  # ended before the king or queen was led


def test_unrealised_marriage_is_forfeited() -> None:
    st = position(
        v66(),
        ["KS QS", "AS TS"],
        trump="S",
        tricks=[0, 5],
        card_points=[0, 60],
    )
    act(st, "marry S", "QS", "AS")
    assert st.outcome is not None
    assert st.outcome.points[0] == 0 and st.outcome.game_points == (0, 3)


def test_marriages_off() -> None:
    st = deal(v66(marriages=False), ["KH QH 9D JC AS TS", "9S JS QS KD 9C AC"], "AH")
    assert not any(a.startswith("marry") for a in legal(st))


def test_marriage_after_close_option() -> None:
    st = position(v66(), ["KH QH", "9S AS"], trump="S", turnup="JS", talon="9D", tricks=[1, 1])
    act(st, "close")
    assert "marry H" in legal(st)
    st = position(
        v66(marriage_after_close=False),
        ["KH QH", "9S AS"],
        trump="S",
        turnup="JS",
        talon="9D",
        tricks=[1, 1],
    )
    act(st, "close")
    assert "marry H" not in legal(st)
    with pytest.raises(IllegalActionError, match="marriage_after_close"):
        st.apply(24 + 2)
    # ... and in an exhausted talon too.
    st = position(v66(marriage_after_close=False), ["KH QH", "9S AS"], trump="S", tricks=[1, 1])
    assert "marry H" not in legal(st)


# --------------------------------------------------------------------------- claims


def test_auto_claim_after_a_trick_ends_the_deal() -> None:
    st = position(
        v66(),
        ["AH 9D", "TH 9C"],
        trump="S",
        turnup="JS",
        talon="KC QC",
        tricks=[2, 1],
        card_points=[50, 10],
    )
    act(st, "AH", "TH")
    assert st.outcome is not None and st.outcome.reason == Reason.REACHED_66
    assert st.outcome.points == (71, 10) and st.outcome.game_points == (2, 0)


def test_manual_claim_true_and_false() -> None:
    v = v66(claim="manual")
    st = position(v, ["AH 9D", "TH 9C"], trump="S", tricks=[2, 1], card_points=[70, 40])
    assert "claim" in legal(st)
    act(st, "claim")
    assert st.outcome is not None and st.outcome.reason == Reason.REACHED_66
    assert st.outcome.game_points == (1, 0)
    st = position(v, ["AH 9D", "TH 9C"], trump="S", tricks=[2, 1], card_points=[60, 40])
    act(st, "claim")
    assert st.outcome is not None and st.outcome.reason == Reason.FALSE_CLAIM
    assert st.outcome.game_points == (0, 2)


def test_manual_claim_not_for_the_follower_and_allowed_without_a_trick() -> None:
    v = v66(claim="manual")
    st = deal(v, ["KH QH 9D JC AS TS", "9S JS QS KD 9C AC"], "AH")
    assert "claim" in legal(st)  # even before any trick
    act(st, "marry H")
    assert legal(st) == ["claim", "play KH", "play QH"]
    act(st, "KH")
    assert "claim" not in legal(st)
    with pytest.raises(IllegalActionError, match="only the seat on lead"):
        st.apply(30)


def test_auto_mode_has_no_claim_action() -> None:
    st = deal(v66(), ["KH QH 9D JC AS TS", "9S JS QS KD 9C AC"], "AH")
    with pytest.raises(IllegalActionError, match="claim=manual"):
        st.apply(30)


def test_manual_mode_passing_66_does_not_end_the_deal() -> None:
    v = v66(claim="manual")
    st = position(
        v,
        ["AH 9D", "TH 9C"],
        trump="S",
        turnup="JS",
        talon="KC QC",
        tricks=[2, 1],
        card_points=[50, 10],
    )
    act(st, "AH", "TH")
    assert st.outcome is None and st.valid_points(0) == 71


def test_false_claim_by_closer_scores_as_failed_close() -> None:
    v = v66(claim="manual", failed_close="2or3")
    st = position(
        v,
        ["AH 9D", "TH 9C"],
        trump="S",
        turnup="JS",
        talon="KC",
        tricks=[2, 0],
        card_points=[40, 0],
    )
    act(st, "close", "claim")
    assert st.outcome is not None
    assert st.outcome.reason == Reason.FALSE_CLAIM and st.outcome.game_points == (0, 3)


def test_manual_cards_out_after_close_with_66_wins_for_closer() -> None:
    v = v66(claim="manual")
    st = position(
        v,
        ["AH", "TH"],
        trump="S",
        turnup="JS",
        talon="KC",
        tricks=[2, 1],
        card_points=[50, 20],
    )
    act(st, "close", "AH", "TH")
    assert st.outcome is not None
    assert st.outcome.reason == Reason.REACHED_66 and st.outcome.game_points == (2, 0)


def test_manual_played_out_scores() -> None:
    v = v66(claim="manual")
    # Both at 66 or more, seat 0 higher: only seat 0 scores.
    st = position(v, ["AH", "9H"], trump="S", tricks=[3, 3], card_points=[60, 70])
    act(st, "AH", "9H")
    assert st.outcome is not None and st.outcome.reason == Reason.PLAYED_OUT
    assert st.outcome.points == (81, 70) and st.outcome.game_points == (1, 0)
    # Equal totals: both score.
    st = position(v, ["AH", "9H"], trump="S", tricks=[3, 3], card_points=[60, 81])
    act(st, "AH", "9H")
    assert st.outcome is not None and st.outcome.game_points == (1, 1)
    # Nobody at 66: nobody scores.
    st = position(v, ["9C", "9H"], trump="S", tricks=[3, 3], card_points=[55, 55])
    act(st, "9C", "9H")
    assert st.outcome is not None and st.outcome.reason == Reason.PLAYED_OUT
    assert st.outcome.points == (65, 55) and st.outcome.game_points == (0, 0)


# --------------------------------------------------------------------------- the end of the talon


def test_last_trick_bonus_counts_in_points() -> None:
    st = position(v66(), ["AH", "9H"], trump="S", tricks=[3, 3], card_points=[45, 40])
    act(st, "AH", "9H")
    assert st.outcome is not None and st.outcome.reason == Reason.REACHED_66
    assert st.outcome.points == (66, 40) and st.outcome.game_points == (1, 0)


def test_bonus_option() -> None:
    st = position(
        v66(last_trick_bonus=5), ["AH", "9H"], trump="S", tricks=[3, 3], card_points=[45, 40]
    )
    act(st, "AH", "9H")
    assert st.outcome is not None and st.outcome.points == (61, 40)


@pytest.mark.parametrize(
    ("tie", "reason", "gp"),
    [
        ("last_trick_wins", Reason.LAST_TRICK, (1, 0)),
        ("draw", Reason.DRAW, (0, 0)),
    ],
)
def test_65_65_tie(tie: str, reason: Reason, gp: tuple[int, int]) -> None:
    st = position(v66(tie=tie), ["9C", "9D"], trump="S", tricks=[3, 3], card_points=[55, 65])
    act(st, "9C", "9D")
    assert st.outcome is not None
    assert st.outcome.points == (65, 65)
    assert st.outcome.reason == reason and st.outcome.game_points == gp


# --------------------------------------------------------------------------- scale


@pytest.mark.parametrize(
    ("loser_points", "loser_tricks", "expected"),
    [
        (33, 2, 1),
        (32, 2, 2),
        (0, 0, 3),
    ],
)
def test_game_point_scale(loser_points: int, loser_tricks: int, expected: int) -> None:
    st = position(
        v66(),
        ["AH 9D", "TH 9C"],
        trump="S",
        turnup="JS",
        talon="KC QC",
        tricks=[2, loser_tricks],
        card_points=[50, loser_points],
    )
    act(st, "AH", "TH")
    assert st.outcome is not None and st.outcome.game_points == (expected, 0)


def test_schneider_card_points_only() -> None:
    def run(**kw: object) -> tuple[int, ...]:
        st = position(
            v66(**kw),
            ["AH 9D", "TH 9C"],
            trump="S",
            turnup="JS",
            talon="KC QC",
            tricks=[2, 1],
            card_points=[50, 10],
        )
        st.marriages[1].append(3)
        st.marriage_points[1] = 40  # seat 1 declared the trump marriage earlier
        act(st, "AH", "TH")
        assert st.outcome is not None and st.outcome.reason == Reason.REACHED_66
        return st.outcome.game_points

    # Seat 1 has 10 card points + 40 = 50 valid points (>= 33): 1 game point; counting
    # card points only, 10 < 33 with a trick: 2 game points.
    assert run() == (1, 0)
    assert run(schneider_card_points_only=True) == (2, 0)


# ------------------------------------------------------------------------- talonless practice game


def test_talonless_practice_game() -> None:
    v = v66(talonless=True)
    hands = ["9C JC QC KC TC AC 9D JD QD KD TD AD", "9H JH QH KH TH AH 9S JS QS KS TS AS"]
    st = deal(v, hands, None, dealer=1)
    assert st.setup.trump_card is None and st.setup.talon == ()
    assert st.trump == 3  # the dealer's last card is AS
    assert C("AS") in st.view(0).known[1]
    assert st.to_act == 0 and st.strict
    assert "exchange" not in legal(st) and "close" not in legal(st)
    act(st, "9C")
    assert legal(st) == ["play 9S", "play AS", "play JS", "play KS", "play QS", "play TS"]


def test_talonless_record_shape() -> None:
    from sixtysix.core.deal import deal_from_order

    v = v66(talonless=True)
    setup = deal_from_order(v.rules, list(range(24)), 1)
    assert setup.trump_card is None and setup.talon == ()
    assert [len(h) for h in setup.hands] == [12, 12]


# --------------------------------------------------------------------------- options and presets


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(OptionError) as err:
        SixtySix.configure(None, {"colour": "red"})
    assert "unknown option 'colour'" in str(err.value) and "failed_close" in str(err.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("claim", "sometimes"),
        ("target", "0"),
        ("target", "x"),
        ("marriages", "maybe"),
        ("tie", "coin"),
    ],
)
def test_bad_option_values(name: str, value: str) -> None:
    with pytest.raises(OptionError, match=name):
        SixtySix.configure(None, {name: value})


def test_presets() -> None:
    classic = SixtySix.configure("classic")
    assert classic.options.diff() == {"claim": "manual", "failed_close": "2or3", "tie": "draw"}
    assert SixtySix.configure("portal").options.diff() == {}
    with pytest.raises(OptionError, match="presets: classic, portal"):
        SixtySix.configure("fast")


def test_match_to_target_and_dealer_rotation() -> None:
    v = v66(target=3)
    assert v.match_winners([2, 2]) == []
    assert v.match_winners([3, 1]) == [0]
    assert v.match_winners([4, 4]) == [0, 1]
    assert v.next_dealer(0) == 1 and v.next_dealer(1) == 0


def test_played_cards_are_checked_against_the_hand() -> None:
    st = deal(v66(), ["AS TS KH QH 9D JC", "9S JS QS KD 9C QC"], "AH")
    with pytest.raises(IllegalActionError, match="does not hold 9S"):
        st.apply(C("9S"))
    assert cards("AS") == (C("AS"),)
