"""``--start-timeout`` and ``--move-timeout``: the deadlines of ``exec:`` players, shared by
every command that seats bots (``duel``, ``tournament``, ``simulate``, ``play``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from sixtysix.protocol.referee import DEFAULT_MOVE_TIMEOUT, DEFAULT_START_TIMEOUT

if TYPE_CHECKING:
    from sixtysix.bots.external import Deadlines

#: Bounds of both options, in seconds.
MIN_TIMEOUT = 0.01
MAX_TIMEOUT = 3600.0


def deadline_options() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The two deadline options, passed as ``start_timeout`` and ``move_timeout``."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        seconds = click.FloatRange(MIN_TIMEOUT, MAX_TIMEOUT)
        func = click.option(
            "--move-timeout",
            type=seconds,
            default=DEFAULT_MOVE_TIMEOUT,
            show_default=True,
            metavar="SECONDS",
            help="Seconds an exec: player has for each decision; later is a timeout fault.",
        )(func)
        func = click.option(
            "--start-timeout",
            type=seconds,
            default=DEFAULT_START_TIMEOUT,
            show_default=True,
            metavar="SECONDS",
            help="Seconds an exec: player has to start and answer the hello.",
        )(func)
        return func

    return decorate


def deadlines(start_timeout: float, move_timeout: float) -> Deadlines:
    from sixtysix.bots.external import Deadlines  # start-up

    return Deadlines(start_timeout, move_timeout)
