"""Chat as two people meet it: a real ``sixtysix serve``, two ``sixtysix join`` clients in
pseudo-terminals at one table over loopback, one English and one Turkish, talking both ways in
texts and quick phrases (each shown in its reader's language), a mute, and a line half typed
when a chat arrives still played."""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.table import serve_process  # noqa: E402
from tests.table.test_client_pty import TIMEOUT, _env, sixtysix  # noqa: E402

#: Rich's styles between the characters of a line on the terminal.
STYLE = r"(?:\x1b\[[0-9;]*m)*"


def shown(text: str) -> str:
    """A pattern of ``text`` as the terminal shows it, styles or not between its characters."""
    return STYLE.join(re.escape(ch) for ch in text)


@contextlib.contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[str]:
    """``sixtysix serve`` on a free loopback port, as a process of its own: its URL."""
    with serve_process.serving(tmp_path / "server", tmp_path / "server-home", *options) as url:
        yield url


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path) as found:
        yield found


def new_table(url: str, seats: str, data: Path) -> str:
    done = sixtysix(["table", "new", "66", "--seats", seats, "--seed", "3", "--server", url], data)
    assert done.returncode == 0, done.stderr
    command = done.stdout.splitlines()[-1].split()
    return command[command.index("--table") + 1]


def join(url: str, table: str, name: str, lang: str, data: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "sixtysix", "join", url, "--table", table, "--name", name, "--lang", lang],
        env=_env(data),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 120),
    )


def test_two_people_chat_in_two_languages_and_one_mutes_the_other(url: str, tmp_path: Path) -> None:
    table = new_table(url, "human,human", tmp_path)
    ayse = join(url, table, "ayse", "en", tmp_path / "ayse")
    mehmet = None
    try:
        ayse.expect(f"You sit at table {table}, seat 0, as ayse.")
        ayse.expect("Waiting for players")
        mehmet = join(url, table, "mehmet", "tr", tmp_path / "mehmet")
        mehmet.expect(f"{table} masasında 1 numaralı yere mehmet adıyla oturdun.")
        # the one whose move it is half types a card; the other's chat comes meanwhile
        first = ayse.expect(["Your move > ", "Waiting for seat 1"])
        mover, other = (ayse, mehmet) if first == 0 else (mehmet, ayse)
        if first == 1:
            mehmet.expect("Hamlen > ")
        mover.send("1")
        if other is ayse:
            ayse.sendline("say hi [bold]there")
            mehmet.expect(shown("ayse (oyuncu 0): hi [bold]there"))
        else:
            mehmet.sendline("söyle selam [bold]dostum")
            ayse.expect(shown("mehmet (seat 1): selam [bold]dostum"))
        mover.sendline("")  # the "1" typed before the chat is still the line
        mover.expect(shown("You play") if mover is ayse else shown("attın"))
        # quick phrases, each in its reader's language
        ayse.sendline("gg")
        ayse.expect(shown("ayse (you): Good game!"))
        mehmet.expect(shown("ayse (oyuncu 0): İyi oyundu!"))
        mehmet.sendline("iyi oyunlar")
        mehmet.expect(shown("mehmet (sen): Bol şans, iyi oyunlar!"))
        ayse.expect(shown("mehmet (seat 1): Good luck, have fun!"))
        mehmet.sendline("söyle merhaba [red]ayşe[/red]")
        ayse.expect(shown("mehmet (seat 1): merhaba [red]ayşe[/red]"))
        # a mute: on ayse's screen alone
        ayse.sendline("mute mehmet")
        ayse.expect("is hidden on your screen now")
        mehmet.sendline("söyle bunu duymayacak")
        mehmet.expect(shown("mehmet (sen): bunu duymayacak"))
        ayse.sendline("say still there?")
        ayse.expect(shown("ayse (you): still there?"))
        assert "duymayacak" not in ayse.before
        mehmet.expect(shown("ayse (oyuncu 0): still there?"))
        ayse.sendline("unmute 1")
        ayse.expect("is shown again")
        mehmet.sendline("tşk")
        ayse.expect(shown("mehmet (seat 1): Thanks!"))
    finally:
        ayse.close(force=True)
        if mehmet is not None:
            mehmet.close(force=True)


def test_a_server_without_chat_says_so_and_nothing_is_sent(tmp_path: Path) -> None:
    with serving(tmp_path, "--no-chat") as url:
        table = new_table(url, "human,@random", tmp_path)
        child = join(url, table, "ayse", "tr", tmp_path / "ayse")
        try:
            child.expect("Bu sunucuda sohbet kapalı.")
            child.expect("Hamlen > ")
            child.sendline("söyle merhaba")
            child.expect("Bu sunucuda sohbet kapalı.")
            child.expect("Hamlen > ")
            child.sendline("?")
            child.expect("Hazır|Bu sunucuda sohbet kapalı.")
            assert child.after == "Bu sunucuda sohbet kapalı."
        finally:
            child.close(force=True)
