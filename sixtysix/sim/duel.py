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

import multiprocessing
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import TypeVar

from sixtysix.bots.base import Bot
from sixtysix.bots.seating import bot_seats
from sixtysix.core.match import play_deal
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.turn import Fault, tally
from sixtysix.core.variant import Variant
from sixtysix.sim.backends import Backend, ChunkResult, Kernel, LocalBackend, StopFlag
from sixtysix.sim.chunks import ChunkPlan
from sixtysix.sim.stats import Estimate, TimeStats, mean_of, wilson

A, B = 0, 1
CONFIDENCE = 0.95
R = TypeVar("R", bound=ChunkResult)


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
class DuelGame:
    """One game of a duel: a deal's cards with the contestants seated one way."""

    deal: int
    #: Per seat, A (0) or B (1).
    seating: tuple[int, ...]
    outcome: Outcome
    #: Seconds per move of A's and of B's bots in this game.
    times: tuple[tuple[float, ...], tuple[float, ...]]
    #: The seat that closed the talon (-1: nobody), and the cards then left in the talon (with
    #: the turn-up): where a game was won or lost, for ``benchmarks.strength.losses``.
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
    games: tuple[DuelGame, ...]

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
) -> DuelGame:
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

    def timed(seat: int, seconds: float) -> None:
        times[seating[seat]].append(seconds)

    # Every bot is asked with its view, the random one too: each choose call is timed.
    outcome = play_deal(state, bot_seats(bots, direct=False), faults, timing=timed)
    moves = (tuple(times[A]), tuple(times[B]))
    return DuelGame(deal, seating, outcome, moves, *closing_of(state), tuple(faults))


def closing_of(state: DealState) -> tuple[int, int]:
    """A finished deal's :attr:`DuelGame.closed_by` and :attr:`DuelGame.closed_with`."""
    return state.closed_by, state.talon_size if state.closed_by >= 0 else 0


def play_duel_deal(
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


@dataclass(frozen=True)
class DuelJob:
    """What a worker needs to play any deal of a duel (sent to it by pickle)."""

    variant: Variant
    contestants: tuple[Contestant, ...]
    seed: Seed


@dataclass(frozen=True)
class DuelChunk:
    """Deals ``start..stop-1`` of a duel, each with all its games."""

    start: int
    stop: int
    seconds: float
    deals: tuple[DealResult, ...]


def play_duel_chunk(job: DuelJob, start: int, stop: int) -> DuelChunk:
    """The kernel the backend runs: deals ``start..stop-1``."""
    t0 = time.perf_counter()
    deals = tuple(
        play_duel_deal(job.variant, job.contestants, job.seed, d) for d in range(start, stop)
    )
    return DuelChunk(start, stop, time.perf_counter() - t0, deals)


def iter_deals(
    variant: Variant,
    contestants: Sequence[Contestant],
    seed: Seed,
    deals: int,
    jobs: int = 1,
    backend: Backend | None = None,
    stop: StopFlag | None = None,
) -> Iterator[DealResult]:
    """Deals ``0..deals-1``, each with all its games; in order with one job, else as done.

    They are played on ``backend`` (by default :class:`~sixtysix.sim.backends.LocalBackend`
    with ``jobs`` processes) as simulations and tournaments are, and stopped as
    :func:`run_units` says. The results do not depend on ``jobs`` nor on the backend: every
    deal draws only from its own seed paths.
    """
    job = DuelJob(variant, tuple(contestants), seed)
    for chunk in run_units(play_duel_chunk, job, deals, jobs, backend, stop):
        yield from chunk.deals


def local_backend(workers: int = 1) -> LocalBackend:
    """A duel's local backend: ``workers`` processes started by the platform's default method
    (fork on Linux), so they start at once, where a forkserver that preloads the simulator
    costs most of a second first."""
    return LocalBackend(max(1, workers), multiprocessing.get_context())


def run_units(
    kernel: Kernel[DuelJob, R],
    job: DuelJob,
    units: int,
    jobs: int,
    backend: Backend | None,
    stop: StopFlag | None = None,
) -> Iterator[R]:
    """The chunks of units ``0..units-1`` (deals, or matches) as the backend finishes them.

    Worker processes and Ray get chunks of about half a second of units each, sized by the
    speed observed, as a simulation's games are: a short unit (a deal between fast bots takes
    a millisecond) would otherwise cost more to send than to play. This process plays one unit
    at a time, so that an interrupt loses no finished unit. Which chunk holds a unit never
    changes its results.

    With ``stop`` (a :class:`~sixtysix.sim.backends.StopFlag` the caller installed), the first
    Ctrl-C stops handing out work and the running units finish and are yielded. Without it,
    Ctrl-C is a ``KeyboardInterrupt`` here, which ends the backend's workers at once; either
    way the caller reports the units finished so far.
    """
    runner = backend or local_backend(jobs)
    alone = isinstance(runner, LocalBackend) and runner.requested == 1
    plan = ChunkPlan([(0, units)], first=1, max_size=1 if alone else 8192, workers=runner.workers)
    with closing(runner.run(kernel, job, plan, stop or StopFlag())) as chunks:
        yield from chunks


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
    win_rate: tuple[Estimate, Estimate]
    points: tuple[Estimate, Estimate]
    #: A's game points per deal minus B's.
    margin: Estimate
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
            "win_rate": {"a": _json(self.win_rate[A]), "b": _json(self.win_rate[B])},
            "game_points_per_deal": {
                "a": _json(self.points[A]),
                "b": _json(self.points[B]),
                "difference": _json(self.margin),
            },
            "time_per_move": {"a": self.times[A].as_json(), "b": self.times[B].as_json()},
            "faults": {"a": dict(self.faults[A]), "b": dict(self.faults[B])},
            "confidence": CONFIDENCE,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
        }


def _json(estimate: Estimate) -> dict[str, float | None]:
    """An estimate as the duel has always written it (``estimate``, ``low``, ``high``)."""
    return estimate.as_json(key="estimate")


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
        win_rate=(wilson(wins, len(games)), wilson(losses, len(games))),
        points=(
            mean_of([r.points(A) for r in ordered]),
            mean_of([r.points(B) for r in ordered]),
        ),
        margin=mean_of([r.points(A) - r.points(B) for r in ordered]),
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
    backend: Backend | None = None,
) -> DuelSummary:
    """Play a whole duel in this process (or ``jobs`` workers, or on ``backend``) and
    summarize it."""
    start = time.perf_counter()
    results = list(iter_deals(variant, (a, b), seed, deals, jobs, backend))
    return summarize(
        variant.name, (a.label, b.label), results, seed.value, time.perf_counter() - start
    )
