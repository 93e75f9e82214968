"""Reasons for illegal moves, worked out from the view alone, agree with the engine."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.actions import NUM_ACTIONS, parse_action
from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.i18n import Translator
from sixtysix.service.explain import why_illegal
from tests.helpers import act, deal, position
from tests.play.conftest import make_variant

EN, TR = Translator("en"), Translator("tr")


def code(text: str) -> int:
    return int(parse_action(text))


def test_follow_suit_with_a_higher_card() -> None:
    v = make_variant("sixtysix")
    state = position(
        v, ["KH 9H AS", "QH JC TC"], trump="S", to_act=0, trick="QH", closed_by=1, turnup="9S"
    )
    view = state.view(0)
    assert why_illegal(view, code("play AS"), EN) == (
        "You must follow suit with a higher heart: K♥."
    )
    assert why_illegal(view, code("play 9H"), EN) == (
        "You must follow suit with a higher heart: K♥."
    )
    assert why_illegal(view, code("play 9H"), TR) == "Renge uyup daha büyük bir kupa atmalısın: K♥."
    assert why_illegal(view, code("play KH"), EN) == ""


def test_follow_suit_trump_and_overtrump() -> None:
    v = make_variant("sixtysix")
    s = position(v, ["9H JH AS", "AH JC TC"], trump="S", to_act=0, trick="AH", closed_by=1)
    assert why_illegal(s.view(0), code("play AS"), EN) == "You must follow suit: ♥ hearts (J♥ 9♥)."
    s = position(v, ["9C AS JS", "AH JC TC"], trump="S", to_act=0, trick="AH", closed_by=1)
    assert why_illegal(s.view(0), code("play 9C"), EN) == (
        "You have no hearts, so you must trump: A♠ J♠."
    )
    v3 = make_variant("sixtysix-3", must_overtrump=True)
    s = position(v3, ["9C AS JS", "AH JC TC", "QS KD 9D"], trump="S", to_act=0, trick="AH QS")
    s.phase, s.declarer, s._legal = Phase.PLAY, 1, None
    assert why_illegal(s.view(0), code("play JS"), EN) == (
        "You have no hearts and must overtrump: A♠."
    )
    assert "çakmalısın" in why_illegal(s.view(0), code("play 9C"), TR)


def test_cards_not_held_and_marriage_leads() -> None:
    v = make_variant("sixtysix")
    state = deal(v, ["KH QH AS TS 9C JC", "AC TC KC QC JD 9D"], trump_card="9H", dealer=1)
    view = state.view(0)
    assert why_illegal(view, code("play AC"), EN) == "You do not hold A♣."
    assert why_illegal(view, code("play AC"), TR) == "A♣ sende değil."
    assert why_illegal(view, code("marry S"), EN) == (
        "For that marriage you need the king and the queen of ♠ spades."
    )
    # The nine of trump is the turn-up itself here: holding it is what is missing.
    assert why_illegal(view, code("exchange"), EN) == (
        "You do not hold the trump card for the exchange (9♥)."
    )
    assert why_illegal(view, code("claim"), EN).startswith("Claims are automatic")
    assert why_illegal(view, code("trump S"), EN) == (
        "There is no trump call in this game: trump is the suit of the turn-up."
    )
    act(state, "marry H")
    view = state.view(0)
    assert why_illegal(view, code("play AS"), EN) == (
        "After declaring the marriage in ♥ hearts you must lead its king or queen: K♥ Q♥."
    )
    assert why_illegal(view, code("close"), EN).startswith("After declaring the marriage")
    assert state.view(1).legal_actions == ()
    assert why_illegal(state.view(1), code("play AC"), EN) == "It is not your turn."


def test_calls_and_concession() -> None:
    v4 = make_variant("sixtysix-4")
    state = deal(
        v4,
        ["AH KH QH JH TH 9H", "AC KC QC JC TC 9C", "AD KD QD JD TD 9D", "AS KS QS JS TS 9S"],
        dealer=3,
    )
    assert (
        why_illegal(state.view(0), code("play AH"), EN) == "First name trump: a suit, e.g. trump H."
    )
    assert "trump_from_below" in why_illegal(state.view(0), code("trump below"), EN)
    act(state, "trump H")
    view = state.view(0)
    assert why_illegal(view, code("partner AH"), EN) == (
        "You hold A♥ yourself: call another ace, or play solo."
    )
    assert why_illegal(view, code("partner AC"), EN) == (
        "You hold no clubs, so you cannot call its ace."
    )
    v3 = make_variant("sixtysix-3")
    s3 = deal(
        v3,
        ["AH KH QH JH TH 9H AC KC", "QC JC TC 9C AD KD QD JD", "TD 9D AS KS QS JS TS 9S"],
        dealer=2,
    )
    act(s3, "trump H", "AH")
    assert why_illegal(s3.view(1), code("concede"), EN) == "Only the declarer may concede."
    v2 = make_variant("sixtysix")
    s2 = deal(v2, ["KH QH AS TS 9C JC", "AC TC KC QC JD 9D"], trump_card="9H", dealer=1)
    assert why_illegal(s2.view(0), code("concede"), EN) == "Conceding is not part of this game."


CONFIGS = [
    ("sixtysix", {}),
    ("sixtysix", {"claim": "manual", "marriage_after_close": False}),
    ("sixtysix", {"talonless": True}),
    ("schnapsen", {}),
    ("sixtysix-3", {"must_overtrump": True}),
    ("sixtysix-4", {"trump_from_below": True}),
]

#: The engine's reason (English, from the true state) -> the words of ours (from the view).
AGREEMENT = [
    ("does not hold", "You do not hold"),
    ("must follow suit with a higher", "You must follow suit with a higher"),
    ("must follow suit (", "You must follow suit: "),
    ("must overtrump", "must overtrump"),
    ("must trump", "so you must trump"),
    ("must lead", "you must lead its king or queen"),
]


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False))
def test_every_illegal_action_has_a_reason_that_agrees_with_the_engine(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    name, options = config
    variant = make_variant(name, **options)
    seed = Seed(rnd.getrandbits(32))
    state = variant.new_deal(variant.deal(seed, ("x",), rnd.randrange(variant.seats)))
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        legal = set(state.legal_actions())
        for a in range(NUM_ACTIONS):
            ours = why_illegal(view, a, EN)
            if a in legal:
                assert ours == ""
                continue
            assert ours, f"no reason for {a}"
            assert why_illegal(view, a, TR)
            engine = state.explain(a)
            if a < NUM_CARDS:
                for theirs, mine in AGREEMENT:
                    if engine.startswith(theirs):
                        assert mine in ours, (engine, ours)
                        break
        state.apply_legal(rnd.choice(sorted(legal)))
