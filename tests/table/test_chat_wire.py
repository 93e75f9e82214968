"""Chat on the wire, without a network: what a seat may send (a cleaned text of at most 200
characters, or a quick phrase's id), the refusals that keep the connection and those that end
it, the seat's rate, the table's chat going to people only and changing nothing of it, and the
client's checks of a chat from the server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sixtysix.table import wire
from sixtysix.table.incoming import ServerProtocolError, check_message
from sixtysix.table.table import Config, Table
from sixtysix.table.wire import WireError
from tests.table.test_table_core import Clock, make


def chat(**fields: Any) -> wire.Seated:
    return wire.check_seated({"type": "chat", **fields})


def refused(code: str, **fields: Any) -> WireError:
    with pytest.raises(WireError) as caught:
        chat(**fields)
    assert caught.value.code == code, caught.value.message
    return caught.value


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("  hello   everyone ", "hello everyone"),
        ("two\nlines\r\n\tand a tab", "two lines and a tab"),
        ("\x1b[2J\x1b]0;owned\x07red", "[2J]0;ownedred"),  # escapes lose their ESC and BEL
        ("abc\u202edcba\u200b!", "abcdcba!"),  # a bidirectional override, a zero-width space
        ("e\u0301", "é"),  # NFC
        ("x" + "\u0301" * 30 + "y", "x" + "\u0301" * wire.MAX_MARKS + "y"),  # no piled marks
        ("lone \ud800 surrogate", "lone surrogate"),
        ("[bold red]not markup[/]", "[bold red]not markup[/]"),  # markup is the screen's care
    ],
)
def test_a_chat_text_is_cleaned(sent: str, shown: str) -> None:
    assert wire.chat_text(sent) == shown
    assert chat(text=sent) == wire.Seated("chat", text=shown)


def test_a_chat_text_has_one_to_200_characters_once_cleaned() -> None:
    longest = "ş" * wire.MAX_CHAT
    assert chat(text=longest).text == longest
    assert chat(text=longest + "\x07" * 50).text == longest  # counted once cleaned
    assert "at most 200" in refused("bad_chat", text=longest + "x").message
    assert "no text" in refused("bad_chat", text=" \n\x1b\u200b ").message
    refused("bad_chat", text="")
    refused("bad_chat", text=" " * (wire.MAX_CHAT_SENT + 1))


def test_quick_phrases_travel_as_ids() -> None:
    for phrase in wire.CHAT_PHRASES:
        assert chat(phrase=phrase) == wire.Seated("chat", phrase=phrase)
    assert "good_game" in refused("bad_chat", phrase="insult").message


@pytest.mark.parametrize(
    "fields",
    [{}, {"text": "hi", "phrase": "thanks"}, {"text": 5}, {"phrase": ["thanks"]}, {"text": None}],
)
def test_a_message_that_is_no_chat_is_garbage(fields: dict[str, Any]) -> None:
    assert refused("garbage", **fields).closes


def test_chat_refusals_keep_the_connection() -> None:
    for code in ("chat_off", "chat_rate", "bad_chat"):
        assert not WireError(code, "").closes


def test_a_seat_chats_five_at_once_then_one_every_two_seconds() -> None:
    clock = Clock()
    bucket = wire.TokenBucket(1.0 / wire.CHAT_EVERY, wire.CHAT_BURST, clock)
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    clock.now += 1.0
    assert not bucket.take()
    clock.now += 1.0
    assert bucket.take() and not bucket.take()


def test_the_table_tells_people_only_and_changes_nothing() -> None:
    table = make(("human", "@random", "human", "@random"))
    table.join("ayse")
    table.join("mehmet")
    table.connect(0)
    table.connect(2)
    record, data = table.record.as_json(), json.dumps(table.file_data())
    out = table.chat(2, text="hello")
    message = {"type": "chat", "seat": 2, "name": "mehmet", "text": "hello"}
    assert out == [(0, message), (2, message)]  # the bots' seats are told nothing
    phrase = {"type": "chat", "seat": 0, "name": "ayse", "phrase": "good_luck"}
    assert table.chat(0, phrase="good_luck") == [(0, phrase), (2, phrase)]
    assert table.record.as_json() == record and json.dumps(table.file_data()) == data


def test_the_welcome_says_whether_the_server_has_chat() -> None:
    args = ("t1", 0, "ayse", None, False, None, ["ayse", "@random"], False)
    assert wire.welcome(*args)["chat"] is True
    assert wire.welcome(*args, chat=False)["chat"] is False
    on = check_message(wire.welcome(*args))
    assert on is not None and on["chat"] is True
    older = wire.welcome(*args)
    del older["chat"]  # a server from before chat: none is sent to it
    checked = check_message(older)
    assert checked is not None and checked["chat"] is None


def test_the_client_checks_a_chat_from_the_server() -> None:
    base = {"type": "chat", "seat": 1, "name": "meh\x1bmet"}
    checked = check_message({**base, "text": "hi\x1b[31m\nthere\u202e"})
    assert checked == {**base, "name": "mehmet", "text": "hi[31m there", "phrase": None}
    checked = check_message({**base, "phrase": "good_game"})
    assert checked is not None and checked["phrase"] == "good_game" and checked["text"] is None
    for bad in (
        base,  # neither
        {**base, "text": "hi", "phrase": "thanks"},  # both
        {**base, "text": "x" * (wire.MAX_CHAT + 1)},
        {**base, "text": 7},
        {**base, "phrase": "\x1b[2J"},
        {**base, "seat": 100, "text": "hi"},
    ):
        with pytest.raises(ServerProtocolError):
            check_message(bad)


def test_a_table_file_has_no_place_for_chat() -> None:
    config = Config(id="t2", variant="66", options={}, seats=("human", "human"), seed=3)
    table = Table(config, make().registry)
    table.join("ayse")
    before = json.dumps(table.file_data())
    table.chat(0, text="secret plan")
    assert json.dumps(table.file_data()) == before
