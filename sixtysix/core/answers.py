"""A player's answer turned into the plain action it stands for, or the player's fault.

Every driver passes what a player returned through :func:`canonical_action` before the engine
sees it. Only values whose meaning cannot be bent are accepted: an ``int`` or an
:class:`~sixtysix.core.actions.Action` of exactly that type, or a string in the notation of
RECORDS.md. A subclass (of ``int``, ``Action`` or ``str``), a ``bool``, a numpy integer or
anything else is refused rather than converted: its ``__eq__``, ``__index__`` or ``__int__``
may say what it likes (an always-equal ``Action`` subclass would pass a membership test and
then play a card its seat does not hold), and a rule with no exceptions is one a bot author
can read. The legal actions are compared as plain ints, so nothing the player made takes part
in the check.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import cast

from sixtysix.core.actions import ACTION_NAMES, NUM_ACTIONS, Action, parse_action
from sixtysix.core.errors import NotationError
from sixtysix.core.faults import FaultKind, PlayerFault


def canonical_action(answer: object, seat: int, legal: Collection[int]) -> int:
    """The plain ``int`` code of ``answer`` if it is one of ``legal`` (the seat's legal
    actions, as the engine lists them); else raise :class:`PlayerFault` (``illegal``)."""
    kind = type(answer)
    if kind is int or kind is Action:
        # Exact types: their value is the int itself, read at C level.
        code = int.__int__(cast(int, answer))
    elif kind is str:
        try:
            code = int.__int__(parse_action(cast(str, answer)))
        except NotationError as exc:
            raise PlayerFault(seat, FaultKind.ILLEGAL, str(exc)) from None
    else:
        raise PlayerFault(
            seat,
            FaultKind.ILLEGAL,
            f"answered a {kind.__module__}.{kind.__qualname__}, not an action"
            " (an int or Action exactly, or a string such as 'play QD')",
        )
    if code not in legal:
        shown = repr(ACTION_NAMES[code]) if 0 <= code < NUM_ACTIONS else f"code {code}"
        raise PlayerFault(seat, FaultKind.ILLEGAL, f"{shown} is not a legal action now")
    return code
