"""A player's fault and the one rule that scores it: the faulting seat forfeits the deal.

A player (in-process bot or external program) faults when it answers with something that is
not a legal action of its seat, or, for an external player, times out, crashes, closes its
output or writes what the protocol does not allow. The referee then ends the deal at once by
:func:`forfeit`; the run goes on.
"""

from __future__ import annotations

from enum import StrEnum

from sixtysix.core.errors import SixtySixError
from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.phase import Phase
from sixtysix.core.state import DealState

#: Game points each opponent of a forfeiting seat scores: the top of the 1/2/3 scale.
FORFEIT_POINTS = 3


class FaultKind(StrEnum):
    """Why a player faulted; the names appear in summaries, ``--out`` rows and JSON output."""

    ILLEGAL = "illegal"  # an answer that is not a legal action of the seat
    TIMEOUT = "timeout"  # no answer within the deadline
    CRASH = "crash"  # the program exited or could not be started
    CLOSED = "closed"  # the program closed its output
    GARBAGE = "garbage"  # a line that is not a valid protocol message (or too long)


class PlayerFault(SixtySixError):
    """Raised by a player wrapper when the player of ``seat`` faulted; the deal is forfeited."""

    def __init__(self, seat: int, kind: FaultKind, detail: str) -> None:
        super().__init__(f"seat {seat} faulted ({kind}): {detail}")
        self.seat = seat
        self.kind = kind
        self.detail = detail


def forfeit(state: DealState, seat: int) -> Outcome:
    """End ``state`` because ``seat`` faulted: every seat not on its side (as the sides stand
    now; before they are formed, every other seat) scores :data:`FORFEIT_POINTS`, its side 0.

    The state is left over with this outcome, so drivers and records see an ended deal.
    """
    if state.phase == Phase.OVER:
        raise ValueError("the deal is already over")
    side = state.sides[seat]
    n = state.n
    game_points = tuple(0 if state.sides[s] == side else FORFEIT_POINTS for s in range(n))
    outcome = Outcome(
        Reason.FORFEIT,
        game_points,
        tuple(state.valid_points(s) for s in range(n)),
        tuple(state.tricks),
    )
    state.phase = Phase.OVER
    state.to_act = -1
    state._legal = []
    state.outcome = outcome
    return outcome
