"""Where a deal stands.

A module of its own so that :mod:`sixtysix.core.view` can name the phases without importing
the state, which builds its views at every move. :mod:`sixtysix.core.state` exports
:class:`Phase` too.
"""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    TRUMP_CALL = 0
    PARTNER_CALL = 1
    PLAY = 2
    OVER = 3
