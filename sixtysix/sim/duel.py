"""Duels: how much stronger one bot is than another, with honest error bars.

Two bots, A and B, play the same deals in every seat arrangement, so that luck of the cards
cancels out: in a two-player game each deal is played twice with the seats swapped; with three
or four players A takes one seat and B all the others, A's seat rotating over every seat, and
then the reverse (B alone, rotating), which is ``2 * seats`` games per deal. Every game of a
deal starts from the identical cards and dealer (the same seed path), and every bot gets its
own seed path, so a duel with a seed is reproducible game by game, whatever the number of
worker processes.

What is reported, and why these statistics:

* **games won** by A (A's seats scored more game points than B's), drawn, and lost, with the
  win rate's 95% **Wilson** interval (it stays inside 0..1 and is honest near 0 and 1, where a
  normal interval is not). Games of one deal are paired by design; with seats swapped their
  results are negatively correlated, which makes the interval conservative;
* **game points per deal** for each bot (the mean over its seats, averaged over the deal's
  arrangements) and their difference, with a normal 95% interval over deals: the deal, not the
  game, is the independent unit here;
* **time per move** for each bot: count, mean, median and 95th percentile of the wall-clock
  time of its ``choose`` calls (not the engine's work between them);
* **faults** of each bot by kind: a bot that answers what is not a legal action, raises, or
  (an external program) times out, crashes or writes garbage forfeits that game by the one
  rule of :mod:`sixtysix.core.faults`, and the duel goes on.
"""

from __future__ import annotations

import math
import signal
import statistics
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field

from sixtysix.bots.base import Bot
from sixtysix.bots.external import deal_over
from sixtysix.core.answers import canonical_action
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.turn import Fault, Turn, tally
from sixtysix.core.variant import Variant
from sixtysix.sim.backends import BoundPool

A, B = 0, 1
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Contestant:
    """A bot class with its parameters, and the label it is reported under."""

    label: str
    cls: type[Bot]
    params: Mapping[str, str] = field(default_factory=dict)

    def make(self, seat: int, seed: Seed) -> Bot:
        return self.cls(seat, seed, dict(self.params))


def arrangements(seats: int) -> tuple[tuple[int, ...], ...]:
    """Who sits where in each game of a deal: per seat, ``A`` (0) or ``B`` (1).

    Two seats: A then B, and swapped. More seats: A alone in each seat in turn (B in the
    others), then B alone in each seat in turn.
    """
    if seats == 2:
        return ((A, B), (B, A))
    return tuple(
        tuple(alone if s == k else 1 - alone for s in range(seats))
        for alone in (A, B)
        for k in range(seats)
    )


@dataclass(frozen=True)
class GameResult:
    deal: int
    #: Per seat, A (0) or B (1).
    seating: tuple[int, ...]
    outcome: Outcome
    #: Seconds per move of A's and of B's bots in this game.
    times: tuple[tuple[float, ...], tuple[float, ...]]
    #: The seat that closed the talon (-1: nobody), and the cards then left in the talon (with
    #: the turn-up): where a game was won or lost, for ``benchmarks/strength/losses.py``.
    closed_by: int = -1
    closed_with: int = 0
    #: The game's fault, if a bot faulted (the game then ended by forfeit): ``(seat, kind)``.
    faults: tuple[Fault, ...] = ()

    def points(self, who: int) -> float:
        """Game points of ``who`` in this game: the mean over the seats it held."""
        gp = [g for g, w in zip(self.outcome.game_points, self.seating, strict=True) if w == who]
        return sum(gp) / len(gp)


@dataclass(frozen=True)
class DealResult:
    deal: int
    games: tuple[GameResult, ...]

    def points(self, who: int) -> float:
        return sum(g.points(who) for g in self.games) / len(self.games)


def deal_path(deal: int) -> tuple[str | int, ...]:
    return ("duel", "deal", deal)


def play_game(
    variant: Variant,
    contestants: Sequence[Contestant],
    seed: Seed,
    deal: int,
    game: int,
    seating: tuple[int, ...],
) -> GameResult:
    """Game ``game`` of deal ``deal``: the deal's cards, the bots seated as ``seating`` says."""
    n = variant.seats
    setup = variant.deal(seed, deal_path(deal), deal % n)
    state = variant.new_deal(setup)
    bots = [
        contestants[who].make(s, seed.child((*deal_path(deal), "game", game, "seat", s)))
        for s, who in enumerate(seating)
    ]
    times: tuple[list[float], list[float]] = ([], [])
    faults: list[Fault] = []
    clock = time.perf_counter
    while state.phase != Phase.OVER:
        seat = state.to_act
        view = state.view(seat)
        with Turn(state, seat) as turn:
            start = clock()
            action = bots[seat].choose(view)
            times[seating[seat]].append(clock() - start)
            state.apply_legal(canonical_action(action, seat, state.legal_actions()))
        if turn.fault is not None:
            faults.append((turn.fault.seat, str(turn.fault.kind)))
    deal_over(bots, state)
    assert state.outcome is not None
    closed_with = state.talon_size if state.closed_by >= 0 else 0
    return GameResult(
        deal,
        seating,
        state.outcome,
        (tuple(times[A]), tuple(times[B])),
        state.closed_by,
        closed_with,
        tuple(faults),
    )


def play_deal(
    variant: Variant,
    contestants: Sequence[Contestant],
    seed: Seed,
    deal: int,
) -> DealResult:
    """Every arrangement of one deal."""
    games = tuple(
        play_game(variant, contestants, seed, deal, g, seating)
        for g, seating in enumerate(arrangements(variant.seats))
    )
    return DealResult(deal, games)


def _ignore_interrupts() -> None:
    # Workers leave Ctrl-C to the parent, which stops the duel and reports what finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def iter_deals(
    variant: Variant,
    contestants: Sequence[Contestant],
    seed: Seed,
    deals: int,
    jobs: int = 1,
) -> Iterator[DealResult]:
    """Deals ``0..deals-1``, each with all its games; in order with one job, else as done.

    The results do not depend on ``jobs``: every deal draws only from its own seed paths.
    """
    if jobs <= 1:
        for d in range(deals):
            yield play_deal(variant, contestants, seed, d)
        return
    pool = BoundPool(jobs, initializer=_ignore_interrupts)
    pending: set[Future[DealResult]] = set()
    next_deal = 0
    finished = False
    try:
        while next_deal < deals or pending:
            while next_deal < deals and len(pending) < 2 * jobs:
                pending.add(pool.submit(play_deal, variant, contestants, seed, next_deal))
                next_deal += 1
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
        finished = True
    finally:
        # Interrupted: stop at once, dropping what is queued. Finished: join the workers, so
        # that nothing is left for the interpreter's exit (a pool left running there could
        # print a traceback from its wake-up pipe after the results).
        pool.shutdown(wait=finished, cancel_futures=not finished)


# ---------------------------------------------------------------------- statistics


def _z(confidence: float) -> float:
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval (``None`` bounds: too few data)."""

    estimate: float
    low: float | None
    high: float | None

    def as_json(self) -> dict[str, float | None]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {"estimate": r(self.estimate), "low": r(self.low), "high": r(self.high)}


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of a binomial proportion."""
    if trials <= 0:
        return Interval(math.nan, None, None)
    z = _z(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean with a normal-approximation interval (the sample standard error)."""
    if not values:
        return Interval(math.nan, None, None)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Interval(mean, None, None)
    half = _z(confidence) * statistics.stdev(values) / math.sqrt(len(values))
    return Interval(mean, mean - half, mean + half)


@dataclass(frozen=True)
class TimeStats:
    """Seconds per move."""

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


@dataclass(frozen=True)
class DuelSummary:
    variant: str
    labels: tuple[str, str]
    seed: int | None
    deals: int
    games: int
    #: Games A won, drew, lost.
    wins: int
    draws: int
    losses: int
    win_rate: tuple[Interval, Interval]
    points: tuple[Interval, Interval]
    #: A's game points per deal minus B's.
    margin: Interval
    times: tuple[TimeStats, TimeStats]
    seconds: float
    interrupted: bool = False
    #: A's and B's faults by kind.
    faults: tuple[dict[str, int], dict[str, int]] = ({}, {})

    def as_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "bots": {"a": self.labels[A], "b": self.labels[B]},
            "seed": self.seed,
            "deals": self.deals,
            "games": self.games,
            "games_won": {"a": self.wins, "b": self.losses, "draws": self.draws},
            "win_rate": {"a": self.win_rate[A].as_json(), "b": self.win_rate[B].as_json()},
            "game_points_per_deal": {
                "a": self.points[A].as_json(),
                "b": self.points[B].as_json(),
                "difference": self.margin.as_json(),
            },
            "time_per_move": {"a": self.times[A].as_json(), "b": self.times[B].as_json()},
            "faults": {"a": dict(self.faults[A]), "b": dict(self.faults[B])},
            "confidence": CONFIDENCE,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
        }


def summarize(
    variant: str,
    labels: tuple[str, str],
    results: Sequence[DealResult],
    seed: int | None = None,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> DuelSummary:
    """Totals and intervals over finished deals (in deal order, so sums never depend on the
    order in which parallel workers finished)."""
    ordered = sorted(results, key=lambda r: r.deal)
    games = [g for r in ordered for g in r.games]
    wins = sum(1 for g in games if g.points(A) > g.points(B))
    losses = sum(1 for g in games if g.points(A) < g.points(B))
    draws = len(games) - wins - losses
    times = tuple(TimeStats.of([t for g in games for t in g.times[who]]) for who in (A, B))
    faults = tally((g.seating[seat], kind) for g in games for seat, kind in g.faults)
    return DuelSummary(
        variant=variant,
        labels=labels,
        seed=seed,
        deals=len(ordered),
        games=len(games),
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=(wilson_interval(wins, len(games)), wilson_interval(losses, len(games))),
        points=(
            mean_interval([r.points(A) for r in ordered]),
            mean_interval([r.points(B) for r in ordered]),
        ),
        margin=mean_interval([r.points(A) - r.points(B) for r in ordered]),
        times=(times[A], times[B]),
        seconds=seconds,
        interrupted=interrupted,
        faults=(faults.get(A, {}), faults.get(B, {})),
    )


def duel(
    variant: Variant,
    a: Contestant,
    b: Contestant,
    deals: int,
    seed: Seed,
    jobs: int = 1,
) -> DuelSummary:
    """Play a whole duel in this process (or ``jobs`` workers) and summarize it."""
    start = time.perf_counter()
    results = list(iter_deals(variant, (a, b), seed, deals, jobs))
    return summarize(
        variant.name, (a.label, b.label), results, seed.value, time.perf_counter() - start
    )
