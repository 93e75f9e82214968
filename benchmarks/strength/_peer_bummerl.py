"""Bummerls against the peer (``strength_vs_schnapsen_package.py --bummerl``): whole matches to
7 game points inside the ``schnapsen`` package's engine, our bot against its ``RdeepBot``.

Their engine plays one deal at a time (``play_game``: the first bot leads, its ``rng`` only
shuffles), so a Bummerl is a loop over deals: the first leader alternates deal by deal, as the
dealer does in our Schnapsen match, and game points add up until a side has 7. Each Bummerl is
played twice, our bot leading its first deal, then theirs: deal ``k`` of both is dealt from
the same shuffle with the leaders swapped, so the same cards go to the other bot, for as long
as both Bummerls last (the longer one's extra deals come from the same shuffles too). Every
deal's bots are made afresh, each from its own seed. Our bot's views carry the Bummerl's score
(:class:`~benchmarks.strength._peer_adapter.Score`), as a person at the table knows it, so the
expert plays for the Bummerl; their ``RdeepBot`` plays each deal for its game points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from schnapsen.bots import RdeepBot
from schnapsen.game import SchnapsenGamePlayEngine

from benchmarks.strength import _told
from benchmarks.strength._peer_adapter import Score, SixtySixPlayer, Timed, peer_variant
from benchmarks.strength._peer_games import Bummerl, Game
from sixtysix.bots.levels import resolve_player
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.stats import mean_of, wilson

#: Game points that end a Bummerl.
BUMMERL = 7
#: Issue 26: Bummerls won against RdeepBot(64, 8), over at least this many.
TARGET, AT_LEAST = 0.85, 1000


def play_bummerl(
    bummerl: int, seed: int, spec: str, samples: int, depth: int, told: bool = False
) -> tuple[Bummerl, Bummerl]:
    """Bummerl ``bummerl`` twice: our bot leading its first deal, then theirs (``told``: our
    bot is told the opponent's hand before each decision, a yardstick)."""
    if told:
        _told.install()
    engine = SchnapsenGamePlayEngine()
    variant = peer_variant()
    _, cls, params = resolve_player(spec, get_registry(), seats=2)
    dealing = random.Random(f"{seed}/bummerl/{bummerl}/shuffles")
    shuffles: list[int] = []  # deal k's shuffle seed, the same in both seatings
    played = []
    for g, ours_first in enumerate((True, False)):
        bots = random.Random(f"{seed}/bummerl/{bummerl}/seating/{g}")
        totals = [0, 0]
        games: list[Game] = []
        while max(totals) < BUMMERL:
            k = len(games)
            while len(shuffles) <= k:
                shuffles.append(dealing.getrandbits(64))
            ours_lead = (k % 2 == 0) == ours_first
            bot = cls(0 if ours_lead else 1, Seed(seed).child(("bummerl", bummerl, g, k)), params)
            score = Score(totals[0], totals[1], k, BUMMERL)
            mine = SixtySixPlayer(bot, variant, "sixtysix", told, score)
            rdeep = RdeepBot(samples, depth, random.Random(bots.getrandbits(64)), name="rdeep")
            other = Timed(rdeep, "rdeep")
            first, second = (mine, other) if ours_lead else (other, mine)
            winner, points, _ = engine.play_game(first, second, random.Random(shuffles[k]))
            totals[0 if winner is mine else 1] += points
            games.append(
                Game(k, ours_lead, winner is mine, points, tuple(mine.times), tuple(other.times))
            )
        played.append(Bummerl(bummerl, ours_first, tuple(games), (totals[0], totals[1])))
    return played[0], played[1]


def bummerl_figures(bummerls: Sequence[Bummerl], judged: bool = True) -> dict[str, Any]:
    """The Bummerl figures: won, the Wilson interval, deals per Bummerl, the target (a
    yardstick's run, ``judged`` false, is not held to it: ``target_met`` is None)."""
    won = sum(b.won for b in bummerls)
    rate = wilson(won, len(bummerls))
    return {
        "bummerls": len(bummerls) // 2,
        "played": len(bummerls),
        "won": won,
        "win_rate": rate.as_json(),
        "deals_per_bummerl": mean_of([len(b.games) for b in bummerls]).as_json(),
        "target": TARGET,
        "target_met": rate.value >= TARGET and len(bummerls) >= AT_LEAST if judged else None,
    }


def bummerl_report(figures: dict[str, Any]) -> list[str]:
    rate = figures["win_rate"]
    if not figures["played"]:
        return ["no Bummerl finished"]
    met = figures["target_met"]
    verdict = "a yardstick, not held to it" if met is None else "met" if met else "NOT met"
    return [
        f"{figures['bummerls']} Bummerls x 2 seatings: ours won {figures['won']} of"
        f" {figures['played']}: {100 * rate['value']:.1f}%"
        f" (95% CI {100 * rate['low']:.1f}-{100 * rate['high']:.1f}%);"
        f" target >= {100 * TARGET:.0f}% over >= {AT_LEAST}: {verdict};"
        f" {figures['deals_per_bummerl']['value']:.2f} deals per Bummerl",
    ]
