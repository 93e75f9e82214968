"""The person's side of a remote seat without a network: the server's messages on the screen,
typed lines into messages, rated tables' refusals and countdown, the table's comings and
goings, and a server's message that does not fit refused."""

from __future__ import annotations

from typing import Any

import pytest

from sixtysix.core.actions import ACTION_NAMES, CONCEDE
from sixtysix.core.cards import CARD_NAMES
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.i18n import Translator
from sixtysix.play.remote import RemoteTable
from sixtysix.plugins.manager import build_registry
from sixtysix.protocol import messages
from sixtysix.table import wire
from sixtysix.table.incoming import ServerProtocolError, check_message
from tests.play.scripted import FakeClock, RecordingScreen

REGISTRY = build_registry()
VARIANT = REGISTRY.variant("66").configure()


def state(seed: int = 4) -> DealState:
    return VARIANT.new_deal(VARIANT.deal(Seed(seed), ("deal", 0), 1))


def welcome(rated: bool = False, seat: int = 0) -> dict[str, Any]:
    return {
        "type": "welcome",
        "table": "abcd1234",
        "seat": seat,
        "name": "ayse",
        "token": None,
        "rated": rated,
        "move_time": 30 if rated else None,
        "players": ["ayse", "mehmet"],
        "reconnected": False,
    }


class Table:
    """A remote table fed with checked messages, its prompts counted."""

    def __init__(self, rated: bool = False, lang: str = "en") -> None:
        self.screen = RecordingScreen()
        self.prompts: list[str] = []
        self.clock = FakeClock()
        self.remote = RemoteTable(
            Translator(lang), self.screen, REGISTRY, self.prompts.append, clock=self.clock
        )
        self.feed(welcome(rated))
        self.feed(messages.match_message(VARIANT, 0))
        self.feed(messages.deal_message(1, 1))

    def feed(self, message: dict[str, Any]) -> None:
        checked = check_message(message)
        assert checked is not None
        self.remote.on_message(checked)

    def decide(self, s: DealState) -> None:
        self.feed({"type": "update", "view": messages.encode_view(s.view(0))})
        self.feed(messages.decide_message(s.view(0), 0))


def to_seat_0() -> DealState:
    s = state()
    while s.to_act != 0:
        s.apply(s.legal_actions()[0])
    return s


def test_a_decision_is_drawn_and_a_typed_card_is_sent() -> None:
    t = Table()
    s = to_seat_0()
    t.decide(s)
    assert t.prompts == ["Your move > "]
    assert "Your hand" in t.screen.text and "seat 1 (mehmet)" in t.screen.text
    legal = s.view(0).legal_actions
    reply = t.remote.on_line(ACTION_NAMES[legal[0]].lower())
    assert reply.send == [{"type": "action", "action": ACTION_NAMES[legal[0]]}]
    # sent once: a second line before the server answers is not a second move
    again = t.remote.on_line(ACTION_NAMES[legal[0]])
    assert again.send == [] and "It is not your turn" in t.screen.text


def test_an_illegal_or_unreadable_line_is_explained_and_not_sent() -> None:
    t = Table()
    s = to_seat_0()
    t.decide(s)
    hand = s.view(0).hand
    illegal = next(c for c in range(24) if c not in hand)
    reply = t.remote.on_line(CARD_NAMES[illegal])
    assert reply.send == []
    assert t.remote.on_line("nonsense").send == []
    assert "I do not understand 'nonsense'" in t.screen.text
    assert len(t.prompts) == 3  # asked again after each


def test_lines_before_the_turn_and_help() -> None:
    t = Table()
    s = state()
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    if s.to_act != 0:
        assert t.remote.on_line("1").send == []
        assert "the table waits for seat 1 (mehmet)" in t.screen.text
    t.remote.on_line("?")
    # play's help: the variant's verbs only, and no moves allowed before a decision
    text = t.screen.text
    assert "Play a card by its number in your hand or by its name" in text
    assert "moves, when the rules allow them: marry H, exchange, close." in text
    assert "partner" not in text and "rules  the rules of this game" in text
    assert "Allowed now" not in text  # no decision of this seat yet


def test_hint_and_undo_at_a_test_table() -> None:
    t = Table()
    s = to_seat_0()
    t.decide(s)
    reply = t.remote.on_line("hint")
    assert reply.hint is not None and reply.hint.seat == 0 and reply.send == []
    t.remote.show_hint([(int(a), float(i)) for i, a in enumerate(reply.hint.legal_actions)])
    assert "Expected game points of each move" in t.screen.text
    t.remote.show_hint(None)
    assert "not installed here" in t.screen.text
    assert t.remote.on_line("undo").send == [{"type": "undo"}]


def test_a_rated_table_refuses_hints_and_undo_and_counts_down() -> None:
    t = Table(rated=True)
    s = to_seat_0()
    t.decide(s)
    assert t.prompts[-1] == "\nYour move > "  # a line above the prompt for the countdown
    t.feed({"type": "timer", "seat": 0, "seconds": 30})
    assert t.remote.on_line("hint").hint is None
    assert t.remote.on_line("undo").send == []
    assert "No hints in rated games." in t.screen.text
    assert "No take-backs in rated games." in t.screen.text
    t.clock.advance(21)
    t.remote.tick()
    assert t.screen.countdowns[-1] == (9, True, True)


def test_quit_asks_once_then_leaves_and_the_standings_end_it() -> None:
    t = Table(rated=True)
    assert t.remote.on_line("quit").send == []
    # the consequence once (the first deal: a loss), then play's own question
    assert "Leaving a rated game is leaving the table: it would count as a loss (-1)." in (
        t.screen.text
    )
    assert t.prompts[-1] == "\nLeave the table? (y/n) "
    assert t.remote.on_line("n").send == [] and "Playing on." in t.screen.said
    assert t.remote.on_line("quit").send == []
    reply = t.remote.on_line("y")
    assert reply.leave and reply.send == [{"type": "leave"}]
    t.feed({"type": "left", "seat": 0, "reason": "quit", "score": -1})
    assert not t.remote.done  # the standings follow
    t.feed({"type": "standings", "name": "ayse", "score": -1})
    assert t.remote.done and "Standings: -1 for this match." in t.screen.text


def test_the_table_comings_and_goings_in_turkish() -> None:
    t = Table(lang="tr")
    seats = {"type": "seats", "players": ["ayse", "mehmet"], "left": [False, False]}
    t.feed({**seats, "connected": [True, True]})
    t.feed({**seats, "connected": [True, False]})
    t.feed({**seats, "connected": [True, True]})
    t.feed({"type": "waiting", "for": [1]})
    t.feed({"type": "left", "seat": 1, "reason": "timeout", "score": None})
    t.feed({"type": "match_over", "totals": [0, 0], "winners": []})
    text = t.screen.text
    assert "oyuncu 1 (mehmet) bağlantısını yitirdi" in text
    assert "oyuncu 1 (mehmet) geri döndü." in text
    assert "Oyuncular bekleniyor: oyuncu 1 (mehmet)" in text
    assert "masadan kalktı (süresi doldu)" in text
    assert "Maç bitti: bir oyuncu masadan kalktı." in text
    assert t.remote.done


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_seat_nobody_has_taken_yet_is_not_a_lost_connection(lang: str) -> None:
    t = Table(lang=lang)
    free = {"type": "seats", "players": ["ayse", ""], "left": [False, False]}
    t.feed({**free, "connected": [True, False]})
    t.feed({"type": "waiting", "for": [1]})
    t.feed({**free, "players": ["ayse", "mehmet"], "connected": [True, True]})
    text = t.screen.text
    assert "lost the connection" not in text and "yitirdi" not in text
    assert ("seat 1 (mehmet) has joined the table." if lang == "en" else "masaya") in text


def test_the_screen_says_whom_the_table_waits_for() -> None:
    t = Table()
    s = state()
    while s.to_act != 1:
        s.apply(s.legal_actions()[0])
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    assert t.remote.waiting_for() == 1
    t.remote.show_waiting()
    t.remote.show_waiting()  # once per turn
    assert t.screen.text.count("Waiting for seat 1 (mehmet)...") == 1


def test_a_deal_result_with_the_hands_face_up() -> None:
    t = Table()
    s = state()
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    assert s.outcome is not None
    t.feed(messages.result_message(1, s.outcome, [[], [0, 1]]))
    assert "Deal over:" in t.screen.text and "Cards left:" in t.screen.text
    assert t.remote.totals == list(s.outcome.game_points)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "update", "view": messages.encode_view(state().view(1))},  # another seat's
        messages.decide_message(state().view(1), 0),
        {"type": "seats", "players": ["a"], "connected": [True, False], "left": [False]},
        {"type": "event", "seat": 5, "action": "play AH"},
        {
            "type": "result",
            "number": 1,
            "result": {
                "reason": "nonsense",
                "game_points": [1, 0],
                "points": [0, 0],
                "tricks": [0, 0],
            },
            "hands": [[], []],
        },
    ],
)
def test_a_message_that_does_not_fit_the_table_is_refused(message: dict[str, Any]) -> None:
    t = Table()
    with pytest.raises(ServerProtocolError):
        t.feed(message)


def test_a_server_name_that_looks_like_markup_is_shown_as_it_is() -> None:
    t = Table()
    t.feed({**welcome(), "players": ["ayse", "[/bold]x[red"]})
    t.decide(to_seat_0())
    assert "seat 1 ([/bold]x[red)" in t.screen.text


def test_news_during_the_prompt_goes_on_its_own_line_and_the_prompt_comes_back() -> None:
    t = Table()
    t.decide(to_seat_0())
    assert t.prompts == ["Your move > "]
    seats = {"type": "seats", "players": ["ayse", "mehmet"], "left": [False, False]}
    t.feed({**seats, "connected": [True, False]})
    assert t.prompts == ["Your move > ", "\n", "Your move > "]
    t.feed({"type": "timer", "seat": 0, "seconds": 30})  # nothing written: no new prompt
    assert len(t.prompts) == 3


def test_concede_asks_once_as_play_does() -> None:
    variant = REGISTRY.variant("sixtysix-3").configure()  # the declarer may concede
    t = Table()
    t.feed({**welcome(), "players": ["ayse", "@easy", "@easy"]})
    t.feed(messages.match_message(variant, 0))
    t.feed(messages.deal_message(1, 2))
    s = variant.new_deal(variant.deal(Seed(0), ("deal", 0), 2))
    while s.to_act != 0 or CONCEDE not in s.legal_actions():
        s.apply(s.legal_actions()[0])
    t.decide(s)
    assert t.remote.on_line("concede").send == []
    cost = variant.conceded_points(s.view(0))
    assert cost is not None and cost[0] == 0 and cost[1] == cost[2] in (1, 2)
    assert (
        t.prompts[-1]
        == f"Concede the deal? Each of the others scores {cost[1]} game points. (y/n) "
    )
    assert t.remote.on_line("no").send == [] and "Not conceded: play on." in t.screen.said
    assert t.prompts[-1] == "Your move > "
    t.remote.on_line("concede")
    assert t.remote.on_line("e").send == [{"type": "action", "action": "concede"}]


def test_before_the_deal_quit_is_the_one_word_that_works_in_turkish() -> None:
    t = Table(lang="tr")
    t.remote.view = None
    assert t.remote.on_line("?").send == []
    assert "Maç daha başlamadı; çık masadan kaldırır." in t.screen.said
    t.remote.on_line("  çık ")
    assert t.prompts[-1] == "Masadan kalkıyor musun? (e/h) "
    assert t.remote.on_line("evet").leave


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        (wire.NO_UNDO_SHARED, "another person or a program at the table has seen your move"),
        (wire.NO_UNDO_NOTHING, "Nothing to take back in this deal yet."),
        (wire.NO_UNDO_UNSEEN, "would contradict what you have seen"),
        ("a reason of a newer server", "takes nothing back now: a reason of a newer server"),
    ],
)
def test_a_refused_take_back_says_why(reason: str, said: str) -> None:
    t = Table()
    t.decide(to_seat_0())
    assert t.remote.on_line("undo").send == [{"type": "undo"}]
    t.feed({"type": "error", "code": "no_undo", "message": reason})
    assert said in t.screen.text


@pytest.mark.parametrize(
    ("on_leave", "said"),
    [
        ("end", "The match ends for everyone at the table."),
        ("bot", "A bot plays your seat to the end of the match."),
    ],
)
def test_leaving_a_running_test_table_says_what_happens_to_the_match(
    on_leave: str, said: str
) -> None:
    t = Table()
    t.feed({**welcome(), "on_leave": on_leave})
    t.decide(to_seat_0())
    t.remote.on_line("quit")
    assert "Leaving is for good: the others are told. " + said in t.screen.text


def _finished_deal() -> DealState:
    s = state()
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    return s


def test_the_end_of_a_deal_waits_for_enter_then_the_table_goes_on() -> None:
    t = Table()
    t.remote.pause = True
    t.feed({**welcome(), "ready": True})
    s = _finished_deal()
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    assert s.outcome is not None
    t.feed(messages.result_message(1, s.outcome, [[], []]))
    assert t.prompts[-1] == "Enter: the next deal > "
    t.feed(messages.deal_message(2, 0))  # the next deal waits...
    t.feed({"type": "chat", "seat": 1, "name": "mehmet", "phrase": "good_game"})
    assert "Deal 2" not in t.screen.text and "mehmet (seat 1)" in t.screen.text  # ...chat not
    reply = t.remote.on_line("")
    assert reply.send == [{"type": "ready"}]  # the server times the next move from now
    assert "Deal 2, dealer: you." in t.screen.text


def test_an_older_server_is_not_sent_ready() -> None:
    t = Table()
    t.remote.pause = True
    s = _finished_deal()
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    assert s.outcome is not None
    t.feed(messages.result_message(1, s.outcome, [[], []]))
    assert t.remote.on_line("").send == []


def test_a_last_card_plays_itself_when_asked_to() -> None:
    t = Table()
    t.remote.auto_last = True
    for seed in range(100):  # a deal played out to its last trick, seat 0 to play
        s = state(seed)
        while not s.is_over and not (s.to_act == 0 and len(s.view(0).hand) == 1):
            s.apply(min(s.legal_actions()))  # a card first: nobody closes or announces
        if not s.is_over:
            break
    prompts = len(t.prompts)
    t.decide(s)
    (card,) = s.legal_actions()
    assert t.remote.outbox == [{"type": "action", "action": ACTION_NAMES[card]}]
    assert len(t.prompts) == prompts  # nobody was asked


def test_quit_typed_at_the_end_of_a_deal_is_a_quit_too() -> None:
    t = Table()
    t.remote.pause = True
    t.feed({**welcome(), "ready": True})
    s = _finished_deal()
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    assert s.outcome is not None
    t.feed(messages.result_message(1, s.outcome, [[], []]))
    reply = t.remote.on_line("quit")
    assert reply.send == [{"type": "ready"}]
    assert t.prompts[-1] == "Leave the table? (y/n) "
