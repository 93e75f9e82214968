"""Three-player 66 with a called trump: every rule of RULES.md from hand-built positions.

Unless a test says otherwise the dealer is seat 2, so seat 0 is the forehand and declarer and
seats 1 and 2 are the partners; play goes 0 -> 1 -> 2.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import fields
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import event, given, settings
from hypothesis import strategies as st

import sixtysix.variants.sixtysix_3 as sixtysix_3_module
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import ACTION_NAMES, CONCEDE, MARRY, NUM_ACTIONS, parse_action
from sixtysix.core.cards import (
    CARDS,
    FULL_DECK,
    POINTS,
    SUITS,
    iter_mask,
    mask_of,
    mask_points,
    parse_card,
)
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.errors import IllegalActionError, OptionError, RecordError
from sixtysix.core.match import play_deal, play_match
from sixtysix.core.outcome import Reason
from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.view import View
from sixtysix.plugins.manager import build_registry
from sixtysix.variants.sixtysix_3 import SixtySix3, SixtySix3Options
from tests.helpers import act, cards, deal, legal

C = parse_card
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TRUMPS = ["trump C", "trump D", "trump H", "trump S", "trump below"]


def v3(**opts: object) -> SixtySix3:
    return SixtySix3.configure(None, opts)


def illegal(state: DealState, action: str, message: str) -> None:
    """``action`` must be refused with exactly ``message`` (and leave the state unchanged)."""
    before = list(state.history)
    with pytest.raises(IllegalActionError, match="^" + re.escape(message) + "$"):
        act(state, action)
    assert state.history == before


def card_set(text: str) -> set[int]:
    return set(cards(text))


# A deal where only heading matters (trump S after the call).
HEAD = [
    "9C TC 9D JD QD KD 9H JH",
    "JC KC TD AD QH KH TH 9S",
    "QC AC AH JS QS KS TS AS",
]
# Seat 1 is void in clubs and diamonds and holds 9S QS AS; seat 2 is void in diamonds.
VOID = [
    "KC JC 9D JD QD KD TD AD",
    "9S QS AS 9H JH QH KH TH",
    "9C QC TC AC AH JS KS TS",
]


# --------------------------------------------------------------------------- metadata, options


def test_names_aliases_seats_and_registration() -> None:
    reg = build_registry(autoload=False, extra=(sixtysix_3_module,))
    assert reg.variant("sixtysix-3") is SixtySix3
    assert reg.variant("66-3") is SixtySix3
    assert reg.variant(" SIXTYSIX-3 ") is SixtySix3
    assert SixtySix3.seats == 3 and SixtySix3.aliases == ("66-3",)
    assert not reg.errors


def test_options_exactly_as_the_table() -> None:
    specs = {s.name: s for s in SixtySix3Options.specs()}
    assert list(specs) == [
        "claim",
        "open_scores",
        "marriages",
        "schneider_card_points_only",
        "target",
        "must_overtrump",
        "no66",
    ]
    defaults = {name: s.default for name, s in specs.items()}
    assert defaults == {
        "claim": "auto",
        "open_scores": False,
        "marriages": True,
        "schneider_card_points_only": False,
        "target": 16,
        "must_overtrump": False,
        "no66": "draw",
    }
    assert specs["claim"].choices == ("auto",)
    assert specs["no66"].choices == ("draw", "last_trick_wins")
    assert v3().target == 16 and v3(target=21).target == 21
    assert v3(target="21").options.diff() == {"target": 21}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("claim", "manual"),
        ("no66", "tie"),
        ("exchange", True),
        ("closing", True),
        ("tie", "draw"),
        ("trump_from_below", True),
        ("solo_loss", "double"),
        ("target", 0),
    ],
)
def test_other_options_and_bad_values_are_errors(name: str, value: object) -> None:
    with pytest.raises(OptionError):
        v3(**{name: value})


def test_rules_knobs() -> None:
    r = v3().rules
    assert r.seats == 3 and r.deck == FULL_DECK and r.deal_rounds == (4, 4) and r.hand_size == 8
    assert r.trump_call and r.call_after == 4 and r.trump_below and not r.partner_call
    assert r.strict_always and r.concession and r.concede_points == 33
    assert not (r.exchange or r.closing or r.manual_claim or r.last_trick_bonus)
    assert r.turnup_after_round is None and not r.must_overtrump
    assert v3(must_overtrump=True).rules.must_overtrump
    assert not v3(marriages=False).rules.marriages


def test_summary_describes_the_game() -> None:
    text = SixtySix3().summary()
    for words in ("8 cards", "4 and 4", "from below", "declarer", "partners", "concede", "16"):
        assert words in text
    assert {o["name"] for o in SixtySix3().options_json()} == set(
        s.name for s in SixtySix3Options.specs()
    )


# --------------------------------------------------------------------------- deal and trump call


def test_deal_four_and_four_no_talon_forehand_after_dealer() -> None:
    v = v3()
    setup = deal_from_order(v.rules, list(range(24)), dealer=1)
    # Forehand is seat 2: it gets cards 0-3, then seat 0 4-7, seat 1 8-11; then 4 more each.
    assert setup.hands[2] == (0, 1, 2, 3, 12, 13, 14, 15)
    assert setup.hands[0] == (4, 5, 6, 7, 16, 17, 18, 19)
    assert setup.hands[1] == (8, 9, 10, 11, 20, 21, 22, 23)
    assert setup.trump_card is None and setup.talon == ()
    state = v.new_deal(setup)
    assert state.phase == Phase.TRUMP_CALL and state.to_act == 2 and state.trump == -1
    assert state.talon_size == 0


def test_forehand_sees_exactly_his_first_four_cards_before_the_call() -> None:
    state = deal(v3(), HEAD, dealer=2)
    view = state.view(0)
    assert view.phase == Phase.TRUMP_CALL and view.my_turn
    assert view.hand == tuple(sorted(CARDS[c] for c in cards("9C TC 9D JD")))
    assert len(view.hand) == 4
    assert view.trump is None and view.declarer is None
    assert [str(a) for a in view.legal_actions] == TRUMPS
    # The other seats see their first four cards too, and have nothing to do.
    for seat, first in ((1, "JC KC TD AD"), (2, "QC AC AH JS")):
        other = state.view(seat)
        assert set(other.hand) == card_set(first) and other.legal_actions == ()
    # Before trump is named nothing else is legal.
    illegal(
        state,
        "play 9C",
        "seat 0 cannot play 9C: trump must be named first (trump C, D, H or S, or trump below)",
    )
    illegal(
        state,
        "concede",
        "seat 0 cannot concede: trump must be named first (trump C, D, H or S, or trump below)",
    )
    act(state, "trump S")
    after = state.view(0)
    assert len(after.hand) == 8 and set(after.hand) == card_set(HEAD[0])
    assert after.trump == SPADES and after.declarer == 0
    assert len(state.view(1).hand) == 8


def test_trump_call_view_does_not_depend_on_the_last_four_cards() -> None:
    """Two deals that differ only in the forehand's last four cards give the same decision."""
    a = deal(v3(), HEAD, dealer=2)
    # Swap the forehand's last four with seat 1's last four.
    h0, h1, h2 = (cards(h) for h in HEAD)
    swapped = DealSetup(2, (h0[:4] + h1[4:], h1[:4] + h0[4:], h2), None, ())
    swapped.validate(a.rules)
    b = SixtySix3().new_deal(swapped)
    assert a.view(0) == b.view(0)

    def most_common_suit(view: View) -> int:
        """A person or bot deciding from the view alone: trump the longest of the four."""
        counts = [sum(1 for c in view.hand if c.suit == s) for s in range(4)]
        choice = parse_action("trump " + SUITS[counts.index(max(counts))])
        assert choice in view.legal_actions
        return choice

    assert most_common_suit(a.view(0)) == most_common_suit(b.view(0)) == parse_action("trump C")


def test_players_are_asked_with_the_four_card_view() -> None:
    seen: list[View] = []
    bots = [RandomBot(s, Seed(3)) for s in range(3)]

    def player(view: View) -> int:
        seen.append(view)
        return bots[view.seat].choose(view)

    state = deal(v3(), HEAD, dealer=2)
    play_deal(state, [player] * 3)
    first = seen[0]
    assert first.phase == Phase.TRUMP_CALL and first.seat == 0 and len(first.hand) == 4
    assert ACTION_NAMES[state.history[0][1]] in TRUMPS
    assert all(len(v.hand) <= 8 for v in seen[1:]) and seen[1].phase == Phase.PLAY


def test_named_trump_declarer_leads_and_sides() -> None:
    state = deal(v3(), HEAD, dealer=0)  # forehand is seat 1
    assert state.to_act == 1
    act(state, "trump D")
    assert state.trump == DIAMONDS and state.declarer == 1
    assert state.to_act == state.leader == 1
    assert state.sides[1] != state.sides[0] == state.sides[2]
    assert state.view(2).declarer == 1 and state.view(2).partner is None
    assert state.known == [0, 0, 0]


def test_trump_from_below_shows_the_eighth_card_to_everyone() -> None:
    state = deal(v3(), HEAD, dealer=0)  # forehand seat 1, whose 8th card is 9S
    act(state, "trump below")
    nine = C("9S")
    assert state.trump == SPADES and state.from_below == nine and state.declarer == 1
    for seat in range(3):
        view = state.view(seat)
        assert view.trump == SPADES
        assert view.known[1] == frozenset({nine})
        assert view.known[0] == view.known[2] == frozenset()
        assert (1, "trump below") in [(s, str(a)) for s, a in view.history]
        assert (nine in view.hand) == (seat == 1)
        assert nine not in view.unseen()
    assert state.view(1).legal_actions and len(state.view(1).hand) == 8  # he keeps it
    # Playing it removes it from the known cards.
    act(state, "9S")
    assert state.known[1] == 0


def test_trump_below_takes_the_suit_of_the_last_card() -> None:
    # HEAD with 9S and 9H swapped: the forehand's (seat 1's) last card is now 9H.
    hands = ["9C TC 9D JD QD KD 9S JH", "JC KC TD AD QH KH TH 9H", HEAD[2]]
    state = deal(v3(), hands, dealer=0)
    act(state, "trump below")
    assert state.trump == HEARTS


# --------------------------------------------------------------------------- play duties


def test_follow_and_head_even_when_the_partner_wins() -> None:
    state = act(deal(v3(), HEAD), "trump S", "9C")
    assert legal(state) == ["play JC", "play KC"]
    illegal(state, "9S", "seat 1 cannot play 9S: must follow suit with a higher club (JC, KC)")
    act(state, "KC")
    # Partner seat 1 is winning; seat 2 must still beat the king (not just the led nine).
    assert legal(state) == ["play AC"]
    illegal(state, "QC", "seat 2 cannot play QC: must follow suit with a higher club (AC)")
    act(state, "AC")
    assert state.tricks == [0, 0, 1] and state.card_points == [0, 0, 15]
    assert state.to_act == state.leader == 2


def test_follow_without_heading_when_no_higher_card() -> None:
    state = act(deal(v3(), HEAD), "trump S", "TC")
    # Seat 1 holds JC KC, neither beats the ten: any club, but a club.
    assert legal(state) == ["play JC", "play KC"]
    illegal(state, "9S", "seat 1 cannot play 9S: must follow suit (JC, KC)")
    act(state, "KC")
    # Seat 2 holds QC AC: the ten is still the highest club, and only the ace beats it.
    assert legal(state) == ["play AC"]


def test_void_follower_must_trump_any_trump_by_default() -> None:
    state = act(deal(v3(), VOID), "trump S", "KC")
    assert legal(state) == ["play 9S", "play AS", "play QS"]
    illegal(state, "9H", "seat 1 cannot play 9H: must trump (9S, QS, AS)")


def test_no_duty_to_head_once_a_non_trump_lead_is_trumped() -> None:
    state = act(deal(v3(), VOID), "trump S", "KC", "9S")
    # Seat 2 holds 9C QC TC AC: must follow clubs but need not beat the king.
    assert legal(state) == ["play 9C", "play AC", "play QC", "play TC"]
    illegal(state, "AH", "seat 2 cannot play AH: must follow suit (9C, QC, TC, AC)")
    act(state, "9C")
    assert state.tricks == [0, 1, 0] and state.card_points == [0, 4, 0]


def test_trump_lead_must_be_beaten_if_possible() -> None:
    state = act(deal(v3(), VOID), "trump S", "KC", "9S", "AC", "QS")
    assert state.to_act == 2
    assert legal(state) == ["play KS", "play TS"]
    illegal(state, "JS", "seat 2 cannot play JS: must follow suit with a higher spade (KS, TS)")
    act(state, "TS")
    # The declarer holds no spades: any card.
    assert legal(state) == sorted("play " + c for c in "JC 9D JD QD KD TD AD".split())


def test_must_overtrump_off_any_trump_will_do() -> None:
    state = act(deal(v3(), VOID), "trump S", "9D", "QS")
    assert legal(state) == ["play JS", "play KS", "play TS"]


def test_must_overtrump_on_beat_the_highest_trump() -> None:
    state = act(deal(v3(must_overtrump=True), VOID), "trump S", "9D", "QS")
    assert legal(state) == ["play KS", "play TS"]
    illegal(state, "JS", "seat 2 cannot play JS: must overtrump (KS, TS)")


def test_must_overtrump_on_still_trump_when_unable_to_overtrump() -> None:
    state = act(deal(v3(must_overtrump=True), VOID), "trump S", "9D", "AS")
    assert legal(state) == ["play JS", "play KS", "play TS"]
    illegal(state, "AH", "seat 2 cannot play AH: must trump (JS, KS, TS)")


def test_void_without_trumps_plays_anything() -> None:
    state = act(deal(v3(), VOID), "trump H", "KC")
    # Seat 1: no clubs; hearts are trump now, so it must trump with a heart.
    assert legal(state) == sorted("play " + c for c in "9H JH QH KH TH".split())
    state = act(deal(v3(), VOID), "trump D", "KC")
    # Diamonds trump, seat 1 has neither clubs nor diamonds: any card.
    assert legal(state) == sorted("play " + c for c in VOID[1].split())


# --------------------------------------------------------------------------- marriages, 66


def test_marriage_on_first_lead_pending_until_declarer_wins_then_reaches_66() -> None:
    hands = [
        "AS TS KS QS JS 9S AH TH",
        "AC TC KC QC TD KD QD JD",
        "AD JC 9C 9D KH QH JH 9H",
    ]
    state = act(deal(v3(), hands), "trump S")
    assert "marry S" in legal(state) and "concede" in legal(state)
    act(state, "marry S")
    assert legal(state) == ["play KS", "play QS"]
    illegal(
        state, "AS", "seat 0 cannot play AS: must lead KS or QS after declaring the spades marriage"
    )
    assert state.marriage_points[0] == 40 and state.valid_points(0) == 0 and not state.is_over
    act(state, "KS", "AC", "AD")
    # 4 + 11 + 11 = 26 card points and the 40, valid now: exactly 66 after the first trick.
    assert state.outcome is not None
    assert state.outcome.reason == Reason.REACHED_66
    assert state.outcome.points == (66, 0, 0)
    assert state.outcome.game_points == (3, 0, 0)


def test_auto_claim_at_marry_when_the_side_has_a_trick() -> None:
    hands = [
        "AS KS QS 9C JC 9D JD 9H",
        "TS JS 9S AC KC AD KD KH",
        "TC QC TD QD AH TH QH JH",
    ]
    state = act(deal(v3(), hands), "trump S", "AS", "TS", "AH")
    assert state.card_points == [32, 0, 0] and state.to_act == 0
    act(state, "marry S")
    assert state.is_over and state.outcome is not None
    assert state.outcome.reason == Reason.REACHED_66
    assert state.outcome.points == (72, 0, 0) and state.outcome.game_points == (3, 0, 0)
    assert state.hands[0] & mask_of(cards("KS QS")) == mask_of(cards("KS QS"))


def test_pending_marriage_forfeited_and_partners_pool_to_66() -> None:
    hands = [
        "9C JC 9D JD KH QH 9S JS",
        "AC KC AD KD AH JH AS KS",
        "TC QC TD QD TH 9H TS QS",
    ]
    state = act(deal(v3(), hands), "trump S", "marry H", "QH")
    assert legal(state) == ["play AH"]
    act(state, "AH")
    assert legal(state) == ["play 9H", "play TH"]
    act(state, "TH")  # seat 1 wins 3 + 11 + 10 = 24
    act(state, "KC")
    assert legal(state) == ["play TC"]
    act(state, "TC", "9C")  # seat 2 wins 4 + 10 + 0 = 14: partners 38 pooled
    assert state.side_points(state.sides[1]) == 38 and not state.is_over
    act(state, "TD", "9D")
    assert legal(state) == ["play AD"]
    act(state, "AD")  # seat 1 wins 21: 59
    act(state, "AS", "QS", "9S")  # seat 1 wins 14: 73, neither partner alone at 66
    out = state.outcome
    assert out is not None and out.reason == Reason.REACHED_66
    assert out.points == (0, 59, 14) and out.tricks == (0, 3, 1)
    # The declarer's 20 never became valid; each partner scores 3 (declarer took no trick).
    assert state.marriage_points[0] == 20
    assert out.game_points == (0, 3, 3)


def test_marriages_off() -> None:
    state = act(deal(v3(marriages=False), DECL3), "trump S")
    assert not any(a.startswith("marry") for a in legal(state))
    illegal(state, "marry S", "seat 0 cannot marry S: marriages are off (option marriages)")


# --------------------------------------------------------------------------- scoring


DECL3 = [
    "AS TS KS QS JS 9S AH TH",
    "AC TC KC QC AD TD KD QD",
    "JC 9C JD 9D KH QH JH 9H",
]
DECL3_PLAY = ["trump S", "AS", "QC", "9C", "TS", "KC", "JC", "KS", "TC", "9D"]
DECL3_REST = ["QS", "AC", "JD", "JS", "QD", "9H", "9S", "KD", "JH"]


def test_declarer_wins_3_when_partners_take_no_trick() -> None:
    state = act(deal(v3(), DECL3), *DECL3_PLAY, *DECL3_REST)
    # Tricks of 14, 16, 14, 16, 5, 6 points: 71 after the sixth trick ends the deal.
    out = state.outcome
    assert out is not None and out.reason == Reason.REACHED_66
    assert out.points == (71, 0, 0) and out.tricks == (6, 0, 0)
    assert out.game_points == (3, 0, 0)
    assert state.hands[0] and state.hands[1]  # ended before the cards ran out


DECL2 = [
    "AS TS KS QS JS 9S AH KH",
    "AC TC KC QC AD TD KD QD",
    "JC 9C JD 9D TH QH JH 9H",
]


def test_declarer_wins_2_when_partners_have_a_trick_below_33() -> None:
    state = act(deal(v3(), DECL2), "trump S", "KH", "QC", "TH")  # seat 2: 17
    act(state, "9C")
    assert legal(state) == sorted("play " + c for c in "9S JS QS KS TS AS".split())
    act(state, "9S")
    assert legal(state) == ["play AC", "play KC", "play TC"]  # trumped: no need to head
    act(state, "KC")
    act(state, "AS", "TC", "JC", "TS", "AC", "9D", "KS", "TD", "JD", "QS", "AD", "9H")
    out = state.outcome
    assert out is not None and out.reason == Reason.REACHED_66
    assert out.points == (78, 0, 17) and out.tricks == (5, 0, 1)
    assert out.game_points == (2, 0, 0)


DECL1 = [
    "AS TS KS QS JS 9S AH KH",
    "AC TC KC QC AD TD JD 9D",
    "JC 9C KD QD TH QH JH 9H",
]
DECL1_PLAY = ["trump S", "KH", "AC", "TH", "marry D", "QD", "9S", "9D"]
DECL1_REST = ["AS", "AD", "KD", "TS", "TD", "QH", "KS", "TC", "JC"]


def test_declarer_wins_1_when_partners_have_33_with_a_marriage() -> None:
    state = act(deal(v3(), DECL1), *DECL1_PLAY, *DECL1_REST)
    out = state.outcome
    assert out is not None and out.reason == Reason.REACHED_66
    # Partners: 25 card points (one trick) + a 20 marriage = 45.
    assert out.points == (68, 0, 45) and out.tricks == (4, 0, 1)
    assert out.game_points == (1, 0, 0)


def test_partner_marriage_counts_for_the_side_at_once() -> None:
    state = act(deal(v3(), DECL1), "trump S", "KH", "AC", "TH")
    assert state.to_act == 2 and state.tricks == [0, 0, 1]
    act(state, "marry D")
    assert state.valid_points(2) == 25 + 20 and state.side_points(state.sides[2]) == 45
    assert legal(state) == ["play KD", "play QD"]


def test_schneider_card_points_only_declarer_side() -> None:
    state = act(deal(v3(schneider_card_points_only=True), DECL1), *DECL1_PLAY, *DECL1_REST)
    out = state.outcome
    assert out is not None
    assert out.points == (68, 0, 45)  # the result still reports valid points
    assert out.game_points == (2, 0, 0)  # but 25 card points < 33


PARTNERS2 = [
    "AS 9S 9C JC 9D JD 9H JH",
    "KS JS AC KC AD KD AH KH",
    "QS TS TC QC TD QD TH QH",
]


def test_partners_win_each_scores_2_from_the_declarers_small_trick() -> None:
    state = act(deal(v3(), PARTNERS2), "trump S", "AS")
    assert legal(state) == ["play JS", "play KS"]
    act(state, "KS", "QS")  # declarer 18
    act(state, "9C", "AC", "TC", "AD", "TD", "9D", "AH", "TH", "9H", "KC", "QC", "JC")
    out = state.outcome
    assert out is not None and out.reason == Reason.REACHED_66
    assert out.points == (18, 72, 0) and out.tricks == (1, 4, 0)
    assert out.game_points == (0, 2, 2)


PARTNERS1 = [
    "AS KS QS 9C JC 9D JD 9H",
    "TS JS AC KC AD KD AH KH",
    "9S TC QC TD QD TH QH JH",
]
# Declarer 13 in the first trick, then a valid 40: 53; seat 1 takes KS with TS.
PARTNERS1_PLAY = ["trump S", "AS", "JS", "9S", "marry S", "KS", "TS", "JH", "AC", "TC"]


def test_partners_win_each_scores_1_when_declarer_has_33() -> None:
    state = act(deal(v3(), PARTNERS1), *PARTNERS1_PLAY)
    act(state, "9C", "AD", "TD", "9D", "AH", "TH", "9H")
    out = state.outcome
    assert out is not None and out.reason == Reason.REACHED_66
    assert out.points == (53, 79, 0) and out.tricks == (1, 4, 0)
    assert out.game_points == (0, 1, 1)


def test_schneider_card_points_only_partners_side() -> None:
    state = act(deal(v3(schneider_card_points_only=True), PARTNERS1), *PARTNERS1_PLAY)
    act(state, "9C", "AD", "TD", "9D", "AH", "TH", "9H")
    out = state.outcome
    assert out is not None and out.points == (53, 79, 0)
    assert out.game_points == (0, 2, 2)  # the declarer's 13 card points < 33


NO66 = [
    "AC 9C AD 9D AH 9H AS 9S",
    "TC JC TD JD TH JH TS JS",
    "KC QC KD QD KH QH KS QS",
]
NO66_PLAY = [
    "trump S",
    *("AC JC QC AD JD QD AH JH QH AS JS QS".split()),  # 4 x 16 = 64 to the declarer
    *("9C TC KC TD KD 9D TH KH 9H TS KS 9S".split()),  # 4 x 14 = 56 to seat 1
]


@pytest.mark.parametrize(
    ("no66", "reason", "game_points"),
    [("draw", Reason.DRAW, (0, 0, 0)), ("last_trick_wins", Reason.LAST_TRICK, (0, 1, 1))],
)
def test_nobody_at_66_partners_took_the_last_trick(
    no66: str, reason: Reason, game_points: tuple[int, ...]
) -> None:
    state = act(deal(v3(no66=no66), NO66), *NO66_PLAY)
    out = state.outcome
    assert out is not None and not any(state.hands)
    assert out.points == (64, 56, 0) and out.tricks == (4, 4, 0)
    assert state.last_winner == 1
    assert out.reason == reason and out.game_points == game_points


NO66_DECLARER_LAST = [
    "AC 9S AD 9C 9H QS JH TD",
    "AS JD QH AH JC KS 9D TC",
    "QC KC QD KH KD JS TH TS",
]
NO66_DECLARER_LAST_PLAY = [
    "trump H",
    *"AC TC KC  JH AH TH  KS TS 9S  KH 9H QH  KD AD 9D  QS AS JS  JC QC 9C  QD TD JD".split(),
]


@pytest.mark.parametrize(
    ("no66", "reason", "game_points"),
    [("draw", Reason.DRAW, (0, 0, 0)), ("last_trick_wins", Reason.LAST_TRICK, (1, 0, 0))],
)
def test_nobody_at_66_declarer_took_the_last_trick(
    no66: str, reason: Reason, game_points: tuple[int, ...]
) -> None:
    state = deal(v3(no66=no66, marriages=False), NO66_DECLARER_LAST)
    act(state, *NO66_DECLARER_LAST_PLAY)
    out = state.outcome
    assert out is not None and not any(state.hands)
    # Partners pool 65: one short of 66.
    assert out.points == (55, 39, 26) and sum(out.points[1:]) == 65
    assert state.last_winner == 0
    assert out.reason == reason and out.game_points == game_points


# --------------------------------------------------------------------------- concession


@pytest.mark.parametrize(("dealer", "expected"), [(2, (0, 2, 2)), (0, (2, 0, 2)), (1, (2, 2, 0))])
def test_concede_before_the_first_card_each_partner_2(
    dealer: int, expected: tuple[int, ...]
) -> None:
    state = act(deal(v3(), DECL3, dealer=dealer), "trump S")
    declarer = (dealer + 1) % 3
    assert state.to_act == declarer and "concede" in legal(state)
    act(state, "concede")
    out = state.outcome
    assert out is not None and out.reason == Reason.CONCEDED
    assert out.game_points == expected and out.points == (0, 0, 0)


def test_only_the_declarer_concedes() -> None:
    state = act(deal(v3(), DECL3), "trump S", "AS")
    assert "concede" not in legal(state)
    illegal(state, "concede", "seat 1 cannot concede: only the declarer may concede")


def test_no_concession_between_the_first_card_and_33_points() -> None:
    state = act(deal(v3(), DECL3), "trump S", "AS", "QC", "9C")
    assert state.valid_points(0) == 14 and state.to_act == 0
    assert "concede" not in legal(state)
    illegal(
        state,
        "concede",
        "seat 0 cannot concede: a card has been played and the declarer has fewer than 33"
        " valid points",
    )


def test_concede_later_with_33_each_partner_1() -> None:
    state = act(deal(v3(), DECL3), *DECL3_PLAY)
    assert state.valid_points(0) == 44
    assert "concede" in legal(state)
    act(state, "concede")
    out = state.outcome
    assert out is not None and out.reason == Reason.CONCEDED
    assert out.game_points == (0, 1, 1) and out.points == (44, 0, 0)


def test_concede_while_following() -> None:
    state = act(deal(v3(), PARTNERS1), *PARTNERS1_PLAY)
    assert state.to_act == 0 and state.trick  # the declarer follows
    assert state.valid_points(0) == 53
    assert legal(state) == ["concede", "play 9C", "play JC"]
    act(state, "concede")
    out = state.outcome
    assert out is not None and out.reason == Reason.CONCEDED and out.game_points == (0, 1, 1)


def test_no_concession_right_after_own_marry() -> None:
    state = act(deal(v3(), PARTNERS1), *PARTNERS1_PLAY[:4])
    assert state.valid_points(0) == 13 and "concede" not in legal(state)
    act(state, "marry S")
    assert state.valid_points(0) == 53  # 33 or more, but he has just married
    assert legal(state) == ["play KS", "play QS"]
    illegal(
        state, "concede", "seat 0 cannot concede: cannot concede right after declaring a marriage"
    )
    # Before the first card too: after marrying he must lead the king or queen.
    first = act(deal(v3(), PARTNERS1), "trump S")
    assert "concede" in legal(first)
    act(first, "marry S")
    assert legal(first) == ["play KS", "play QS"]
    act(first, "KS")
    assert "concede" not in legal(first)


def test_pending_marriage_does_not_count_for_concession() -> None:
    hands = [
        "9C JC 9D JD KH QH 9S JS",
        "AC KC AD KD AH JH AS KS",
        "TC QC TD QD TH 9H TS QS",
    ]
    state = act(deal(v3(), hands), "trump H", "marry H", "QH", "AH", "9H", "AC", "QC")
    assert state.to_act == 0 and state.marriage_points[0] == 40 and state.valid_points(0) == 0
    assert legal(state) == ["play 9C", "play JC"]


# --------------------------------------------------------------------------- match, records


def test_dealer_and_forehand_move_on_each_deal() -> None:
    v = v3()
    bots = [RandomBot(s, Seed(11)) for s in range(3)]
    result = play_match(v, [b.choose for b in bots], Seed(5))
    dealers = [d.setup.dealer for d in result.record.deals]
    assert len(dealers) >= 3
    for prev, nxt in itertools.pairwise(dealers):
        assert nxt == (prev + 1) % 3
    for d in result.record.deals:
        seat, first = d.actions[0]
        assert seat == (d.setup.dealer + 1) % 3 and ACTION_NAMES[first] in TRUMPS
    assert [v.next_dealer(s) for s in range(3)] == [1, 2, 0]


@pytest.mark.parametrize("target", [16, 21])
def test_match_to_the_target(target: int) -> None:
    v = v3(target=target)
    bots = [RandomBot(s, Seed(2)) for s in range(3)]
    result = play_match(v, [b.choose for b in bots], Seed(target))
    totals = result.totals
    assert max(totals) >= target
    before = [t - g for t, g in zip(totals, result.outcomes[-1].game_points, strict=True)]
    assert max(before) < target
    assert result.winners == [s for s in range(3) if totals[s] == max(totals)]
    assert v.match_winners([target - 1, 0, 3]) == []
    assert v.match_winners([target, target, 1]) == [0, 1]


def test_record_round_trip_and_replay_json() -> None:
    v = v3(target=21, no66="last_trick_wins")
    bots = [RandomBot(s, Seed(9)) for s in range(3)]
    result = play_match(v, [b.choose for b in bots], Seed(4))
    data = json.loads(result.record.dumps())
    assert data["variant"] == "sixtysix-3"
    assert data["options"] == {"target": 21, "no66": "last_trick_wins"}
    for d in data["deals"]:
        assert d["trump_card"] is None and d["talon"] == []
        assert [len(h) for h in d["hands"]] == [8, 8, 8]
    reg = build_registry(autoload=False, extra=(sixtysix_3_module,))
    rep = replay(load_record_text(result.record.dumps()), reg)
    out = rep.as_json()
    assert out["variant"] == "sixtysix-3"
    assert out["match"] == {"game_points": result.totals, "winners": result.winners}
    deals = out["deals"]
    assert isinstance(deals, list)
    for deal_json, outcome in zip(deals, result.outcomes, strict=True):
        assert deal_json["result"] == outcome.as_json()
        first = deal_json["steps"][0]
        assert first["legal"] == sorted(TRUMPS)
        for step in deal_json["steps"]:
            assert step["legal"] == sorted(step["legal"]) and step["action"] in step["legal"]


def test_replay_names_an_illegal_step() -> None:
    setup = deal(v3(), HEAD).setup
    history = [(0, int(parse_action(a))) for a in ("trump S", "play 9C")]
    history.append((1, int(parse_action("play 9S"))))
    record = Record("66-3", {}, None, [DealRecord(setup, history)])
    reg = build_registry(autoload=False, extra=(sixtysix_3_module,))
    with pytest.raises(RecordError) as err:
        replay(load_record_text(record.dumps()), reg)
    assert str(err.value) == (
        "deal 1, step 3: seat 1 cannot play 9S: must follow suit with a higher club (JC, KC)"
    )


@pytest.fixture
def cli_with_66_3() -> click.Command:
    """The CLI; the plugin is found through the built-in entry points."""
    from sixtysix.cli import cli

    return cli


def test_cli_rules_describes_it(cli_with_66_3: click.Command) -> None:
    result = CliRunner().invoke(cli_with_66_3, ["rules", "66-3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["name"] == "sixtysix-3" and data["aliases"] == ["66-3"] and data["seats"] == 3
    assert "from below" in data["summary"]
    opts = {o["name"]: o for o in data["options"]}
    assert opts["target"]["default"] == 16 and opts["no66"]["choices"] == [
        "draw",
        "last_trick_wins",
    ]
    result = CliRunner().invoke(cli_with_66_3, ["rules", "66-3", "-o", "claim=manual"])
    assert result.exit_code == 2


def test_cli_replay_json(cli_with_66_3: click.Command, tmp_path: Path) -> None:
    bots = [RandomBot(s, Seed(1)) for s in range(3)]
    match = play_match(v3(), [b.choose for b in bots], Seed(8))
    path = tmp_path / "game.json"
    match.record.save(path)
    result = CliRunner().invoke(cli_with_66_3, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["variant"] == "sixtysix-3"
    assert data["match"] == {"game_points": match.totals, "winners": match.winners}
    assert [d["result"] for d in data["deals"]] == [o.as_json() for o in match.outcomes]
    # A broken record: one line on stderr, status 2, nothing on stdout.
    bad = json.loads(match.record.dumps())
    actions = bad["deals"][0]["actions"]
    actions[0]["action"] = "exchange"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = CliRunner().invoke(cli_with_66_3, ["replay", "--json", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert "deal 1, step 1: seat" in result.stderr and "cannot exchange" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_record_with_a_talon_is_rejected() -> None:
    setup = deal(v3(), HEAD).setup
    bad = DealSetup(2, setup.hands, C("AS"), ())
    with pytest.raises(RecordError, match="trump_card null"):
        bad.validate(v3().rules)
    short = DealSetup(2, (setup.hands[0][:6], setup.hands[1], setup.hands[2]), None, ())
    with pytest.raises(RecordError, match="seat 0 has 6 cards; 8 are dealt"):
        short.validate(v3().rules)


# --------------------------------------------------------------------------- properties


def reference_follow(hand: list[int], trick: list[int], trump: int, over: bool) -> set[int]:
    """The follower's duties written out independently of the engine (RULES.md, point 10)."""
    led_suit = trick[0] // 6
    same = [c for c in hand if c // 6 == led_suit]
    if same:
        if led_suit != trump and any(c // 6 == trump for c in trick):
            return set(same)
        best = max(c for c in trick if c // 6 == led_suit)
        return set([c for c in same if c > best] or same)
    trumps = [c for c in hand if c // 6 == trump]
    if trumps:
        played_trumps = [c for c in trick if c // 6 == trump]
        if over and played_trumps:
            higher = [c for c in trumps if c > max(played_trumps)]
            if higher:
                return set(higher)
        return set(trumps)
    return set(hand)


def check_view(state: DealState, seat: int) -> None:
    view = state.view(seat)
    for f in fields(View):
        assert not isinstance(getattr(view, f.name), DealState)
    if state.phase == Phase.TRUMP_CALL:
        own = mask_of(state.setup.hands[seat][:4])
    else:
        own = state.hands[seat]
    assert mask_of(view.hand) == own
    played = mask_of(a for _, a in state.history if a < 24)
    assert mask_of(view.played) == played
    for t in range(3):
        # Only public knowledge about other hands: the shown card, declared marriages.
        assert mask_of(view.known[t]) == state.known[t]
        assert state.known[t] & ~state.hands[t] == 0
        if t != seat:
            assert mask_of(view.hand) & state.hands[t] == 0
    public = own | played
    for t in range(3):
        public |= state.known[t]
    assert mask_of(view.unseen()) == FULL_DECK & ~public
    assert view.partner is None and view.called_ace is None and view.turnup is None
    assert view.talon_size == 0
    if state.to_act == seat:
        assert [int(a) for a in view.legal_actions] == state.legal_actions()
    else:
        assert view.legal_actions == ()


@settings(max_examples=120, deadline=None)
@given(
    order=st.permutations(list(range(24))),
    dealer=st.integers(0, 2),
    must_overtrump=st.booleans(),
    marriages=st.booleans(),
    no66=st.sampled_from(["draw", "last_trick_wins"]),
    card_points_only=st.booleans(),
    data=st.data(),
)
def test_random_legal_play(
    order: list[int],
    dealer: int,
    must_overtrump: bool,
    marriages: bool,
    no66: str,
    card_points_only: bool,
    data: st.DataObject,
) -> None:
    variant = SixtySix3(
        SixtySix3Options(
            must_overtrump=must_overtrump,
            marriages=marriages,
            no66=no66,
            schneider_card_points_only=card_points_only,
        )
    )
    setup = deal_from_order(variant.rules, order, dealer)
    setup.validate(variant.rules)
    state = variant.new_deal(setup)
    forehand = (dealer + 1) % 3
    assert state.to_act == forehand
    while not state.is_over:
        # Cards conserved: each card in exactly one hand, one won pile or the current trick.
        places = [*state.hands, *state.won, mask_of(c for _, c in state.trick)]
        assert sum(m.bit_count() for m in places) == 24
        total = 0
        for m in places:
            total |= m
        assert total == FULL_DECK
        for s in range(3):
            assert state.card_points[s] == mask_points(state.won[s])
        # Card points won plus those still in play: always the deck's 120.
        in_play = state.hands[0] | state.hands[1] | state.hands[2] | places[-1]
        assert sum(state.card_points) + sum(POINTS[c] for c in iter_mask(in_play)) == 120
        legal_now = state.legal_actions()
        assert legal_now, "a legal action must exist until the deal ends"
        for seat in range(3):
            check_view(state, seat)
        if state.phase == Phase.PLAY and state.trick:
            hand = list(iter_mask(state.hands[state.to_act]))
            want = reference_follow(hand, [c for _, c in state.trick], state.trump, must_overtrump)
            assert {a for a in legal_now if a < 24} == want
        if CONCEDE in legal_now:
            assert state.to_act == state.declarer
            assert state.played == 0 or state.valid_points(state.declarer) >= 33
        if not marriages:
            assert all(not MARRY <= a < MARRY + 4 for a in legal_now)
        state.apply(data.draw(st.sampled_from(legal_now)))
    for seat in range(3):
        check_view(state, seat)
    out = state.outcome
    assert out is not None
    event(str(out.reason))
    assert state.declarer == forehand and state.history[0][0] == forehand
    assert set(out.game_points) <= {0, 1, 2, 3}
    assert out.points == tuple(state.valid_points(s) for s in range(3))
    assert out.tricks == tuple(state.tricks)
    if not any(state.hands):
        assert sum(state.card_points) == 120
    decl = state.declarer
    partners = [s for s in range(3) if s != decl]
    side_points = {side: state.side_points(side) for side in set(state.sides)}
    if out.reason == Reason.REACHED_66:
        won_decl = out.game_points[decl] > 0
        winner_side = state.sides[decl] if won_decl else state.sides[partners[0]]
        assert side_points[winner_side] >= 66
        if won_decl:
            assert out.game_points[partners[0]] == out.game_points[partners[1]] == 0
        else:
            assert out.game_points[decl] == 0
            assert out.game_points[partners[0]] == out.game_points[partners[1]] > 0
    elif out.reason == Reason.CONCEDED:
        assert ACTION_NAMES[state.history[-1][1]] == "concede" and out.game_points[decl] == 0
        pay = 2 if state.played == 0 else 1
        assert [out.game_points[p] for p in partners] == [pay, pay]
    else:
        assert not any(state.hands) and max(side_points.values()) < 66
        if out.reason == Reason.DRAW:
            assert no66 == "draw" and out.game_points == (0, 0, 0)
        else:
            assert out.reason == Reason.LAST_TRICK and no66 == "last_trick_wins"
            side = state.sides[state.last_winner]
            assert out.game_points == tuple(int(state.sides[s] == side) for s in range(3))
    # Replaying the history on a fresh state reproduces the outcome.
    fresh = variant.new_deal(setup)
    for seat, a in state.history:
        assert fresh.to_act == seat
        fresh.apply(a)
    assert fresh.outcome == out
    assert all(0 <= a < NUM_ACTIONS for _, a in state.history)


@settings(max_examples=80, deadline=None)
@given(order=st.permutations(list(range(24))), dealer=st.integers(0, 2), data=st.data())
def test_what_a_screen_says_a_concession_costs_is_what_settle_scores(
    order: list[int], dealer: int, data: st.DataObject
) -> None:
    """Wherever the declarer may concede, :meth:`conceded_points` of its view (what the
    question says) equals the game points the deal then scores."""
    variant = SixtySix3()
    state = variant.new_deal(deal_from_order(variant.rules, order, dealer))
    seen = 0
    while not state.is_over:
        legal_now = state.legal_actions()
        if CONCEDE in legal_now:
            told = variant.conceded_points(state.view(state.to_act))
            conceded = state.copy()
            conceded.apply(CONCEDE)
            assert conceded.outcome is not None and told == conceded.outcome.game_points
            seen += 1
        state.apply(data.draw(st.sampled_from([a for a in legal_now if a != CONCEDE])))
    event(f"concessions checked: {min(seen, 3)}")
