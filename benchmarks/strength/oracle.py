"""A yardstick, not a player: how well a *cheating* player does, one that sees every card.

The oracle plays the minimax-best move of the true deal (the compiled search of
:mod:`sixtysix.bots.compiled` on the real state, talon order and the opponent's hand
included) against an honest bot, on the same deals and seatings as ``sixtysix duel``. No
honest player can count on beating what it achieves by seeing the cards, so its win rate puts
the strength targets in perspective. Minimax is not the best answer to a weak opponent,
though: it assumes a perfect one (with a lost deal in sight it closes the talon to lose 2
instead of 3, where a random player would have let it win), so against ``random`` it is not a
true ceiling; ``--mix 1`` makes it expect a uniformly random reply at every turn of the
opponent instead (expectimax on the true deal): the most game points anyone can expect
against it.

    python -m benchmarks.strength.oracle 66 random --deals 200
    python -m benchmarks.strength.oracle 66 random --deals 200 --mix 1
    python -m benchmarks.strength.oracle schnapsen heuristic --deals 200 --nodes 300000

Two-player games only; needs numba (the ``fast`` extra).
"""

from __future__ import annotations

import argparse
import collections
import time

from sixtysix.bots.compiled import CompiledSearch
from sixtysix.core.actions import ACTIONS
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.duel import deal_path
from sixtysix.sim.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("opponent", help="the honest bot, e.g. random or heuristic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=300_000, help="search nodes per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--mix",
        type=float,
        default=0.0,
        help="probability with which the oracle expects the opponent to play at random"
        " (0: minimax; 1: expectimax against a uniformly random player)",
    )
    args = parser.parse_args()
    registry = build_registry()
    variant = registry.variant(args.variant)()
    opponent = registry.bot(args.opponent)
    search = CompiledSearch(variant)
    seed = Seed(args.seed)
    won = games = 0
    lost_by: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    for deal in range(args.deals):
        for game, oracle_seat in enumerate((0, 1)):
            state = variant.new_deal(variant.deal(seed, deal_path(deal), deal % 2))
            other = opponent(1 - oracle_seat, seed.child(("oracle", deal, game)), {})
            while state.phase != Phase.OVER:
                seat = state.to_act
                legal = state.legal_actions()
                if seat != oracle_seat:
                    state.apply(other.choose(state.view(seat)))
                elif len(legal) == 1:
                    state.apply_legal(legal[0])
                else:
                    values = search.action_values(state, seat, args.nodes, mix=args.mix).values
                    state.apply(ACTIONS[max(values, key=values.__getitem__)])
            outcome = state.outcome
            assert outcome is not None
            games += 1
            if outcome.game_points[oracle_seat] > outcome.game_points[1 - oracle_seat]:
                won += 1
            else:
                lost_by[str(outcome.reason)] += 1
    ci = wilson(won, games)
    print(
        f"{variant.name}: the oracle against {args.opponent} won {won} of {games} games,"
        f" {won / games:.1%} ({ci.low:.1%}-{ci.high:.1%}), {time.perf_counter() - start:.0f} s"
    )
    print("  games not won, by how they ended:", dict(lost_by.most_common()))


if __name__ == "__main__":
    main()
