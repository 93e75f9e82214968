"""The share of the way: how far a bot has come from the heuristic's level towards the ceiling.

share = (bot's figure - the heuristic's figure against itself) / (the ceiling's figure - that),
in games won and in game points per deal, every figure measured against the heuristic on the
same deals. Its interval is a percentile bootstrap over deals: the deal is the independent
unit, and the three duels were played on the very same deals, so each resample draws deals
(with all their games) once for all three, which keeps their correlation. In matches, the same
over matches (each played in every seating, on the same cards deal by deal).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.sim.duel import A, B, DealResult
from sixtysix.sim.match_duel import DuelMatch

#: Bootstrap resamples for the interval of a share.
RESAMPLES = 2000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class DealFigures:
    """One deal's (or match's) figures for A against B: the share of its games (matches) A
    won, and A's game points per deal minus B's."""

    deal: int
    won: float
    points: float


def per_deal(results: Sequence[DealResult]) -> dict[int, DealFigures]:
    """Each deal's figures, by deal number."""
    out: dict[int, DealFigures] = {}
    for r in results:
        won = sum(1 for g in r.games if g.points(A) > g.points(B)) / len(r.games)
        out[r.deal] = DealFigures(r.deal, won, r.points(A) - r.points(B))
    return out


def per_match(results: Sequence[DuelMatch]) -> dict[int, DealFigures]:
    """Each match's figures, by match number: the share of its seatings' matches A won, and
    A's game points per deal minus B's over every deal of them."""
    out: dict[int, DealFigures] = {}
    for r in results:
        won = sum(1 for s in r.seatings if s.winner == A) / len(r.seatings)
        deals = r.deal_results(0)
        points = sum(d.points(A) - d.points(B) for d in deals) / len(deals)
        out[r.match] = DealFigures(r.match, won, points)
    return out


def share(bot: float, base: float, ceiling: float) -> float | None:
    """The bot's share of the way from ``base`` to ``ceiling`` (None: no way to go)."""
    way = ceiling - base
    if abs(way) < 1e-12:
        return None
    return (bot - base) / way


@dataclass(frozen=True)
class Share:
    """A share with its bootstrap interval (None where the resampled way vanished)."""

    estimate: float | None
    low: float | None
    high: float | None

    def as_json(self) -> dict[str, float | None]:
        return {
            "estimate": _round(self.estimate),
            "low": _round(self.low),
            "high": _round(self.high),
        }

    def text(self) -> str:
        if self.estimate is None:
            return "n/a"
        if self.low is None or self.high is None:
            return f"{self.estimate:.0%}"
        return f"{self.estimate:.0%} ({self.low:.0%} to {self.high:.0%})"


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def common_deals(*runs: dict[int, DealFigures]) -> list[int]:
    """The deals every run finished (all of them, unless one was interrupted)."""
    keys = set(runs[0])
    for run in runs[1:]:
        keys &= set(run)
    return sorted(keys)


def share_of_way(
    bot: dict[int, DealFigures],
    base: dict[int, DealFigures],
    ceiling: dict[int, DealFigures],
    field: str,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Share:
    """The share in ``field`` (``"won"`` or ``"points"``) over the deals all three finished,
    with a percentile bootstrap interval over those deals."""
    deals = common_deals(bot, base, ceiling)
    if not deals:
        return Share(None, None, None)
    rows = [
        (getattr(bot[d], field), getattr(base[d], field), getattr(ceiling[d], field)) for d in deals
    ]
    point = _share_of(rows)
    if resamples <= 0 or len(rows) < 2:
        return Share(point, None, None)
    rng = random.Random(seed)
    n = len(rows)
    found: list[float] = []
    for _ in range(resamples):
        picked = [rows[rng.randrange(n)] for _ in range(n)]
        s = _share_of(picked)
        if s is not None:
            found.append(s)
    if len(found) < resamples * CONFIDENCE:
        return Share(point, None, None)  # the way itself is not clear of zero
    found.sort()
    tail = (1 - CONFIDENCE) / 2
    low = found[int(tail * len(found))]
    high = found[min(len(found) - 1, int((1 - tail) * len(found)))]
    return Share(point, low, high)


def _share_of(rows: Sequence[tuple[float, float, float]]) -> float | None:
    n = len(rows)
    return share(
        sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n, sum(r[2] for r in rows) / n
    )


def script_parser(doc: str | None) -> argparse.ArgumentParser:
    """A strength script's parser: its docstring's first line, its examples after ``::``, and
    the variant argument every such script takes."""
    text = doc or ""
    p = argparse.ArgumentParser(
        description=text.splitlines()[0],
        epilog=text.split("::", 1)[-1] if "::" in text else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("variant", help="variant name or alias, as for sixtysix duel")
    return p
