"""Simulate many games (one deal each) or matches between bots.

Each game ``i`` draws all its randomness from ``seed.child(("game", i))``: the deal, the
dealer and the bots' choices. So a game's result depends only on the master seed and its
index, never on which worker played it or in what order.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from sixtysix.bots.base import Bot
from sixtysix.bots.random_bot import RandomBot
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.variant import Variant

BotSpec = tuple[type[Bot], dict[str, str]]


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    dealer: int
    outcome: Outcome


def play_game(variant: Variant, bots: Sequence[BotSpec], master: Seed, index: int) -> GameResult:
    """Game ``index`` of a simulation: one deal, dealer ``index % seats``."""
    seed = master.child(("game", index))
    n = variant.seats
    dealer = index % n
    state = variant.new_deal(variant.deal(seed, ("deal",), dealer))
    players = [cls(seat, seed, params) for seat, (cls, params) in enumerate(bots)]
    # A random bot's choice depends only on the number of legal actions, so it can pick from
    # the engine's list without a view being built: the same games, several times faster.
    direct = [type(p) is RandomBot for p in players]
    legal_actions = state.legal_actions
    while state.phase != Phase.OVER:
        s = state.to_act
        p = players[s]
        if direct[s]:
            assert isinstance(p, RandomBot)
            state.apply_legal(p.pick(legal_actions()))
        else:
            state.apply(p.choose(state.view(s)))
    assert state.outcome is not None
    return GameResult(index, dealer, state.outcome)


def iter_games(
    variant: Variant, bots: Sequence[BotSpec], master: Seed, start: int, stop: int
) -> Iterator[GameResult]:
    for i in range(start, stop):
        yield play_game(variant, bots, master, i)


@dataclass
class Summary:
    """Totals over a simulation; :meth:`add` takes games in any order."""

    seats: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    game_points: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    elapsed: float = 0.0

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
            self.game_points = [0] * self.seats

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        self.reasons[str(outcome.reason)] += 1
        for s, gp in enumerate(outcome.game_points):
            self.game_points[s] += gp
            if gp > 0:
                self.wins[s] += 1

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "wins": list(self.wins),
            "game_points": list(self.game_points),
            "reasons": dict(sorted(self.reasons.items())),
            "seconds": round(self.elapsed, 3),
            "games_per_second": round(self.games / self.elapsed, 1) if self.elapsed else None,
        }


def simulate(
    variant: Variant,
    bots: Sequence[BotSpec],
    games: int,
    seed: Seed,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` games in this process and total them."""
    summary = Summary(variant.seats)
    start = time.perf_counter()
    for result in iter_games(variant, bots, seed, 0, games):
        summary.add(result.outcome)
        if progress is not None:
            progress(1)
    summary.elapsed = time.perf_counter() - start
    return summary
