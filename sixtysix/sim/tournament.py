"""Round-robin tournaments between bots on identical deals, with Bradley-Terry ratings.

Design, and why:

* **Tables.** With ``m`` bots and a ``k``-seat variant every ``k``-subset of the bots is a
  table (for two-player games: every pair).
* **Identical deals, rotated seats.** Deal ``d`` is dealt once, from
  ``master.child(("deal", d))`` with dealer ``d % k``, and every table plays it ``k`` times,
  the bots moving one seat on each time (rotation ``r`` puts bot ``table[(s + r) % k]`` in
  seat ``s``). Each bot so holds each hand of each deal against each opponent: luck of the
  cards cancels within a deal, which is what makes small tournaments informative. The bots
  of table ``t``, rotation ``r`` are seeded from ``master.child(("bots", d, "table", t,
  "rotation", r))``, seat ``s`` with its ``child(("bot", s))``: branches apart from the deal's.
* **Comparisons.** In every game each pair of bots at the table is compared by game points:
  more wins (1), equal ties (1/2 each). Ratings are the Bradley-Terry model fitted to those
  comparisons, on the Elo scale (:func:`sixtysix.sim.stats.bradley_terry`), with intervals
  from a bootstrap that resamples whole deals (the comparisons of one deal are not
  independent).
* **Faults.** A bot that faults (an answer that is not a legal action, an exception, or an
  external program's timeout, crash or garbage) forfeits that game by the one rule of
  :mod:`sixtysix.core.faults`; the game is scored as any other, and its faults are counted.
* **Parallel.** A chunk of work is a range of deals; a deal is always played whole in one
  worker. Results depend on the seed only, never on the backend or worker count.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field

from sixtysix.core.rng import Seed
from sixtysix.core.turn import Fault
from sixtysix.core.variant import Variant
from sixtysix.sim.backends import Backend, StopFlag
from sixtysix.sim.chunks import ChunkPlan
from sixtysix.sim.errors import SimulationError
from sixtysix.sim.games import BotSpec, play_setup
from sixtysix.sim.stats import Estimate, PairTable, bootstrap_ratings, mean_interval, wilson


@dataclass(frozen=True)
class TournamentJob:
    """The bots, the tables they sit at and the master seed (sent to workers by pickle)."""

    variant: Variant
    bots: tuple[BotSpec, ...]
    master: Seed
    tables: tuple[tuple[int, ...], ...]

    @classmethod
    def round_robin(cls, variant: Variant, bots: Sequence[BotSpec], master: Seed) -> TournamentJob:
        k = variant.seats
        if len(bots) < k:
            raise SimulationError(
                f"a tournament of {variant.name} needs at least {k} bots (it has {k} seats);"
                f" --bots names {len(bots)}"
            )
        if len(bots) < 2:
            raise SimulationError("a tournament needs at least 2 bots")
        tables = tuple(itertools.combinations(range(len(bots)), k))
        return cls(variant, tuple(bots), master, tables)

    @property
    def games_per_deal(self) -> int:
        return len(self.tables) * self.variant.seats


@dataclass
class TournamentChunk:
    """Deals ``start..stop-1``: for each, the game points of every (table, rotation, seat)."""

    start: int
    stop: int
    seconds: float
    points: list[tuple[int, ...]]
    reasons: Counter[str]
    #: Faults by ``(bot index, kind)``.
    faults: Counter[Fault] = field(default_factory=Counter)


def play_tournament_chunk(job: TournamentJob, start: int, stop: int) -> TournamentChunk:
    """The kernel: every table plays deals ``start..stop-1`` in every rotation."""
    t0 = time.perf_counter()
    variant = job.variant
    k = variant.seats
    out: list[tuple[int, ...]] = []
    reasons: Counter[str] = Counter()
    faults: Counter[Fault] = Counter()
    for d in range(start, stop):
        setup = variant.deal(job.master.child(("deal", d)), ("deal",), d % k)
        points: list[int] = []
        for t, table in enumerate(job.tables):
            for r in range(k):
                seated = [job.bots[table[(s + r) % k]] for s in range(k)]
                bot_seed = job.master.child(("bots", d, "table", t, "rotation", r))
                seen: list[Fault] = []
                state = play_setup(variant, seated, setup, bot_seed, seen)
                faults.update((table[(s + r) % k], kind) for s, kind in seen)
                assert state.outcome is not None
                points.extend(state.outcome.game_points)
                reasons[str(state.outcome.reason)] += 1
        out.append(tuple(points))
    return TournamentChunk(start, stop, time.perf_counter() - t0, out, reasons, faults)


@dataclass
class BotStanding:
    """One bot's results: rating, share of comparisons won, game points per game."""

    name: str
    rating: Estimate
    score: Estimate
    win_rate: Estimate
    mean_game_points: Estimate
    games: int
    #: Faults by kind (each forfeited a game).
    faults: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {
            "bot": self.name,
            "rating": self.rating.as_json(1),
            "score": self.score.as_json(),
            "win_rate": self.win_rate.as_json(),
            "mean_game_points": self.mean_game_points.as_json(),
            "games": self.games,
            "faults": dict(self.faults),
        }


@dataclass
class Tally:
    """What the main process keeps while deals arrive (in any order)."""

    bots: int
    per_deal: dict[int, tuple[float, ...]] = field(default_factory=dict)
    games: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    faults: Counter[Fault] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.games = [0] * self.bots
        self.wins = [0] * self.bots
        self.points = [0] * self.bots
        self.squares = [0] * self.bots


class Tournament:
    """Collects the deals of a tournament and computes its standings."""

    def __init__(self, job: TournamentJob, names: Sequence[str]) -> None:
        self.job = job
        self.names = unique_names(names)
        m = len(job.bots)
        self.pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
        self._pair_index = {p: n for n, p in enumerate(self.pairs)}
        k = job.variant.seats
        # Comparisons of each pair on one deal: k rotations at every table holding both.
        self.per_deal = [k * sum(1 for t in job.tables if i in t and j in t) for i, j in self.pairs]
        self.tally = Tally(m)
        self._patterns: dict[tuple[float, ...], tuple[float, ...]] = {}

    @property
    def deals(self) -> int:
        return len(self.tally.per_deal)

    def add(self, chunk: TournamentChunk) -> None:
        job, tally = self.job, self.tally
        k = job.variant.seats
        for d, points in zip(range(chunk.start, chunk.stop), chunk.points, strict=True):
            scores = [0.0] * len(self.pairs)
            pos = 0
            for table in job.tables:
                for r in range(k):
                    gp = points[pos : pos + k]
                    pos += k
                    seat_of = {table[(s + r) % k]: s for s in range(k)}
                    for b, s in seat_of.items():
                        tally.games[b] += 1
                        tally.points[b] += gp[s]
                        tally.squares[b] += gp[s] * gp[s]
                        tally.wins[b] += gp[s] > 0
                    for a, b in itertools.combinations(sorted(seat_of), 2):
                        ga, gb = gp[seat_of[a]], gp[seat_of[b]]
                        scores[self._pair_index[a, b]] += (
                            1.0 if ga > gb else 0.5 if ga == gb else 0.0
                        )
            key = tuple(scores)
            tally.per_deal[d] = self._patterns.setdefault(key, key)
        tally.reasons.update(chunk.reasons)
        tally.faults.update(chunk.faults)

    def pair_table(self) -> PairTable:
        """The deals in index order, so the bootstrap is the same however they arrived."""
        deals = [self.tally.per_deal[d] for d in sorted(self.tally.per_deal)]
        return PairTable.build(len(self.job.bots), self.per_deal, deals)

    def standings(self, replicates: int = 200) -> list[BotStanding]:
        """Every bot's standing, best rating first."""
        table = self.pair_table()
        boot = bootstrap_ratings(table, self.job.master.child(("bootstrap",)), replicates)
        tally = self.tally
        out = []
        for b in range(len(self.job.bots)):
            out.append(
                BotStanding(
                    self.names[b],
                    boot.ratings[b],
                    boot.scores[b],
                    wilson(tally.wins[b], tally.games[b]),
                    mean_interval(tally.points[b], tally.squares[b], tally.games[b]),
                    tally.games[b],
                    {k: n for (i, k), n in sorted(tally.faults.items()) if i == b},
                )
            )
        out.sort(key=lambda s: -s.rating.value)
        return out

    def pair_scores(self) -> list[PairScore]:
        """For each pair: the first bot's share of their comparisons (ties count half)."""
        scores = self.pair_table().scores()
        out = []
        for i, j in self.pairs:
            n = scores[i][j] + scores[j][i]
            share = scores[i][j] / n if n else None
            out.append(PairScore(self.names[i], self.names[j], share, int(n)))
        return out


@dataclass(frozen=True)
class PairScore:
    a: str
    b: str
    #: ``a``'s share of the comparisons with ``b`` (None before any).
    score_a: float | None
    comparisons: int

    def as_json(self) -> dict[str, object]:
        score = None if self.score_a is None else round(self.score_a, 4)
        return {"a": self.a, "b": self.b, "score_a": score, "comparisons": self.comparisons}


def unique_names(names: Sequence[str]) -> list[str]:
    """``random, random`` -> ``random, random#2``: a bot listed twice is two entrants."""
    seen: Counter[str] = Counter()
    out = []
    for n in names:
        seen[n] += 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


@dataclass
class TournamentReport:
    tournament: Tournament
    seconds: float = 0.0
    interrupted: bool = False
    workers: int = 1
    backend: str = "local"


def run_tournament(
    tournament: Tournament,
    deals: int,
    backend: Backend,
    stop: StopFlag,
    progress: Callable[[int], None] | None = None,
) -> TournamentReport:
    """Play deals ``0..deals-1`` at every table; a stopped run keeps the finished deals."""
    report = TournamentReport(tournament, backend=backend.name)
    plan = ChunkPlan([(0, deals)], first=1, max_size=4096, workers=backend.workers)
    start = time.perf_counter()
    try:
        with closing(backend.run(play_tournament_chunk, tournament.job, plan, stop)) as chunks:
            for chunk in chunks:
                tournament.add(chunk)
                if progress is not None:
                    progress(chunk.stop - chunk.start)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        report.seconds = time.perf_counter() - start
        report.workers = backend.workers
    report.interrupted = report.interrupted or stop.requested
    return report
