"""The hooks a sixtysix plugin may implement. Each hands the plugin a ``register`` callback."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.plugins import hookspec

if TYPE_CHECKING:
    from sixtysix.bots.base import Bot
    from sixtysix.core.variant import Variant


@hookspec
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    """Register variant classes: ``register(MyVariant)``.

    Each class subclasses :class:`sixtysix.core.variant.Variant`. Its ``name`` and ``aliases``
    must not clash with another variant's: a clash is reported as a broken plugin.
    """


@hookspec
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    """Register computer players: ``register(MyBot)``.

    Each class subclasses :class:`sixtysix.bots.base.Bot` and chooses an action from a seat's
    view alone.
    """
