"""The per-move time limit of rated games, on an injectable clock.

RULES.md "Play on the Portal": a rated game gives each move a limit of 30 to 300 seconds, shown
as a countdown, with a warning in the last 10 seconds; running out of time counts as leaving the
table. The timer only measures; the session decides what running out means, and the input
source calls :meth:`MoveTimer.tick` while it waits so the countdown can be drawn.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

Clock = Callable[[], float]

MIN_MOVE_TIME = 30
MAX_MOVE_TIME = 300
DEFAULT_MOVE_TIME = 60
WARN_SECONDS = 10


class MoveTimer:
    """Counts down one move's time; the clock is injectable for tests."""

    def __init__(
        self, limit: float, clock: Clock = time.monotonic, warn_seconds: float = WARN_SECONDS
    ) -> None:
        if limit <= 0:
            raise ValueError("a move time limit must be positive")
        self.limit = float(limit)
        self.clock = clock
        self.warn_seconds = warn_seconds
        self.started = clock()
        self._last_shown: int | None = None
        self.warned = False

    def restart(self) -> None:
        self.started = self.clock()
        self._last_shown = None
        self.warned = False

    def remaining(self) -> float:
        return max(0.0, self.limit - (self.clock() - self.started))

    def expired(self) -> bool:
        return self.remaining() <= 0.0

    def seconds_shown(self) -> int:
        """Whole seconds left, rounded up: the number the countdown shows."""
        return math.ceil(self.remaining())

    def in_warning(self) -> bool:
        return 0.0 < self.remaining() <= self.warn_seconds

    def poll(self) -> tuple[int, bool, bool] | None:
        """What changed since the last poll: ``(seconds, warning, first_warning)`` when the
        shown number changed, else None. ``first_warning`` is true once, when the last
        ``warn_seconds`` begin (the moment to ring the bell)."""
        shown = self.seconds_shown()
        if shown == self._last_shown:
            return None
        self._last_shown = shown
        warning = self.in_warning()
        first = warning and not self.warned
        if warning:
            self.warned = True
        return shown, warning, first
