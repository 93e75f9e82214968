"""Confidence intervals, timings and ratings for every driver: simulations, duels, tournaments.

Simulations and tournaments work from totals that can be merged across workers (counts, sums,
sums of squares), so a parallel run needs no per-game data in the main process; a duel keeps
one value per deal and takes the mean of those (:func:`mean_of`). The formulas are short and
standard, and kept in pure Python so that summaries need neither numpy nor scipy:

* a win rate's interval is the Wilson score interval, which stays inside [0, 1] and behaves
  for rates near 0 or 1 and small samples, unlike the textbook normal interval;
* a mean's interval is the normal one from the sample variance (simulations have thousands
  of games, where the t and normal quantiles agree to three digits);
* a duel's time per move is the count, mean, median and 95th percentile of its samples
  (:class:`TimeStats`);
* ratings are a Bradley-Terry model fitted with Hunter's MM algorithm and put on the Elo
  scale; their intervals come from a bootstrap over deals (see :func:`bootstrap_ratings`).
"""

from __future__ import annotations

import math
import statistics
import sys
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.core.rng import Seed

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054

#: Elo points per natural-log unit of a Bradley-Terry strength: 400 / ln 10.
ELO_SCALE = 400.0 / math.log(10.0)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A value with its 95% confidence interval (bounds None when it cannot be estimated)."""

    value: float
    low: float | None
    high: float | None

    def as_json(self, digits: int = 4, key: str = "value") -> dict[str, float | None]:
        """``{key: value, "low": ..., "high": ...}`` rounded (the duel names it ``estimate``);
        an estimate of nothing (no games yet) is ``null``: JSON has no NaN."""

        def r(x: float | None) -> float | None:
            return None if x is None or math.isnan(x) else round(x, digits)

        return {key: r(self.value), "low": r(self.low), "high": r(self.high)}

    def percent(self) -> str:
        """A rate as the reports print it, ``80.6% (78.0-82.9)``; the figure alone where there
        is no interval."""
        if self.low is None or self.high is None:
            return f"{100 * self.value:.1f}%"
        return f"{100 * self.value:.1f}% ({100 * self.low:.1f}-{100 * self.high:.1f})"


def wilson(successes: int, trials: int, z: float = Z95) -> Estimate:
    """A proportion with its Wilson score interval."""
    if trials <= 0:
        return Estimate(math.nan, None, None)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n)
    # At 0 or 1 the bound is exactly 0 or 1; the formula only gets there up to rounding.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Estimate(p, low, high)


def mean_interval(total: float, squares: float, count: int, z: float = Z95) -> Estimate:
    """A mean from the sum and sum of squares of ``count`` values, with its normal interval."""
    if count <= 0:
        return Estimate(math.nan, None, None)
    mean = total / count
    if count < 2:
        return Estimate(mean, None, None)
    variance = max(0.0, (squares - count * mean * mean) / (count - 1))
    half = z * math.sqrt(variance / count)
    return Estimate(mean, mean - half, mean + half)


def mean_of(values: Sequence[float], z: float = Z95) -> Estimate:
    """The mean of ``values`` with its normal interval from their sample standard deviation
    (computed from the values themselves, exactly, where :func:`mean_interval` has only
    totals)."""
    if not values:
        return Estimate(math.nan, None, None)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Estimate(mean, None, None)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class TimeStats:
    """Seconds per move: how many, their mean, median and 95th percentile."""

    moves: int
    mean: float
    median: float
    p95: float

    @staticmethod
    def of(samples: Sequence[float]) -> TimeStats:
        if not samples:
            return TimeStats(0, math.nan, math.nan, math.nan)
        if len(samples) == 1:
            return TimeStats(1, samples[0], samples[0], samples[0])
        p95 = statistics.quantiles(samples, n=20, method="inclusive")[18]
        return TimeStats(len(samples), statistics.fmean(samples), statistics.median(samples), p95)

    def as_json(self) -> dict[str, float | int | None]:
        def ms(x: float) -> float | None:
            return None if math.isnan(x) else round(1000 * x, 3)

        return {
            "moves": self.moves,
            "mean_ms": ms(self.mean),
            "median_ms": ms(self.median),
            "p95_ms": ms(self.p95),
        }


def bradley_terry(
    scores: Sequence[Sequence[float]],
    prior: float = 1.0,
    tolerance: float = 1e-9,
    max_iterations: int = 10_000,
) -> list[float]:
    """Bradley-Terry ratings on the Elo scale (mean 0) from a matrix of pairwise scores.

    ``scores[i][j]`` is what player ``i`` scored against ``j`` (a win 1, a tie 1/2 each). The
    model says ``i`` beats ``j`` with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``, as
    Elo does. ``prior`` adds that many drawn games to every pair, which keeps the ratings finite
    when a player wins or loses every comparison (the maximum-likelihood estimate would be
    infinite) and pulls ratings from very few games towards each other.
    """
    m = len(scores)
    if m == 0:
        return []
    games = [
        [0.0 if i == j else scores[i][j] + scores[j][i] + prior for j in range(m)] for i in range(m)
    ]
    wins = [sum(scores[i][j] + prior / 2 for j in range(m) if j != i) for i in range(m)]
    strength = [1.0] * m
    for _ in range(max_iterations):
        new = []
        for i in range(m):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(m) if j != i)
            new.append(wins[i] / denom if denom > 0 else strength[i])
        # Fix the scale: geometric mean 1 (the model only sees ratios).
        log_mean = sum(math.log(x) for x in new) / m
        new = [x / math.exp(log_mean) for x in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    return [ELO_SCALE * math.log(x) for x in strength]


@dataclass(frozen=True, slots=True)
class PairTable:
    """Pairwise results grouped by deal, the unit a tournament's bootstrap resamples.

    ``kinds[d]`` is the kind of deal ``d``: an index into ``patterns``, where each pattern
    holds, for every ordered pair ``(i, j)`` with ``i < j``, what ``i`` scored against ``j``
    over all the games played on that deal. Deals with the same pattern are interchangeable,
    so a resample only needs to count how often each kind was drawn.
    """

    players: int
    pairs: tuple[tuple[int, int], ...]
    patterns: tuple[tuple[float, ...], ...]
    kinds: tuple[int, ...]
    #: Comparisons between each pair on one deal (the same on every deal).
    per_deal: tuple[int, ...]

    @classmethod
    def build(
        cls, players: int, per_deal: Sequence[int], deals: Sequence[Sequence[float]]
    ) -> PairTable:
        pairs = tuple((i, j) for i in range(players) for j in range(i + 1, players))
        index: dict[tuple[float, ...], int] = {}
        kinds = []
        for deal in deals:
            key = tuple(deal)
            kinds.append(index.setdefault(key, len(index)))
        return cls(players, pairs, tuple(index), tuple(kinds), tuple(per_deal))

    def scores(self, counts: Sequence[int] | None = None) -> list[list[float]]:
        """The score matrix over all deals, or over deal kinds drawn ``counts[k]`` times."""
        if counts is None:
            tally = Counter(self.kinds)
            counts = [tally.get(k, 0) for k in range(len(self.patterns))]
        m = self.players
        out = [[0.0] * m for _ in range(m)]
        deals = sum(counts)
        for p, (i, j) in enumerate(self.pairs):
            won = sum(c * self.patterns[k][p] for k, c in enumerate(counts) if c)
            out[i][j] = won
            out[j][i] = deals * self.per_deal[p] - won
        return out


def shares(scores: Sequence[Sequence[float]]) -> list[float]:
    """Each player's share of all its comparisons won (ties count half)."""
    m = len(scores)
    out = []
    for i in range(m):
        won = sum(scores[i][j] for j in range(m) if j != i)
        played = won + sum(scores[j][i] for j in range(m) if j != i)
        out.append(won / played if played else math.nan)
    return out


@dataclass(frozen=True, slots=True)
class Ratings:
    """Per player: the Bradley-Terry rating and the share of comparisons won, with intervals."""

    ratings: list[Estimate]
    scores: list[Estimate]


def bootstrap_ratings(
    table: PairTable,
    seed: Seed,
    replicates: int = 200,
    prior: float = 1.0,
    level: float = 0.95,
) -> Ratings:
    """Bradley-Terry ratings and scores with percentile bootstrap intervals over deals.

    A tournament plays every pairing on the same deals, so the comparisons of one deal are
    not independent (a strong hand helps whoever holds it in every pairing). Resampling whole
    deals keeps that dependence and gives honest intervals, where treating comparisons as
    independent trials would make them too narrow. The draws come from ``seed``, so the
    intervals are reproducible under ``--seed``.
    """
    full = table.scores()
    ratings = bradley_terry(full, prior)
    score = shares(full)
    n = len(table.kinds)
    if n < 2 or replicates < 2:
        return Ratings(
            [Estimate(r, None, None) for r in ratings], [Estimate(x, None, None) for x in score]
        )
    rating_samples: list[list[float]] = [[] for _ in ratings]
    score_samples: list[list[float]] = [[] for _ in ratings]
    kinds = table.kinds
    for b in range(replicates):
        words = _words(seed.bytes(("bootstrap", b), 8 * n))
        drawn = Counter(kinds[w % n] for w in words)
        counts = [drawn.get(k, 0) for k in range(len(table.patterns))]
        resampled = table.scores(counts)
        for i, r in enumerate(bradley_terry(resampled, prior)):
            rating_samples[i].append(r)
        for i, x in enumerate(shares(resampled)):
            score_samples[i].append(x)
    tail = (1 - level) / 2

    def interval(value: float, sample: list[float]) -> Estimate:
        sample.sort()
        return Estimate(value, _quantile(sample, tail), _quantile(sample, 1 - tail))

    return Ratings(
        [interval(r, s) for r, s in zip(ratings, rating_samples, strict=True)],
        [interval(x, s) for x, s in zip(score, score_samples, strict=True)],
    )


def _words(data: bytes) -> Sequence[int]:
    """``data`` as little-endian 64-bit words, as :meth:`Seed.words` reads them (but in C)."""
    words = array("Q", data)
    if sys.byteorder != "little":
        words.byteswap()
    return words


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation (numpy's default method)."""
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)
