"""What a deal's result is worth in the match: the scale on which a match-aware player values
its actions.

A deal's game points are worth different amounts at different scores (see
:mod:`sixtysix.bots.match_equity`). :class:`Stakes` turns one imagined deal's result into the
seat's chance to win the match after it, so that averaging over imagined deals averages that
chance, not game points. The chance is shown in *plain wins' worth*: the gain over a deal that
scores nothing, divided by half the gap between winning and losing a one-point deal. At an even
score early in a match the numbers are close to game points (the expert's margins keep their
meaning); at six to six in a match to seven every win is worth one and every loss minus one.

The searches value an imagined deal by minimax over its leaves; turning the root's value into
equity is the same as turning every leaf's, because the turn is monotone and maximum and minimum
commute with a monotone map. So the compiled search needs no second statement of the stakes.
(Where it expects random replies, an average inside the search, the root's turn is an
approximation.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from sixtysix.bots.match_equity import MatchEquity, equity_for
from sixtysix.core.match_view import MatchView
from sixtysix.core.rules import MatchFormat
from sixtysix.core.variant import Variant

#: Scores a match-equity table may have (see :attr:`MatchEquity.scores`) when it is worked
#: out score by score: beyond it a seat plays for the deal's game points. The match state of a
#: view may come from a stranger's message, and a larger table takes seconds to build (four
#: players to 16, 65,536 scores: 15 s).
MAX_SCORES = 20_000
#: The same for a table filled in arrays (:mod:`sixtysix.bots.equity_arrays`; four players to
#: 16 in under a second, 8 MB).
MAX_ARRAY_SCORES = 100_000
#: Game points a deal's value may reach either way (the search's estimates are clamped there).
REACH = 6


class Stakes:
    """One seat's values of a deal's results in the match its views describe."""

    def __init__(self, equity: MatchEquity, match: MatchView, seat: int) -> None:
        self.equity = equity
        self.match = match
        self.seat = seat
        n = equity.seats
        self.base = self._chance((0,) * n)
        others = tuple(0 if s == seat else 1 for s in range(n))
        alone = tuple(1 if s == seat else 0 for s in range(n))
        self.unit = (self._chance(alone) - self._chance(others)) / 2.0
        self._points: dict[tuple[int, tuple[int, ...]], float] = {}

    def _chance(self, game_points: Sequence[int]) -> float:
        return self.equity.after(self.match, game_points)[self.seat]

    def final(self, game_points: Sequence[int]) -> float:
        """The worth of a finished deal that gave each seat ``game_points``."""
        return (self._chance(game_points) - self.base) / self.unit

    def value(self, value: float, sides: Sequence[int]) -> float:
        """The worth of a deal valued at ``value`` game points for the seat's side (its side's
        minus the other side's, as the searches count them), with the seats' ``sides``.
        Between whole game points the worth is interpolated."""
        value = min(float(REACH), max(-float(REACH), value))
        low = math.floor(value)
        part = value - low
        key = tuple(sides)
        worth = self._point(low, key)
        return worth if part == 0 else (1.0 - part) * worth + part * self._point(low + 1, key)

    def values(self, values: Mapping[int, float], sides: Sequence[int]) -> dict[int, float]:
        """:meth:`value` of each action's value."""
        return {a: self.value(v, sides) for a, v in values.items()}

    def _point(self, points: int, sides: tuple[int, ...]) -> float:
        """The worth of ``points`` whole game points: every seat of the winning side scores
        them (as in every built-in game)."""
        found = self._points.get((points, sides))
        if found is None:
            mine = sides[self.seat]
            if points >= 0:
                scored = [points if side == mine else 0 for side in sides]
            else:
                scored = [0 if side == mine else -points for side in sides]
            found = self._points[(points, sides)] = self.final(scored)
        return found


def match_format(match: MatchView) -> MatchFormat:
    """The format of the match ``match`` describes."""
    if match.deals is not None:
        return MatchFormat(deals=match.deals)
    assert match.target is not None  # a MatchView has one or the other
    return MatchFormat(target=match.target)


def stakes_for(variant: Variant, match: MatchView | None, seat: int) -> Stakes | None:
    """The stakes of ``seat`` in the match ``match`` describes, or None where the deal is to be
    played for its game points: a deal played alone, rules without measured deal results, a
    match too long to tabulate, or a score from which every result leaves the same chance."""
    if match is None or len(match.totals) != variant.seats:
        return None
    equity = equity_for(variant, match_format(match))
    if equity is None:
        return None
    if equity.scores > (MAX_ARRAY_SCORES if equity.arrays else MAX_SCORES):
        return None
    stakes = Stakes(equity, match, seat)
    return stakes if stakes.unit > 1e-9 else None
