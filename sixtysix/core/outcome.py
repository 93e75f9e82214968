"""How a deal ended: the engine's end event, and the variant's scored outcome."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Reason(StrEnum):
    """The ``reason`` of a deal's result, exactly as RECORDS.md names them."""

    REACHED_66 = "reached_66"
    FALSE_CLAIM = "false_claim"
    FAILED_CLOSE = "failed_close"
    LAST_TRICK = "last_trick"
    PLAYED_OUT = "played_out"
    DRAW = "draw"
    CONCEDED = "conceded"
    #: A player faulted and its seat forfeited the deal (not an action: a record says it
    #: in the deal's ``forfeit``; see :mod:`sixtysix.core.faults`).
    FORFEIT = "forfeit"


class EndKind(StrEnum):
    """What the engine saw end the deal; the variant turns it into a scored :class:`Outcome`."""

    REACHED = "reached"  # a side reached the winning points (auto claim, or a true manual claim)
    FALSE_CLAIM = "false_claim"  # a manual claim below the winning points
    CARDS_OUT = "cards_out"  # the last trick was played and nobody had claimed
    CONCEDED = "conceded"  # the declarer gave the deal up


class EndCode(IntEnum):
    """:class:`EndKind` as small integers: the one encoding of the fast paths' arrays (the
    vectorised simulator's and the compiled search's), which hold no strings."""

    RUNNING = 0  # the deal is not over
    REACHED = 1
    FALSE_CLAIM = 2
    CARDS_OUT = 3
    CONCEDED = 4

    @property
    def kind(self) -> EndKind:
        """The end kind of this code (not of RUNNING)."""
        return EndKind[self.name]


@dataclass(frozen=True, slots=True)
class DealEnd:
    kind: EndKind
    seat: int  # the seat that won the deciding trick, claimed, declared or conceded
    side: int  # that seat's side
    claimed: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """A scored deal: per seat game points, valid points (pending marriages excluded), tricks."""

    reason: Reason
    game_points: tuple[int, ...]
    points: tuple[int, ...]
    tricks: tuple[int, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "reason": str(self.reason),
            "game_points": list(self.game_points),
            "points": list(self.points),
            "tricks": list(self.tricks),
        }


def schneider_scale(losing_points: int, losing_tricks: int) -> int:
    """The 1/2/3 scale: 1 if the losers have 33 or more, 2 if fewer but a trick, 3 if none."""
    if losing_points >= 33:
        return 1
    return 2 if losing_tricks else 3
