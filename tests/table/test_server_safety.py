"""The attacks on a table server open to strangers, each refused or harmless: programs are the
operator's alone (whatever a seat spec looks like), foreign browser origins are refused, budgets
are not the client's, tables are rationed, open tables expire, and bots think in a pool of
their own so that a join is answered while every bot thread is busy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from sixtysix.core.view import View
from sixtysix.table import wire
from sixtysix.table.settings import Limits, Settings
from tests.protocol.scripts import FIRST_LEGAL, write_player
from tests.table.server_helpers import OPERATOR, Conn, P, create, join, play_out, request, running


def touching(tmp_path: Path) -> tuple[str, Path]:
    """A command that leaves a file behind if it ever runs, and that file."""
    marker = tmp_path / "ran"
    return f"touch {shlex.quote(str(marker))}", marker


async def refused(url: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    answer = await request(url, {"type": "create", "variant": "66", "seats": seats, **extra})
    assert answer["type"] == "error", answer
    return answer


@pytest.mark.parametrize(
    "spelling",
    ["exec:{cmd}", "@exec:{cmd}", "@ exec:{cmd}", " @exec: {cmd}", "@EXEC:{cmd}", "@Exec :{cmd}"],
)
def test_no_client_turns_a_string_into_a_process(tmp_path: Path, spelling: str) -> None:
    command, marker = touching(tmp_path)

    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            answer = await refused(url, ["human", spelling.format(cmd=command)])
            assert answer["code"] == "garbage"
            assert "operator" in answer["message"] or "a seat is human" in answer["message"]
            assert not server.tables

    asyncio.run(main())
    assert not marker.exists()


def test_the_operators_token_must_be_right(tmp_path: Path) -> None:
    command, marker = touching(tmp_path)

    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            answer = await refused(url, ["human", "exec:" + command], operator="guess")
            assert answer["code"] == "token"
        async with running(tmp_path / "other", settings=Settings()) as (url, _):
            # A server started with no token takes nobody's.
            answer = await refused(url, ["human", "exec:" + command], operator=OPERATOR)
            assert answer["code"] == "token"

    asyncio.run(main())
    assert not marker.exists()


def test_a_program_the_operator_named_is_seated_by_name_and_counts_as_a_program(
    tmp_path: Path,
) -> None:
    program = "exec:" + shlex.join(write_player(tmp_path, FIRST_LEGAL))
    settings = Settings(programs={"mybot": program}, operator_token=OPERATOR)

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, server):
            table = await create(url, "66", ["human", "@mybot"], seed=1, options={"target": 1})
            conn, _ = await join(url, table, "ayse")
            decide = await conn.expect("decide")
            live = server.tables[table]
            assert live.kinds == ["human", "exec"]
            assert live.summary()["seats"][1]["label"] == "@mybot"
            # A take-back would deal the program's unseen cards afresh: refused by what the
            # seat is, though its spec does not say exec.
            await conn.send({"type": "undo"})
            error = await conn.expect("error")
            assert error["code"] == "no_undo"
            await conn.send({"type": "action", "action": decide["legal"][0]})
            await play_out(conn)
            assert live.finished and live.programs

    asyncio.run(main())


def test_budgets_are_not_the_clients(tmp_path: Path) -> None:
    bomb = "@expert:samples=10000000,nodes=10000000,time=3600000"

    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            answer = await refused(url, ["human", bomb])
            assert answer["code"] == "garbage" and "operator's choice" in answer["message"]
            assert "samples" in answer["message"]
            # Bots alone, however modest, play on without anyone: the operator's to open.
            answer = await refused(url, ["@random", "@random"])
            assert answer["code"] == "garbage" and "at least one person" in answer["message"]
            answer = await refused(url, ["human", "@random"], seed=10**120)
            assert answer["code"] == "garbage" and "digits" in answer["message"]
            # A seed is not a budget, and levels are what clients choose.
            await create(url, "66", ["human", "@expert:seed=3"])
            await create(url, "66", ["human", "@hard"])
            # The operator may give a bot any parameters.
            await create(url, "66", ["human", "@expert:samples=2"], operator=OPERATOR)
            assert len(server.tables) == 3

    asyncio.run(main())


def test_a_foreign_origin_is_refused_by_the_handshake(tmp_path: Path) -> None:
    settings = Settings(origins=("https://club.example",))

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, server):
            with pytest.raises(InvalidStatus) as refused_status:
                await connect(url, origin="http://evil.example")  # type: ignore[arg-type]
            assert refused_status.value.response.status_code == 403
            for origin in ("https://club.example", None):
                ws = await connect(url, origin=origin)  # type: ignore[arg-type]
                async with ws:
                    await ws.send(wire.encode({"type": "list", "protocol": P}))
                    assert '"tables"' in str(await ws.recv())
            assert not server.tables

    asyncio.run(main())


def test_creates_are_rationed_per_address_and_per_minute(tmp_path: Path) -> None:
    limits = Limits(tables_per_address=3, creates_per_minute=5)

    async def main() -> None:
        settings = Settings(operator_token=OPERATOR, limits=limits)
        async with running(tmp_path / "a", settings=settings) as (url, server):
            for _ in range(3):
                await create(url, "66", ["human", "human"])
            answer = await refused(url, ["human", "human"])
            assert answer["code"] == "quota" and "3 unfinished tables" in answer["message"]
            # The operator is not rationed.
            await create(url, "66", ["human", "human"], operator=OPERATOR)
            assert len(server.tables) == 4
        limits_b = Limits(tables_per_address=100, creates_per_minute=5)
        async with running(tmp_path / "b", settings=Settings(limits=limits_b)) as (url, _):
            for _ in range(5):
                await create(url, "66", ["human", "human"])
            answer = await refused(url, ["human", "human"])
            assert answer["code"] == "quota" and "5 tables a minute" in answer["message"]

    asyncio.run(main())


def test_a_name_sits_at_a_limited_number_of_tables(tmp_path: Path) -> None:
    settings = Settings(limits=Limits(tables_per_name=2))

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, _):
            tables = [await create(url, "66", ["human", "human"]) for _ in range(3)]
            first, welcome = await join(url, tables[0], "ayse")
            token = welcome["token"]
            await join(url, tables[1], "ayse", token)
            conn = await Conn.open(url)
            await conn.send(
                {"type": "join", "protocol": P, "table": tables[2], "name": "AYSE", "token": token}
            )
            error = await conn.expect("error")
            assert error["code"] == "quota" and "2 unfinished tables" in error["message"]
            # Coming back to a seat already held is not a new seat.
            await first.close()
            _, welcome = await join(url, tables[0], "ayse", token)
            assert welcome["reconnected"]

    asyncio.run(main())


def test_an_open_table_nobody_comes_to_expires(tmp_path: Path) -> None:
    # Long enough that the second table and the join finish, on a loaded machine too, before
    # the first table expires and its file is looked for.
    settings = Settings(limits=Limits(open_expiry=1.5))

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, server):
            lonely = await create(url, "66", ["human", "human"])
            waited = await create(url, "66", ["human", "human"])
            conn, _ = await join(url, waited, "ayse")
            path = server.store.path(lonely)
            assert path.exists()
            remove = server.store.remove

            def slow_remove(table_id: str) -> None:
                time.sleep(0.2)  # a slow disk: the file goes after the table leaves memory
                remove(table_id)

            server.store.remove = slow_remove  # type: ignore[method-assign]
            for _ in range(200):
                if lonely not in server.tables and not path.exists():
                    break
                await asyncio.sleep(0.05)
            assert lonely not in server.tables and not path.exists()
            assert waited in server.tables  # a person waits there
            listed = await request(url, {"type": "list"})
            assert [t["table"] for t in listed["tables"]] == [waited]
            await conn.close()

    asyncio.run(main())


def test_a_join_that_waited_while_its_table_expired_is_told_there_is_none(
    tmp_path: Path,
) -> None:
    """The sweep takes the table's lock before a join does; the join then gets the lock of a
    table the server has forgotten, and must say so in one error, not seat anyone there."""
    # Long enough that the second table and the join finish, on a loaded machine too, before
    # the first table expires and its file is looked for.
    settings = Settings(limits=Limits(open_expiry=1.5))

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, server):
            lonely = await create(url, "66", ["human", "human"])
            lock = server.locks[lonely]
            await lock.acquire()
            try:
                for _ in range(200):  # the sweep waits for the lock
                    if lock._waiters:  # type: ignore[attr-defined]
                        break
                    await asyncio.sleep(0.05)
                assert lock._waiters  # type: ignore[attr-defined]
                conn = await Conn.open(url)
                await conn.send({"type": "join", "protocol": P, "table": lonely, "name": "ayse"})
                for _ in range(200):  # and the join behind it
                    if len(lock._waiters) == 2:  # type: ignore[attr-defined]
                        break
                    await asyncio.sleep(0.01)
                assert len(lock._waiters) == 2  # type: ignore[attr-defined]
            finally:
                lock.release()
            error = await conn.expect("error")
            assert error["code"] == "no_table"
            assert lonely not in server.tables and lonely not in server.clients
            listed = await request(url, {"type": "list"})
            assert listed["tables"] == []

    asyncio.run(main())


def test_a_join_is_answered_while_every_bot_thread_is_busy(tmp_path: Path) -> None:
    release = threading.Event()
    settings = Settings(bot_threads=1, operator_token=OPERATOR)

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, server):
            busy = [
                await create(url, "66", ["@random", "@random"], seed=s, operator=OPERATOR)
                for s in (1, 2)
            ]
            for table in busy:
                for bot in server.tables[table].bots:
                    assert bot is not None
                    inner = bot.choose

                    def stuck(view: View, inner: Any = inner) -> int:
                        release.wait(60)
                        return int(inner(view))

                    bot.choose = stuck  # type: ignore[method-assign]
            table = await create(url, "66", ["human", "human"], seed=5, options={"target": 1})
            loop = asyncio.get_running_loop()
            start = loop.time()
            conns = [(await join(url, table, f"p{i}"))[0] for i in range(2)]
            assert loop.time() - start < 5  # name look-ups do not queue behind the bots
            await asyncio.gather(*(play_out(c) for c in conns))
            assert all(not server.tables[t].completed for t in busy)
            release.set()

    try:
        asyncio.run(main())
    finally:
        release.set()


def test_bot_tables_wait_behind_tables_where_a_person_is(tmp_path: Path) -> None:
    from sixtysix.table.pool import IDLE, WATCHED, BotPool

    order: list[str] = []
    gate = threading.Event()

    async def main() -> None:
        pool = BotPool(1)
        try:
            first = pool.run(lambda: gate.wait(10))
            idle = [pool.run(lambda i=i: order.append(f"idle{i}"), IDLE) for i in range(3)]
            watched = pool.run(lambda: order.append("watched"), WATCHED)
            gate.set()
            await asyncio.gather(first, watched, *idle)
        finally:
            pool.close()

    asyncio.run(main())
    assert order == ["watched", "idle0", "idle1", "idle2"]


def test_a_cancelled_job_is_dropped_and_a_raising_one_raises_where_awaited() -> None:
    from sixtysix.table.pool import BotPool

    ran: list[int] = []
    gate = threading.Event()

    def boom() -> None:
        raise ValueError("bad bot")

    async def main() -> None:
        pool = BotPool(1)
        try:
            first = pool.run(lambda: gate.wait(10))
            dropped = pool.run(lambda: ran.append(1))
            dropped.cancel()
            failing = pool.run(boom)
            gate.set()
            await first
            with pytest.raises(ValueError, match="bad bot"):
                await failing
        finally:
            pool.close()

    asyncio.run(main())
    assert ran == []


def test_stale_temporary_files_are_removed_and_finished_tables_stay_listed(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"

    async def main() -> None:
        async with running(data) as (url, _):
            table = await create(url, "66", ["human", "@random"], seed=8, options={"target": 1})
            conn, _ = await join(url, table, "ayse")
            await play_out(conn)
        leftovers = [data / "tables" / f".{table}.json.x{i}.tmp" for i in range(3)]
        for leftover in leftovers:
            leftover.write_text("{half")
        async with running(data) as (url, server):
            assert server.store.removed_leftovers == 3
            assert not any(p.exists() for p in leftovers)
            listed = await request(url, {"type": "list"})
            [entry] = listed["tables"]
            assert entry["table"] == table and entry["status"] == "finished"
            assert server.tables[table].finished

    asyncio.run(main())


def test_a_finished_table_older_than_an_hour_is_not_listed_after_a_restart(
    tmp_path: Path,
) -> None:
    import json
    import time

    data = tmp_path / "data"

    async def main() -> None:
        async with running(data) as (url, server):
            table = await create(url, "66", ["human", "@random"], seed=8, options={"target": 1})
            conn, _ = await join(url, table, "ayse")
            await play_out(conn)
            path = server.store.path(table)
        content = json.loads(path.read_text())
        assert content["table"]["finished_at"] > time.time() - 60
        content["table"]["finished_at"] = time.time() - 3700
        path.write_text(json.dumps(content))
        async with running(data) as (url, _):
            listed = await request(url, {"type": "list"})
            assert listed["tables"] == []

    asyncio.run(main())


def test_a_person_still_seated_at_a_table_the_server_forgets_is_closed_not_failed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A finished table leaves memory an hour after its end (at the next ``list``); whoever
    is still connected there is closed with a normal close, and a message already on its way
    is dropped without a traceback in the log."""

    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            table = await create(url, "66", ["human", "@random"], seed=8, options={"target": 1})
            conn, _ = await join(url, table, "ayse")
            await play_out(conn)
            server.tables[table].finished_at -= 3700  # type: ignore[operator]
            await conn.send({"type": "chat", "phrase": "hello"})  # on its way meanwhile
            assert server.listing() == []
            assert await conn.closed() == (wire.CLOSE_NORMAL, "the table is closed")
            assert table not in server.clients

    with caplog.at_level(logging.ERROR):
        asyncio.run(main())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_a_restarting_server_answers_a_join_once_its_tables_are_back(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            table = await create(url, "66", ["human", "human"])
            server.ready.clear()
            conn = await Conn.open(url)
            await conn.send({"type": "join", "protocol": P, "table": table, "name": "ayse"})
            with contextlib.suppress(TimeoutError):
                early = await conn.next(timeout=0.3)
                raise AssertionError(f"answered before the tables were back: {early}")
            server.ready.set()
            assert (await conn.expect("welcome"))["table"] == table

    asyncio.run(main())


def test_a_program_that_answers_at_once_is_not_taken_for_a_flood(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            table = await create(url, "66", ["human", "@random"], seed=4, options={"target": 7})
            conn, _ = await join(url, table, "quick")
            over = await play_out(conn)  # every move the moment it is asked for
            assert max(over["totals"]) >= 7
            assert server.tables[table].finished
            # Moves that are refused still count: a flood of illegal ones is closed.
            other = await create(url, "66", ["human", "@random"], seed=5)
            flooder, _ = await join(url, other, "flood")
            with contextlib.suppress(Exception):
                for _ in range(200):
                    await flooder.send({"type": "action", "action": "play XX"})
            code, reason = await flooder.closed()
            assert code == wire.CLOSE_POLICY and "flooding" in (reason or "")

    asyncio.run(main())


def test_a_quota_counts_an_ipv6_subscriber_by_its_64() -> None:
    from sixtysix.table.connection import quota_key

    assert quota_key("2001:db8:1:2::5") == quota_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert quota_key("2001:db8:1:3::5") != quota_key("2001:db8:1:2::5")
    assert quota_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert quota_key("192.0.2.7") == "192.0.2.7" and quota_key("::1") == "::1"
