"""The real terminal: a Rich screen and a line reader that can wait against the move timer.

In rated games the countdown is drawn on the line just above the prompt with ANSI cursor
save/restore, so it ticks without disturbing what the person is typing; in the last 10 seconds
it turns red and the bell rings once. When output is not a terminal, the countdown prints only
the warning, as a line. While a computer player thinks, a spinner says who (on a terminal).
"""

from __future__ import annotations

import select
import shlex
import shutil
import sys
import textwrap
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from sixtysix.bots import compiled
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.terms import seat_name

POLL_SECONDS = 0.2


class ConsoleScreen:
    """A :class:`~sixtysix.play.session.Screen` on a Rich console."""

    def __init__(
        self,
        console: Console,
        tr: Translator,
        live: bool | None = None,
        guard: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.console = console
        self.tr = tr
        self.live = console.is_terminal if live is None else live
        #: Held around each print: a line editor wipes its prompt and draws it again after.
        self.guard = guard

    def show(self, renderable: RenderableType) -> None:
        with self.guard():
            self.console.print(renderable, highlight=False)

    def say(self, text: str, style: str | None = None) -> None:
        with self.guard():
            self.console.print(text, style=style, highlight=False, markup=False)

    def command(self, text: str) -> None:
        with self.guard():
            for line in command_lines(text, self.console.width):
                self.console.print(
                    line, style="bold", soft_wrap=True, highlight=False, markup=False
                )

    def thinking(self, seat: int) -> AbstractContextManager[object]:
        """A spinner naming the seat while a computer player chooses (on a terminal only:
        written to a file or a pipe, it would be noise between the lines of the game)."""
        if not self.live:
            return nullcontext()
        who = seat_name(self.tr, seat, -1)
        text = self.tr._("{who} is thinking…").format(who=who)
        if compiled.warming():
            text += " " + self.tr._("(preparing the expert's search: once after installing)")
        # One line with the spinner in front, however narrow the terminal: a wrapped status
        # is redrawn over the lines of the game.
        line = Text(text, no_wrap=True)
        line.truncate(max(1, self.console.width - 2), overflow="ellipsis")
        return self.console.status(line)

    def countdown(self, seconds: int, warning: bool, first_warning: bool) -> None:
        tr = self.tr
        if warning:
            text = tr._("{seconds} s left — hurry!").format(seconds=seconds)
        else:
            text = tr._("{seconds} s left").format(seconds=seconds)
        if self.live:
            out = self.console.file
            color = "\x1b[1;31m" if warning else "\x1b[2m"
            bell = "\a" if first_warning else ""
            # save cursor, up one line, clear it, write, restore cursor
            out.write(f"\x1b7\x1b[1A\r\x1b[2K{color}⏱ {text}\x1b[0m\x1b8{bell}")
            out.flush()
        elif first_warning:
            self.console.print("⏱ " + text, style="bold red", highlight=False, markup=False)


def command_lines(text: str, width: int) -> list[str]:
    """A shell command laid out for ``width`` columns with the shell's line continuation
    (``\\`` ending a line), so that it pastes as one command: broken between words, and a
    word longer than a line (a path) inside the word, which the shell joins again."""
    if len(text) <= width:
        return [text]
    try:
        words = [shlex.quote(word) for word in shlex.split(text)]
    except ValueError:  # not a command the shell would read: as it is
        return [text]
    room = max(10, width - 2)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) <= room:
            line += " " + word
            continue
        if line:
            lines.append(line + " \\")
        *broken, line = _broken(word, room)
        lines += broken
    return [*lines, line]


def _broken(word: str, room: int) -> list[str]:
    """A word of a shell command in lines of ``room`` columns that the shell joins again: a
    plain word cut anywhere, a quoted one ('...') as quoted pieces side by side (the shell
    joins 'ab''cd'); one with a quote inside stays whole."""
    if len(word) <= room:
        return [word]
    if word[0] not in "'\"":
        pieces = [word[i : i + room] for i in range(0, len(word), room)]
        return [piece + "\\" for piece in pieces[:-1]] + pieces[-1:]
    inner = word[1:-1]
    if word[0] != "'" or word[-1] != "'" or "'" in inner:
        return [word]
    size = max(1, room - 2)
    pieces = [f"'{inner[i : i + size]}'" for i in range(0, len(inner), size)]
    return [piece + "\\" for piece in pieces[:-1]] + pieces[-1:]


def prompt_lines(prompt: str, width: int) -> tuple[str, str]:
    """A prompt too long for one line, broken between words: (the lines above, ending in a
    line break, or ""; the last line, where the typing goes)."""
    if len(prompt) < width:
        return "", prompt
    lines = textwrap.wrap(prompt, max(10, width - 1), drop_whitespace=True)
    tail = " " if prompt.endswith(" ") else ""
    return "".join(line + "\n" for line in lines[:-1]), lines[-1] + tail


class TerminalInput:
    """Reads lines from standard input; with a move timer, waits in short polls."""

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.out = out if out is not None else sys.stdout

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        try:
            return self._read(prompt, tick)
        except KeyboardInterrupt:
            # The terminal has echoed ``^C`` after the prompt: what follows starts a line.
            self.out.write("\n")
            self.out.flush()
            raise

    def _read(self, prompt: str, tick: Callable[[], bool] | None) -> str | None:
        above, last = prompt_lines(prompt, shutil.get_terminal_size().columns)
        # With a timer, a line for the countdown to live on right above the prompt's last line.
        self.out.write(above + ("\n" if tick is not None else "") + last)
        self.out.flush()
        if self._polls(tick):
            while True:
                if tick is not None and tick():
                    self.out.write("\n")
                    return None
                ready, _, _ = select.select([self.stream], [], [], POLL_SECONDS)
                if ready:
                    break
        line = self.stream.readline()
        if not line:
            raise EOFError
        if tick is not None:
            tick()
        return line.rstrip("\r\n")

    def _polls(self, tick: Callable[[], bool] | None) -> bool:
        """Wait in short polls with a move timer, or at a terminal: a Ctrl-C that lands just
        before a blocking read does not interrupt it, and the next poll acts on it. (A pipe is
        read straight, as it may hold lines already buffered.)"""
        try:
            if tick is None:
                return self.stream.isatty()
            self.stream.fileno()
            return True
        except (AttributeError, OSError, ValueError):
            return False
