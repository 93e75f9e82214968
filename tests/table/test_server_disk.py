"""A full disk pauses a table instead of breaking it (in this process, the disk made to fail
by a switch): every seat is told ``paused``, the table changes no more and its timers wait,
and once a file can be written again it goes on (``resumed``) as if nothing had happened. A
create, a new name or a standings result that cannot be written is refused or kept, never a
traceback; a stop saves what it can and reports the rest."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from sixtysix.service.standings import StandingsError
from sixtysix.table import server as server_module
from sixtysix.table import wire
from sixtysix.table.names import Names, NamesError
from sixtysix.table.server import TableServer
from sixtysix.table.standings_db import ServerStandings
from sixtysix.table.store import Store
from tests.table.server_helpers import Conn, create, join, play_out, request, running
from tests.table.test_client_remote import Table as RemoteScreen

#: Seconds any one expected thing may take (the machine is shared).
WAIT = 30.0


class Disk:
    """``Store.write`` failing with ENOSPC while ``full``: a disk that fills and empties."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.refused = 0
        original = Store.write

        def write(store: Store, table_id: str, text: str, version: int = 0) -> None:
            if self.full:
                self.refused += 1
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            original(store, table_id, text, version)

        monkeypatch.setattr(Store, "write", write)


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def saved(server: TableServer, table: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(server.store.path(table).read_text(encoding="utf-8"))
    return data


def to_act(server: TableServer, table: str) -> int:
    state = server.tables[table].state
    assert state is not None
    return state.to_act


async def act(conn: Conn) -> dict[str, Any]:
    """Answer this seat's decide with its first legal move, and wait until the server has
    applied it (its event comes back)."""
    decide = await conn.expect("decide")
    await conn.send({"type": "action", "action": decide["legal"][0]})
    await conn.expect("event")
    return decide


def play(tmp_path: Path, disk: Disk | None, caplog: pytest.LogCaptureFixture) -> dict[str, Any]:
    """A test match of two people, each playing its first legal move; with ``disk``, the
    disk is full from the fourth move until both seats are told the table waits, and the
    seats try to act meanwhile. The record of its file."""

    async def main() -> dict[str, Any]:
        async with running(tmp_path) as (url, server):
            said: list[str] = []
            server.say = said.append
            table = await create(url, "66", ["human", "human"], seed=5, options={"target": 3})
            a, _ = await join(url, table, "ayse")
            b, _ = await join(url, table, "bora")
            conns = [a, b]
            for _ in range(3):
                await act(conns[to_act(server, table)])
            seat = to_act(server, table)
            decide = await conns[seat].expect("decide")
            before = saved(server, table)["record"]
            if disk is not None:
                disk.full = True
            await conns[seat].send({"type": "action", "action": decide["legal"][0]})
            if disk is not None:
                for conn in conns:
                    assert (await conn.expect("paused"))["reason"] == wire.PAUSED_SAVE
                live = server.tables[table].record.as_json()
                # Nothing may change while the last change is unsaved: every request is
                # answered with the soft error, and the connection stays.
                await conns[seat].send({"type": "action", "action": decide["legal"][0]})
                await conns[1 - seat].send({"type": "undo"})
                await conns[1 - seat].send({"type": "leave"})
                for conn, count in ((conns[seat], 1), (conns[1 - seat], 2)):
                    for _ in range(count):
                        error = await conn.expect("error")
                        assert error["code"] == "paused", error
                assert server.tables[table].record.as_json() == live
                assert not any(server.tables[table].left)
                assert saved(server, table)["record"] == before  # the file: what was told
                refused = disk.refused
                disk.full = False
                for conn in conns:
                    await conn.expect("resumed")
                assert refused >= 1
                update = await conns[seat].expect("event")
                assert update["seat"] == seat and update["action"] == decide["legal"][0]
                paused = [line for line in said if table in line and "cannot be saved" in line]
                assert len(paused) == 1 and "No space left on device" in paused[0], said
                assert any(table in line and "saved again" in line for line in said), said
            overs = await asyncio.gather(play_out(a), play_out(b))
            assert overs[0] == overs[1]
            record: dict[str, Any] = saved(server, table)["record"]
            return record

    with caplog.at_level(logging.DEBUG):
        record = asyncio.run(main())
    no_tracebacks(caplog)
    return record


def test_a_full_disk_pauses_the_table_and_it_goes_on_as_if_nothing_happened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clean = play(tmp_path / "clean", None, caplog)
    faulty = play(tmp_path / "faulty", Disk(monkeypatch), caplog)
    assert faulty == clean
    assert len(clean["deals"]) >= 2


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_move_timer_and_the_reconnect_limit_wait_while_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)

    async def main() -> None:
        async with running(tmp_path, reconnect_time=60) as (url, server):
            clock = FakeClock()
            server.clock = clock
            table = await create(url, "66", ["human", "human"], rated=True, move_time=30)
            a, _ = await join(url, table, "ayse")
            b, _ = await join(url, table, "bora")
            conns = [a, b]
            seat = to_act(server, table)
            mover, other = conns[seat], conns[1 - seat]
            decide = await mover.expect("decide")
            # The other seat drops at 1000: its reconnect limit runs to 1060.
            await other.close()
            seats = await mover.expect("seats")
            while seats["connected"][1 - seat]:
                seats = await mover.expect("seats")
            live = server.tables[table]
            assert live.drops == {1 - seat: 1060.0}
            clock.now = 1010.0
            disk.full = True
            await mover.send({"type": "action", "action": decide["legal"][0]})
            await mover.expect("paused")
            assert live.move_deadline == 1040.0  # the other seat's move, asked at 1010
            clock.now = 1510.0  # far past both limits
            disk.full = False
            await mover.expect("resumed")
            timer = await mover.expect("timer")
            assert timer == {"type": "timer", "seat": 1 - seat, "seconds": 30}
            assert live.move_deadline == 1540.0
            assert live.drops == {1 - seat: 1560.0}
            assert not any(live.left)

    asyncio.run(main())


def test_a_join_to_a_paused_table_waits_for_it_or_is_told_to_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66", ["human", "human"], seed=3)
            a, _ = await join(url, table, "ayse")
            b, wb = await join(url, table, "bora")
            conns = [a, b]
            seat = to_act(server, table)
            decide = await conns[seat].expect("decide")
            disk.full = True
            await conns[seat].send({"type": "action", "action": decide["legal"][0]})
            await b.expect("paused")
            await b.close()
            # A join to a paused table is told so, and held: no welcome, no screen.
            again = await Conn.open(url)
            hello = {"type": "join", "protocol": wire.PROTOCOL, "table": table, "name": "bora"}
            await again.send({**hello, "token": wb["token"]})
            assert (await again.next())["type"] == "paused"
            # One that waits too long is told to come back later (close 1013).
            monkeypatch.setattr(server_module, "PAUSE_JOIN_WAIT", 0.0)
            late = await Conn.open(url)
            await late.send({**hello, "token": wb["token"]})
            assert (await late.next())["type"] == "paused"
            assert (await late.next())["code"] == "paused"
            assert (await late.closed())[0] == wire.CLOSE_AGAIN
            disk.full = False
            # The held join: resumed, then the welcome and the screen as the table is now.
            assert (await again.next())["type"] == "resumed"
            welcome = await again.next()
            assert welcome["type"] == "welcome" and welcome["reconnected"]
            screen = [await again.next() for _ in range(3)]
            assert [m["type"] for m in screen] == ["match", "deal", "update"]
            live = server.tables[table].state
            assert live is not None and len(screen[2]["view"]["history"]) == len(live.history)

    asyncio.run(main())


def test_a_create_on_a_full_disk_is_refused_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    disk = Disk(monkeypatch)

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            said: list[str] = []
            server.say = said.append
            disk.full = True
            conn = await Conn.open(url)
            message = {"type": "create", "variant": "66", "seats": ["human", "@random"]}
            await conn.send({"protocol": wire.PROTOCOL, **message})
            answer = await conn.next()
            assert answer["type"] == "error" and answer["code"] == "server", answer
            assert "cannot save" in answer["message"]
            assert (await conn.closed())[0] == wire.CLOSE_ERROR
            assert server.tables == {} and list(server.store.tables.iterdir()) == []
            assert len(said) == 1 and "No space left on device" in said[0], said
            disk.full = False
            reply = await request(url, message)
            assert reply["type"] == "created"

    with caplog.at_level(logging.DEBUG):
        asyncio.run(main())
    no_tracebacks(caplog)


def test_a_name_that_cannot_be_claimed_refuses_the_join_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def claim(names: Names, name: str) -> str:
        raise NamesError(f"cannot write the names database {names.path}: database or disk is full")

    monkeypatch.setattr(Names, "claim", claim)

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66", ["human", "human"])
            conn = await Conn.open(url)
            await conn.send(
                {"type": "join", "protocol": wire.PROTOCOL, "table": table, "name": "ayse"}
            )
            answer = await conn.next()
            assert answer["type"] == "error" and answer["code"] == "server", answer
            assert "cannot save a new name" in answer["message"]
            assert (await conn.closed())[0] == wire.CLOSE_ERROR
            assert server.tables[table].names == [None, None]

    with caplog.at_level(logging.DEBUG):
        asyncio.run(main())
    no_tracebacks(caplog)


class FailingStandings:
    """``ServerStandings.add`` failing as SQLite does on a full disk while ``full``; each
    write that succeeds sets ``written``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = True
        self.written = threading.Event()
        original = ServerStandings.add

        def add(book: ServerStandings, *args: Any, **kwargs: Any) -> None:
            if self.full:
                raise StandingsError(
                    f"cannot write the standings database {book.path}: database or disk is full"
                )
            original(book, *args, **kwargs)
            self.written.set()

        monkeypatch.setattr(ServerStandings, "add", add)


async def leave_rated(url: str) -> tuple[str, Conn]:
    """A rated table where the one person leaves at once (a result: left, -1)."""
    table = await create(url, "66", ["human", "@random"], rated=True)
    conn, _ = await join(url, table, "ayse")
    await conn.expect("deal")
    await conn.send({"type": "leave"})
    assert (await conn.expect("standings"))["score"] == -1
    return table, conn


def test_a_result_the_standings_cannot_take_is_kept_and_written_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    book = FailingStandings(monkeypatch)
    database = tmp_path / "server.sqlite3"

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            said: list[str] = []
            server.say = said.append
            table, _ = await leave_rated(url)
            kept = saved(server, table)["table"]["unrecorded"]
            assert [(r["name"], r["ending"], r["score"]) for r in kept] == [("ayse", "left", -1)]
            assert len([line for line in said if "cannot be written" in line]) == 1, said
            book.full = False
            assert await asyncio.to_thread(book.written.wait, WAIT)
            async with server.locks[table]:  # the try that wrote it saves the file after
                pass
            assert "unrecorded" not in saved(server, table)["table"]
            rows = ServerStandings(database).rows()
            assert [(r.name, r.left, r.score) for r in rows] == [("ayse", 1, -1)]

    with caplog.at_level(logging.DEBUG):
        asyncio.run(main())
    no_tracebacks(caplog)


def test_results_kept_at_a_stop_are_written_by_the_next_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = FailingStandings(monkeypatch)
    database = tmp_path / "server.sqlite3"

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table, _ = await leave_rated(url)
        book.full = False
        async with running(tmp_path) as (url, server):
            assert await asyncio.to_thread(book.written.wait, WAIT)
            async with server.locks[table]:
                pass
            assert "unrecorded" not in saved(server, table)["table"]
        rows = ServerStandings(database).rows()
        assert [(r.name, r.left, r.score) for r in rows] == [("ayse", 1, -1)]

    asyncio.run(main())


def test_a_stop_while_paused_reports_the_table_and_raises_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    disk = Disk(monkeypatch)
    said: list[str] = []

    async def main() -> tuple[str, list[dict[str, Any]], TableServer]:
        async with running(tmp_path) as (url, server):
            server.say = said.append
            quiet = await create(url, "66", ["human", "human"])  # saved: not written again
            table = await create(url, "66", ["human", "@random"], seed=4)
            conn, _ = await join(url, table, "ayse")
            for _ in range(2):
                await act(conn)
            decide = await conn.expect("decide")
            disk.full = True
            await conn.send({"type": "action", "action": decide["legal"][0]})
            await conn.expect("paused")
            assert quiet in server.tables
        return table, conn.seen, server

    with caplog.at_level(logging.DEBUG):
        table, seen, server = asyncio.run(main())
    no_tracebacks(caplog)
    stops = [line for line in said if "not saved at the stop" in line]
    assert len(stops) == 1 and table in stops[0], said
    assert server.unsaved == [table]
    # The file holds exactly what the client was told: every action it saw, no other.
    record = json.loads(Store(tmp_path).path(table).read_text(encoding="utf-8"))["record"]
    filed = [(a["seat"], a["action"]) for deal in record["deals"] for a in deal["actions"]]
    told = [(m["seat"], m["action"]) for m in seen if m["type"] == "event"]
    assert filed == told and len(told) >= 3


def test_the_person_is_told_the_table_waits_and_goes_on() -> None:
    t = RemoteScreen()
    t.feed({"type": "paused", "reason": wire.PAUSED_SAVE})
    t.feed({"type": "error", "code": "paused", "message": wire.PAUSED_SAVE})
    t.feed({"type": "resumed"})
    text = t.screen.text
    assert "The server cannot save the table now: it waits, then goes on." in text
    assert "The table is paused: nothing was done." in text
    assert "The server can save again: the table goes on." in text
    assert t.remote.fatal is None and not t.remote.done
