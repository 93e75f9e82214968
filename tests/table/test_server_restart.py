"""``sixtysix serve`` as a process: killed (SIGKILL) mid-match and started again, it resumes
the table and the clients reconnect; Ctrl-C stops it with status 130 and every table saved; a
port in use is one line and status 2."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.table.server_helpers import create, free_port, join, play_out

ROOT = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["SIXTYSIX_DATA_DIR"] = str(tmp_path / "user")
    env["LANG"] = "C.UTF-8"
    env.pop("LANGUAGE", None)
    return env


@asynccontextmanager
async def serving(
    tmp_path: Path, port: int, *extra: str
) -> AsyncIterator[asyncio.subprocess.Process]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "sixtysix",
        "serve",
        "--port",
        str(port),
        "--data",
        str(tmp_path / "data"),
        *extra,
        stderr=asyncio.subprocess.PIPE,
        env=environment(tmp_path),
    )
    assert proc.stderr is not None
    try:
        while True:
            line = await asyncio.wait_for(proc.stderr.readline(), 60)
            assert line, "the server ended before serving"
            if b"Serving tables on" in line:
                break
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_killed_and_restarted_mid_match_the_table_resumes(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}"

    async def main() -> None:
        async with serving(tmp_path, port) as proc:
            table = await create(url, "66", ["human", "@random"], seed=4, options={"target": 3})
            conn, welcome = await join(url, table, "ayse")
            token = welcome["token"]
            for _ in range(3):
                decide = await conn.expect("decide")
                await conn.send({"type": "action", "action": decide["legal"][0]})
            last = await conn.expect("decide")
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        saved = json.loads((tmp_path / "data" / "tables" / f"{table}.json").read_text())
        assert saved["table"]["names"] == ["ayse", None]
        async with serving(tmp_path, port):
            again, welcome = await join(url, table, "ayse", token)
            assert welcome["reconnected"] and welcome["seat"] == 0
            screen = [await again.next() for _ in range(4)]
            assert [m["type"] for m in screen] == ["match", "deal", "update", "decide"]
            assert screen[2]["view"] == last["view"]
            assert screen[3]["legal"] == last["legal"]
            await again.send({"type": "action", "action": screen[3]["legal"][0]})
            over = await play_out(again)
            assert max(over["totals"]) >= 3

    asyncio.run(main())


def test_ctrl_c_stops_with_130_and_every_table_saved(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}"

    async def main() -> None:
        async with serving(tmp_path, port) as proc:
            table = await create(url, "66-4", ["human"] * 4, seed=2)
            conn, _ = await join(url, table, "p0")
            await conn.expect("waiting")
            proc.send_signal(signal.SIGINT)
            assert await asyncio.wait_for(proc.wait(), 60) == 130
            assert proc.stderr is not None
            rest = (await proc.stderr.read()).decode()
            assert "every table is saved" in rest and "Traceback" not in rest
        saved = json.loads((tmp_path / "data" / "tables" / f"{table}.json").read_text())
        assert saved["table"]["names"] == ["p0", None, None, None]

    asyncio.run(main())


def test_a_port_in_use_is_one_line_and_status_2(tmp_path: Path) -> None:
    port = free_port()

    async def main() -> None:
        async with serving(tmp_path, port):
            second = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "sixtysix",
                "serve",
                "--port",
                str(port),
                "--data",
                str(tmp_path / "other"),
                stderr=asyncio.subprocess.PIPE,
                env=environment(tmp_path),
            )
            _, err = await asyncio.wait_for(second.communicate(), 60)
            assert second.returncode == 2
            lines = err.decode().strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("Error: cannot listen on 127.0.0.1:")

    asyncio.run(main())
