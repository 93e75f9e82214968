"""Schnapsen: every way it differs from 66, from hand-built deals, plus properties of random play.

Positions are whole deals built by hand (``DealSetup(dealer, hands, trump_card, talon)``) and
played through the public engine, so each test goes through the same code as a real game.
Unless said otherwise seat 1 deals and seat 0 (the forehand) leads the first trick.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import ACTION_NAMES, CLAIM, parse_action
from sixtysix.core.cards import (
    CARD_NAMES,
    FULL_DECK,
    NINES_MASK,
    POINTS,
    iter_mask,
    mask_points,
    parse_card,
)
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.errors import IllegalActionError, OptionError, RecordError
from sixtysix.core.match import play_deal, play_match
from sixtysix.core.outcome import Outcome, Reason, schneider_scale
from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.plugins.manager import build_registry
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix

DECK20 = FULL_DECK & ~NINES_MASK


def schnapsen(**options: object) -> Schnapsen:
    return Schnapsen.configure(None, options)


def ids(text: str) -> tuple[int, ...]:
    return tuple(int(parse_card(t)) for t in text.split())


def setup(hand0: str, hand1: str, trump_card: str, talon: str, dealer: int = 1) -> DealSetup:
    """A whole deal written out: both hands, the turn-up and the 9 face-down cards in order."""
    return DealSetup(dealer, (ids(hand0), ids(hand1)), int(parse_card(trump_card)), ids(talon))


def start(variant: Schnapsen, deal: DealSetup) -> DealState:
    deal.validate(variant.rules)
    return variant.new_deal(deal)


def act(state: DealState, *actions: str) -> DealState:
    """Apply actions in order (checked); a bare card ``"AS"`` means ``play AS``."""
    for text in actions:
        state.apply(parse_action(text if " " in text or text.islower() else "play " + text))
    return state


def legal(state: DealState) -> list[str]:
    return sorted(ACTION_NAMES[a] for a in state.legal_actions())


def holds(state: DealState, seat: int, card: str) -> bool:
    return bool(state.hands[seat] >> parse_card(card) & 1)


def refused(state: DealState, action: str) -> str:
    """The message of the IllegalActionError that ``action`` raises now."""
    with pytest.raises(IllegalActionError) as err:
        state.apply(parse_action(action))
    return str(err.value)


# ------------------------------------------------------------------------------------- deals
#
# DEAL_A: trump hearts; seat 0 strong in spades and diamonds, holding the trump marriage.
DEAL_A = setup("KH QH AS TS AD", "AH TH JS QS KD", "JH", "KS AC TC KC QC JC TD QD JD")
#
# DEAL_B: trump hearts. Scripted opening: seat 1 wins the first trick (QC over JC, 5 points),
# seat 0 the second (AD over JD, 13). Then seat 0 holds KH QH AS TS TC and seat 1 AH TH KS QS AC,
# with the talon at size 6.
DEAL_B = setup("JC AD KH QH AS", "QC JD AH TH KS", "JH", "QS TS TC AC KC JS TD KD QD")
B_OPENING = ("JC", "QC", "JD", "AD")
#
# DEAL_L: trump clubs under KC; played to the last card without a close. Seat 0 draws
# TS JC JH QC KH, seat 1 TD QH AC TC and, losing the last draw, the turn-up KC.
DEAL_L = setup("AD QD AS JS AH", "JD KD QS KS TH", "KC", "TS TD QH JC JH AC TC QC KH")
# Open phase: 13 to seat 0, 7 to seat 1, 14 to seat 0, 6 to seat 1, 21 to seat 0 (talon out).
L_OPEN = ("AD", "JD", "QD", "KD", "QS", "AS", "JS", "KS", "TH", "AH")
# Strict phase, nobody reaching 66: seat 1 trumps TS (14), seat 0 trumps TD (12), seat 1 heads
# JH with QH (5), draws trump with AC (14) and takes the last trick with TC (14): 60 to 60.
L_TO_60_60 = ("TS", "KC", "TD", "JC", "JH", "QH", "AC", "QC", "TC", "KH")
# Strict phase where seat 0 passes 66 at the eighth trick (KH over QH: 67 to 27); seat 1 then
# takes the last two tricks (67 to 53).
L_TO_67 = ("TS", "KC", "TD", "JC", "KH", "QH", "JH", "TC", "AC", "QC")
#
# DEAL_E: trump hearts under AH; seat 0 holds the trump jack and wins the first four tricks
# with his aces and TS, drawing QC TC KH KS; seat 1 draws KC QH TH KD. TD is the last
# face-down card.
DEAL_E = setup("JH AS AD AC TS", "JS JD JC QS QD", "AH", "QC KC TC QH KH TH KS KD TD")
E_FOUR_TRICKS = ("AS", "JS", "AD", "JD", "AC", "JC", "TS", "QS")
E_TALON = "QC KC TC QH KH TH QD KD TD"  # another talon of the same cards, for DEAL_E's variants


def test_hand_built_deals_are_proper_schnapsen_deals() -> None:
    rules = schnapsen().rules
    for deal in (DEAL_A, DEAL_B, DEAL_L, DEAL_E):
        deal.validate(rules)


# ------------------------------------------------------------------------- deck, deal, options


def test_deck_has_twenty_cards_without_nines_worth_120() -> None:
    v = schnapsen()
    assert v.rules.deck == DECK20
    cards = list(iter_mask(v.rules.deck))
    assert len(cards) == 20
    assert all(CARD_NAMES[c][0] != "9" for c in cards)
    assert sum(POINTS[c] for c in cards) == 120
    assert v.rules.hand_size == 5


def test_deal_three_each_turn_up_then_two_each_non_dealer_first() -> None:
    v = schnapsen()
    order = list(iter_mask(DECK20))  # JC QC KC TC AC JD ... AS
    deal = deal_from_order(v.rules, order, dealer=0)
    # Seat 1 (the non-dealer) gets cards 1-3, the dealer 4-6, card 7 is turned up,
    # then 2 to the non-dealer (8-9) and 2 to the dealer (10-11); 9 cards stay face down.
    assert deal.hands[1] == tuple(order[0:3]) + tuple(order[7:9])
    assert deal.hands[0] == tuple(order[3:6]) + tuple(order[9:11])
    assert deal.trump_card == order[6]
    assert deal.talon == tuple(order[11:])
    state = v.new_deal(deal)
    assert state.talon_size == 10 and len(state.talon) == 9
    assert state.trump == order[6] // 6
    assert state.to_act == 1 and state.leader == 1  # the non-dealer leads


def test_shuffled_deal_gives_five_each_and_a_talon_of_ten() -> None:
    v = schnapsen()
    for dealer in (0, 1):
        deal = v.deal(Seed(5), ("deal",), dealer)
        deal.validate(v.rules)
        state = v.new_deal(deal)
        assert [len(h) for h in deal.hands] == [5, 5]
        assert state.talon_size == 10
        assert state.to_act == 1 - dealer
        assert not state.strict


def test_a_nine_is_not_a_schnapsen_card() -> None:
    bad = DealSetup(1, (ids("9H QH AS TS AD"), DEAL_A.hands[1]), DEAL_A.trump_card, DEAL_A.talon)
    with pytest.raises(RecordError, match="cards not in this variant's deck: 9H"):
        bad.validate(schnapsen().rules)
    short = DealSetup(1, (ids("KH QH AS TS"), DEAL_A.hands[1]), DEAL_A.trump_card, DEAL_A.talon)
    with pytest.raises(RecordError, match="seat 0 has 4 cards; 5 are dealt"):
        short.validate(schnapsen().rules)


def test_option_defaults_follow_the_table() -> None:
    v = schnapsen()
    defaults = {spec["name"]: spec["default"] for spec in v.options_json()}
    assert defaults == {
        "claim": "auto",
        "open_scores": False,
        "marriages": True,
        "schneider_card_points_only": False,
        "target": 7,
        "marriage_after_close": True,
        "exchange": True,
        "closing": True,
        "close_needs_trick": False,
        "exchange_needs_trick": False,
        "exchange_min_talon": 2,
    }
    assert v.target == 7
    assert v.options.diff() == {}
    r = v.rules
    assert (r.exchange, r.exchange_min_talon, r.exchange_needs_trick) == (True, 2, False)
    assert r.last_trick_bonus == 0 and r.closing and not r.manual_claim


@pytest.mark.parametrize("name", ["failed_close", "tie", "last_trick_bonus", "talonless", "nines"])
def test_options_of_66_only_are_errors(name: str) -> None:
    with pytest.raises(OptionError, match=f"unknown option '{name}' for schnapsen"):
        schnapsen(**{name: "1"})


def test_no_presets_of_66() -> None:
    with pytest.raises(OptionError, match="unknown preset 'classic' for schnapsen"):
        Schnapsen.configure("classic")


def test_registered_as_a_built_in_variant() -> None:
    assert build_registry(autoload=False).variant("Schnapsen") is Schnapsen


# ------------------------------------------------------------------------------ jack exchange


def test_jack_exchange_on_the_first_lead_without_a_trick() -> None:
    state = start(schnapsen(), DEAL_E)
    assert "exchange" in legal(state)
    act(state, "exchange")
    assert holds(state, 0, "AH") and not holds(state, 0, "JH")
    assert state.turnup == parse_card("JH")
    assert state.to_act == 0  # the same seat acts again
    assert "exchange" not in legal(state)
    assert parse_card("AH") in state.view(1).known[0]  # the taken turn-up is public


def test_in_66_the_same_exchange_needs_a_trick() -> None:
    # The contrast: 66's nine exchange needs a trick by default, Schnapsen's jack does not.
    assert SixtySix().rules.exchange_needs_trick
    state = start(schnapsen(exchange_needs_trick=True), DEAL_E)
    assert "exchange" not in legal(state)
    assert refused(state, "exchange") == "seat 0 cannot exchange: must have won a trick first"


def test_exchange_needs_the_jack_not_the_nine() -> None:
    state = start(schnapsen(), DEAL_A)  # seat 0 has no JH (it is the turn-up)
    assert "exchange" not in legal(state)
    assert refused(state, "exchange") == "seat 0 cannot exchange: does not hold JH"


def test_exchange_still_allowed_at_talon_size_two() -> None:
    state = act(start(schnapsen(), DEAL_E), *E_FOUR_TRICKS)
    assert state.talon_size == 2 and state.to_act == 0 and state.tricks == [4, 0]
    assert holds(state, 0, "JH")
    assert "exchange" in legal(state)
    act(state, "exchange")
    assert state.turnup == parse_card("JH") and holds(state, 0, "AH")
    # Seat 1 wins the last open trick: the winner takes TD, the loser the exchanged jack.
    act(state, "QC", "KC")
    assert holds(state, 1, "TD") and holds(state, 0, "JH")
    assert state.talon_size == 0 and state.strict
    assert parse_card("JH") in state.view(1).known[0]


def test_exchange_min_talon_option_and_exhausted_talon() -> None:
    state = act(start(schnapsen(exchange_min_talon=4), DEAL_E), *E_FOUR_TRICKS)
    assert "exchange" not in legal(state)
    assert refused(state, "exchange") == (
        "seat 0 cannot exchange: the talon holds fewer than 4 cards"
    )
    act(state, "QC", "KC")  # the talon runs out: seat 1 takes TD, seat 0 the turn-up AH
    act(state, "KD", "KH")  # seat 0 has no diamond and must trump
    assert state.to_act == 0 and holds(state, 0, "JH") and state.talon_size == 0
    assert refused(state, "exchange") == (
        "seat 0 cannot exchange: the talon is closed or exhausted"
    )


def test_no_exchange_for_the_follower_nor_after_closing() -> None:
    state = start(schnapsen(), DEAL_E)
    act(state, "close")
    assert "exchange" not in legal(state)
    assert refused(state, "exchange").endswith("the talon is closed or exhausted")
    state = start(schnapsen(), setup("AS AD AC TS KS", "JH JS JD JC QS", "AH", E_TALON))
    act(state, "AS")
    assert refused(state, "exchange") == (
        "seat 1 cannot exchange: only the seat on lead may do that, before leading"
    )


# ----------------------------------------------------------------------------------- closing


def test_closing_on_the_first_lead_starts_the_strict_phase() -> None:
    state = start(schnapsen(), DEAL_A)
    assert "close" in legal(state)
    act(state, "close")
    assert state.strict and state.closed_by == 0
    assert state.close_points == (0, 0) and state.close_tricks == (0, 0)
    act(state, "AS")
    assert legal(state) == ["play JS", "play QS"]  # follow suit (neither can head the ace)


def test_winning_closer_scores_from_the_position_at_the_close_three() -> None:
    # Seat 0 closes before any trick; seat 1 takes a trick afterwards, but had none at the close.
    state = act(start(schnapsen(), DEAL_A), "close", "AS", "JS", "marry H", "QH", "AH")
    assert state.tricks == [1, 1] and state.card_points == [13, 14]
    act(state, "KD", "AD")  # 13 + 40 + 15 = 68
    assert state.outcome == Outcome(Reason.REACHED_66, (3, 0), (68, 14), (2, 1))
    # From the final position (14 points, one trick) the usual scale would give only 2.
    assert schneider_scale(14, 1) == 2


def test_winning_closer_scores_from_the_position_at_the_close_two() -> None:
    state = act(start(schnapsen(), DEAL_B), *B_OPENING)
    assert state.to_act == 0 and state.talon_size == 6
    act(state, "close")
    assert state.close_points == (13, 5) and state.close_tricks == (1, 1)
    act(state, "marry H", "QH", "AH")  # seat 1 heads the queen: 19
    act(state, "AC", "TC")  # 40: seat 1 is past 33 now
    act(state, "KS", "AS")  # seat 0: 13 + 40 + 15 = 68
    assert state.outcome == Outcome(Reason.REACHED_66, (2, 0), (68, 40), (2, 3))
    assert schneider_scale(40, 3) == 1  # what the final position would have given


def test_failed_close_gives_three_when_the_opponent_had_no_trick_at_the_close() -> None:
    state = act(start(schnapsen(), DEAL_A), "close", "AD", "KD", "TS", "JS", "AS", "QS")
    assert state.card_points == [41, 0]
    act(state, "KH", "AH", "TH", "QH")  # seat 1 takes the last two tricks
    # Cards out with the closer at 41: the close failed; seat 1 had no trick when it was made.
    assert state.outcome == Outcome(Reason.FAILED_CLOSE, (0, 3), (41, 28), (3, 2))


def test_failed_close_gives_two_when_the_opponent_had_a_trick_at_the_close() -> None:
    state = act(start(schnapsen(), DEAL_B), *B_OPENING, "close")
    act(state, "TC", "AC", "AH", "QH", "TH", "KH", "KS", "AS", "TS", "QS")
    assert state.outcome == Outcome(Reason.FAILED_CLOSE, (0, 2), (41, 54), (3, 4))


def test_close_needs_trick_option() -> None:
    state = start(schnapsen(close_needs_trick=True), DEAL_A)
    assert "close" not in legal(state)
    assert refused(state, "close") == (
        "seat 0 cannot close: must have won a trick first (option close_needs_trick)"
    )


# ------------------------------------------------------- no last-trick bonus, last trick wins


def test_open_phase_of_the_played_out_deal() -> None:
    state = act(start(schnapsen(), DEAL_L), *L_OPEN)
    assert state.card_points == [48, 13] and state.tricks == [3, 2]
    assert state.talon_size == 0 and state.strict
    assert sorted(CARD_NAMES[c] for c in iter_mask(state.hands[0])) == sorted(
        "TS JC JH QC KH".split()
    )
    assert holds(state, 1, "KC")  # the loser of the last draw took the turn-up


@pytest.mark.parametrize("claim", ["auto", "manual"])
def test_nobody_at_66_the_last_tricks_winner_takes_one_point(claim: str) -> None:
    state = act(start(schnapsen(claim=claim), DEAL_L), *L_OPEN, *L_TO_60_60)
    assert state.last_winner == 1
    # No last-trick bonus: the points are the 120 card points alone (66 would add 10).
    assert state.outcome == Outcome(Reason.LAST_TRICK, (0, 1), (60, 60), (4, 6))
    assert state.bonus == [0, 0]


def test_no_last_trick_bonus_even_when_the_last_trick_reaches_66() -> None:
    # Manual claims: seat 0 passes 66 and plays on; seat 1 wins the last trick without a bonus.
    state = act(start(schnapsen(claim="manual"), DEAL_L), *L_OPEN, *L_TO_67)
    assert state.last_winner == 1
    assert state.outcome == Outcome(Reason.PLAYED_OUT, (1, 0), (67, 53), (5, 5))


def test_auto_claim_ends_the_same_deal_at_66() -> None:
    state = act(start(schnapsen(), DEAL_L), *L_OPEN, *L_TO_67[:6])
    assert state.outcome == Outcome(Reason.REACHED_66, (2, 0), (67, 27), (5, 3))


# ------------------------------------------------------------------------------ manual claims


def test_claim_is_manual_only_and_for_the_seat_on_lead() -> None:
    auto = start(schnapsen(), DEAL_A)
    assert "claim" not in legal(auto)
    assert refused(auto, "claim") == (
        "seat 0 cannot claim: claims are made automatically (option claim=manual to claim by hand)"
    )
    state = start(schnapsen(claim="manual"), DEAL_A)
    assert "claim" in legal(state)
    act(state, "AS")
    assert "claim" not in legal(state)
    assert refused(state, "claim") == (
        "seat 1 cannot claim: only the seat on lead may do that, before leading"
    )


def test_claim_is_legal_after_exchange_close_and_marry() -> None:
    state = start(
        schnapsen(claim="manual"),
        setup("JH KH QH AS AD", "AH TH JS QS KD", "TD", "KS AC TC KC QC JC TS QD JD"),
    )
    # Trump diamonds under TD; seat 0 holds neither JD nor a trick, so no exchange here.
    assert "claim" in legal(state)
    act(state, "close")
    assert "claim" in legal(state)
    act(state, "marry H")
    assert legal(state) == ["claim", "play KH", "play QH"]
    state = start(schnapsen(claim="manual"), DEAL_E)
    act(state, "exchange")
    assert "claim" in legal(state)


def test_false_claim_gives_three_when_the_opponent_has_no_trick() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_A), "claim")
    assert state.outcome == Outcome(Reason.FALSE_CLAIM, (0, 3), (0, 0), (0, 0))


def test_false_claim_gives_two_when_the_opponent_has_a_trick() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_B), *B_OPENING, "claim")
    assert state.outcome == Outcome(Reason.FALSE_CLAIM, (0, 2), (13, 5), (1, 1))


def test_false_claim_without_own_trick_looks_at_the_opponent_at_the_claim() -> None:
    # Seat 0 wins the first trick; seat 1 wins the second and claims falsely: seat 0 had a trick.
    state = act(start(schnapsen(claim="manual"), DEAL_L), "AD", "JD", "QD", "KD", "claim")
    assert state.outcome == Outcome(Reason.FALSE_CLAIM, (2, 0), (13, 7), (1, 1))


def test_false_claim_by_the_closer_is_a_failed_close_judged_at_the_close() -> None:
    # Seat 0 closes while seat 1 has no trick; seat 1 then wins two tricks before seat 0
    # claims falsely. Scored as a failed close: 3, as seat 1 had no trick at the close.
    state = act(start(schnapsen(claim="manual"), DEAL_A), "close", "AD", "KD")
    act(state, "KH", "AH", "TH", "QH", "JS", "TS")
    assert state.to_act == 0 and state.tricks == [2, 2]
    act(state, "claim")
    assert state.outcome == Outcome(Reason.FALSE_CLAIM, (0, 3), (27, 28), (2, 2))


def test_false_claim_by_the_closer_with_the_opponent_holding_a_trick_at_the_close() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_B), *B_OPENING, "close", "claim")
    assert state.outcome == Outcome(Reason.FALSE_CLAIM, (0, 2), (13, 5), (1, 1))


def test_true_claim_by_the_closer_uses_the_closing_scale() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_A), "close", "AS", "JS", "marry H", "QH")
    act(state, "AH", "KD", "AD")  # 68 for seat 0, who need not stop: he claims on lead
    assert state.outcome is None and state.to_act == 0
    act(state, "claim")
    assert state.outcome == Outcome(Reason.REACHED_66, (3, 0), (68, 14), (2, 1))


def test_true_claim_without_a_close() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_L), *L_OPEN, *L_TO_67[:6], "claim")
    assert state.outcome == Outcome(Reason.REACHED_66, (2, 0), (67, 27), (5, 3))


def test_true_claim_by_the_closers_opponent_is_a_failed_close() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_B), *B_OPENING, "close")
    act(state, "TC", "AC", "AH", "QH", "TH", "KH")  # seat 1: 5 + 21 + 14 + 14 = 54
    act(state, "marry S")  # 20 more, valid at once: 74, but claims are manual
    assert state.outcome is None
    act(state, "claim")
    assert state.outcome == Outcome(Reason.FAILED_CLOSE, (0, 2), (13, 74), (1, 4))


def test_no_claim_after_the_last_trick() -> None:
    state = act(start(schnapsen(claim="manual"), DEAL_L), *L_OPEN, *L_TO_60_60)
    assert state.is_over and state.legal_actions() == []
    assert refused(state, "claim").endswith("cannot claim: the deal is over")


# ------------------------------------------------------------------------------------ Bummerl


def test_match_winners_at_seven() -> None:
    v = schnapsen()
    assert v.match_winners([6, 6]) == []
    assert v.match_winners([7, 2]) == [0]
    assert v.match_winners([5, 9]) == [1]
    assert v.match_winners([8, 8]) == [0, 1]
    assert schnapsen(target=3).match_winners([3, 0]) == [0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bummerl_is_played_to_seven(seed: int) -> None:
    v = schnapsen()
    master = Seed(seed)
    bots = [RandomBot(s, master.child(("bot", s))) for s in range(2)]
    result = play_match(v, [b.choose for b in bots], master)
    totals = [sum(o.game_points[s] for o in result.outcomes) for s in range(2)]
    assert result.totals == totals
    assert max(totals) >= 7
    assert result.winners == [s for s in range(2) if totals[s] == max(totals)]
    before_last = [t - gp for t, gp in zip(totals, result.outcomes[-1].game_points, strict=True)]
    assert max(before_last) < 7  # the match ends with the first deal that reaches 7
    dealers = [d.setup.dealer for d in result.record.deals]
    assert all(b == 1 - a for a, b in itertools.pairwise(dealers))
    assert len(result.record.deals) == len(result.outcomes)


# ------------------------------------------------------------------- records and replay --json


def _round_trip(record: Record) -> dict[str, object]:
    raw = load_record_text(record.dumps())
    out = replay(raw, build_registry(autoload=False)).as_json()
    json.dumps(out)  # the replay object is plain JSON
    return out


@pytest.mark.parametrize("claim", ["auto", "manual"])
@pytest.mark.parametrize("seed", range(6))
def test_record_of_a_played_deal_replays_to_the_same_result(claim: str, seed: int) -> None:
    v = schnapsen(claim=claim)
    master = Seed(seed)
    deal = v.deal(master, ("deal",), seed % 2)
    state = v.new_deal(deal)
    bots = [RandomBot(s, master.child(("bot", s))) for s in range(2)]
    outcome = play_deal(state, [b.choose for b in bots])
    record = Record(v.name, v.options.diff(), seed, [DealRecord(deal, state.history)])
    data = json.loads(record.dumps())
    assert data["variant"] == "schnapsen"
    assert data["options"] == ({} if claim == "auto" else {"claim": "manual"})
    assert len(data["deals"][0]["talon"]) == 9
    out = _round_trip(record)
    assert out["variant"] == "schnapsen"
    deals = out["deals"]
    assert isinstance(deals, list) and len(deals) == 1
    assert deals[0]["result"] == outcome.as_json()
    steps = deals[0]["steps"]
    assert [(s["seat"], s["action"]) for s in steps] == [
        (seat, ACTION_NAMES[a]) for seat, a in state.history
    ]
    for step in steps:
        assert step["legal"] == sorted(step["legal"]) and step["action"] in step["legal"]
    assert out["match"] == {"game_points": list(outcome.game_points), "winners": []}


def test_record_of_a_bummerl_replays_to_the_same_totals() -> None:
    v = schnapsen()
    master = Seed(4)
    bots = [RandomBot(s, master.child(("bot", s))) for s in range(2)]
    result = play_match(v, [b.choose for b in bots], master)
    out = _round_trip(result.record)
    assert out["match"] == {"game_points": result.totals, "winners": result.winners}
    deals = out["deals"]
    assert isinstance(deals, list)
    assert [d["result"] for d in deals] == [o.as_json() for o in result.outcomes]


def test_record_of_a_hand_built_deal_replays_the_closing_scale() -> None:
    v = schnapsen()
    state = act(start(v, DEAL_A), "close", "AS", "JS", "marry H", "QH", "AH", "KD", "AD")
    record = Record(v.name, {}, None, [DealRecord(DEAL_A, state.history)])
    out = _round_trip(record)
    deals = out["deals"]
    assert isinstance(deals, list)
    assert deals[0]["result"] == {
        "reason": "reached_66",
        "game_points": [3, 0],
        "points": [68, 14],
        "tricks": [2, 1],
    }
    assert deals[0]["steps"][0] == {
        "seat": 0,
        "legal": ["close", "marry H", "play AD", "play AS", "play KH", "play QH", "play TS"],
        "action": "close",
    }


def test_record_with_an_illegal_schnapsen_action_is_refused() -> None:
    record = Record("schnapsen", {}, None, [DealRecord(DEAL_A, [(0, CLAIM)])])
    with pytest.raises(RecordError) as err:
        _round_trip(record)
    assert str(err.value) == (
        "deal 1, step 1: seat 0 cannot claim: claims are made automatically"
        " (option claim=manual to claim by hand)"
    )
    data = Record("schnapsen", {}, None, [DealRecord(DEAL_A, [])]).as_json()
    data["deals"][0]["hands"][0][0] = "9H"  # type: ignore[index]
    with pytest.raises(RecordError, match="deal 1: cards not in this variant's deck: 9H"):
        replay(load_record_text(json.dumps(data)), build_registry(autoload=False))
    with pytest.raises(RecordError, match="unknown option 'tie' for schnapsen"):
        replay(
            load_record_text(Record("schnapsen", {"tie": "draw"}, None, []).dumps()),
            build_registry(autoload=False),
        )


def test_cli_replay_json_of_a_schnapsen_match(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sixtysix.cli import cli

    v = schnapsen(claim="manual")
    master = Seed(8)
    bots = [RandomBot(s, master.child(("bot", s))) for s in range(2)]
    result = play_match(v, [b.choose for b in bots], master)
    path = tmp_path / "bummerl.json"
    result.record.save(path)
    run = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert run.exit_code == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["variant"] == "schnapsen"
    assert [d["result"] for d in out["deals"]] == [o.as_json() for o in result.outcomes]
    assert out["match"] == {"game_points": result.totals, "winners": result.winners}
    plain = CliRunner().invoke(cli, ["replay", str(path)])
    assert plain.exit_code == 0 and plain.stdout.strip()


def test_cli_replay_refuses_an_illegal_schnapsen_record(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sixtysix.cli import cli

    path = tmp_path / "bad.json"
    actions: list[tuple[int, int]] = [
        (0, parse_action("close")),
        (0, parse_action("play AS")),
        (1, parse_action("play KD")),
    ]
    Record("schnapsen", {}, None, [DealRecord(DEAL_A, actions)]).save(path)
    run = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.strip() == (
        "deal 1, step 3: seat 1 cannot play KD: must follow suit (JS, QS)"
    )


# ------------------------------------------------------------------- properties of random play


def _card_set(mask: int) -> set[str]:
    return {CARD_NAMES[c] for c in iter_mask(mask)}


def _check_invariants(state: DealState) -> None:
    trick = 0
    for _, c in state.trick:
        trick |= 1 << c
    parts = [*state.hands, *state.won, trick, sum(1 << c for c in state.talon)]
    if state.turnup >= 0:
        parts.append(1 << state.turnup)
    union = 0
    for part in parts:
        assert union & part == 0, "a card is in two places"
        union |= part
    assert union == DECK20 and sum(p.bit_count() for p in parts) == 20
    for s in range(2):
        assert state.card_points[s] == mask_points(state.won[s])
    assert sum(mask_points(p) for p in parts) == 120
    assert state.bonus == [0, 0]
    if state.is_over:
        assert state.legal_actions() == []
    else:
        assert state.legal_actions(), "no legal action before the end"


def _check_views(state: DealState) -> None:
    talon_cards = set(state.talon)
    for seat in range(2):
        other = 1 - seat
        view = state.view(seat)
        assert {int(c) for c in view.hand} == set(iter_mask(state.hands[seat]))
        assert view.talon_size == state.talon_size
        assert {int(c) for c in view.known[other]} <= set(iter_mask(state.hands[other]))
        hidden = set(iter_mask(state.hands[other] & ~state.known[other])) | talon_cards
        shown: set[int] = {int(c) for c in view.hand} | {int(c) for c in view.played}
        shown |= {int(c) for k in view.known for c in k} | {int(c) for _, c in view.trick}
        if view.turnup is not None:
            shown.add(int(view.turnup))
        shown |= {int(a) for a in view.legal_actions if a.is_play}
        shown |= {int(a) for _, a in view.history if a.is_play}
        assert not shown & hidden
        text = repr(view)
        for c in hidden:
            assert f"Card({CARD_NAMES[c]})" not in text and f"play {CARD_NAMES[c]}" not in text


@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations(list(iter_mask(DECK20))),
    dealer=st.integers(0, 1),
    claim=st.sampled_from(["auto", "manual"]),
    choices=st.lists(st.integers(0, 2**16), min_size=40, max_size=40),
)
def test_random_legal_play(
    order: list[int], dealer: int, claim: str, choices: Sequence[int]
) -> None:
    v = schnapsen(claim=claim)
    deal = deal_from_order(v.rules, order, dealer)
    deal.validate(v.rules)
    state = v.new_deal(deal)
    step = 0
    while not state.is_over:
        _check_invariants(state)
        _check_views(state)
        options = state.legal_actions()
        pick = options[choices[step % len(choices)] % len(options)]
        if pick == CLAIM and choices[(step + 1) % len(choices)] % 4:
            # Claims end the deal at once; make them rarer so that play goes deeper.
            pick = options[0]
        state.apply(pick)
        step += 1
    _check_invariants(state)
    _check_views(state)
    outcome = state.outcome
    assert outcome is not None
    event(f"{claim}: {outcome.reason}{' after a close' if state.closed_by >= 0 else ''}")
    gp = outcome.game_points
    assert set(gp) <= {0, 1, 2, 3}
    assert sum(gp) >= 1  # somebody always scores in Schnapsen
    assert outcome.points == tuple(state.valid_points(s) for s in range(2))
    assert outcome.tricks == tuple(state.tricks) and sum(outcome.tricks) <= 10
    if outcome.reason == Reason.LAST_TRICK:
        assert gp[state.last_winner] == 1 and sum(gp) == 1
        assert state.closed_by < 0 and max(outcome.points) < 66
    if outcome.reason == Reason.FAILED_CLOSE:
        opponent = 1 - state.closed_by
        assert gp[opponent] == (3 if state.close_tricks[opponent] == 0 else 2)
    if outcome.reason == Reason.REACHED_66 and state.closed_by >= 0:
        closer = state.closed_by
        assert gp[closer] == schneider_scale(
            state.close_points[1 - closer], state.close_tricks[1 - closer]
        )
    # Replaying the history on a fresh state from the same setup gives the same outcome.
    again = v.new_deal(deal)
    for seat, action in state.history:
        assert again.to_act == seat
        again.apply(action)
    assert again.outcome == outcome
