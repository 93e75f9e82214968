"""One player's turn under the referee's eye: every driver asks its players through this.

Whatever goes wrong inside a turn is the player's fault, never a crash of the run: a
:class:`~sixtysix.core.faults.PlayerFault` raised by a player wrapper (an external program's
timeout, crash, garbage ...), an answer the engine refuses (``illegal``), or any other
exception raised while the player chose or its answer was applied (``crash``: a bug in an
in-process bot). The deal is then ended by :func:`~sixtysix.core.faults.forfeit`, the one
fault rule, and the driver goes on with the next deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import TypeVar

from sixtysix.core.errors import IllegalActionError
from sixtysix.core.faults import FaultKind, PlayerFault, forfeit
from sixtysix.core.state import DealState

K = TypeVar("K", int, str)

#: One fault as drivers record it: the seat that faulted and the kind of fault.
Fault = tuple[int, str]


def as_fault(exc: Exception, seat: int) -> PlayerFault:
    """The fault an exception raised during ``seat``'s turn stands for (always ``seat``'s:
    whatever goes wrong in a turn is the fault of the seat to act)."""
    if isinstance(exc, PlayerFault):
        return exc if exc.seat == seat else PlayerFault(seat, exc.kind, exc.detail)
    if isinstance(exc, IllegalActionError):
        return PlayerFault(seat, FaultKind.ILLEGAL, str(exc))
    return PlayerFault(seat, FaultKind.CRASH, f"{type(exc).__name__}: {exc}")


class Turn:
    """``with Turn(state, seat) as turn: state.apply(player(view))``: a fault inside the block
    forfeits the deal for the seat that faulted and is kept in ``turn.fault``.

    ``KeyboardInterrupt`` and other non-``Exception`` errors pass through untouched.
    """

    __slots__ = ("fault", "seat", "state")

    def __init__(self, state: DealState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.fault: PlayerFault | None = None

    def __enter__(self) -> Turn:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        fault = as_fault(exc, self.seat)
        if not self.state.is_over:
            forfeit(self.state, self.seat)
        self.fault = fault
        return True


def tally(faults: Iterable[tuple[K, str]]) -> dict[K, dict[str, int]]:
    """Faults as ``(who, kind)`` pairs -> ``{who: {kind: count}}``, sorted, for JSON output."""
    counts = Counter(faults)
    out: dict[K, dict[str, int]] = {}
    for (who, kind), n in sorted(counts.items()):
        out.setdefault(who, {})[kind] = n
    return out


def describe(counts: Mapping[str, int], name: Callable[[str], str] = str) -> str:
    """``{"illegal": 2, "timeout": 1}`` -> ``"3 (illegal 2, timeout 1)"``; none -> ``"0"``.
    ``name`` words each kind (a report in another language)."""
    total = sum(counts.values())
    if not total:
        return "0"
    return f"{total} (" + ", ".join(f"{name(k)} {n}" for k, n in sorted(counts.items())) + ")"
