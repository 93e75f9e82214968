"""The person's line kept by the client: typing survives whatever is printed meanwhile, a
second prompt replaces the first, and the keys edit the line (drawn on a VT100 screen)."""

from __future__ import annotations

import asyncio
import io
import os
import pty
import termios

import pyte
import pytest

from sixtysix.play.line_editor import LineEditor

WIDTH = 40


class Term:
    """An editor writing to an emulated terminal ``WIDTH`` columns wide."""

    def __init__(self, width: int = WIDTH) -> None:
        self.screen = pyte.Screen(width, 12)
        self.stream = pyte.Stream(self.screen)
        self.out = io.StringIO()
        self.editor = LineEditor(0, self.out, width=lambda: width)
        self.lines: list[str | None] = []
        self.editor._put = self.lines.append  # type: ignore[method-assign]

    def flush(self) -> None:
        self.stream.feed(self.out.getvalue().replace("\n", "\r\n"))
        self.out.seek(0)
        self.out.truncate()

    def keys(self, text: str) -> None:
        for char in text:
            self.editor._key(char)
        self.flush()

    def say(self, text: str) -> None:
        """Output from elsewhere (a server's message), printed under the editor's guard."""
        with self.editor.output():
            self.out.write(text + "\n")
        self.flush()

    def prompt(self, text: str) -> None:
        self.editor.prompt(text)
        self.flush()

    def rows(self) -> list[str]:
        shown = [line.rstrip() for line in self.screen.display]
        while shown and not shown[-1]:
            shown.pop()
        return shown

    @property
    def cursor(self) -> tuple[int, int]:
        return self.screen.cursor.y, self.screen.cursor.x


def test_a_message_arriving_mid_line_keeps_the_typing_below_it() -> None:
    t = Term()
    t.say("Deal 1")
    t.prompt("Your move > ")
    t.keys("10")
    t.say("seat 1 lost the connection")
    assert t.rows() == ["Deal 1", "seat 1 lost the connection", "Your move > 10"]
    assert t.cursor == (2, len("Your move > 10"))
    t.keys("h\r")
    assert t.lines == ["10h"]


def test_the_screens_own_wipe_then_a_new_prompt_keeps_the_typing() -> None:
    """The remote table's way: ``"\\n"`` wipes the prompt, output follows, then it asks."""
    t = Term()
    t.prompt("Hamlen > ")
    t.keys("kız ku")
    t.prompt("\n")
    t.say("oyuncu 1 masaya katıldı.")
    t.prompt("Hamlen > ")
    assert t.rows() == ["oyuncu 1 masaya katıldı.", "Hamlen > kız ku"]
    assert t.rows().count("Hamlen > kız ku") == 1


def test_a_second_prompt_replaces_the_first() -> None:
    t = Term()
    t.prompt("Your move > ")
    t.prompt("Your move > ")
    t.keys("q")
    t.prompt("Your move > ")
    assert t.rows() == ["Your move > q"]


def test_a_rated_prompt_keeps_a_line_for_the_countdown_and_wipes_it_too() -> None:
    t = Term()
    t.say("table")
    t.prompt("\nYour move > ")
    t.keys("qs")
    assert t.rows() == ["table", "", "Your move > qs"]
    t.say("seat 1 plays K♠")
    assert t.rows() == ["table", "seat 1 plays K♠", "", "Your move > qs"]


def test_a_long_line_that_wraps_is_wiped_whole() -> None:
    t = Term(width=20)
    t.prompt("Your move > ")
    t.keys("play the queen of hearts")
    t.say("news")
    assert t.rows() == ["news", "Your move > play the", " queen of hearts"]


def test_typing_ahead_of_any_prompt_is_kept_and_joins_the_prompt() -> None:
    t = Term()
    t.keys("qs")
    t.say("Waiting for players")
    assert t.rows() == ["Waiting for players", "qs"]
    t.prompt("Your move > ")
    assert t.rows() == ["Waiting for players", "Your move > qs"]


@pytest.mark.parametrize(
    ("keys", "line"),
    [
        ("abc\x7f\r", "ab"),
        ("kız\x7f\x7fa\r", "ka"),
        ("play qh\x17\r", "play "),
        ("junk\x15qs\r", "qs"),
        ("q\x1b[Ds\r", "qs"),  # an arrow key is ignored
        ("a\tb\r", "a b"),
        ("\x01x\r", "x"),  # a control character is not typed
    ],
)
def test_keys_edit_the_line(keys: str, line: str) -> None:
    t = Term()
    t.prompt("> ")
    t.keys(keys)
    assert t.lines == [line]
    assert t.rows() == [("> " + line).rstrip()]


def test_ctrl_d_ends_the_input_only_on_an_empty_line() -> None:
    t = Term()
    t.prompt("> ")
    t.keys("q\x04")
    assert t.lines == []
    t.keys("\x15\x04")
    assert t.lines == [None]


def test_the_editor_reads_a_real_terminal_and_gives_it_back() -> None:
    parent, child = pty.openpty()
    before = termios.tcgetattr(child)
    out = io.StringIO()
    editor = LineEditor(child, out, width=lambda: WIDTH)

    async def main() -> list[str | None]:
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        editor.start(asyncio.get_running_loop(), queue)
        assert not termios.tcgetattr(child)[3] & termios.ECHO  # the editor echoes, not the tty
        os.write(parent, "kız kupa\r".encode())
        got = [await asyncio.wait_for(queue.get(), 5)]
        editor.stop()
        return got

    try:
        assert asyncio.run(main()) == ["kız kupa"]
        assert termios.tcgetattr(child) == before
        assert out.getvalue() == "kız kupa\n"  # echoed once, by the editor
    finally:
        os.close(parent)
        os.close(child)
