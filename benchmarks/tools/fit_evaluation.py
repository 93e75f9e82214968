"""Fit the search's leaf evaluation (``sixtysix.bots.search.search_evaluation.WEIGHTS``) by least
squares.

The search players stop looking ahead where a deal is too large to solve and value the
position with a linear function of :func:`sixtysix.bots.search.search_evaluation.features`. This
script plays ``--deals`` deals of the ``heuristic`` bot against itself (with a little noise,
for variety), takes every position at the start of a trick, from every seat's side, and fits
the weights that best predict the deal's final value (game points of the seat's side minus the
other's). It prints the weights to paste into ``search_evaluation.py`` and the fit on held-out
positions (R²), next to the hand-made evaluation's.

    python -m benchmarks.tools.fit_evaluation sixtysix --deals 20000
    python -m benchmarks.tools.fit_evaluation schnapsen --deals 20000
    python -m benchmarks.tools.fit_evaluation sixtysix-3 --deals 20000
    python -m benchmarks.tools.fit_evaluation sixtysix-4 --deals 20000

Needs numpy (the ``fast`` or ``test`` extra).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sixtysix.bots.search.solver import deal_value, features, hand_made_evaluation
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.plugins.manager import build_registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--noise", default="0.1")
    parser.add_argument("--seed", type=int, default=50_000)
    args = parser.parse_args()
    registry = build_registry()
    variant = registry.variant(args.variant)()
    heuristic = registry.bot("heuristic")
    rows: list[list[float]] = []
    target: list[float] = []
    old: list[float] = []
    start = time.perf_counter()
    root = Seed(args.seed)
    for number in range(args.deals):
        seed = root.child(("deal", number))
        state = variant.new_deal(variant.deal(seed, ("deal",), number % variant.seats))
        bots = [
            heuristic(s, seed.child(("bot", s)), {"noise": args.noise})
            for s in range(variant.seats)
        ]
        positions = []
        while not state.is_over:
            if not state.trick and state.phase == Phase.PLAY and state.lead_marry < 0:
                positions.append(state.copy())
            seat = state.to_act
            state.apply(bots[seat].choose(state.view(seat)))
        for position in positions:
            for seat in range(variant.seats):
                rows.append(features(position, seat))
                target.append(deal_value(state, seat))
                old.append(hand_made_evaluation(position, seat))
    x = np.array(rows)
    y = np.array(target, dtype=float)
    cut = int(len(y) * 0.8)
    weights, *_ = np.linalg.lstsq(x[:cut], y[:cut], rcond=None)
    held_out = y[cut:]

    def r2(prediction: np.ndarray) -> float:
        return float(1 - np.mean((held_out - prediction) ** 2) / np.var(held_out))

    print(f"{variant.name}: {len(y)} positions from {args.deals} deals")
    print(f"  held-out R2: fitted {r2(np.clip(x[cut:] @ weights, -6, 6)):.3f},", end=" ")
    print(f"hand-made {r2(np.array(old[cut:])):.3f} ({time.perf_counter() - start:.0f} s)")
    print("  weights:", "(" + ", ".join(f"{w:.4f}" for w in weights) + ")")


if __name__ == "__main__":
    main()
