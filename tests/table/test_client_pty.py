"""``sixtysix join`` as a person meets it: a real ``sixtysix serve``, a 66 table with a bot,
the client in a pseudo-terminal (Rich draws for a terminal, Ctrl-C is a real SIGINT), in
English and in Turkish."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.table.serve_process import serving  # noqa: E402

TIMEOUT = 30


def _env(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "SIXTYSIX_DATA_DIR": str(data),
            "TERM": "xterm-256color",
            "COLUMNS": "100",
            "LINES": "40",
            "LANG": "C.UTF-8",
        }
    )
    env.pop("NO_COLOR", None)
    env.pop("SIXTYSIX_SERVER", None)
    return env


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A table server on a free loopback port, as a process of its own."""
    with serving(tmp_path / "server", tmp_path / "server-home") as url:
        yield url


def sixtysix(args: list[str], data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sixtysix", *args],
        env=_env(data),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def new_table(url: str, data: Path) -> str:
    done = sixtysix(
        ["table", "new", "66", "--seats", "human,@random", "--seed", "3", "--server", url], data
    )
    assert done.returncode == 0, done.stderr
    invitation = done.stdout.splitlines()[-1]
    command = invitation[invitation.index("sixtysix join") :].split()
    assert command[:3] == ["sixtysix", "join", url] and command[-2:] == ["--name", "YOURNAME"]
    return command[command.index("--table") + 1]


def join(url: str, table: str, lang: str, data: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "sixtysix", "join", url, "--table", table, "--name", "ayse", "--lang", lang],
        env=_env(data),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 100),
    )


def test_join_play_a_card_and_leave(server: str, tmp_path: Path) -> None:
    table = new_table(server, tmp_path)
    listed = sixtysix(["tables", "--server", server], tmp_path)
    assert table in listed.stdout and "(free)" in listed.stdout
    child = join(server, table, "en", tmp_path)
    try:
        child.expect(f"You sit at table {table}, seat 0, as ayse.")
        child.expect("Deal 1, dealer")
        child.expect("Your hand")
        child.expect("Your move > ")
        assert "\x1b[" in child.before  # Rich saw a terminal and used colour
        child.sendline("1")
        child.expect("You play")
        child.expect("seat 1 plays")  # the bot's answer arrives by itself
        child.expect("Trick to")
        child.expect("Your move > ")
        child.sendline("quit")
        child.expect("Leaving is for good")
        child.expect(r"Leave the table\? \(y/n\) ")
        child.sendline("n")
        child.expect("Playing on.")
        child.expect("Your move > ")
        child.sendline("quit")
        child.expect(r"\(y/n\) ")
        child.sendline("y")
        child.expect("You have left the table.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_in_turkish_ctrl_c_keeps_the_seat_and_a_new_join_takes_it_back(
    server: str, tmp_path: Path
) -> None:
    table = new_table(server, tmp_path)
    child = join(server, table, "tr", tmp_path)
    try:
        child.expect("Hamlen > ")
        child.sendline("1")
        child.expect("attın")
        child.expect("Hamlen > ")
        child.sendintr()
        child.expect("Yarıda kesildi.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    again = join(server, table, "tr", tmp_path)  # the token kept in the data dir
    try:
        again.expect("Hamlen > ")
        assert "kaldığı yerden" in again.before
        again.sendline("çık")
        again.expect(r"\(e/h\) ")
        again.sendline("e")
        again.expect("Masadan kalktın.")
        again.expect(pexpect.EOF)
    finally:
        again.close()
    assert again.exitstatus == 0
