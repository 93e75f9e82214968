"""Cards typed in words in either language, the Turkish commands the screen shows, the help of
each variant, and the words of the refusals (issue 23, points 6, 10 and 11)."""

from __future__ import annotations

import pytest
from rich.console import Console

from sixtysix.core.actions import ACTION_NAMES, NUM_ACTIONS, PARTNER, parse_action
from sixtysix.core.cards import Card, parse_card
from sixtysix.core.state import Phase
from sixtysix.i18n import Translator
from sixtysix.play.moves_help import variant_actions
from sixtysix.play.session import Ending
from sixtysix.service.card_words import CardWordProblem, read_card
from sixtysix.service.explain import why_illegal
from sixtysix.service.facts import TableInfo, hand_order
from sixtysix.service.input import InputProblem, Kind, parse_input
from sixtysix.service.terms import bot_label, command_text, news_list
from sixtysix.text.render import render_choices, render_view
from tests.helpers import deal, position
from tests.play.conftest import make_session, make_variant
from tests.play.scripted import RecordingScreen, ScriptedInput

EN, TR = Translator("en"), Translator("tr")


def hand(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("9 kupa", "9H"),
        ("kupa 9", "9H"),
        ("kupa dokuz", "9H"),
        ("papaz kupa", "KH"),
        ("kız maça", "QS"),
        ("KIZ MAÇA", "QS"),
        ("vale karo", "JD"),
        ("oğlan karo", "JD"),
        ("as sinek", "AC"),
        ("ispati as", "AC"),
        ("on kupa", "TH"),
        ("10 kupa", "TH"),
        ("queen hearts", "QH"),
        ("queen of hearts", "QH"),
        ("ace spades", "AS"),
        ("10h", "TH"),
        ("Q♥", "QH"),
    ],
)
def test_a_card_in_words(typed: str, card: str) -> None:
    for tr in (EN, TR):
        assert read_card(typed.lower().split(), [], tr) == parse_card(card)


def test_as_alone_is_the_ace_of_spades_in_english_and_the_rank_in_turkish() -> None:
    two_aces = hand("AH AC KS")
    assert read_card(["as"], two_aces, EN) == parse_card("AS")
    with pytest.raises(CardWordProblem) as problem:
        read_card(["as"], two_aces, TR)
    assert str(problem.value) == "Hangi as? Elinde A♥ A♣ var: rengini de yaz, örneğin as kupa."
    assert read_card(["as"], hand("AH KS 9C"), TR) == parse_card("AH")  # the one ace held
    with pytest.raises(CardWordProblem, match="Elinde hiç as yok"):
        read_card(["as"], hand("KS 9C"), TR)
    # A lone rank word in English asks the same way.
    with pytest.raises(CardWordProblem, match="Which queen"):
        read_card(["queen"], hand("QH QC"), EN)
    assert read_card(["papaz"], hand("KS 9C"), TR) == parse_card("KS")


def test_words_that_are_no_card() -> None:
    assert read_card(["kupa"], [], TR) is None
    assert read_card(["papaz", "kız"], [], TR) is None
    assert read_card(["xyzzy"], [], EN) is None


def _views() -> list[tuple[str, object]]:
    out = []
    from tests.helpers import deal_any

    for name in ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"):
        state = deal_any(make_variant(name))
        out.append((name, state.view(state.to_act)))
    return out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_every_command_the_screen_shows_reads_back_as_its_action(lang: str) -> None:
    tr = Translator(lang)
    for _, view in _views():
        order = hand_order(view)  # type: ignore[arg-type]
        for action in range(NUM_ACTIONS):
            text = command_text(tr, action)
            command = parse_input(text, view, order, tr)  # type: ignore[arg-type]
            assert command.kind is Kind.ACTION and command.action == action, text
    assert command_text(TR, parse_action("marry H")) == "evlilik kupa"
    assert command_text(TR, parse_action("trump C")) == "koz sinek"
    assert command_text(TR, parse_action("partner AD")) == "ortak karo"
    assert command_text(TR, parse_action("play KS")) == "oyna papaz maça"
    assert command_text(EN, parse_action("play KS")) == "play KS"


def test_turkish_verbs_with_a_card_in_words() -> None:
    _, view = _views()[0]
    order = hand_order(view)  # type: ignore[arg-type]
    assert parse_input("oyna kız kupa", view, order, TR).action == parse_card("QH")  # type: ignore[arg-type]
    assert parse_input("ortak as karo", view, order, TR).action == PARTNER + 1  # type: ignore[arg-type]
    with pytest.raises(InputProblem, match="Ortak bir asla çağrılır, örneğin ortak karo"):
        parse_input("ortak papaz karo", view, order, TR)  # type: ignore[arg-type]


def test_a_lone_ace_word_at_the_partner_call_asks_for_the_suit() -> None:
    v = make_variant("sixtysix-4")
    from tests.helpers import deal_any

    for _ in range(200):
        state = deal_any(v)
        while state.phase != Phase.PARTNER_CALL and not state.is_over:
            state.apply(state.legal_actions()[0])
        if state.phase == Phase.PARTNER_CALL:
            break
    view = state.view(state.to_act)
    order = hand_order(view)
    with pytest.raises(InputProblem, match="Hangi as\\? Rengini söyle, örneğin ortak karo"):
        parse_input("as", view, order, TR)
    assert parse_input("as", view, order, EN).action == PARTNER + 3  # as: A♠ in English


def test_one_card_left_is_one_card_not_numbered_1_to_1() -> None:
    v = make_variant("sixtysix")
    state = position(v, ["AS", "KS"], trump="H", to_act=0, closed_by=1)
    view = state.view(0)
    with pytest.raises(InputProblem) as problem:
        parse_input("2", view, hand_order(view), EN)
    assert str(problem.value) == "There is no card number 2: you have one card, number 1."


def test_the_move_list_and_help_use_the_players_words_and_the_variants_verbs() -> None:
    assert [
        ACTION_NAMES[a].split()[0] for a in variant_actions(make_variant("sixtysix").rules)
    ] == ["marry", "exchange", "close"]
    four = {ACTION_NAMES[a].split()[0] for a in variant_actions(make_variant("sixtysix-4").rules)}
    assert {"partner", "solo", "trump"} <= four
    v = make_variant("sixtysix")
    state = deal(v, ["KH QH AS TS 9C JC", "AC TC KC QC JD 9D"], trump_card="9H", dealer=1)
    text = _plain(render_choices(state.view(0), TR))
    assert "evlilik kupa" in text and "marry" not in text
    screen = RecordingScreen()
    session = make_session(v, ScriptedInput(["?", "quit"]), screen, lang="tr")
    assert session.run().ending is Ending.SAVED
    helped = screen.text[screen.text.index("Diğer hamleler") :]
    assert "evlilik kupa, değiş, kapat" in helped
    for english in ("marry", "trump", "koz", "ortak", "partner", "exchange", "quit"):
        assert english not in helped.split("Kartlar:")[0].replace("koz kartını", ""), english


def _plain(renderable: object) -> str:
    console = Console(width=120, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def test_help_lists_allowed_cards_in_the_hands_order() -> None:
    v = make_variant("sixtysix")
    state = deal(v, ["9C AS KH TS QH JC", "AC TC KC QC JD 9D"], trump_card="9H", dealer=1)
    screen = RecordingScreen()
    session = make_session(v, ScriptedInput(["?", "quit"]), screen, lang="en")
    session.match.next_deal(state.setup)  # the hand-built deal, as the match's first
    session.run()
    line = next(x for x in screen.text.splitlines() if x.startswith("Allowed now:"))
    # Trumps (hearts) first, then clubs, then spades; high to low within a suit.
    assert line.startswith("Allowed now: K♥, Q♥, J♣, 9♣, A♠, 10♠")
    assert "marry H" in line


def test_refusals_say_the_real_reason() -> None:
    v = make_variant("sixtysix")
    # Holding the trump nine but no trick yet: the trick is what is missing.
    state = deal(v, ["9H QH AS TS 9C JC", "AC TC KC QC JD 9D"], trump_card="KH", dealer=1)
    view = state.view(0)
    assert why_illegal(view, parse_action("exchange"), EN) == (
        "You must win a trick before the exchange."
    )
    # Without the nine: the nine is what is missing, whatever the tricks.
    state = deal(v, ["JH QH AS TS 9C JC", "AC TC KC QC JD 9D"], trump_card="KH", dealer=1)
    assert why_illegal(state.view(0), parse_action("exchange"), TR) == (
        "Değişim için gereken koz kartı (9♥) sende değil."
    )
    assert why_illegal(state.view(0), parse_action("trump C"), TR) == (
        "Bu oyunda koz söylenmez: koz, açılan kartın rengidir."
    )
    assert why_illegal(state.view(0), parse_action("partner AD"), EN) == (
        "There is no partner call in this game."
    )


def test_announcements_run_on_in_one_list() -> None:
    assert news_list(EN, ["seat 1 closes the talon", "You close the talon"]) == (
        "seat 1 closes the talon; you close the talon"
    )
    assert news_list(TR, ["İlk", "Ilık"]) == "ilk; ılık"
    # a card at the start keeps its letter: "J♦ ile ...", never "j♦ ile ..."
    said = news_list(TR, ["Kozu söyledin: ♠ maça", "J♦ ile açık kozu (10♦) değiştirdin"])
    assert said == "kozu söyledin: ♠ maça; J♦ ile açık kozu (10♦) değiştirdin"
    assert news_list(EN, ["AI plays", "10♥ is shown"]) == "AI plays; 10♥ is shown"


def test_levels_are_named_in_the_players_language() -> None:
    assert bot_label(TR, "expert") == "uzman"
    assert bot_label(TR, "random") == "rastgele"
    assert bot_label(TR, "@hard:seed=3") == "@zor:seed=3"
    assert bot_label(EN, "expert") == "expert"
    assert bot_label(TR, "exec:./bot") == "exec:./bot"


@pytest.mark.parametrize(("lang", "alone"), [("en", "you play alone"), ("tr", "yalnız oynuyorsun")])
def test_the_declarer_playing_alone_is_you_play_alone(lang: str, alone: str) -> None:
    v = make_variant("sixtysix-3")
    state = position(v, ["9C AS JS", "AH JC TC", "QS KD 9D"], trump="S", to_act=0)
    state.phase, state.declarer, state._legal = Phase.PLAY, 0, None
    info = TableInfo("sixtysix-3", 1, (0, 0, 0), 7, ("", "random", "random"), True, False)
    text = _plain(render_view(state.view(0), info, Translator(lang)))
    assert alone in text
    assert "plays alone" not in text and "sen yalnız oynuyor " not in text
    if lang == "tr":
        assert "rastgele" in text and "random" not in text
    assert "(koz)" not in text or lang == "tr"


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_hints_notation_column_is_what_the_player_types(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A stand-in analysis (every move worth 0): the table's second column is the command."""
    import sixtysix.service.review as review

    def analyse(view: object) -> list[tuple[int, float]]:
        return [(int(a), 0.0) for a in view.legal_actions]  # type: ignore[attr-defined]

    monkeypatch.setattr(review, "load_analyser", lambda: analyse)
    screen = RecordingScreen(width=160)
    person = ScriptedInput(["hint", "quit"])
    make_session(make_variant("sixtysix"), person, screen, lang=lang).run()
    table = screen.text
    view = person.views[0]
    tr = Translator(lang)
    for action in view.legal_actions:
        assert command_text(tr, int(action)) in table
    if lang == "tr":
        assert "oyna " in table and "play " not in table
