"""Bots and external programs at a server's tables: an ``exec:`` program plays a seat, its
fault forfeits only the deal, and a bot thinking for long never holds up another table."""

from __future__ import annotations

import asyncio
import json
import shlex
import threading
from pathlib import Path

import pytest

from sixtysix.core.faults import FaultKind
from sixtysix.core.records import Forfeit
from sixtysix.core.view import View
from sixtysix.table.connection import is_local
from tests.protocol.scripts import FIRST_LEGAL, misbehaving, write_player
from tests.table.server_helpers import OPERATOR, create, join, play_out, running


def test_an_exec_player_plays_a_seat_of_its_own_table(tmp_path: Path) -> None:
    spec = "exec:" + shlex.join(write_player(tmp_path, FIRST_LEGAL))

    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            tables = [
                await create(
                    url, "66", ["human", spec], seed=s, options={"target": 2}, operator=OPERATOR
                )
                for s in (1, 2)
            ]
            conns = [(await join(url, t, f"p{i}"))[0] for i, t in enumerate(tables)]
            overs = await asyncio.gather(*(play_out(c) for c in conns))
            for table, over in zip(tables, overs, strict=True):
                live = server.tables[table]
                assert live.finished and max(over["totals"]) >= 2
                assert all(d.forfeit is None for d in live.record.deals)
            # Each table had a program of its own.
            pids = [p.pids for t in tables for p in server.tables[t].programs]
            assert len(pids) == 2 and not set(pids[0]) & set(pids[1])

    asyncio.run(main())


def test_a_faulting_program_forfeits_the_deal(tmp_path: Path) -> None:
    spec = "exec:" + shlex.join(
        write_player(tmp_path, misbehaving('send({"type": "action", "action": "play XX"})'))
    )

    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            table = await create(
                url, "66", ["human", spec], seed=3, options={"target": 3}, operator=OPERATOR
            )
            conn, _ = await join(url, table, "ayse")
            result = await play_out(conn, until="result")
            assert result["result"]["reason"] == "forfeit"
            assert server.tables[table].record.deals[0].forfeit == Forfeit(1, FaultKind.ILLEGAL)
            # Written into the record itself (before anyone was told), no map beside it.
            saved = json.loads((tmp_path / "data" / "tables" / f"{table}.json").read_text())
            assert saved["record"]["deals"][0]["forfeit"] == {"seat": 1, "reason": "illegal"}
            assert "forfeits" not in saved["table"]

    asyncio.run(main())


def faults_once(marker: Path) -> str:
    """A program whose first process answers its first decision with a card that does not
    exist; every later process plays (``marker`` counts the processes)."""
    return misbehaving(
        f"""
        if count({str(marker)!r}) == 0:
            send({{"type": "action", "action": "play XX"}})
        else:
            first_legal(msg)
        """
    )


@pytest.mark.parametrize("style", ["record", "old map"])
def test_a_restarted_server_resumes_a_table_after_a_forfeited_deal(
    tmp_path: Path, style: str
) -> None:
    """The forfeit read back from the record (or from an old file's ``forfeits`` map, whose
    kind is unknown: ``crash``) ends deal 1 as it ended; deal 2 goes on where it was."""
    spec = "exec:" + shlex.join(write_player(tmp_path, faults_once(tmp_path / "starts")))
    data = tmp_path / "data"

    async def main() -> None:
        async with running(data) as (url, server):
            table = await create(
                url, "66", ["human", spec], seed=3, options={"target": 4}, operator=OPERATOR
            )
            conn, welcome = await join(url, table, "ayse")
            await play_out(conn, until="result")
            await conn.expect("deal")
            await play_out(conn, until="decide")  # deal 2 waits for the person
        path = data / "tables" / f"{table}.json"
        saved = json.loads(path.read_text())
        assert saved["record"]["deals"][0]["forfeit"] == {"seat": 1, "reason": "illegal"}
        kind = "illegal"
        if style == "old map":
            del saved["record"]["deals"][0]["forfeit"]
            saved["table"]["forfeits"] = {"0": 1}
            path.write_text(json.dumps(saved))
            kind = "crash"
        async with running(data) as (url, server):
            live = server.tables[table]
            assert live.totals == [3, 0] and live.completed == 1 and not live.finished
            assert live.record.deals[0].forfeit == Forfeit(1, FaultKind(kind))
            again, _ = await join(url, table, "ayse", welcome["token"])
            over = await play_out(again)
            assert max(over["totals"]) >= 4
        written = json.loads(path.read_text())
        assert written["record"]["deals"][0]["forfeit"] == {"seat": 1, "reason": kind}
        assert "forfeits" not in written["table"]

    asyncio.run(main())


def test_a_thinking_bot_does_not_hold_up_another_table(tmp_path: Path) -> None:
    release = threading.Event()

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            slow = await create(url, "66", ["@random", "@random"], seed=1, operator=OPERATOR)
            bot = server.tables[slow].bots[0]
            assert bot is not None
            inner = bot.choose

            def stuck(view: View) -> int:
                release.wait(60)
                return inner(view)

            bot.choose = stuck  # type: ignore[method-assign]
            bot2 = server.tables[slow].bots[1]
            assert bot2 is not None
            bot2.choose = stuck  # type: ignore[method-assign]
            table = await create(url, "66-4", ["human"] * 4, seed=5, options={"target": 2})
            conns = [(await join(url, table, f"p{i}"))[0] for i in range(4)]
            await asyncio.gather(*(play_out(c) for c in conns))
            assert not server.tables[slow].completed  # still thinking
            release.set()

    try:
        asyncio.run(main())
    finally:
        release.set()


def test_a_peer_is_local_only_from_a_loopback_address() -> None:
    class Peer:
        def __init__(self, address: object) -> None:
            self.remote_address = address

    assert is_local(Peer(("127.0.0.1", 5000)))  # type: ignore[arg-type]
    assert is_local(Peer(("::1", 5000, 0, 0)))  # type: ignore[arg-type]
    assert not is_local(Peer(("192.0.2.7", 5000)))  # type: ignore[arg-type]
    assert not is_local(Peer(None))  # type: ignore[arg-type]
