"""One end-to-end run of ``sixtysix play`` in a real pseudo-terminal: Rich draws for a terminal,
input is read from a tty, Ctrl-C is a real SIGINT."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

TIMEOUT = 30


def spawn(args: list[str], data_dir: Path) -> pexpect.spawn:
    env = dict(os.environ)
    env.update(
        {
            "SIXTYSIX_DATA_DIR": str(data_dir),
            "TERM": "xterm-256color",
            "COLUMNS": "100",
            "LINES": "40",
            "LANG": "C.UTF-8",
            # Every thread's stack on SIGABRT: see stacks_on_timeout.
            "PYTHONFAULTHANDLER": "1",
        }
    )
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "sixtysix", *args],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 100),
    )


@contextmanager
def stacks_on_timeout(child: pexpect.spawn) -> Iterator[None]:
    """A wait that times out fails with where the program stood: SIGABRT makes faulthandler
    (on in every program :func:`spawn` starts) write every thread's stack, and that and the
    program's last words become the failure's message."""
    try:
        yield
    except pexpect.TIMEOUT:
        signals = _signal_state(child.pid)
        child.kill(signal.SIGABRT)
        with suppress(pexpect.TIMEOUT):
            child.expect(pexpect.EOF, timeout=10)
        pytest.fail(
            f"no expected text within {child.timeout} s; its signals (pending, blocked, ignored,"
            f" caught: hexadecimal masks):\n{signals}\nthe program's last words:\n{child.before}"
        )


def _signal_state(pid: int) -> str:
    """The kernel's view of a process's signals (``/proc``, Linux): whether a Ctrl-C that
    changed nothing is pending, blocked, ignored or caught."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "(no /proc here)"
    return "\n".join(
        line
        for line in lines
        if line.startswith(("SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt"))
    )


def to_the_end(child: pexpect.spawn) -> str:
    """What the program wrote after the last expected text, read to its end: a failing
    exit status is then reported with the program's last words (a traceback, say)."""
    child.expect(pexpect.EOF)
    return str(child.before)


def test_play_in_a_pseudo_terminal(tmp_path: Path) -> None:
    save = tmp_path / "pty.json"
    child = spawn(
        ["play", "66", "--vs", "random", "--seed", "9", "--save", str(save), "--lang", "en"],
        tmp_path,
    )
    try:
        child.expect("Your move > ")
        assert "\x1b[" in child.before  # Rich saw a terminal and used colour
        child.sendline("?")
        child.expect("Allowed now")
        child.expect("Your move > ")
        child.sendline("nonsense")
        child.expect("I do not understand 'nonsense'")
        child.expect("Your move > ")
        child.sendline("1")
        child.expect("You play")
        child.expect("Your move > ")
        child.sendline("quit")
        child.expect(r"Stop here\? The game is saved and can be resumed \(y/n\) ")
        child.sendline("y")
        child.expect("Game saved")
        last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 0, last
    data = json.loads(save.read_text())
    assert any(a["seat"] == 0 for a in data["deals"][0]["actions"])


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_ctrl_c_in_a_pseudo_terminal_saves_and_exits_130(tmp_path: Path) -> None:
    save = tmp_path / "int.json"
    child = spawn(
        ["play", "schnapsen", "--vs", "random", "--seed", "2", "--save", str(save), "--lang", "tr"],
        tmp_path,
    )
    try:
        with stacks_on_timeout(child):
            child.expect("Hamlen > ")
            child.sendintr()
            child.expect("Oyun kaydedildi")
            last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 130, last
    assert json.loads(save.read_text())["variant"] == "schnapsen"
