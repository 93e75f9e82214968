"""Fit the rule player's weights by play: coordinate search against the current best.

The ``heuristic`` bot's card play and close rest on a dozen hand-set numbers
(:class:`sixtysix.bots.players.heuristic.Weights`). This script looks for a better set for one
game by plain coordinate search: for each weight in turn it tries it scaled down and up, plays the
candidate against the best set so far on the same seat-swapped deals (``sixtysix duel``'s
pairing), and keeps a change only when the candidate's game points per deal beat the best's by
more than ``--z`` standard errors. A pass that keeps nothing halves the steps. Each weight of
each pass is tried on deals of its own (the pass and the weight are part of the seed), and the
final set is checked against the defaults on deals the search never saw (``--check-seed``).

    python -m benchmarks.tools.tune_heuristic 66 --deals 6000 --passes 3 --jobs 1
    python -m benchmarks.tools.tune_heuristic schnapsen --deals 8000 --passes 2 --step 0.25 \
        --start close_slack=3,trump_power_open=12

It prints every trial and, at the end, the weights that differ from the defaults as bot
parameters (``heuristic:name=value,...``, to try with ``sixtysix duel``) and as a Python
``Weights(...)`` literal, with the check's figures. A trial of 6,000 two-player deals takes
10-12 s in one process on this project's machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time

from sixtysix.bots.base import parse_bot_spec
from sixtysix.bots.players.heuristic import HeuristicBot, Weights
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.duel import Contestant, duel

#: Weights whose default is 0 are moved by this much instead of scaled.
ADDITIVE = {"close_slack": 3.0}


def params_of(weights: Weights) -> dict[str, str]:
    """The weights that differ from the defaults, as bot parameters."""
    default = Weights()
    return {
        name: f"{getattr(weights, name):.4g}"
        for name in Weights.fields()
        if getattr(weights, name) != getattr(default, name)
    }


def play(
    variant_name: str, a: Weights, b: Weights, deals: int, seed: int, jobs: int
) -> tuple[float, float, float]:
    """``a`` against ``b``: game points per deal (a minus b), its standard error, a's win rate."""
    variant = build_registry().variant(variant_name)()
    summary = duel(
        variant,
        Contestant("a", HeuristicBot, params_of(a)),
        Contestant("b", HeuristicBot, params_of(b)),
        deals,
        Seed(seed),
        jobs,
    )
    margin = summary.margin
    if margin.low is None or margin.high is None:  # under two deals: no error, so nothing is kept
        return margin.value, math.nan, summary.win_rate[0].value
    se = (margin.high - margin.low) / (2 * 1.959964)
    return margin.value, se, summary.win_rate[0].value


def candidates(weights: Weights, name: str, step: float) -> list[Weights]:
    value = getattr(weights, name)
    if name in ADDITIVE:
        delta = ADDITIVE[name] * step
        moved = [value - delta, value + delta]
    else:
        moved = [value * (1 - step / 2), value * (1 + step)]
    return [dataclasses.replace(weights, **{name: round(v, 4)}) for v in moved]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variant")
    parser.add_argument("--deals", type=int, default=6000, help="deals per trial")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument(
        "--step", type=float, default=0.5, help="first pass: scale by 1-step/2 and 1+step"
    )
    parser.add_argument("--z", type=float, default=2.0, help="standard errors a change must win by")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-seed", type=int, default=999)
    parser.add_argument("--check-deals", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="tune only these weights")
    parser.add_argument(
        "--start", default="", help="weights to start from, as bot parameters: name=value,..."
    )
    args = parser.parse_args()

    start_params = parse_bot_spec("heuristic:" + args.start)[1]
    unknown = sorted(set(start_params).union(args.only or ()) - set(Weights.fields()))
    if unknown:
        parser.error(f"no weight {unknown[0]!r}; weights: {', '.join(Weights.fields())}")
    best = Weights.from_params(start_params)
    names = args.only or list(Weights.fields())
    step = args.step
    start = time.perf_counter()
    for n in range(args.passes):
        changed = False
        for i, name in enumerate(names):
            for cand in candidates(best, name, step):
                seed = args.seed * 1_000_003 + n * 1000 + i
                gain, se, won = play(args.variant, cand, best, args.deals, seed, args.jobs)
                keep = gain > args.z * se
                print(
                    f"pass {n} {name}={getattr(cand, name):g}: {gain:+.4f} (se {se:.4f}),"
                    f" won {won:.1%}{'  kept' if keep else ''}"
                    f"  [{time.perf_counter() - start:.0f} s]",
                    flush=True,
                )
                if keep:
                    best = cand
                    changed = True
                    break
        if not changed:
            step /= 2
    gain, se, won = play(
        args.variant, best, Weights(), args.check_deals, args.check_seed, args.jobs
    )
    print(
        f"\ncheck, {args.check_deals} deals, seed {args.check_seed}: fitted minus default"
        f" {gain:+.4f} gp/deal (se {se:.4f}), won {won:.1%}"
    )
    params = params_of(best)
    print("heuristic:" + ",".join(f"{k}={v}" for k, v in params.items()))
    print("Weights(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")")


if __name__ == "__main__":
    main()
