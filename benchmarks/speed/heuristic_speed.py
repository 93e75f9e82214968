"""Rule-player speed: heuristic-vs-heuristic play, the expert's rollout workload.

For each variant this plays ``--deals`` deals (every seating, as a duel does) between two
``heuristic`` bots on the generic path: at every move the seat's view is built
(``DealState.view``), the bot decides from it (``HeuristicBot.choose``) and the engine applies
the action. It prints the seconds taken and the microseconds per move spent building views,
deciding, and in the rest (applying, dealing, the loop itself).

    python -m benchmarks.speed.heuristic_speed                      # 66 and Schnapsen, 1500 deals
    python -m benchmarks.speed.heuristic_speed --deals 300 --variant 66-4 --repeat 3

Figures are wall-clock and sensitive to other load on the machine; ``--repeat`` keeps the best.
"""

from __future__ import annotations

import argparse
import sys
import time

from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.duel import Contestant, arrangements, deal_path

Timings = tuple[float, float, float, int]


def play(variant: Variant, bot: Contestant, deals: int, seed: Seed) -> Timings:
    """Seconds in all, building views and deciding; and the number of moves."""
    clock = time.perf_counter
    viewing = deciding = 0.0
    moves = 0
    start = clock()
    for deal in range(deals):
        for game, seating in enumerate(arrangements(variant.seats)):
            state = variant.new_deal(variant.deal(seed, deal_path(deal), deal % variant.seats))
            path = (*deal_path(deal), "game", game, "seat")
            bots = [bot.make(s, seed.child((*path, s))) for s in range(len(seating))]
            while state.phase != Phase.OVER:
                seat = state.to_act
                t0 = clock()
                view = state.view(seat)
                t1 = clock()
                action = bots[seat].choose(view)
                t2 = clock()
                state.apply(action)
                viewing += t1 - t0
                deciding += t2 - t1
                moves += 1
    return clock() - start, viewing, deciding, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1500, help="deals per variant (1500)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (1)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per variant, best kept (1)")
    parser.add_argument(
        "--variant", action="append", help="variant name (repeatable; default 66, schnapsen)"
    )
    args = parser.parse_args(argv)
    registry = build_registry()
    bot = Contestant("heuristic", registry.bot("heuristic"))
    print(f"python {sys.version.split()[0]}; heuristic vs heuristic, {args.deals} deals")
    total = 0.0
    for name in args.variant or ["66", "schnapsen"]:
        variant = registry.variant(name)()
        seconds, viewing, deciding, moves = min(
            play(variant, bot, args.deals, Seed(args.seed)) for _ in range(args.repeat)
        )
        total += seconds
        per_move = {
            "view": viewing,
            "decide": deciding,
            "rest": seconds - viewing - deciding,
        }
        split = ", ".join(f"{k} {1e6 * v / moves:.1f}" for k, v in per_move.items())
        print(f"{variant.name:>12}: {seconds:6.2f} s, {moves:,} moves; us per move: {split}")
    print(f"{'total':>12}: {total:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
