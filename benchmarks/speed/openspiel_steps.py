"""Steps per second of the OpenSpiel game with random play, per variant.

Random players on ``pyspiel``'s API: chance deals the cards, then at every decision the seat
to act reads its information-state tensor and its legal actions (what a learning agent reads)
and plays one of them at random, until the deal is over. Printed per variant: agent steps
(decisions) per second, all steps (chance outcomes too) per second, and deals per second, the
best of ``--repeat`` runs. ``--no-observe`` leaves the tensors out (the bare game). No target:
OpenSpiel Python games cross from C++ into Python at every call.

    python benchmarks/speed/openspiel_steps.py --deals 300 --repeat 3
    python benchmarks/speed/openspiel_steps.py --variant 66 --no-observe

Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from sixtysix.core.errors import SixtySixError
from sixtysix.envs.openspiel_game import openspiel_game


def run(game: Any, deals: int, seed: int, observe: bool) -> tuple[float, int, int]:
    """Seconds for ``deals`` random deals; agent steps and all steps taken."""
    rng = np.random.RandomState(seed)
    agent = total = 0
    start = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            else:
                if observe:
                    state.information_state_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
                agent += 1
            total += 1
    return time.perf_counter() - start, agent, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--variant", action="append", help="variant (repeatable; default: the four built-ins)"
    )
    parser.add_argument("--deals", type=int, default=300, help="deals per run (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="runs, the best kept (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-observe", action="store_true", help="skip the tensors")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")
    for name in args.variant or ["66", "schnapsen", "66-3", "66-4"]:
        try:
            game = openspiel_game(name)
        except SixtySixError as exc:
            parser.error(str(exc))
        best = min(
            (run(game, args.deals, args.seed, not args.no_observe) for _ in range(args.repeat)),
            key=lambda r: r[0],
        )
        seconds, agent, total = best
        print(
            f"{name}: {agent / seconds:,.0f} agent steps/s, {total / seconds:,.0f} steps/s"
            f" with chance, {args.deals / seconds:,.1f} deals/s"
            f" ({'with' if not args.no_observe else 'without'} information-state tensors)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
