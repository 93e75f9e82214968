"""Ctrl-C (a real SIGINT) ends every command with one line on stderr and exit status 130.

Each run is a real process: Click's runner does not deliver signals. The child restores
SIGINT's default first, so that Python installs its Ctrl-C handler in it even when the test
runner ignores the signal. A marker line on stderr, printed from inside the command (by a
wrapper around the function it is about to run), says when the signal is due, so the test
never races the interpreter's start-up.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import played_record

MARK = "-- running --"

#: Runs ``sixtysix ARGS...`` with ``module.function`` wrapped: the wrapper prints MARK and then
#: calls the real function over and over, a run that only Ctrl-C ends.
CHILD = """
import importlib, sys
module, function = sys.argv[1].split(":")
target = importlib.import_module(module)
real = getattr(target, function)
def endless(*args, **kwargs):
    print(MARK, file=sys.stderr, flush=True)
    while True:
        real(*args, **kwargs)
setattr(target, function, endless)
from sixtysix.cli import main
main(sys.argv[2:])
""".replace("MARK", repr(MARK))


def interrupted(wrapped: str, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """Exit status, stdout and stderr (without the marker) of a run stopped by SIGINT."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, wrapped, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stderr is not None
    if stdin is not None:
        proc.stdin.write(stdin)
        proc.stdin.flush()
    first = proc.stderr.readline().decode()
    assert first.strip() == MARK, first + proc.stderr.read().decode()
    os.kill(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    return proc.returncode, stdout.decode(), stderr.decode()


def assert_interrupted(code: int, stdout: str, stderr: str) -> None:
    assert code == 130, stderr
    assert stderr.splitlines() == ["Interrupted."], stderr
    assert stdout == ""


def test_ctrl_c_while_replay_waits_on_stdin() -> None:
    # The wrapped reader reads stdin, which stays open and empty: it waits until Ctrl-C.
    assert_interrupted(*interrupted("sixtysix.core.records:load_record_stream", "replay", "-"))


def test_ctrl_c_during_a_long_replay(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    record.write_text(json.dumps(played_record()))
    result = interrupted("sixtysix.core.replay:replay", "replay", str(record), "--json")
    assert_interrupted(*result)


def test_ctrl_c_during_analyse(tmp_path: Path) -> None:
    pytest.importorskip("sixtysix.bots.analysis")
    record = tmp_path / "r.json"
    record.write_text(json.dumps(played_record()))
    result = interrupted("sixtysix.service.review:review", "analyse", str(record), "--seat", "0")
    assert_interrupted(*result)
