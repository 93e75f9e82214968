"""Which games still have to be played, and how to cut them into chunks of work.

A simulation is a set of game indices. Every game's randomness comes from its index alone, so
the indices can be played in any grouping and any order; what remains is to choose chunks
that are large enough for the cost of sending work to a process (or a Ray task) to vanish
next to the games, and small enough that the progress bar moves, Ctrl-C is answered quickly
and all workers finish at about the same time. :class:`ChunkPlan` sizes each chunk from the
games per second it has observed so far, aiming at :attr:`ChunkPlan.target_seconds` a chunk.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

Interval = tuple[int, int]
#: Maps every non-zero byte of a bitmap to 1 (``bytes.translate``).
_ONE_IF_SET = bytes([0] + [1] * 255)


def missing_intervals(total: int, done: Iterable[int] | bytes | bytearray) -> list[Interval]:
    """The half-open ranges of ``0..total-1`` not in ``done``.

    ``done`` is either indices or a bitmap of ``total`` bytes (non-zero = done), the compact
    form a resumed run builds while reading its output file.
    """
    if isinstance(done, bytes | bytearray):
        flags = bytearray(done[:total].translate(_ONE_IF_SET))
        flags.extend(bytes(total - len(flags)))
    else:
        flags = bytearray(total)
        for i in done:
            if 0 <= i < total:
                flags[i] = 1
    out: list[Interval] = []
    i = flags.find(0)
    while i != -1:
        j = flags.find(1, i)
        j = total if j == -1 else j
        out.append((i, j))
        i = flags.find(0, j)
    return out


class ChunkPlan:
    """Hands out contiguous chunks of the remaining games, sized by the observed speed.

    ``first`` is the size of the chunks handed out before anything has been measured;
    afterwards a chunk holds about ``target_seconds`` of games, between ``min_size`` and
    ``max_size``, and never more than an equal share of what is left for each worker (so the
    last chunks do not leave one worker busy while the others idle). A chunk never spans a gap
    between two intervals.
    """

    def __init__(
        self,
        todo: Iterable[Interval],
        *,
        first: int,
        min_size: int = 1,
        max_size: int = 8192,
        target_seconds: float = 0.5,
        workers: int = 1,
    ) -> None:
        self._todo: list[Interval] = [(lo, hi) for lo, hi in todo if hi > lo]
        self._todo.reverse()  # pop from the end: the lowest indices go first
        self.min_size = max(1, min_size)
        self.max_size = max(self.min_size, max_size)
        self.first = max(self.min_size, min(first, self.max_size))
        self.target_seconds = target_seconds
        self.workers = max(1, workers)
        self._games = 0
        self._seconds = 0.0
        self.remaining = sum(hi - lo for lo, hi in self._todo)
        self.total = self.remaining

    @property
    def rate(self) -> float | None:
        """Games per second of one worker, measured so far (None before any measurement)."""
        if self._games == 0 or self._seconds <= 0:
            return None
        return self._games / self._seconds

    def observe(self, games: int, seconds: float) -> None:
        """Record that a worker played ``games`` games in ``seconds``."""
        self._games += games
        self._seconds += seconds

    def size(self) -> int:
        """The size of the next chunk (before clipping to the interval it starts in)."""
        rate = self.rate
        size = self.first if rate is None else int(rate * self.target_seconds)
        share = math.ceil(self.remaining / self.workers)
        return max(self.min_size, min(size, self.max_size, share))

    def next(self) -> Interval | None:
        """The next chunk to play, or None when nothing is left."""
        if not self._todo:
            return None
        lo, hi = self._todo.pop()
        stop = min(hi, lo + self.size())
        if stop < hi:
            self._todo.append((stop, hi))
        self.remaining -= stop - lo
        return lo, stop

    def __iter__(self) -> Iterator[Interval]:
        while (chunk := self.next()) is not None:
            yield chunk
