"""``sixtysix serve`` whose bots think without end (budgets only the operator may give): Ctrl-C
still stops it within a second with every table saved, and started again on the same folder it
listens at once and answers while those tables' bots think on."""

from __future__ import annotations

import asyncio
import json
import shlex
import signal
import time
from pathlib import Path

from tests.protocol.scripts import gone, misbehaving, write_player
from tests.table.server_helpers import create, free_port, request
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
