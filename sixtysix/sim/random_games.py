"""The simulator's fast path: games between two random players, dealt and played by the
compiled rules (:mod:`sixtysix.compiled.games`), exactly the engine's games.

It applies when the compiled rules deal and play the variant
(:func:`~sixtysix.compiled.allowed.deals_supported`), numba is installed and both seats are
plain :class:`~sixtysix.bots.players.random_bot.RandomBot` players; every other game is played
by the engine (:func:`~sixtysix.sim.games.play_game`). Totals are taken from the compiled rows
directly: building a result object per game would cost more than playing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.compiled import available
from sixtysix.compiled.allowed import deals_supported
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.sim.games import BotSpec, GameResult, play_game

#: The game points a seat can score in one deal of a supported game (0..3).
_GP = 4


def applies(variant: Variant, bots: Sequence[BotSpec]) -> bool:
    """Whether :class:`RandomGames` plays ``variant``'s games between ``bots`` exactly as
    ``play_game`` would."""
    return (
        len(bots) == 2
        and all(bot is RandomBot and not params for bot, params in bots)
        and deals_supported(variant)
        and available()
    )


class RandomGames:
    """Games of one simulation's variant between two random players, on the compiled rules.

    A master seed of a :class:`Seed` subclass (which may draw otherwise) is played by the
    engine, game by game.
    """

    __slots__ = ("bots", "variant")

    def __init__(self, variant: Variant, bots: Sequence[BotSpec]) -> None:
        self.variant = variant
        self.bots = tuple(bots)

    def rows(self, master: Seed, start: int, stop: int) -> Any:
        """The compiled rows of games ``start..stop-1`` (columns: ``compiled.games.COLUMNS``)."""
        from sixtysix.compiled.games import play_random_games  # the fast extra

        return play_random_games(self.variant, master, start, stop)

    def results(self, master: Seed, start: int, stop: int) -> list[GameResult]:
        """Games ``start..stop-1`` as ``play_game`` gives them."""
        if type(master) is not Seed:
            return [play_game(self.variant, self.bots, master, i) for i in range(start, stop)]
        from sixtysix.compiled.position import REASONS  # the fast extra

        return [
            GameResult(
                start + i,
                dealer,
                Outcome(REASONS[reason], (g0, g1), (p0, p1), (t0, t1)),
            )
            for i, (dealer, reason, g0, g1, p0, p1, t0, t1) in enumerate(
                self.rows(master, start, stop).tolist()
            )
        ]

    def tallies(
        self, master: Seed, start: int, stop: int
    ) -> list[tuple[str, tuple[int, int], int]]:
        """How games ``start..stop-1`` ended, counted in bulk: ``(reason, game points,
        count)`` per distinct ending (what :meth:`Summary.add_game
        <sixtysix.sim.simulate.Summary.add_game>` takes)."""
        if type(master) is not Seed:
            return [
                (str(r.outcome.reason), (r.outcome.game_points[0], r.outcome.game_points[1]), 1)
                for r in self.results(master, start, stop)
            ]
        import numpy as np  # the fast extra

        from sixtysix.compiled.games import GP0, GP1, REASON  # the fast extra
        from sixtysix.compiled.position import REASONS  # the fast extra

        rows = self.rows(master, start, stop)
        codes = (rows[:, REASON] * _GP + rows[:, GP0]) * _GP + rows[:, GP1]
        counts = np.bincount(codes, minlength=len(REASONS) * _GP * _GP)
        out = []
        for code in np.flatnonzero(counts).tolist():
            reason, rest = divmod(code, _GP * _GP)
            out.append((str(REASONS[reason]), divmod(rest, _GP), int(counts[code])))
        return out
