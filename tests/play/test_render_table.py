"""The table as drawn: the legal-card mark, public facts, sides and the layout for the width."""

from __future__ import annotations

import io
import re

import pytest
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

from sixtysix.core.actions import CLOSE, EXCHANGE, MARRY, PARTNER, TRUMP_BELOW
from sixtysix.core.cards import parse_card
from sixtysix.core.deal import DealSetup
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.facts import (
    EXCHANGED,
    MARRIAGE,
    SHOWN,
    TURNUP,
    TableInfo,
    first_tricks,
    hand_order,
    known_cards,
    restricted,
    side_points,
    strict_begins,
)
from sixtysix.service.narration import telling
from sixtysix.service.terms import card_text
from sixtysix.text.layout import Flow, phrase, words
from sixtysix.text.public import hands_left, render_first_tricks
from sixtysix.text.render import (
    hand_line,
    hand_pieces,
    render_choices,
    render_view,
    sides_line,
)
from tests.play.conftest import make_variant

EN = Translator("en")
TR = Translator("tr")


def text_of(renderable: RenderableType, width: int = 100) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(parse_card(c)) for c in text.split())


def state_of(variant: str, setup: DealSetup, actions: str = "", **options: object) -> DealState:
    """A hand-built deal of ``variant`` after ``actions`` (notation, ``;``-separated)."""
    from sixtysix.core.actions import parse_action

    state = make_variant(variant, **options).new_deal(setup)
    for a in filter(None, (x.strip() for x in actions.split(";"))):
        state.apply(int(parse_action(a)))
    return state


#: 66: seat 1 (forehand) holds the trump 9 (clubs trump: the turn-up is A♣).
SIXTYSIX = DealSetup(
    dealer=0,
    hands=(cards("KH QH 10S JS 9S AD"), cards("9C KC QC AH 10H JH")),
    trump_card=int(parse_card("AC")),
    talon=cards("10C JC 9D JD QD KD 10D 9H AS KS QS"),
)


def info(view: View, **kw: object) -> TableInfo:
    base: dict[str, object] = dict(
        variant=view.variant,
        deal_number=1,
        totals=(0,) * view.seats,
        target=7,
        players=("",) + ("random",) * (view.seats - 1),
        show_points=True,
        rated=False,
    )
    base.update(kw)
    return TableInfo(**base)  # type: ignore[arg-type]


# ----------------------------------------------------------------- 1. the legal-card mark


def test_only_the_cards_that_may_not_be_played_are_bracketed_and_dimmed() -> None:
    # Seat 1 closes and leads A♥: seat 0 must follow suit (K♥ or Q♥).
    state = state_of("66", SIXTYSIX, "close; play AH")
    view = state.view(0)
    legal = {int(a) for a in view.legal_actions}
    barred = restricted(view)
    assert barred == {int(c) for c in view.hand} - legal
    line = text_of(hand_line(view, EN))
    for number, c in enumerate(hand_order(view), 1):
        shown = f"{number}:{card_text(c)}"
        if int(c) in barred:
            assert f"[{shown}]" in line
        else:
            assert shown in line and f"[{shown}]" not in line
    assert "Cards in [brackets] may not be played now." in line
    # The style: a barred card is dim and never bold; a playable one bold.
    for piece in hand_pieces(view, EN, hand_order(view)):
        for span in piece.spans:
            chunk = piece.plain[span.start : span.end]
            if chunk.startswith("["):
                assert "dim" in str(span.style) and "bold" not in str(span.style)


def test_no_mark_and_no_bold_when_every_card_may_be_played() -> None:
    state = state_of("66", SIXTYSIX)
    view = state.view(1)  # the forehand, on lead in the open phase
    assert restricted(view) == frozenset()
    line = text_of(hand_line(view, EN))
    assert "[" not in line and "brackets" not in line
    head = Text()
    for piece in hand_pieces(view, EN, hand_order(view)):
        head.append_text(piece)
    # The hand line's own style is not bold: only the suit symbols are.
    bold = [head.plain[s.start : s.end] for s in head.spans if "bold" in str(s.style)]
    assert all(chunk.strip() in "♣♦♥♠" for chunk in bold)


def test_nothing_is_marked_when_it_is_not_the_persons_turn() -> None:
    view = state_of("66", SIXTYSIX, "close; play AH").view(1)
    assert not view.my_turn and restricted(view) == frozenset()


def test_the_mark_survives_in_turkish() -> None:
    view = state_of("66", SIXTYSIX, "close; play AH").view(0)
    line = text_of(hand_line(view, TR))
    assert "[Köşeli ayraç] içindeki kartlar şu an oynanamaz." in line
    assert "Elin:" in line


# ----------------------------------------------------------------- 2. public facts


def test_the_exchange_names_both_cards_and_the_taken_card_stays_visible() -> None:
    state = state_of("66", SIXTYSIX, "play AH; play KH")  # seat 1 wins, leads again
    before = state.view(0)
    state.apply(EXCHANGE)
    after = state.view(0)
    said = telling(1, 0, EXCHANGE, before, after).text(EN, 0)
    assert said == "seat 1 exchanges 9♣ for the turn-up A♣"
    assert (1, parse_card("AC"), EXCHANGED) in known_cards(after)
    table = text_of(render_view(after, info(after), EN))
    assert "seat 1 exchanges 9♣ for the turn-up A♣" in table
    assert "Known in hands: seat 1 A♣ (taken in the exchange)" in table
    assert "turn-up 9♣" in table
    tr_said = telling(1, 0, EXCHANGE, before, after).text(TR, 0)
    assert tr_said == "oyuncu 1, 9♣ ile açık kozu (A♣) değiştirdi"


def test_the_marriage_shows_its_cards_and_keeps_the_other_one_visible() -> None:
    state = state_of("66", SIXTYSIX)
    before = state.view(0)
    state.apply(MARRY + 0)  # seat 1 declares the clubs (trump) marriage
    after = state.view(0)
    assert telling(1, 0, MARRY, before, after).text(EN, 0) == (
        "seat 1 declares the marriage in ♣ clubs (40), showing Q♣, K♣"
    )
    state.apply(int(parse_card("KC")))
    view = state.view(0)
    assert [(s, c, r) for s, c, r in known_cards(view)] == [(1, parse_card("QC"), MARRIAGE)]


def _three_setup() -> DealSetup:
    return DealSetup(
        dealer=2,
        hands=(
            cards("AH KH QH JH KC JC 10D AS"),
            cards("9H 10H 9C QC 9D JD QS KS"),
            cards("AC 10C AD KD QD 9S JS 10S"),
        ),
        trump_card=None,
        talon=(),
    )


def test_trump_from_below_names_the_card_shown_to_all() -> None:
    state = state_of("66-3", _three_setup())
    before = state.view(1)
    state.apply(TRUMP_BELOW)
    after = state.view(1)
    assert telling(0, 1, TRUMP_BELOW, before, after).text(EN, 1) == (
        "seat 0 takes trump from below: A♠ is shown, trump is ♠ spades"
    )
    assert known_cards(after) == [(0, parse_card("AS"), SHOWN)]
    table = text_of(render_view(after, info(after), EN))
    assert "seat 0 takes trump from below: A♠ is shown" in table
    assert "seat 0 A♠ (shown for trump)" in table


def test_the_last_turn_up_drawn_is_known() -> None:
    state = state_of("66", SIXTYSIX)
    # Play out the talon: each trick's two cards, as legal moves come.
    while state.talon_size:
        state.apply(state.legal_actions()[0])
    holder = next(s for s in range(2) if state.known[s] >> int(parse_card("AC")) & 1)
    view = state.view(1 - holder)
    assert (holder, parse_card("AC"), TURNUP) in known_cards(view)


def test_first_tricks_each_seat_and_the_command_text() -> None:
    state = state_of("66", SIXTYSIX, "play AH; play KH; play 10H; play QH; play JH; play JC")
    view = state.view(0)
    won = first_tricks(view)
    assert won == [
        (1, ((1, int(parse_card("AH"))), (0, int(parse_card("KH"))))),
        (0, ((1, int(parse_card("JH"))), (0, int(parse_card("JC"))))),
    ]
    shown = text_of(render_first_tricks(view, EN))
    assert "First trick won by each player:" in shown
    assert "seat 1: seat 1 A♥   you K♥" in shown
    assert "you: seat 1 J♥   you J♣" in shown
    fresh = state_of("66", SIXTYSIX).view(0)
    assert "Nobody has won a trick yet." in text_of(render_first_tricks(fresh, EN))
    assert "Henüz kimse el almadı." in text_of(render_first_tricks(fresh, TR))


def test_the_cards_left_are_shown_for_the_other_seats_only() -> None:
    hands = [1 << int(parse_card("AH")), 1 << int(parse_card("KS"))]
    shown = text_of(hands_left(hands, 0, EN) or Text())
    assert "Cards left: seat 1: K♠" in shown and "A♥" not in shown
    assert hands_left([0, 0], 0, EN) is None


def test_the_strict_phase_begins_once_when_closed_or_used_up() -> None:
    state = state_of("66", SIXTYSIX)
    before = state.view(0)
    state.apply(CLOSE)
    assert strict_begins(before, state.view(0))
    before = state.view(0)
    state.apply(state.legal_actions()[0])
    assert not strict_begins(before, state.view(0))
    # No line in a game that is strict from the first trick.
    three = state_of("66-3", _three_setup(), "trump S")
    v = three.view(0)
    assert not strict_begins(v, v)


# ----------------------------------------------------------------- 3. sides


def _four_setup() -> DealSetup:
    return DealSetup(
        dealer=3,
        hands=(
            cards("AH KH QH JH KC 9S"),
            cards("9H 10H 9C QC 9D AS"),
            cards("AC 10C AD KD QD JC"),
            cards("JD 10D JS QS KS 10S"),
        ),
        trump_card=None,
        talon=(),
    )


def test_sides_while_the_partner_is_hidden_and_once_known() -> None:
    state = state_of("66-4", _four_setup(), "trump H")
    state.apply(PARTNER + 3)  # seat 0 calls A♠, held by seat 1
    caller, holder, other = state.view(0), state.view(1), state.view(2)
    assert text_of(Flow(sides_line(caller, EN) or [])).strip() == "the holder of A♠, still hidden"
    assert text_of(Flow(sides_line(other, EN) or [])).strip() == "not you:  seat 1 or seat 3"
    shown = text_of(Flow(sides_line(holder, EN) or [], gap=" "))
    assert shown.strip() == "seat 0 + you against seat 2 + seat 3"
    assert side_points(other) is None  # unknown sides: no pooled column
    shown = text_of(render_view(other, info(other, target=16), EN))
    assert "Partner" in shown and "not you:" in shown and "partner: unknown" not in shown


def test_side_totals_pool_the_points_of_a_known_side() -> None:
    state = state_of("66-3", _three_setup(), "trump H; play AH; play 9H; play AC")
    view = state.view(1)
    pooled = side_points(view)
    assert pooled is not None
    assert pooled[1] == pooled[2] == view.card_points[1] + view.card_points[2]
    shown = text_of(render_view(view, info(view, target=16), EN))
    assert "side" in shown and "Sides" in shown
    assert "you + seat 2 against seat 0" in shown


# ----------------------------------------------------------------- 12. narrow terminals


@pytest.mark.parametrize("width", [45, 60, 70, 75, 120])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_no_label_or_card_group_is_cut_at_any_width(width: int, lang: str) -> None:
    tr = Translator(lang)
    state = state_of("66-4", _four_setup(), "trump H")
    state.apply(PARTNER + 3)
    view = state.view(2)
    shown = text_of(render_view(view, info(view, target=16), tr), width)
    shown += text_of(render_choices(state.view(state.to_act), tr), width)
    seat = tr._("seat {seat}").split()[0]
    for line in shown.splitlines():
        assert cell_len(line) <= width
        assert "…" not in line, line  # a column cut short
        assert not re.search(rf"\b{seat}\s*$", line), line
        assert not re.match(r"^\s*\d\b", line), line  # a seat number cut from its label
        assert not re.match(r"^\s*(10|[AKQJ9])[♣♦♥♠]", line), line  # a card cut from its player


def test_the_example_stays_with_its_words() -> None:
    text = "Play a card: its number or its name (e.g. th)."
    pieces = [p.plain for p in words(text, keep="th")]
    assert "(e.g. th)." in pieces


def test_flow_breaks_only_between_pieces() -> None:
    flow = Flow([Text("seat 1 A♥"), Text("seat 2 K♥"), Text("seat 3 Q♥")], head=Text("T: "))
    lines = [t.plain for t in flow.lines(14)]
    assert lines == ["T: seat 1 A♥", "   seat 2 K♥", "   seat 3 Q♥"]
    assert [p.plain for p in phrase("seat 2 takes ♦ diamonds", ["seat 2", "♦ diamonds"])] == [
        "seat 2",
        "takes",
        "♦ diamonds",
    ]


def test_the_exchange_stays_announced_once_the_card_taken_is_played() -> None:
    from sixtysix.service.narration import announced

    state = state_of("66", SIXTYSIX, "play AH; play KH")
    state.apply(EXCHANGE)
    view = state.view(0)
    assert announced(view, 1, EXCHANGE).text(EN, 0) == "seat 1 exchanges 9♣ for the turn-up A♣"
    state.apply(int(parse_card("AC")))  # seat 1 leads the card it took
    view = state.view(0)
    assert announced(view, 1, EXCHANGE).text(EN, 0) == "seat 1 exchanges 9♣ for the turn-up"
    assert announced(view, 1, EXCHANGE).text(TR, 0) == "oyuncu 1, 9♣ ile açık kozu değiştirdi"


@pytest.mark.parametrize("width", [66, 70, 75])
def test_the_scores_go_compact_before_a_column_is_cut(width: int) -> None:
    """Turkish headings are longer: the scores table goes compact where the full one would
    not fit, rather than cutting a seat's label or a heading short."""
    state = state_of("66-3", _three_setup(), "trump C")
    view = state.view(1)
    shown = text_of(render_view(view, info(view, target=16), TR), width)
    assert "…" not in shown, shown
    assert "oyuncu 2" in shown
