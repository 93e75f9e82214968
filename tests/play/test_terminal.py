"""The terminal reader waits against the move timer by polling; the countdown is drawn above
the prompt with ANSI cursor save/restore, red with a bell in the last 10 seconds."""

from __future__ import annotations

import io
import os
import threading
import time

import pytest
from rich.console import Console

from sixtysix.i18n import Translator
from sixtysix.play.terminal import ConsoleScreen, TerminalInput
from sixtysix.service.timer import MoveTimer
from tests.interrupts import sigint_beside_the_wait
from tests.play.scripted import FakeClock


def make_screen(live: bool) -> tuple[ConsoleScreen, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=live, color_system=None, width=80)
    return ConsoleScreen(console, Translator("en"), live=live), out


def test_waiting_reader_times_out_and_draws_the_countdown() -> None:
    r, w = os.pipe()
    clock = FakeClock()
    timer = MoveTimer(30, clock)
    screen, drawn = make_screen(live=True)

    def tick() -> bool:
        change = timer.poll()
        if change is not None:
            screen.countdown(*change)
        clock.advance(5)  # each poll of the reader, five fake seconds pass
        return timer.expired()

    with os.fdopen(r) as stream, os.fdopen(w, "w"):
        prompt_out = io.StringIO()
        reader = TerminalInput(stream, prompt_out)
        assert reader.read("> ", None, tick) is None  # type: ignore[arg-type]
    assert prompt_out.getvalue().startswith("\n> ")
    text = drawn.getvalue()
    assert "\x1b7\x1b[1A" in text and "\x1b8" in text  # drawn on the line above the prompt
    assert "30 s left" in text and "10 s left — hurry!" in text
    assert text.count("\a") == 1  # one bell, when the warning starts


def test_waiting_reader_returns_a_typed_line() -> None:
    r, w = os.pipe()
    with os.fdopen(r) as stream, os.fdopen(w, "w") as writer:
        writer.write("10h\n")
        writer.flush()
        reader = TerminalInput(stream, io.StringIO())
        assert reader.read("> ", None, lambda: False) == "10h"  # type: ignore[arg-type]
        writer.write("as\n")
        writer.flush()
        assert reader.read("> ", None, None) == "as"  # type: ignore[arg-type]


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_a_ctrl_c_that_does_not_interrupt_the_read_still_stops_it_at_a_terminal() -> None:
    master, slave = os.openpty()
    late = threading.Timer(5, os.write, (master, b"late\n"))  # missed: read after 5 s
    late.start()
    try:
        with os.fdopen(slave, encoding="utf-8") as stream:
            prompt_out = io.StringIO()
            reader = TerminalInput(stream, prompt_out)
            started = time.monotonic()
            with sigint_beside_the_wait(), pytest.raises(KeyboardInterrupt):
                reader.read("> ", None, None)  # type: ignore[arg-type]
            elapsed = time.monotonic() - started
    finally:
        late.cancel()
        os.close(master)
    assert elapsed < 4, elapsed  # a reader that missed it returns only after 5 s
    assert prompt_out.getvalue() == "> \n"  # the ``^C`` echo is followed by a line break


def test_countdown_without_a_terminal_prints_only_the_warning() -> None:
    screen, drawn = make_screen(live=False)
    screen.countdown(30, False, False)
    screen.countdown(10, True, True)
    screen.countdown(9, True, False)
    assert drawn.getvalue() == "⏱ 10 s left — hurry!\n"
