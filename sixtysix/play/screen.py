"""What the play loop talks to: the person's keyboard and the screen.

The terminal supplies real ones (:mod:`sixtysix.play.terminal`), tests scripted input and a
recording screen (``tests/play/scripted.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

from rich.console import RenderableType

from sixtysix.core.view import View


class InputSource(Protocol):
    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        """The next line the person types at ``view``.

        With a ``tick``, call it while waiting (a few times a second); when it returns True
        the move's time is up: stop waiting and return None. Raise :class:`EOFError` at the
        end of input and let :class:`KeyboardInterrupt` through.
        """
        ...


class Screen(Protocol):
    def show(self, renderable: RenderableType) -> None: ...

    def say(self, text: str, style: str | None = None) -> None: ...

    def command(self, text: str) -> None:
        """A shell command for the person to copy: on a line of its own, never wrapped or
        cut at the screen's width (the terminal may fold it; pasted, it is whole)."""
        ...

    def countdown(self, seconds: int, warning: bool, first_warning: bool) -> None:
        """Show the seconds left for this move; ``first_warning`` once, at the last 10 s."""
        ...

    def thinking(self, seat: int) -> AbstractContextManager[object]:
        """Held while the computer player at ``seat`` chooses: the screen says who is
        thinking, so it never looks frozen."""
        ...
