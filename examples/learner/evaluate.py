"""Measure a trained policy as ``sixtysix duel`` does: the same deals with the seats swapped,
against each opponent, with the win rate's 95% Wilson interval.

    python examples/learner/evaluate.py learner.npz --deals 2000 --against random \
        --against heuristic
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from policy import LearnerBot, _loaded

from sixtysix.bots.levels import resolve_player
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant, DuelSummary, duel


def evaluate(weights: Path, against: Sequence[str], deals: int, seed: int) -> list[DuelSummary]:
    """One duel of the policy against each opponent spec, on the same deals."""
    _, variant = _loaded(str(weights.resolve()), weights.stat().st_mtime)
    learner = Contestant("learner", LearnerBot, {"weights": str(weights)})
    registry = get_registry()
    out = []
    for spec in against:
        label, cls, params = resolve_player(spec, registry, seats=variant.seats)
        out.append(duel(variant, learner, Contestant(label, cls, params), deals, Seed(seed)))
    return out


def describe(summary: DuelSummary) -> str:
    rate = summary.win_rate[0]
    margin = summary.margin
    return (
        f"learner vs {summary.labels[1]}: {summary.games} games of {summary.deals} deals,"
        f" won {summary.wins}, drawn {summary.draws}, lost {summary.losses};"
        f" win rate {rate.value:.1%} (95% Wilson {rate.low:.1%}-{rate.high:.1%});"
        f" game points per deal {margin.value:+.3f} ({margin.low:+.3f} to {margin.high:+.3f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", type=Path, help="the .npz file train.py wrote")
    parser.add_argument("--deals", type=int, default=2000, help="deals per duel (2000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (7)")
    parser.add_argument(
        "--against", action="append", default=None, help="opponent bot spec (repeatable; random)"
    )
    args = parser.parse_args(argv)
    for summary in evaluate(args.weights, args.against or ["random"], args.deals, args.seed):
        print(describe(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
