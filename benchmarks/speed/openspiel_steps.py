"""Steps per second of the OpenSpiel game with random play, per variant.

Random players on ``pyspiel``'s API: chance deals the cards, then at every decision the seat
to act reads its legal actions and its information state, and plays one of them at random,
until the deal is over. The information state is read three ways, each timed: not at all
(``bare``), through the Python observer of ``open_spiel.python.observation.make_observation``
(``observer``: a numpy array filled in place, the fast way), and with
``state.information_state_tensor(player)`` (``tensor``: a list of floats made in C++ at every
call). Printed per variant and way: agent steps (decisions) per second, all steps (chance
outcomes too) per second and deals per second, the best of ``--repeat`` runs. No target:
OpenSpiel crosses from C++ into Python at every call of a Python game.

    python -m benchmarks.speed.openspiel_steps --deals 300 --repeat 3
    python -m benchmarks.speed.openspiel_steps --variant 66 --deals 1000

Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

from sixtysix.core.errors import SixtySixError
from sixtysix.envs.openspiel_game import openspiel_game

WAYS = ("bare", "observer", "tensor")


def run(game: Any, deals: int, seed: int, way: str) -> tuple[float, int, int]:
    """Seconds for ``deals`` random deals; agent steps and all steps taken."""
    rng = np.random.RandomState(seed)
    observer = make_observation(game, INFO_STATE_OBS_TYPE)
    agent = total = 0
    start = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            else:
                if way == "observer":
                    observer.set_from(state, state.current_player())
                elif way == "tensor":
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
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")
    for name in args.variant or ["66", "schnapsen", "66-3", "66-4"]:
        try:
            game = openspiel_game(name)
        except SixtySixError as exc:
            parser.error(str(exc))
        for way in WAYS:
            runs = [run(game, args.deals, args.seed, way) for _ in range(args.repeat)]
            seconds, agent, total = min(runs, key=lambda r: r[0])
            print(
                f"{name} ({way}): {agent / seconds:,.0f} agent steps/s,"
                f" {total / seconds:,.0f} steps/s with chance, {args.deals / seconds:,.1f} deals/s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
