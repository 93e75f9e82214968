"""Forgiving input: cards, hand numbers, verbs (English and Turkish), and every parse error."""

from __future__ import annotations

import pytest

from sixtysix.core.actions import parse_action
from sixtysix.core.cards import parse_card
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.facts import hand_order
from sixtysix.service.input import Command, InputProblem, Kind, control_word, parse_input
from tests.helpers import deal
from tests.play.conftest import make_variant

EN, TR = Translator("en"), Translator("tr")


def lead_view() -> View:
    v = make_variant("sixtysix")
    state = deal(v, ["KH QH AS TS 9C JC", "AC TC KC QC JD 9D"], trump_card="9H", dealer=1)
    return state.view(0)


def action(text: str) -> int:
    return int(parse_action(text))


def parse(text: str, view: View | None = None, tr: Translator = EN) -> Command:
    view = view or lead_view()
    return parse_input(text, view, hand_order(view), tr)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("as", "play AS"),
        ("AS", "play AS"),
        ("10s", "play TS"),
        ("10♠", "play TS"),
        ("T♠", "play TS"),
        ("q♥", "play QH"),
        ("Q♥", "play QH"),
        ("play ks", "play KS"),
        ("PLAY 10S", "play TS"),
        ("oyna jc", "play JC"),
        ("marry H", "marry H"),
        ("marry ♥", "marry H"),
        ("marry hearts", "marry H"),
        ("evlilik kupa", "marry H"),
        ("close", "close"),
        ("kapat", "close"),
        ("  exchange  ", "exchange"),
        ("değiş", "exchange"),
        ("claim", "claim"),
        ("concede", "concede"),
        ("bırak", "concede"),
        ("solo", "solo"),
        ("yalnız", "solo"),
        ("trump s", "trump S"),
        ("koz maça", "trump S"),
        ("trump below", "trump below"),
        ("koz alttan", "trump below"),
        ("partner ad", "partner AD"),
        ("ortak karo", "partner AD"),
    ],
)
def test_actions_in_any_notation(typed: str, meant: str) -> None:
    assert parse(typed) == Command(Kind.ACTION, action(meant))


def test_hand_numbers_follow_the_display() -> None:
    view = lead_view()
    order = hand_order(view)
    # trumps (hearts) first, high to low within a suit
    assert [str(c) for c in order] == ["KH", "QH", "JC", "9C", "AS", "TS"]
    for i, c in enumerate(order, 1):
        assert parse(str(i), view) == Command(Kind.ACTION, int(c))
        assert parse(f"play {i}", view) == Command(Kind.ACTION, int(c))


@pytest.mark.parametrize(
    ("typed", "kind"),
    [
        ("?", Kind.HELP),
        ("help", Kind.HELP),
        ("yardım", Kind.HELP),
        ("hint", Kind.HINT),
        ("ipucu", Kind.HINT),
        ("undo", Kind.UNDO),
        ("geri al", Kind.UNDO),
        ("quit", Kind.QUIT),
        ("Q", Kind.QUIT),
        ("çık", Kind.QUIT),
    ],
)
def test_session_commands(typed: str, kind: Kind) -> None:
    assert parse(typed) == Command(kind)


def test_bare_suit_names_trump_during_the_call_and_bare_ace_calls_partner() -> None:
    v4 = make_variant("sixtysix-4", trump_from_below=True)
    state = deal(
        v4,
        ["AH KH QH JH TH 9H", "AC KC QC JC TC 9C", "AD KD QD JD TD 9D", "AS KS QS JS TS 9S"],
        dealer=3,
    )
    call = state.view(0)
    assert parse("h", call) == Command(Kind.ACTION, action("trump H"))
    assert parse("♠", call) == Command(Kind.ACTION, action("trump S"))
    assert parse("below", call) == Command(Kind.ACTION, action("trump below"))
    state.apply(action("trump H"))
    partner = state.view(0)
    assert parse("ac", partner) == Command(Kind.ACTION, action("partner AC"))
    # outside the trump call a bare suit is not understood
    with pytest.raises(InputProblem, match="do not understand"):
        parse("h", lead_view())


@pytest.mark.parametrize(
    ("typed", "en", "tr"),
    [
        ("", "Type a card", "Bir kart"),
        ("   ", "Type a card", "Bir kart"),
        ("xyzzy", "I do not understand 'xyzzy'", "'xyzzy' anlaşılmadı"),
        ("7", "There is no card number 7: your hand is numbered 1 to 6", "7 numaralı kart yok"),
        ("0", "There is no card number 0", "0 numaralı kart yok"),
        ("12345", "There is no card number 12345", "12345 numaralı kart yok"),
        ("9" * 5000, "There is no card number 999999999...", "999999999... numaralı kart yok"),
        ("²", "I do not understand '²'", "'²' anlaşılmadı"),
        ("play ²", "'²' is not a card", "'²' bir kart değil"),
        ("play zz", "'zz' is not a card", "'zz' bir kart değil"),
        ("play", "'play' needs one thing after it, e.g. play QH", "'play' kendinden sonra"),
        ("play as ks", "'play' needs one thing", "'play' kendinden sonra"),
        ("marry x", "'x' is not a suit", "'x' bir renk değil"),
        ("marry", "'marry' needs one thing", "'marry' kendinden sonra"),
        ("close now", "'close' takes nothing after it", "'close' kendinden sonra bir şey almaz"),
        ("trump q", "'q' is not a suit", "'q' bir renk değil"),
        ("partner ks", "A partner is called by an ace", "Ortak bir asla"),
        ("partner 1x", "'1x' is not a card", "'1x' bir kart değil"),
    ],
)
def test_every_parse_error_is_a_clear_message(typed: str, en: str, tr: str) -> None:
    with pytest.raises(InputProblem) as err:
        parse(typed)
    assert en in str(err.value)
    with pytest.raises(InputProblem) as err_tr:
        parse(typed, tr=TR)
    assert tr in str(err_tr.value)


def test_card_parsing_agrees_with_the_core() -> None:
    view = lead_view()
    for text in ("9c", "jd", "qh", "ks", "10c", "ad", "T♦", "a♣"):
        assert parse(text, view) == Command(Kind.ACTION, int(parse_card(text)))


def test_control_word_names_the_session_commands_in_either_language() -> None:
    assert control_word("  Quit ") is Kind.QUIT
    assert control_word("çık") is Kind.QUIT
    assert control_word("geri  al") is Kind.UNDO
    assert control_word("?") is Kind.HELP
    assert control_word("play AH") is None and control_word("") is None
