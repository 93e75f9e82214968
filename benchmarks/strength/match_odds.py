"""What a per-deal win rate is worth in two-player matches, and the rate a match target needs.

A match to the variant's target (7: a Bummerl, a 66 match) is modelled as a run of independent
deals: the bot wins a deal with probability p, and whoever wins it scores 1, 2 or 3 game points
as often as the winners of the duel's games did (``sixtysix duel VARIANT BOT OPPONENT --deals N
--seed S``: its very games, both seatings on identical cards). The model gives the match win
rate at the duel's own p, at a few rates around it, and the p a match target needs. It is a
yardstick for reading per-deal figures in matches, not a measurement: it leaves out the seat
that leads first and any play that depends on the score.

    python -m benchmarks.strength.match_odds schnapsen heuristic heuristic --deals 5000
    python -m benchmarks.strength.match_odds 66 expert heuristic --deals 200 --target 0.9
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping
from functools import cache

from benchmarks.strength._duels import duel_parser, play_all, resolved
from sixtysix.sim.duel import DealResult


def winners_points(played: list[DealResult]) -> Counter[int]:
    """How often the winner of a game scored each number of game points (drawn games left out)."""
    found: Counter[int] = Counter()
    for deal in played:
        for game in deal.games:
            best = max(game.outcome.game_points)
            if best > 0:
                found[best] += 1
    return found


def match_rate(p: float, points: Mapping[int, int], target: int) -> float:
    """The chance of reaching ``target`` first, winning each deal with ``p``."""
    total = sum(points.values())
    shares = [(k, n / total) for k, n in points.items()]

    @cache
    def win(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        ahead = sum(q * win(a + k, b) for k, q in shares)
        behind = sum(q * win(a, b + k) for k, q in shares)
        return p * ahead + (1 - p) * behind

    return win(0, 0)


def rate_needed(goal: float, points: Mapping[int, int], target: int) -> float:
    """The per-deal rate whose match win rate is ``goal`` (bisection: it rises with p)."""
    low, high = 0.0, 1.0
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if match_rate(mid, points, target) < goal else (low, mid)
    return high


def main(argv: list[str] | None = None) -> int:
    parser = duel_parser(__doc__, "the bot measured")
    parser.add_argument(
        "--target", type=float, default=0.9, help="the match win rate asked for (default 0.9)"
    )
    args = parser.parse_args(argv)
    variant, contestants = resolved(parser, args)
    if variant.seats != 2:
        parser.error("the model is for two players")
    if not 0 < args.target < 1:
        parser.error("--target is a rate between 0 and 1")
    played, status = play_all(variant, contestants, args)
    points = winners_points(played)
    games = [g for d in played for g in d.games if max(g.outcome.game_points) > 0]
    if not games:
        print("no game was decided", file=sys.stderr)
        return status or 1
    p = sum(g.outcome.game_points[g.seating.index(0)] > 0 for g in games) / len(games)
    target = variant.target
    total = sum(points.values())
    spread = ", ".join(f"{k}: {100 * n / total:.1f}%" for k, n in sorted(points.items()))
    who = f"{contestants[0].label} vs {contestants[1].label}"
    print(f"{variant.name}, {who}, {len(games)} games decided")
    print(f"a winner's game points: {spread}; matches to {target}")
    for rate in sorted({round(p, 3), 0.6, 0.65, 0.7, 0.75}):
        mark = "  <- the duel's" if rate == round(p, 3) else ""
        matches = match_rate(rate, points, target)
        print(f"  deals won {100 * rate:5.1f}%: matches won {100 * matches:5.1f}%{mark}")
    need = rate_needed(args.target, points, target)
    print(f"{100 * args.target:.0f}% of the matches needs {100 * need:.1f}% of the deals")
    return status


if __name__ == "__main__":
    sys.exit(main())
