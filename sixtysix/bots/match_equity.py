"""Match equity: each seat's chance to win the match from a score, as backgammon programs
tabulate it.

A deal's game points are worth different amounts at different scores: at 6 to 6 in a match to
7 any win takes the match, at 0 to 0 a schneider is worth three times a plain win. A player who
plays for the match values a deal's result by the chance it leaves him to win the match, not by
its game points. That chance depends on the match format and on how deals tend to end; given
the distribution of a deal's results (game points per seat, counted from the dealer), the
chance from every score follows by recursion over the deals still to come.

The distribution is measured (:data:`sixtysix.bots.deal_results.DEAL_RESULTS`, from self-play
over many deals, by ``tools/deal_results.py``); :func:`equity_for` builds the table for a
variant when one is known for its rules and options, and says None otherwise.
"""

from __future__ import annotations

import importlib.util
import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sixtysix.bots.deal_results import DEAL_RESULTS
from sixtysix.bots.equity_arrays import target_table
from sixtysix.core.match_view import MatchView
from sixtysix.core.rules import MatchFormat
from sixtysix.core.variant import Variant

#: A deal's result: each seat's game points, counted from the dealer (index 0 the dealer,
#: 1 the next seat in turn order, ...).
Result = tuple[int, ...]
#: How likely each result is.
Distribution = Mapping[Result, float]
#: A chance to win the match per absolute seat (a shared win counts as a share).
Chances = tuple[float, ...]


#: Scores below the target from which a match to a target is tabulated all at once in arrays
#: (with numpy; :mod:`sixtysix.bots.equity_arrays`) rather than score by score as asked.
ARRAYS_FROM = 10_000


def arrays_available() -> bool:
    """Whether numpy (the ``fast`` extra) is there to tabulate large matches in arrays."""
    return importlib.util.find_spec("numpy") is not None


class MatchEquity:
    """Chances to win a match of ``fmt`` among ``seats`` from any score, for deals whose results
    follow ``results``.

    ``arrays``: tabulate a match to a target all at once in arrays (:mod:`sixtysix.bots.
    equity_arrays`); by default where numpy is there and the match has at least
    :data:`ARRAYS_FROM` scores below the target.
    """

    def __init__(
        self, seats: int, fmt: MatchFormat, results: Distribution, arrays: bool | None = None
    ) -> None:
        total = sum(results.values())
        if not results or total <= 0 or any(p < 0 for p in results.values()):
            raise ValueError("a distribution of deal results needs positive weights")
        if any(len(r) != seats or min(r) < 0 for r in results):
            raise ValueError(f"each deal result needs {seats} game points of at least 0")
        self.seats = seats
        self.fmt = fmt
        self.results = {r: p / total for r, p in results.items()}
        #: The chance of a deal that scores nothing (it only moves the dealer on).
        self.pointless = self.results.get((0,) * seats, 0.0)
        if self.pointless >= 1.0:
            raise ValueError("every deal scores nothing: no match ever ends")
        self._chances = lru_cache(maxsize=None)(self._compute)
        self._rings: dict[tuple[int, ...], list[Chances]] = {}
        if arrays is None:
            arrays = self.scores >= ARRAYS_FROM and arrays_available()
        self.arrays = arrays and fmt.deals is None
        self._table: Any = None

    @property
    def scores(self) -> int:
        """Scores below the target (a match to a target), or the scores a fixed-length match
        may visit: the table's size."""
        top = max(max(r) for r in self.results)
        if self.fmt.deals is None:
            return math.prod([self.fmt.target] * self.seats)
        return math.prod([top * self.fmt.deals + 1] * self.seats) * self.fmt.deals

    # ------------------------------------------------------------------ queries

    def chances(self, totals: Sequence[int], dealer: int, played: int = 0) -> Chances:
        """Each seat's chance to win the match from ``totals`` with ``dealer`` to deal the next
        deal and ``played`` deals settled (which only a fixed-length match counts)."""
        if len(totals) != self.seats or not 0 <= dealer < self.seats:
            raise ValueError(f"{self.seats} totals and a dealer below {self.seats} expected")
        if self.arrays and max(totals) < self.fmt.target:
            if self._table is None:
                self._table = target_table(self.seats, self.fmt.target, self.results)
            return tuple(float(c) for c in self._table[(dealer, *totals)])
        return self._chances(tuple(totals), dealer, self._played(played))

    def after(self, match: MatchView, game_points: Sequence[int]) -> Chances:
        """Each seat's chance to win the match once the deal ``match`` describes ends with
        ``game_points`` (absolute seats)."""
        totals = tuple(t + g for t, g in zip(match.totals, game_points, strict=True))
        return self.chances(totals, match.next_dealer, match.played + 1)

    # ------------------------------------------------------------------ the recursion

    def _played(self, played: int) -> int:
        return played if self.fmt.deals is not None else 0

    def _over(self, totals: tuple[int, ...], played: int) -> Chances | None:
        winners = self.fmt.winners(totals, played if self.fmt.deals is not None else None)
        if not winners:
            return None
        share = 1.0 / len(winners)
        return tuple(share if s in winners else 0.0 for s in range(self.seats))

    def _compute(self, totals: tuple[int, ...], dealer: int, played: int) -> Chances:
        done = self._over(totals, played)
        if done is not None:
            return done
        if self.fmt.deals is None and self.pointless > 0:
            return self._ring(totals)[dealer]
        return self._deal(totals, dealer, played)

    def _deal(self, totals: tuple[int, ...], dealer: int, played: int) -> Chances:
        """The chances one deal on, every result weighed; in a match to a target, a deal that
        scores nothing is left out (:meth:`_ring` accounts for it)."""
        n = self.seats
        following = (dealer + 1) % n
        ring = self.fmt.deals is None
        acc = [0.0] * n
        for result, p in self.results.items():
            if ring and not any(result):
                continue
            moved = list(totals)
            for i, points in enumerate(result):
                moved[(dealer + i) % n] += points
            after = self._chances(tuple(moved), following, played + 1)
            for s in range(n):
                acc[s] += p * after[s]
        return tuple(acc)

    def _ring(self, totals: tuple[int, ...]) -> list[Chances]:
        """The chances from ``totals`` for every dealer at once. A deal that scores nothing
        passes the deal round the ring at the same score, so with ``c`` each dealer's chances
        from the deals that score and ``q`` the chance of one that does not,
        ``E[d] = c[d] + q * E[d + 1]``, solved round the ring in closed form."""
        ring = self._rings.get(totals)
        if ring is not None:
            return ring
        n, q = self.seats, self.pointless
        scored = [self._deal(totals, d, 0) for d in range(n)]
        ring = []
        for d in range(n):
            acc = [0.0] * n
            for k in range(n):
                weight = q**k
                for s, value in enumerate(scored[(d + k) % n]):
                    acc[s] += weight * value
            ring.append(tuple(a / (1.0 - q**n) for a in acc))
        self._rings[totals] = ring
        return ring


#: Options that set the match's format, not how a deal is played or scored: a measured
#: distribution holds whatever their values.
FORMAT_OPTIONS = frozenset({"target", "match"})


def rules_key(name: str, options: Mapping[str, object]) -> str:
    """The key of a rule set's deal results: the variant's name, then each option that differs
    from its default and plays a part in a deal (not the match's format), as ``name=JSON``."""
    played = sorted((k, v) for k, v in options.items() if k not in FORMAT_OPTIONS)
    return " ".join([name, *(f"{k}={json.dumps(v)}" for k, v in played)])


def equity_for(variant: Variant, fmt: MatchFormat | None = None) -> MatchEquity | None:
    """The match-equity table of ``variant`` (for a match of ``fmt``, by default the variant's
    own) from the deal results measured for its rules, or None where none were (another
    variant, or options no measurement was made with)."""
    key = rules_key(variant.name, variant.options.diff())
    if key not in DEAL_RESULTS:
        return None
    return _table(key, variant.seats, variant.match_format if fmt is None else fmt)


@lru_cache(maxsize=32)
def _table(key: str, seats: int, fmt: MatchFormat) -> MatchEquity:
    _, _, counts = DEAL_RESULTS[key]
    return MatchEquity(seats, fmt, {r: float(c) for r, c in counts.items()})


def deal_result(game_points: Sequence[int], dealer: int) -> Result:
    """A deal's game points (absolute seats) counted from its dealer."""
    n = len(game_points)
    return tuple(game_points[(dealer + i) % n] for i in range(n))
