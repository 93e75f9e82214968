"""The chat on a remote seat's screen, without a network: what typed lines send, the chat
lines shown (markup and escapes as plain text, phrases in the reader's language), muting, the
prompt kept while chat arrives, the help, and a server's chat that does not fit refused."""

from __future__ import annotations

from typing import Any

import pytest

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.i18n import Translator
from sixtysix.play.remote_chat import CHAT_WORDS, PHRASE_WORDS, read_chat
from sixtysix.service.facts import hand_order
from sixtysix.service.input import InputProblem, parse_input
from sixtysix.table import wire
from sixtysix.table.incoming import ServerProtocolError
from sixtysix.table.phrases import PHRASES
from tests.table.test_client_remote import Table, to_seat_0, welcome


def seated(lang: str = "en", chat: bool | None = True, players: list[str] | None = None) -> Table:
    t = Table(lang=lang)
    fields: dict[str, Any] = {"players": players or ["ayse", "mehmet", "@easy", "zeynep"]}
    if chat is not None:
        fields["chat"] = chat
    t.feed({**welcome(), **fields})
    return t


def chat(seat: int, name: str, **said: Any) -> dict[str, Any]:
    return {"type": "chat", "seat": seat, "name": name, **said}


def test_say_sends_the_text_and_the_echo_is_shown_as_plain_text() -> None:
    t = seated()
    assert t.remote.on_line("say  hello [bold]world[/]  ").send == [
        {"type": "chat", "text": "hello [bold]world[/]"}
    ]
    t.feed(chat(0, "ayse", text="hello [bold]world[/]"))
    t.feed(chat(1, "meh[red]met", text="hi\x1b[2J there\u202e :smile:"))
    text = t.screen.text
    assert "ayse (you): hello [bold]world[/]" in text
    assert "meh[red]met (seat 1): hi[2J there :smile:" in text  # no markup, no escape, no emoji
    assert "\x1b" not in text and "\u202e" not in text


def test_quick_phrases_are_sent_as_ids_and_shown_in_the_readers_language() -> None:
    en, tr = seated("en"), seated("tr")
    assert en.remote.on_line("gg").send == [{"type": "chat", "phrase": "good_game"}]
    assert en.remote.on_line("  İyi   Oyunlar ").send == [{"type": "chat", "phrase": "good_luck"}]
    assert tr.remote.on_line("sağol").send == [{"type": "chat", "phrase": "thanks"}]
    assert tr.remote.on_line("wp").send == [{"type": "chat", "phrase": "well_played"}]
    for t in (en, tr):
        t.feed(chat(1, "mehmet", phrase="good_game"))
    assert "mehmet (seat 1): Good game!" in en.screen.text
    assert "mehmet (oyuncu 1): İyi oyundu!" in tr.screen.text


def test_a_phrase_this_client_does_not_know_is_not_shown() -> None:
    t = seated()
    t.decide(to_seat_0())
    prompts = list(t.prompts)
    t.feed(chat(1, "mehmet", phrase="good_night"))
    assert "good_night" not in t.screen.text and t.prompts == prompts


def test_what_cannot_be_sent_is_said_here() -> None:
    t = seated()
    assert t.remote.on_line("say").send == []
    assert "Say what? Type say and your message, e.g. say hello everyone." in t.screen.said
    assert t.remote.on_line("say \x1b\x07").send == []
    assert t.remote.on_line("say " + "x" * (wire.MAX_CHAT + 1)).send == []
    assert "at most 200 characters, this one 201." in t.screen.text
    assert t.remote.on_line("say " + "ş" * wire.MAX_CHAT).send != []


@pytest.mark.parametrize("chat_on", [False, None])
def test_no_chat_is_sent_to_a_server_without_it(chat_on: bool | None) -> None:
    t = seated(chat=chat_on)
    assert ("Chat is off at this server." in t.screen.said) is (chat_on is False)
    assert t.remote.on_line("say hello").send == []
    assert t.remote.on_line("gg").send == []
    assert t.screen.said[-1] == "Chat is off at this server."
    t.remote.on_line("?")
    assert "talk to the table" not in t.screen.text


def test_mute_hides_a_seat_on_this_screen_only() -> None:
    t = seated()
    assert t.remote.on_line("mute").send == []
    assert "Nobody's chat is hidden on your screen." in t.screen.said
    assert t.remote.on_line("mute MEHMET").send == []  # nothing is sent: the others never know
    assert "The chat of seat 1 (mehmet) is hidden on your screen now" in t.screen.text
    t.remote.on_line("mute 3")
    t.feed(chat(1, "mehmet", text="one"))
    t.feed(chat(3, "zeynep", phrase="thanks"))
    t.remote.on_line("mute")
    assert "Chat hidden on your screen: seat 1 (mehmet), seat 3 (zeynep)." in t.screen.said
    t.remote.on_line("unmute 1")
    assert "The chat of seat 1 (mehmet) is shown again." in t.screen.said
    t.feed(chat(1, "mehmet", text="two"))
    text = t.screen.text
    assert "mehmet (seat 1): one" not in text and "Thanks!" not in text
    assert "mehmet (seat 1): two" in text
    for who, why in (
        ("0", "That is your own seat."),
        ("ayse", "That is your own seat."),
        ("2", "seat 2 (@easy) is a computer player: it does not chat."),
        ("7", "There is no seat 7 at this table."),
        ("99999999", "There is no seat 999999 at this table."),
        ("ali", "Nobody called ali sits at this table."),
    ):
        assert t.remote.on_line(f"mute {who}").send == []
        assert t.screen.said[-1] == why
    t.remote.on_line("unmute 1")
    assert t.screen.said[-1] == "The chat of seat 1 (mehmet) is not hidden."


def test_muting_in_turkish() -> None:
    t = seated("tr")
    t.remote.on_line("sustur mehmet")
    t.feed(chat(1, "mehmet", text="bir"))
    t.remote.on_line("Sesini aç 1")
    t.feed(chat(1, "mehmet", text="iki"))
    assert "Sohbeti artık ekranında gizli: oyuncu 1 (mehmet)" in t.screen.text
    assert "Sohbeti yeniden görünüyor: oyuncu 1 (mehmet)." in t.screen.said
    assert "mehmet (oyuncu 1): bir" not in t.screen.text
    assert "mehmet (oyuncu 1): iki" in t.screen.text


def test_chat_at_the_prompt_comes_on_its_own_line_and_the_prompt_comes_back() -> None:
    t = seated()
    t.decide(to_seat_0())
    assert t.prompts == ["Your move > "]
    t.feed(chat(1, "mehmet", text="hurry"))  # what the person was typing stays in the terminal
    assert t.prompts == ["Your move > ", "\n", "Your move > "]
    reply = t.remote.on_line("say coming")  # the echo brings the prompt back, not this line
    assert reply.send == [{"type": "chat", "text": "coming"}] and len(t.prompts) == 3
    t.feed(chat(0, "ayse", text="coming"))
    assert t.prompts[-1] == "Your move > " and len(t.prompts) == 4
    t.remote.on_line("mute 1")  # answered here: the prompt again
    assert len(t.prompts) == 5
    t.feed(chat(1, "mehmet", text="muted"))  # a muted line does not touch the prompt
    assert len(t.prompts) == 5
    t.remote.on_line("say too fast")
    t.feed({"type": "error", "code": "chat_rate", "message": "too many chat messages"})
    assert "Not sent: too many chat messages at once. Wait a few seconds." in t.screen.said
    assert t.prompts[-1] == "Your move > " and len(t.prompts) == 6
    assert t.remote.my_turn  # chat took nothing of the move
    legal = t.remote.view.legal_actions if t.remote.view else []
    assert t.remote.on_line(ACTION_NAMES[legal[0]]).send[0]["type"] == "action"


def test_chat_works_before_the_match_and_help_lists_it() -> None:
    t = seated()
    t.remote.view = None  # nobody has come yet: no deal
    assert t.remote.on_line("hi").send == [{"type": "chat", "phrase": "hello"}]
    t.remote.on_line("?")
    text = " ".join(t.screen.text.split())
    assert "say TEXT talk to the table" in text and "mute SEAT or NAME" in text
    assert "gg (Good game!)" in text and "hi (Hello!)" in text and "unmute" in text


def test_the_turkish_help_lists_the_turkish_words() -> None:
    t = seated("tr")
    t.decide(to_seat_0())
    t.remote.on_line("?")
    text = " ".join(t.screen.text.split())
    assert "söyle METİN masaya yaz" in text and "sustur OYUNCU ya da AD" in text
    assert "sesini aç" in text and "iyi oyundu (İyi oyundu!)" in text
    assert "gg" not in text


def test_every_chat_word_is_read_and_none_is_a_move() -> None:
    view = to_seat_0().view(0)
    tables = (PHRASE_WORDS, CHAT_WORDS)
    words = [w for table in tables for by in table.values() for ws in by.values() for w in ws]
    for lang in ("en", "tr"):
        assert set(PHRASE_WORDS[lang]) == set(PHRASES) == set(wire.CHAT_PHRASES)
        tr = Translator(lang)
        for word in words:
            assert read_chat(word) is not None, word
            with pytest.raises(InputProblem):
                parse_input(word, view, hand_order(view), tr)


def test_a_chat_from_a_seat_the_table_has_not_is_refused() -> None:
    t = seated(players=["ayse", "mehmet"])
    with pytest.raises(ServerProtocolError):
        t.feed(chat(5, "ghost", text="boo"))
