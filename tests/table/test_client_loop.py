"""The client over loopback: a whole match, a dropped connection and its reconnection, the token
kept, and servers that break the protocol (each one line, never a traceback)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.i18n import Translator
from sixtysix.play.join import SeatRequest, sit
from sixtysix.play.remote import RemoteTable
from sixtysix.plugins.manager import build_registry
from sixtysix.table import tokens
from sixtysix.table.client import TableError
from tests.play.scripted import RecordingScreen
from tests.table.fake_server import TABLE, TOKEN, FakeServer, running

REGISTRY = build_registry()


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(path))
    return path


class Person:
    """Answers each prompt with ``choose(table)``: a line typed when the screen asks."""

    def __init__(self, choose: Callable[[RemoteTable], str]) -> None:
        self.choose = choose
        self.table: RemoteTable | None = None
        self.queue: asyncio.Queue[str | None] | None = None
        self.prompts = 0

    def start(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
        self.queue = queue

    def stop(self) -> None:
        pass

    def prompt(self, text: str) -> None:
        if not text.strip():  # a line break before a message that came during the prompt
            return
        self.prompts += 1
        assert self.queue is not None and self.table is not None
        self.queue.put_nowait(self.choose(self.table))


def first_legal(table: RemoteTable) -> str:
    assert table.view is not None
    return ACTION_NAMES[table.view.legal_actions[0]]


def seat(
    url: str, person: Person, lang: str = "en", name: str = "ayse", **kw: object
) -> tuple[RemoteTable, RecordingScreen, str]:
    screen = RecordingScreen()
    table = RemoteTable(Translator(lang), screen, REGISTRY, person.prompt)
    person.table = table
    request = SeatRequest(url, name, kw.pop("table", None), lang=lang, **kw)  # type: ignore[arg-type]
    result = sit(request, table, person)
    return table, screen, result.ending


def test_a_whole_match_against_the_server_and_the_token_is_kept() -> None:
    server = FakeServer()
    with running(server) as url:
        table, screen, ending = seat(url, Person(first_legal))
        assert ending == "over"
        assert tokens.load(url, "ayse") == TOKEN
        # joined the only open table, with no token at first
        join = next(m for m in server.received if m["type"] == "join")
        assert join["table"] == TABLE and join["token"] is None
        assert join["protocol"] == "sixtysix-table/1"
    text = screen.text
    assert "You sit at table t0000001, seat 0, as ayse." in text
    assert "Deal 1, dealer:" in text and "Match over. Winner:" in text
    assert "Deal over:" in text and "You play" in text and "seat 1 plays" in text
    assert max(table.totals) >= 7  # the match was played to its target
    sent = [m for m in server.received if m["type"] == "action"]
    assert sent and all(m["action"] in ACTION_NAMES for m in sent)


def test_a_dropped_connection_is_joined_again_with_the_token() -> None:
    server = FakeServer()
    server.drop_after = 2
    with running(server) as url:
        _, screen, ending = seat(url, Person(first_legal), reconnect_time=20.0)
    assert ending == "over"
    assert server.joins == 2
    joins = [m for m in server.received if m["type"] == "join"]
    assert joins[0]["token"] is None and joins[1]["token"] == TOKEN
    assert "The connection is lost: reconnecting..." in screen.text
    assert "Back at table t0000001, seat 0" in screen.text


def test_quit_and_yes_leaves_the_table_in_turkish() -> None:
    lines = iter(["çık", "e"])
    server = FakeServer()
    with running(server) as url:
        _, screen, ending = seat(url, Person(lambda t: next(lines)), lang="tr")
    assert ending == "left"
    assert server.received[-1] == {"type": "leave"}
    assert "Masadan kalkmak kesindir: diğerlerine söylenir." in screen.text
    assert "Masadan kalktın." in screen.text


def test_a_refused_token_is_one_line() -> None:
    server = FakeServer()
    server.name = "ayse"  # someone else holds the name
    with running(server) as url, pytest.raises(TableError, match="refused the name ayse"):
        seat(url, Person(first_legal), table=TABLE)


def test_an_unknown_table_is_one_line() -> None:
    with running(FakeServer()) as url, pytest.raises(TableError, match="no table nope"):
        seat(url, Person(first_legal), table="nope")


def test_no_server_is_one_line() -> None:
    with running(FakeServer()) as url:
        pass  # stopped: nothing listens there now
    with pytest.raises(TableError, match="No table server answers at"):
        seat(url, Person(first_legal), table=TABLE)


def _welcome() -> str:
    return json.dumps(
        {
            "type": "welcome",
            "table": TABLE,
            "seat": 0,
            "name": "ayse",
            "token": None,
            "rated": False,
            "move_time": None,
            "players": ["ayse", "@random"],
            "reconnected": False,
        }
    )


def _match() -> str:
    return json.dumps(
        {
            "type": "match",
            "variant": "66",
            "options": {},
            "seats": 2,
            "seat": 0,
            "target": 7,
            "deals": None,
        }
    )


@pytest.mark.parametrize(
    ("frames", "error"),
    [
        ([b"\x00binary"], "binary frame"),
        (["not json"], "not a JSON line"),
        (["[1, 2]"], "not a JSON object"),
        (['{"type": "welcome", "seat": "zero"}'], "bad 'welcome' message"),
        (
            [
                _welcome(),
                '{"type":"match","variant":"no-such-game","options":{},"seats":2,'
                '"seat":0,"target":7,"deals":null}',
            ],
            "cannot show",
        ),
        ([_welcome(), _match(), '{"type":"update","view":{"seat":0}}'], "not a valid view"),
        ([_welcome(), _match(), '{"type":"deal","number":1,"dealer":7}'], "seat 7 at a table of 2"),
        ([_welcome(), _match(), '{"type":"event","seat":1,"action":"fly"}'], "not an action"),
        ([_welcome(), "x" * (70 * 1024)], "refuses"),
    ],
)
def test_a_server_that_breaks_the_protocol_is_one_line(
    frames: list[str | bytes], error: str
) -> None:
    # The listing the client asks for first is part of the script's answer too, so each
    # script starts with a good listing.
    listing = json.dumps({"type": "tables", "tables": []})
    server = FakeServer(script=None)
    calls = {"n": 0}
    original = server.handler

    async def handler(ws):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        server.script = [listing] if calls["n"] == 1 else frames
        await original(ws)

    server.handler = handler  # type: ignore[method-assign]
    with running(server) as url, pytest.raises(TableError) as caught:
        seat(url, Person(first_legal), table=TABLE)
    message = str(caught.value)
    assert "broke the protocol" in message and error in message
    assert "\n" not in message


def test_control_characters_from_the_server_never_reach_the_screen() -> None:
    welcome = json.loads(_welcome())
    welcome["players"] = ["ayse", "\x1b[2Jevil\x07"]
    welcome["name"] = "ay\x1b]0;title\x07se"
    listing = json.dumps({"type": "tables", "tables": []})
    server = FakeServer()
    calls = {"n": 0}
    original = server.handler

    async def handler(ws):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        server.script = [listing] if calls["n"] == 1 else [json.dumps(welcome)]
        await original(ws)

    server.handler = handler  # type: ignore[method-assign]
    screen = RecordingScreen()
    person = Person(first_legal)
    table = RemoteTable(Translator("en"), screen, REGISTRY, person.prompt)
    person.table = table
    with running(server) as url, pytest.raises(TableError, match="closed the connection"):
        sit(SeatRequest(url, "ayse", TABLE), table, person)
    assert "evil" in table.players[1] and "seat 0, as ay" in screen.text
    assert not any(c in screen.text for c in "\x1b\x07")
