"""Workers never outlive their parent: ``kill -9`` of a run leaves no process behind.

Each command runs in a session of its own, so everything it started (workers, the forkserver,
the resource tracker) is found by its session id in ``/proc``, however it was re-parented.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads the process table from /proc"
)

#: How long the processes of a killed run may take to end (they take a fraction of a second;
#: before the fix they stayed for minutes).
GRACE_SECONDS = 30.0
#: How long a run may take to start its workers on a busy machine.
START_SECONDS = 120.0


def session_members(sid: int) -> list[int]:
    """Live (not zombie) processes of session ``sid``."""
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            data = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = data[data.rindex(")") + 2 :].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            members.append(int(name))
    return members


def describe(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:100].decode()
    except OSError:
        return f"{pid} (gone)"


def wait_for(predicate: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


@pytest.mark.parametrize(
    ("args", "processes"),
    [
        # main + resource tracker + forkserver + 2 workers
        (["simulate", "66", "--games", "20000000", "--workers", "2", "--seed", "1"], 5),
        (
            [
                *("tournament", "66", "--bots", "random,random:seed=3,random:seed=4"),
                *("--deals", "10000000", "--workers", "2", "--seed", "1"),
            ],
            5,
        ),
        # main + 2 forked workers
        (["duel", "66", "heuristic", "random", "--deals", "10000000", "--jobs", "2"], 3),
    ],
    ids=["simulate", "tournament", "duel"],
)
def test_kill_9_of_a_run_leaves_no_process_behind(args: list[str], processes: int) -> None:
    main = subprocess.Popen(
        [sys.executable, "-m", "sixtysix", *args],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sid = main.pid
    try:
        assert wait_for(lambda: len(session_members(sid)) >= processes, START_SECONDS)
        os.kill(main.pid, signal.SIGKILL)
        main.wait()
        assert wait_for(lambda: not session_members(sid), GRACE_SECONDS), [
            describe(p) for p in session_members(sid)
        ]
    finally:
        for pid in session_members(sid):  # only this test's own processes
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if main.poll() is None:
            main.kill()
            main.wait()
