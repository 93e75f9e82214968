"""Options of a person's screen, shared by ``play`` and ``join``: the pause at a deal's end and
the last card that plays itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def screen_options() -> Callable[[F], F]:
    """``--pause/--no-pause`` and ``--auto-last``."""

    def decorate(f: F) -> F:
        f = click.option(
            "--auto-last",
            is_flag=True,
            help="Play your last card of a deal by itself (it is the only move left).",
        )(f)
        return click.option(
            "--pause/--no-pause",
            default=None,
            help="Wait at the end of each deal until you press Enter, so its result stays on"
            " the screen (default: at a terminal; no move timer runs meanwhile).",
        )(f)

    return decorate
