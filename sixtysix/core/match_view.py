"""The match's public state as one deal's views carry it: what every seat at a table knows.

A person at a table knows the score, the target and who deals next; a bot that is to play for
the match needs the same facts. :class:`MatchView` holds them, immutable, and
:class:`~sixtysix.core.match_state.MatchState` attaches one to every deal it deals, so that
every view of that deal carries it. A deal played alone (a duel by deals, a hand-built
position) has none: its views say ``match=None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sixtysix.core.errors import SixtySixError


class MatchViewError(SixtySixError, ValueError):
    """A match state that cannot be (out of range, wrong shape), e.g. in a protocol message."""


@dataclass(frozen=True, slots=True)
class MatchView:
    """The match's score and format when a deal begins (absolute seats, as the view's)."""

    #: Each seat's game points from the deals settled before this one.
    totals: tuple[int, ...]
    #: The game points that end the match; None in a match of a fixed number of deals.
    target: int | None
    #: The deals a fixed-length match has; None in a match to a target.
    deals: int | None
    #: Deals settled before this one (this deal is number ``played + 1``).
    played: int
    #: The seat that deals the next deal.
    next_dealer: int

    @property
    def deals_left(self) -> int | None:
        """Deals still to play in a fixed-length match, this one included; None otherwise."""
        return None if self.deals is None else self.deals - self.played

    def to_go(self, seat: int) -> int | None:
        """Game points ``seat`` still needs to reach the target; None without a target."""
        return None if self.target is None else max(0, self.target - self.totals[seat])

    def as_json(self) -> dict[str, object]:
        return {
            "totals": list(self.totals),
            "target": self.target,
            "deals": self.deals,
            "played": self.played,
            "next_dealer": self.next_dealer,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], seats: int) -> MatchView:
        """The match state of :meth:`as_json`, checked: a :class:`MatchViewError` names what is
        wrong (a client's message is not trusted)."""
        if not isinstance(data, Mapping):
            raise MatchViewError("match: an object expected")
        totals = data.get("totals")
        if not isinstance(totals, list) or len(totals) != seats:
            raise MatchViewError(f"match.totals: a list of {seats} integers expected")
        target = _optional(data.get("target"), "target")
        deals = _optional(data.get("deals"), "deals")
        if (target is None) == (deals is None):
            raise MatchViewError("match: exactly one of target and deals")
        next_dealer = _count(data.get("next_dealer"), "next_dealer")
        if next_dealer >= seats:
            raise MatchViewError(f"match.next_dealer: a seat below {seats} expected")
        played = _count(data.get("played"), "played")
        return cls(tuple(_count(t, "totals") for t in totals), target, deals, played, next_dealer)


#: Larger than any real match's figure; a message beyond it is refused.
LIMIT = 1_000_000


def _count(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= LIMIT:
        raise MatchViewError(f"match.{name}: an integer from 0 to {LIMIT:,} expected")
    return value


def _optional(value: object, name: str) -> int | None:
    return None if value is None else _count(value, name)
