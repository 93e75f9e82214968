"""``sixtysix serve`` whose bots think without end (budgets only the operator may give): Ctrl-C
still stops it within a second with every table saved, and started again on the same folder it
listens at once and answers while those tables' bots think on."""

from __future__ import annotations

import asyncio
import json
import shlex
import signal
import socket
import time
from pathlib import Path

from sixtysix.table import wire
from sixtysix.table.server import STOP_CONNECTIONS
from sixtysix.table.settings import Settings
from tests.protocol.scripts import gone, misbehaving, write_player
from tests.table.server_helpers import OPERATOR, Conn, P, create, free_port, join, request, running
from tests.table.test_server_restart import serving

#: A budget no move finishes in this test's lifetime.
ENDLESS = "@expert:samples=100000,nodes=10000000"
#: How long a stop may take: a second, and a little for a loaded machine to schedule it.
STOP_WITHIN = 1.5


async def _stopped_within(proc: asyncio.subprocess.Process) -> tuple[int, float, str]:
    """SIGINT the server; its exit status, the seconds it took and what it said after."""
    assert proc.stderr is not None
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code = await asyncio.wait_for(proc.wait(), 30)
    took = time.monotonic() - start
    rest = (await proc.stderr.read()).decode()
    return code, took, rest


def _token(tmp_path: Path) -> str:
    return (tmp_path / "data" / "operator.token").read_text().strip()


async def _endless_tables(url: str, tmp_path: Path, count: int) -> list[str]:
    """``count`` tables of two bots that never finish a move (the operator's to open)."""
    token = _token(tmp_path)
    return [
        await create(url, "66", [ENDLESS, ENDLESS], seed=s, operator=token) for s in range(count)
    ]


def test_ctrl_c_stops_a_server_whose_bots_think_without_end(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}"

    async def main() -> None:
        async with serving(tmp_path, port) as proc:
            tables = await _endless_tables(url, tmp_path, 3)
            # Every bot thread is busy now, and a person is still answered at once.
            start = time.monotonic()
            listed = await request(url, {"type": "list"})
            assert time.monotonic() - start < 2.0
            assert {t["table"] for t in listed["tables"]} == set(tables)
            code, took, said = await _stopped_within(proc)
        assert code == 130, said
        assert took < STOP_WITHIN, f"stopped after {took:.2f} s"
        assert "Traceback" not in said and "every table is saved" in said
        for table in tables:
            saved = json.loads((tmp_path / "data" / "tables" / f"{table}.json").read_text())
            assert len(saved["record"]["deals"]) == 1

    asyncio.run(main())


def test_a_restarted_server_listens_before_it_resumes(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}"

    async def main() -> None:
        async with serving(tmp_path, port) as proc:
            tables = await _endless_tables(url, tmp_path, 4)
            proc.kill()  # mid-thought, as a crash would
            await proc.wait()
        async with serving(tmp_path, port) as proc:
            listed = await asyncio.wait_for(request(url, {"type": "list"}), 10)
            assert {t["table"] for t in listed["tables"]} == set(tables)
            assert all(t["status"] == "running" for t in listed["tables"])
            code, took, said = await _stopped_within(proc)
        assert code == 130, said
        assert took < STOP_WITHIN, f"stopped after {took:.2f} s"
        assert "Resumed 4 unfinished tables" in said and "Traceback" not in said

    asyncio.run(main())


def test_ctrl_c_stops_a_server_whose_programs_never_answer(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    pids = tmp_path / "pids"
    mute = write_player(
        tmp_path,
        misbehaving(
            f"""
            import os, time
            with open({str(pids)!r}, "a") as out:
                out.write(f"{{os.getpid()}}\\n")
            time.sleep(600)
            """
        ),
    )
    spec = "exec:" + shlex.join(mute)

    async def main() -> None:
        async with serving(tmp_path, port) as proc:
            await create(url, "66", [spec, spec], seed=1, operator=_token(tmp_path))
            for _ in range(600):
                if pids.exists() and pids.read_text().strip():
                    break
                await asyncio.sleep(0.05)
            code, took, said = await _stopped_within(proc)
        assert code == 130, said
        assert took < STOP_WITHIN, f"stopped after {took:.2f} s"
        assert "Traceback" not in said
        for pid in pids.read_text().split():
            assert gone(int(pid)), f"program {pid} outlived the server"

    asyncio.run(main())


def test_a_stop_cuts_a_person_who_stopped_reading(tmp_path: Path) -> None:
    """A peer that stops reading holds a WebSocket close (its frame waits behind all the peer
    has not read; the library's keep-alive cut it after 20 s): the stop cuts such a connection
    after :data:`STOP_CONNECTIONS`, so that its handler returns and the table's file holds the
    table's last version."""

    async def main() -> None:
        quick_chat = Settings(operator_token=OPERATOR, chat_every=1e-6, chat_burst=1_000_000)
        start = 0.0
        async with running(tmp_path, settings=quick_chat) as (url, server):
            table = await create(url, "66", ["human", "human"], seed=3)
            ayse, _ = await join(url, table, "ayse")
            port = int(url.rsplit(":", 1)[1])
            mute = socket.socket()  # a small window: little fills it
            mute.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            mute.setblocking(False)
            await asyncio.get_running_loop().sock_connect(mute, ("127.0.0.1", port))
            mehmet = await Conn.open(url, sock=mute)
            await mehmet.send({"type": "join", "protocol": P, "table": table, "name": "mehmet"})
            assert (await mehmet.expect("welcome"))["type"] == "welcome"
            sending = server.clients[table][1]
            sock = sending.ws.transport.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            mehmet.ws.transport.pause_reading()  # mehmet stops reading
            reading = asyncio.create_task(ayse.closed(timeout=120))
            text = "x" * wire.MAX_CHAT
            while sending.queue.qsize() < 20:  # his messages wait at the server: it is stuck
                await ayse.send({"type": "chat", "text": text})
                await asyncio.sleep(0)
            start = time.monotonic()
        took = time.monotonic() - start
        assert took < STOP_CONNECTIONS + 3.0, f"stopped after {took:.2f} s"
        reading.cancel()
        assert not server.live  # his handler was cut loose, not left waiting
        assert server.saved[table] == server.tables[table].version and not server.unsaved
        saved = json.loads((tmp_path / "tables" / f"{table}.json").read_text())
        assert saved["record"]["deals"]

    asyncio.run(main())
