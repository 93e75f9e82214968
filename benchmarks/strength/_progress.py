"""How far a long benchmark run is: the units finished so far, on one line of stderr.

A strength figure takes from minutes to hours; without this, a run sent to a file says nothing
until its summary. The line is rewritten in place (``\\r``) and ended by a newline, also on
Ctrl-C, so that whatever follows starts on a line of its own.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


class Progress:
    """``done/total unit, seconds`` on ``stream`` (stderr), rewritten as units finish."""

    def __init__(self, total: int, unit: str, stream: TextIO | None = None) -> None:
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.start = time.perf_counter()
        self.done = 0

    def step(self, count: int = 1) -> None:
        """``count`` more units finished."""
        self.done += count
        elapsed = time.perf_counter() - self.start
        print(
            f"\r{self.done}/{self.total} {self.unit}, {elapsed:.0f} s",
            end="",
            file=self.stream,
            flush=True,
        )

    def end(self) -> None:
        """Close the line (once the run is over or stopped)."""
        print(file=self.stream, flush=True)


def counted(items: Iterable[T], total: int, unit: str, stream: TextIO | None = None) -> Iterator[T]:
    """``items`` as they come, counted on a :class:`Progress` line that ends with them (or
    with the exception, Ctrl-C's among them, that stops them)."""
    progress = Progress(total, unit, stream)
    try:
        for item in items:
            yield item
            progress.step()
    finally:
        progress.end()
