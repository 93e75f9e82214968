"""Simulate many games (one deal each) or matches between bots.

One game and how its randomness is drawn is :mod:`sixtysix.sim.games` (its names are also
this module's); here games are played in chunks, by the compiled rules where they apply
(:mod:`sixtysix.sim.random_games`), and totalled.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.turn import Fault
from sixtysix.core.variant import Variant
from sixtysix.sim.games import (
    BotSpec,
    GameResult,
    iter_games,
    play_game,
    play_one,
    play_setup,
    seat_bots,
)
from sixtysix.sim.random_games import RandomGames, applies
from sixtysix.sim.stats import Estimate, mean_interval, wilson

#: Games per chunk of the compiled fast path: progress several times a second, little memory.
FAST_CHUNK = 16384

__all__ = [
    "BotSpec",
    "GameResult",
    "Summary",
    "fast_path",
    "iter_chunks",
    "iter_games",
    "play_game",
    "play_one",
    "play_setup",
    "seat_bots",
    "simulate",
]


def fast_path(variant: Variant, bots: Sequence[BotSpec]) -> RandomGames | None:
    """The compiled random games when they play these games (:func:`random_games.applies
    <sixtysix.sim.random_games.applies>`)."""
    return RandomGames(variant, bots) if applies(variant, bots) else None


def iter_chunks(
    variant: Variant,
    bots: Sequence[BotSpec],
    master: Seed,
    start: int,
    stop: int,
    use_fast: bool = True,
    chunk: int | None = None,
) -> Iterator[list[GameResult]]:
    """Games ``start..stop-1`` in chunks, by the fast path where it applies.

    Both paths give identical games (tested), so callers never need to know which ran.
    """
    fast = fast_path(variant, bots) if use_fast else None
    size = chunk or (FAST_CHUNK if fast is not None else 256)
    for lo in range(start, stop, size):
        hi = min(stop, lo + size)
        if fast is not None:
            yield fast.results(master, lo, hi)
        else:
            yield [play_game(variant, bots, master, i) for i in range(lo, hi)]


@dataclass
class Summary:
    """Totals over a simulation; :meth:`add` takes games in any order, :meth:`merge` joins
    the totals of two workers.

    Only mergeable totals are kept (counts, sums and sums of squares), which is all that the
    confidence intervals of :mod:`sixtysix.sim.stats` need.
    """

    seats: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    game_points: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    elapsed: float = 0.0
    #: Deals played (equals ``games`` when a game is one deal).
    deals: int = 0
    #: Per seat, the sum over deals of the squared game points (for the variance).
    game_points_sq: list[int] = field(default_factory=list)
    #: Faults by ``(seat, kind)``: each forfeited a deal.
    faults: Counter[Fault] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
            self.game_points = [0] * self.seats
        if not self.game_points_sq:
            self.game_points_sq = [0] * self.seats

    def add(self, outcome: Outcome) -> None:
        self.add_game(str(outcome.reason), outcome.game_points)

    def add_game(self, reason: str, game_points: Sequence[int], count: int = 1) -> None:
        """``count`` games that ended for ``reason`` with these game points per seat."""
        self.games += count
        self.add_deal(reason, game_points, count)
        for s, gp in enumerate(game_points):
            if gp > 0:
                self.wins[s] += count

    def add_deal(self, reason: str, game_points: Sequence[int], count: int = 1) -> None:
        """Deals of a match: totals the points and reasons, not the match wins."""
        self.deals += count
        self.reasons[reason] += count
        for s, gp in enumerate(game_points):
            self.game_points[s] += gp * count
            self.game_points_sq[s] += gp * gp * count

    def add_outcomes(self, outcomes: Iterable[Outcome]) -> None:
        """Many games at once: grouped first, since a handful of results repeat endlessly."""
        for (reason, gps), count in Counter((o.reason, o.game_points) for o in outcomes).items():
            self.add_game(str(reason), gps, count)

    def add_faults(self, faults: Iterable[Fault]) -> None:
        self.faults.update(faults)

    def faults_of(self, seat: int) -> dict[str, int]:
        """The seat's faults by kind."""
        return {k: n for (s, k), n in sorted(self.faults.items()) if s == seat}

    def merge(self, other: Summary) -> None:
        """Add another summary's totals (say, a worker's chunk) to this one."""
        self.games += other.games
        self.faults.update(other.faults)
        self.deals += other.deals
        self.reasons.update(other.reasons)
        for s in range(self.seats):
            self.wins[s] += other.wins[s]
            self.game_points[s] += other.game_points[s]
            self.game_points_sq[s] += other.game_points_sq[s]

    def win_rate(self, seat: int) -> Estimate:
        """The share of games (or matches) the seat won, with its 95% Wilson interval."""
        return wilson(self.wins[seat], self.games)

    def mean_game_points(self, seat: int) -> Estimate:
        """The seat's mean game points per deal, with its 95% interval."""
        return mean_interval(self.game_points[seat], self.game_points_sq[seat], self.deals)

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "deals": self.deals,
            "wins": list(self.wins),
            "game_points": list(self.game_points),
            "reasons": dict(sorted(self.reasons.items())),
            "seconds": round(self.elapsed, 3),
            "games_per_second": round(self.games / self.elapsed, 1) if self.elapsed else None,
            "win_rate": [self.win_rate(s).as_json() for s in range(self.seats)],
            "mean_game_points": [self.mean_game_points(s).as_json() for s in range(self.seats)],
            "reason_shares": {
                reason: round(count / self.deals, 4)
                for reason, count in sorted(self.reasons.items())
            },
            "faults": [self.faults_of(s) for s in range(self.seats)],
        }


def simulate(
    variant: Variant,
    bots: Sequence[BotSpec],
    games: int,
    seed: Seed,
    progress: Callable[[int], None] | None = None,
    summary: Summary | None = None,
    use_fast: bool = True,
) -> Summary:
    """Play ``games`` games in this process and total them into ``summary``.

    If interrupted, ``summary`` (when given) keeps every game finished before the interrupt.
    """
    summary = summary if summary is not None else Summary(variant.seats)
    start = time.perf_counter()
    fast = fast_path(variant, bots) if use_fast else None
    try:
        if fast is not None:
            for lo in range(0, games, FAST_CHUNK):
                hi = min(games, lo + FAST_CHUNK)
                for reason, game_points, count in fast.tallies(seed, lo, hi):
                    summary.add_game(reason, game_points, count)
                if progress is not None:
                    progress(hi - lo)
            return summary
        for chunk in iter_chunks(variant, bots, seed, 0, games, use_fast):
            summary.add_outcomes(result.outcome for result in chunk)
            summary.add_faults(f for result in chunk for f in result.faults)
            if progress is not None:
                progress(len(chunk))
    finally:
        summary.elapsed += time.perf_counter() - start
    return summary
