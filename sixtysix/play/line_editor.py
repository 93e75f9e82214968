"""The person's line at a real terminal, kept by this program rather than by the terminal.

At a remote table messages arrive while the person types. With the terminal's own line editing
the half-typed move stays in the kernel, out of sight: a message printed below it hides it,
and a prompt printed again looks empty though it is not. Here the terminal is put in cbreak
mode without echo and the line is kept and echoed by the :class:`LineEditor`, on the event
loop's thread like every other output: before anything is printed the prompt and the typing
are wiped, and afterwards they are drawn again, intact, below what was printed. A second
prompt replaces the first, so a prompt is never on the screen twice.

Keys: printable text; Backspace; Ctrl-U (the whole line); Ctrl-W (the last word); Enter;
Ctrl-D on an empty line (the end of input); Ctrl-C stays a signal. Arrow keys and other
escape sequences are ignored.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import shutil
import sys
import termios
import tty
from collections.abc import Callable, Iterator
from typing import IO, Any

from rich.cells import cell_len
from rich.console import Console

from sixtysix.play.terminal import prompt_lines

ERASE_LINE = "\r\x1b[2K"
UP = "\x1b[1A"
#: Bytes read at a time: a paste arrives in one read or a few.
CHUNK = 4096


def _width() -> int:
    return max(1, shutil.get_terminal_size().columns)


class LineEditor:
    """A :class:`~sixtysix.play.join.LineSource` that edits the line itself, the prompt
    callback of a :class:`~sixtysix.play.remote.RemoteTable`, and the guard a
    :class:`~sixtysix.play.terminal.ConsoleScreen` prints under."""

    def __init__(self, fd: int, out: IO[str], width: Callable[[], int] = _width) -> None:
        self.fd = fd
        self.out = out
        self.width = width
        self.buffer = ""
        #: The prompt's text (shown or not), and whether a line for the countdown is above it.
        self.prompt_text = ""
        #: A prompt too long for a line: its lines above the last (each ending in a break).
        self.above = ""
        self.countdown_line = False
        #: The prompt (with the typing) is the last thing on the screen.
        self.shown = False
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._escape = ""
        self._saved: list[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[str | None] | None = None

    # ------------------------------------------------------------------ the LineSource

    def start(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
        self._loop, self._queue = loop, queue
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)  # no echo, no line editing by the terminal; signals stay
        loop.add_reader(self.fd, self._readable)

    def stop(self) -> None:
        if self._loop is not None:
            with contextlib.suppress(Exception):  # the loop may be closing
                self._loop.remove_reader(self.fd)
        self.restore()

    def restore(self) -> None:
        """Give the terminal its own line editing back (idempotent)."""
        if self._saved is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    # ------------------------------------------------------------------ the screen's side

    def prompt(self, text: str) -> None:
        """Show ``text`` as the prompt, the typing after it (a ``\\n`` first: a line for the
        countdown above it); ``"\\n"`` alone: wipe the prompt, output follows."""
        if text == "\n":
            self._wipe()
            return
        countdown = text.startswith("\n")
        self._wipe()
        self.above, self.prompt_text = prompt_lines(text.lstrip("\n"), self.width())
        self.countdown_line = countdown
        self._draw()

    @contextlib.contextmanager
    def output(self) -> Iterator[None]:
        """Around any other output: the prompt is wiped before and drawn again after (or,
        with no prompt wanted, the typing alone)."""
        was = self.shown
        self._wipe()
        try:
            yield
        finally:
            if not was and self.buffer:
                self.above, self.prompt_text, self.countdown_line = "", "", False
            if was or self.buffer:
                self._draw()

    def _rows(self) -> int:
        """The screen rows the prompt and the typing take (a long line wraps)."""
        used = cell_len(self.prompt_text + self.buffer)
        return max(1, -(-used // self.width()) if used else 1)

    def _wipe(self) -> None:
        if not self.shown:
            return
        rows = self._rows() + (1 if self.countdown_line else 0) + self.above.count("\n")
        self.out.write(ERASE_LINE + (UP + ERASE_LINE) * (rows - 1))
        self.out.flush()
        self.shown = False

    def _draw(self) -> None:
        if self.shown:
            return
        countdown = "\n" if self.countdown_line else ""
        self.out.write(self.above + countdown + self.prompt_text + self.buffer)
        self.out.flush()
        self.shown = True

    # ------------------------------------------------------------------ keys

    def _readable(self) -> None:
        try:
            chunk = os.read(self.fd, CHUNK)
        except OSError:
            chunk = b""
        if not chunk:
            self._put(None)
            return
        for char in self._decoder.decode(chunk):
            self._key(char)
        self.out.flush()

    def _key(self, char: str) -> None:
        if self._escape or char == "\x1b":
            self._escape += char
            if len(self._escape) > 1 and (self._escape[1] != "[" or char.isalpha() or char == "~"):
                self._escape = ""  # an escape sequence: ignored
            return
        if char in "\r\n":
            self._enter()
        elif char in "\x7f\b":
            if self.buffer:
                self._erase(self.buffer[-1])
                self.buffer = self.buffer[:-1]
        elif char == "\x15":  # Ctrl-U
            while self.buffer:
                self._key("\x7f")
        elif char == "\x17":  # Ctrl-W
            while self.buffer.endswith(" "):
                self._key("\x7f")
            while self.buffer and not self.buffer.endswith(" "):
                self._key("\x7f")
        elif char == "\x04":  # Ctrl-D
            if not self.buffer:
                self._put(None)
        elif char == "\t":
            self._type(" ")
        elif char.isprintable():
            self._type(char)

    def _type(self, char: str) -> None:
        if not self.shown:  # typed ahead of any prompt: the typing alone is shown
            self.above, self.prompt_text, self.countdown_line = "", "", False
            self.out.write(self.buffer)
            self.shown = True
        self.buffer += char
        self.out.write(char)

    def _erase(self, char: str) -> None:
        width = cell_len(char)
        self.out.write("\b" * width + " " * width + "\b" * width)

    def _enter(self) -> None:
        line, self.buffer = self.buffer, ""
        if self.shown:
            self.out.write("\n")
        self.shown, self.above, self.prompt_text, self.countdown_line = False, "", "", False
        self._put(line)

    def _put(self, item: str | None) -> None:
        if self._queue is not None:
            self._queue.put_nowait(item)


def line_editor(console: Console) -> LineEditor | None:
    """An editor for standard input when both it and ``console`` are a terminal; None
    otherwise (a pipe or a file is read line by line, as it is)."""
    try:
        fd = sys.stdin.fileno()
        interactive = os.isatty(fd) and console.is_terminal
    except (AttributeError, OSError, ValueError):
        return None
    return LineEditor(fd, console.file) if interactive else None
