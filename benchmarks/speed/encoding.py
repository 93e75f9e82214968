"""Encoding speed: a seat's view as the information-state and observation vectors.

For each variant this plays ``--deals`` random deals and keeps the view of the seat to act at
every step (and a copy of the state), then times, on one core, ``Encoder.info_state`` and
``Encoder.observation`` over those views, the legal-action mask, and building the view from
the state plus its information state (what an environment does at every step). Target: 100,000
information states per second in two-player 66.

    python -m benchmarks.speed.encoding                         # the four variants, 2000 deals
    python -m benchmarks.speed.encoding --deals 500 --variant 66 --repeat 5

Figures are wall-clock and sensitive to other load on the machine; ``--repeat`` keeps the best.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs import encoder, legal_mask
from sixtysix.plugins.manager import build_registry

TARGET = 100_000
TARGET_VARIANT = "sixtysix"


def positions(variant: Variant, deals: int, seed: int) -> tuple[list[View], list[DealState]]:
    """The view of the seat to act, and a copy of the state, at every step of random deals."""
    rnd = random.Random(seed)
    views: list[View] = []
    states: list[DealState] = []
    for deal in range(deals):
        state = variant.new_deal(variant.deal(Seed(seed), ("deal", deal), deal % variant.seats))
        while not state.is_over:
            views.append(state.view(state.to_act))
            states.append(state.copy())
            state.apply(rnd.choice(state.legal_actions()))
    return views, states


def rate(work: Callable[[], object], count: int, repeat: int) -> tuple[float, float]:
    """Items per second of ``work`` (``count`` items) by the wall clock and by this process's
    CPU time (less moved by other load on a shared machine), the best of ``repeat`` runs."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return count / wall, count / max(cpu, 1e-9)


def measure(
    variant: Variant, deals: int, seed: int, repeat: int
) -> tuple[int, dict[str, tuple[float, float]]]:
    enc = encoder(variant)
    views, states = positions(variant, deals, seed)
    info, obs = enc.info_state, enc.observation

    def info_all(vs: Sequence[View] = views) -> None:
        for view in vs:
            info(view)

    def obs_all(vs: Sequence[View] = views) -> None:
        for view in vs:
            obs(view)

    def mask_all(vs: Sequence[View] = views) -> None:
        for view in vs:
            legal_mask(view)

    def view_and_info(ss: Sequence[DealState] = states) -> None:
        for state in ss:
            info(state.view(state.to_act))

    n = len(views)
    return n, {
        "info_state": rate(info_all, n, repeat),
        "observation": rate(obs_all, n, repeat),
        "legal_mask": rate(mask_all, n, repeat),
        "view+info_state": rate(view_and_info, n, repeat),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="random deals per variant (2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the play (1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure, best kept (3)")
    parser.add_argument(
        "--variant", action="append", help="variant name (repeatable; default: the four built-in)"
    )
    args = parser.parse_args(argv)
    registry = build_registry()
    names = args.variant or ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"]
    print(f"python {sys.version.split()[0]}; {args.deals} random deals per variant")
    print("per second, by the wall clock / by CPU time:")
    missed = False
    for name in names:
        variant = registry.variant(name)()
        enc = encoder(variant)
        count, figures = measure(variant, args.deals, args.seed, args.repeat)
        print(
            f"{variant.name}: {count:,} views; info_size {enc.info_size}, obs_size {enc.obs_size}"
        )
        for what, (wall, cpu) in figures.items():
            print(f"  {what:>16}: {wall:>10,.0f} / {cpu:>10,.0f}")
        if variant.name == TARGET_VARIANT and figures["info_state"][0] < TARGET:
            missed = True
    if missed:
        print(f"missed: fewer than {TARGET:,} information states per second in {TARGET_VARIANT}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
