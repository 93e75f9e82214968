"""What a person at a remote table sees, on an emulated terminal of 45, 60 and 120 columns, in
English and in Turkish: a message arriving mid-move leaves the typing intact below it, the
countdown of a rated table lives on its own line above the prompt, a free seat is not a lost
connection, and after the server restarts the prompt is on the screen once."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sixtysix.i18n import Translator
from sixtysix.play.remote import NO_UNDO_SAID
from sixtysix.table import wire

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

from tests.table.serve_process import ServeProcess  # noqa: E402
from tests.table.test_client_pty import _env, sixtysix  # noqa: E402

TIMEOUT = 30
ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[78])")
ROWS = 40
PROMPT = {"en": "Your move > ", "tr": "Hamlen > "}
LOST = {"en": "lost the connection", "tr": "bağlantısını yitirdi"}
WAITING = {"en": "Waiting for players", "tr": "Oyuncular bekleniyor"}


class Server(ServeProcess):
    """``sixtysix serve`` on a loopback port, started (and started again) with its data."""

    def __init__(self, data: Path) -> None:
        super().__init__(data / "server", data / "server-home")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path)
    s.start()
    try:
        yield s
    finally:
        s.stop()


class Person:
    """``sixtysix join`` in a pseudo-terminal of ``width`` columns, drawn on a VT100 screen."""

    def __init__(self, url: str, table: str, name: str, lang: str, width: int, data: Path):
        env = _env(data)
        env["COLUMNS"] = str(width)
        self.screen = pyte.Screen(width, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.transcript = ""
        self.child = pexpect.spawn(
            sys.executable,
            [*("-m", "sixtysix", "join", url, "--table", table), *("--name", name, "--lang", lang)],
            env=env,
            timeout=TIMEOUT,
            dimensions=(ROWS, width),
        )

    def pump(self) -> None:
        try:
            while True:
                chunk = self.child.read_nonblocking(65536, timeout=0.05)
                self.stream.feed(chunk)
                self.transcript += chunk.decode("utf-8", "replace")
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    def said(self, text: str) -> None:
        """Wait until ``text`` was written, even if it has scrolled off the screen since."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            self.pump()
            if text in " ".join(ANSI.sub("", self.transcript).split()):
                return
        raise AssertionError(f"{text!r} never said; the screen:\n" + "\n".join(self.rows()))

    def rows(self) -> list[str]:
        shown = [line.rstrip() for line in self.screen.display]
        while shown and not shown[-1]:
            shown.pop()
        return shown

    def until(self, holds: Callable[[list[str]], bool], what: str) -> list[str]:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            self.pump()
            rows = self.rows()
            if holds(rows):
                return rows
        raise AssertionError(f"{what}; the screen:\n" + "\n".join(self.rows()))

    def prompted(self, lang: str) -> list[str]:
        return self.until(lambda rows: bool(rows) and rows[-1] == PROMPT[lang].rstrip(), "prompt")

    def close(self) -> None:
        self.child.close(force=True)


def rated_table(url: str, data: Path) -> str:
    seats = ("--seats", "human,human", "--rated", "--move-time", "60")
    done = sixtysix(["table", "new", "66", *seats, "--server", url], data)
    assert done.returncode == 0, done.stderr
    command = done.stdout.splitlines()[-1].split()
    return command[command.index("--table") + 1]


def both_seated(
    url: str, table: str, lang: str, width: int, data: Path
) -> tuple[Person, Person, Person]:
    """Ayşe (the screen under test, at seat 0) and Mehmet at one table; Mehmet plays the first
    card when the deal is his to begin. (Ayşe, Mehmet, whoever is to move first.)"""
    ayse = Person(url, table, "ayse", lang, width, data)
    rows = ayse.until(lambda rows: any(WAITING[lang] in r for r in rows), "seated, waiting")
    time.sleep(0.3)
    ayse.pump()
    assert sum(WAITING[lang] in r for r in ayse.rows()) == 1, rows  # said once, not twice
    mehmet = Person(url, table, "mehmet", "en", 100, data)
    first = None
    deadline = time.monotonic() + TIMEOUT
    while first is None and time.monotonic() < deadline:
        for person, prompt in ((ayse, PROMPT[lang]), (mehmet, PROMPT["en"])):
            person.pump()
            rows = person.rows()
            if rows and rows[-1] == prompt.rstrip():
                first = person
    assert first is not None, "nobody was asked to move"
    if first is mehmet:
        mehmet.child.send("1\r")
        ayse.prompted(lang)
    return ayse, mehmet, first


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("width", [45, 60, 120])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_news_mid_move_keeps_the_typing_and_the_countdown_keeps_its_line(
    server: Server, tmp_path: Path, lang: str, width: int
) -> None:
    table = rated_table(server.url, tmp_path)
    ayse, mehmet, _ = both_seated(server.url, table, lang, width, tmp_path)
    try:
        rows = ayse.rows()
        assert not any(LOST[lang] in r for r in rows), rows  # seat 1 was free, not lost
        ayse.child.send("kız")  # half a move, no Enter
        ayse.until(lambda rows: rows[-1] == PROMPT[lang] + "kız", "the typing echoed")
        ayse.until(lambda rows: rows[-2].startswith("⏱"), "the countdown above the prompt")
        mehmet.child.sendintr()  # his connection closes: news for Ayşe mid-move
        rows = ayse.until(lambda rows: any(LOST[lang] in r for r in rows[-4:]), "the news")
        assert rows[-1] == PROMPT[lang] + "kız", rows[-4:]
        assert sum(r.startswith(PROMPT[lang].strip()) for r in rows) == 1, rows
        time.sleep(1.2)  # a tick of the countdown: on its own line, never on the typing
        rows = ayse.until(lambda rows: rows[-2].startswith("⏱"), "the countdown again")
        assert rows[-1] == PROMPT[lang] + "kız"
        ayse.child.send("\x15?")  # Ctrl-U clears the line the editor keeps
        ayse.until(lambda rows: rows[-1] == PROMPT[lang] + "?", "the line cleared")
    finally:
        ayse.close()
        mehmet.close()


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize(("lang", "width"), [("en", 60), ("tr", 45)])
def test_after_a_restart_both_are_back_and_the_prompt_is_on_the_screen_once(
    server: Server, tmp_path: Path, lang: str, width: int
) -> None:
    table = rated_table(server.url, tmp_path)
    ayse, mehmet, _ = both_seated(server.url, table, lang, width, tmp_path)
    back = {"en": "Back at table", "tr": "numaralı yere döndün"}
    lost = {"en": "reconnecting", "tr": "yeniden bağlanılıyor"}
    try:
        ayse.child.send("q")
        server.stop()
        ayse.until(lambda rows: any(lost[lang] in r for r in rows), "the drop")
        mehmet.until(lambda rows: any("reconnecting" in r for r in rows), "his drop")
        server.start()
        started = time.monotonic()
        ayse.said(back[lang])
        mehmet.said("Back at table")
        assert time.monotonic() - started < 5  # a second or two after the server listens
        rows = ayse.until(lambda rows: rows[-1] == PROMPT[lang] + "q", "the typing kept")
        assert sum(r.startswith(PROMPT[lang].strip()) for r in rows) == 1, rows
    finally:
        ayse.close()
        mehmet.close()


@pytest.mark.parametrize(("lang", "quit", "yes", "left"), [
    ("en", "quit", "y", "You have left the table."),
    ("tr", "çık", "e", "Masadan kalktın."),
])  # fmt: skip
def test_leaving_before_the_match_starts_is_leaving_not_an_error(
    server: Server, tmp_path: Path, lang: str, quit: str, yes: str, left: str
) -> None:
    table = rated_table(server.url, tmp_path)
    ayse = Person(server.url, table, "ayse", lang, 60, tmp_path)
    try:
        ayse.until(lambda rows: any(WAITING[lang] in r for r in rows), "waiting")
        ayse.child.send(quit + "\r")
        ayse.until(lambda rows: rows[-1].endswith(")"), "the question")
        ayse.child.send(yes + "\r")
        ayse.until(lambda rows: any(left in r for r in rows), "left")
        ayse.child.expect(pexpect.EOF)
    finally:
        ayse.close()
    assert ayse.child.exitstatus == 0
    assert not any("Error" in r or "Hata" in r for r in ayse.rows())
    listed = sixtysix(["tables", "--server", server.url], tmp_path)
    assert "(free)" in listed.stdout  # the seat is free again


def shared_test_table(url: str, data: Path) -> str:
    done = sixtysix(["table", "new", "66", "--seats", "human,human", "--server", url], data)
    assert done.returncode == 0, done.stderr
    command = done.stdout.splitlines()[-1].split()
    return command[command.index("--table") + 1]


SAID = {
    "en": ("undo", "another person or a program", "quit", "The match ends for everyone", "n"),
    "tr": ("geri", "başka bir kişi ya da program", "çık", "Maç masadaki herkes için", "h"),
}


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("width", [45, 60, 120])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_what_a_refusal_and_leaving_cost_is_said(
    server: Server, tmp_path: Path, lang: str, width: int
) -> None:
    """At a shared test table a take-back is refused with its reason, and leaving says the
    match ends for everyone (issue 40's point 9), whole at any width."""
    undo, why, quit_word, ends, no = SAID[lang]
    table = shared_test_table(server.url, tmp_path)
    ayse, mehmet, _ = both_seated(server.url, table, lang, width, tmp_path)
    try:
        ayse.child.send(undo + "\r")  # another person sits here: the server says why not
        ayse.said(why)
        ayse.child.send(quit_word + "\r")
        ayse.said(ends)
        rows = ayse.until(lambda rows: rows[-1].endswith(")"), "the question")
        said = Translator(lang)._(NO_UNDO_SAID[wire.NO_UNDO_SHARED])
        assert said in " ".join(" ".join(rows).split())  # broken between words only
        ayse.child.send(no + "\r")
    finally:
        ayse.close()
        mehmet.close()
