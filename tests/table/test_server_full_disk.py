"""``sixtysix serve`` on a disk that really fills: a 300 KiB tmpfs in a private mount namespace
(``tmpfs_server.py``), filled by clients over loopback until a new table cannot be saved. The
table then played pauses, and goes on when room is made; Ctrl-C stops the server with status
130 and no traceback, with room or without, every file whole and holding what its clients were
told. Without root or mount namespaces the tests are skipped, with the reason."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sixtysix.table import wire
from tests.real_parts import unavailable
from tests.table.server_helpers import Conn, create, free_port, join, play_out, request
from tests.table.test_server_restart import environment

WRAPPER = Path(__file__).with_name("tmpfs_server.py")
#: The tmpfs's size, and the ballast the test deletes to make room (bytes).
SIZE = "300k"
BALLAST = 64 * 1024
#: The exit status of the wrapper where no tmpfs can be mounted (``tmpfs_server.CANNOT``).
CANNOT = 77
#: Tables opened at most to fill the disk (a small table file takes a 4 KiB page).
MAX_FILL = 300
#: Seconds to start, to stop, and for any one line or message (the machine is shared).
WAIT = 60.0
TABLE_FILE = "sixtysix-table-file/1"


@dataclass
class Served:
    proc: asyncio.subprocess.Process
    pid: int
    url: str
    out: Path
    #: The server's stderr, line by line, as it comes.
    lines: list[str] = field(default_factory=list)

    async def free(self) -> None:
        """Delete the ballast in the server's namespace: room on its disk again."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(b"free\n")
        await self.proc.stdin.drain()
        answer = await asyncio.wait_for(self.proc.stdout.readline(), WAIT)
        assert answer.strip() == b"freed", answer

    async def interrupt(self) -> int:
        """Ctrl-C to the server; its exit status."""
        os.kill(self.pid, signal.SIGINT)
        return await asyncio.wait_for(self.proc.wait(), WAIT)


@contextlib.asynccontextmanager
async def tmpfs_server(tmp_path: Path) -> AsyncIterator[Served]:
    if os.geteuid() != 0:
        unavailable("mounting a tmpfs needs root")
    unshare = shutil.which("unshare")
    if unshare is None:
        unavailable("no unshare (util-linux) to make a private mount namespace")
    port = free_port()
    data, out = tmp_path / "data", tmp_path / "out"
    serve = ["--port", str(port), "--lang", "en"]
    serve += ["--tables-per-address", "1000", "--creates-per-minute", "1000"]
    proc = await asyncio.create_subprocess_exec(
        *(unshare, "--mount", "--propagation", "private", sys.executable, str(WRAPPER)),
        *(str(data), str(out), SIZE, str(BALLAST), "--", *serve),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=environment(tmp_path),
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = (await asyncio.wait_for(proc.stdout.readline(), WAIT)).decode()
        if not first.startswith("pid "):
            status = await asyncio.wait_for(proc.wait(), WAIT)
            reason = first.strip() or (await proc.stderr.read()).decode().strip()
            if status == CANNOT or "unshare" in reason:
                unavailable(f"no tmpfs in a private mount namespace here: {reason}")
            raise AssertionError(f"the wrapper failed ({status}): {reason}")
        served = Served(proc, int(first.split()[1]), f"ws://127.0.0.1:{port}", out)
        serving = asyncio.Event()

        async def drain() -> None:
            assert proc.stderr is not None
            while line := await proc.stderr.readline():
                served.lines.append(line.decode(errors="replace"))
                if "Serving tables on" in served.lines[-1]:
                    serving.set()
            serving.set()

        reader = asyncio.ensure_future(drain())
        await asyncio.wait_for(serving.wait(), WAIT)
        assert proc.returncode is None, "".join(served.lines)
        yield served
        await asyncio.wait_for(reader, WAIT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def fill(url: str) -> list[str]:
    """Open tables until the server refuses one because it cannot save it; those opened."""
    message = {"type": "create", "variant": "66", "seats": ["human", "human"]}
    opened: list[str] = []
    for _ in range(MAX_FILL):
        answer = await request(url, message)
        if answer["type"] == "error":
            assert answer["code"] == "server" and "cannot save" in answer["message"], answer
            return opened
        opened.append(answer["table"])
    raise AssertionError(f"{MAX_FILL} tables and the disk is not full")


async def play_until_paused(conn: Conn) -> None:
    """Play the first legal moves until the table says it waits; then a move is refused
    softly and the connection stays."""
    while True:
        message = await conn.expect("decide", "paused", timeout=WAIT)
        if message["type"] == "paused":
            assert message["reason"] == wire.PAUSED_SAVE
            break
        last = message["legal"][0]
        await conn.send({"type": "action", "action": last})
    await conn.send({"type": "action", "action": last})
    error = await conn.expect("error", timeout=WAIT)
    assert error["code"] == "paused", error


async def filled_and_paused(served: Served) -> tuple[str, Conn, list[str]]:
    """A person's table opened and joined, the disk filled with open tables, and the person's
    table paused by the next move: its id, the person's connection, the tables opened."""
    table = await create(served.url, "66", ["human", "@random"], seed=4, options={"target": 3})
    conn, _ = await join(served.url, table, "ayse")
    for _ in range(2):  # a few moves saved and told before the disk fills
        decide = await conn.expect("decide", timeout=WAIT)
        await conn.send({"type": "action", "action": decide["legal"][0]})
        await conn.expect("event", timeout=WAIT)
    opened = await fill(served.url)
    assert opened
    await play_until_paused(conn)
    return table, conn, opened


def files(out: Path) -> dict[str, dict[str, Any]]:
    """Every table file the server left, each one whole JSON of the table file format."""
    assert not list(out.glob(".*")), list(out.glob(".*"))  # no temporary file left behind
    found: dict[str, dict[str, Any]] = {}
    for path in out.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["format"] == TABLE_FILE
        found[path.stem] = data
    return found


def test_a_full_disk_pauses_the_table_until_there_is_room_then_ctrl_c_saves_all(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with tmpfs_server(tmp_path) as served:
            table, conn, opened = await filled_and_paused(served)
            await served.free()
            await conn.expect("resumed", timeout=WAIT)
            over = await play_out(conn)
            assert max(over["totals"]) >= 3
            assert await served.interrupt() == 130
        log = "".join(served.lines)
        assert "Traceback" not in log, log
        assert f"Table {table}: cannot be saved (No space left on device)" in log, log
        assert f"Table {table}: saved again" in log, log
        assert "not saved at the stop" not in log, log
        saved = files(served.out)
        assert set(saved) == {table, *opened}
        assert saved[table]["table"]["finished"]

    asyncio.run(main())


def test_ctrl_c_while_the_disk_is_full_keeps_what_the_clients_were_told(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with tmpfs_server(tmp_path) as served:
            table, conn, opened = await filled_and_paused(served)
            # A new name cannot be written to the names database either: refused in a line.
            stranger = await Conn.open(served.url)
            hello = {"type": "join", "protocol": wire.PROTOCOL, "table": opened[0]}
            await stranger.send({**hello, "name": "bora"})
            answer = await stranger.next(WAIT)
            assert answer["code"] == "server" and "new name" in answer["message"], answer
            assert (await stranger.closed(WAIT))[0] == wire.CLOSE_ERROR
            assert await served.interrupt() == 130
        log = "".join(served.lines)
        assert "Traceback" not in log, log
        stops = [line for line in served.lines if "not saved at the stop" in line]
        assert len(stops) == 1 and f"Table {table}:" in stops[0], log
        assert "bora could not be seated" in log and "database or disk is full" in log, log
        saved = files(served.out)
        assert set(saved) == {table, *opened}
        assert saved[opened[0]]["table"]["names"] == [None, None]
        record = saved[table]["record"]
        filed = [(a["seat"], a["action"]) for deal in record["deals"] for a in deal["actions"]]
        told = [(m["seat"], m["action"]) for m in conn.seen if m["type"] == "event"]
        assert filed == told and told

    asyncio.run(main())
