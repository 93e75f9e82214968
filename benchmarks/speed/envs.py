"""Environment steps per second of the research adapters, on one core, with observations and
masks, random agents picking from the mask.

For every variant: the PettingZoo AEC environment (``sixtysix.envs.pettingzoo_env``), every
agent stepped as PettingZoo users do (``env.last()``, then ``env.step()`` with a random legal
id of the mask), and the Gymnasium environment (``sixtysix.envs.gym_env``) with ``random``
opponents, the agent's ``env.step`` counted (the bots' moves in between are not agent steps,
and are shown as all moves per second). Every step builds the agent's view, encodes its
information state and its mask, checks the id against the mask and applies it.

    python -m benchmarks.speed.envs                    # 50,000 agent steps per figure
    python -m benchmarks.speed.envs --steps 200000 --repeat 3 --variant 66

The process is pinned to one CPU (as ``throughput.py`` is); the figure is the best of
``--repeat`` runs by the wall clock, and by the process's CPU time beside it (on a busy
machine the CPU figure is the one core's own), with the engine's own random-vs-random speed
measured alongside for scale. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

from benchmarks.speed.throughput import pin_to_one_cpu
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.envs.gym_env import gym_env
from sixtysix.envs.pettingzoo_env import pettingzoo_env
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.simulate import BotSpec, play_game

#: Agent steps/s the issue asks of the PettingZoo adapter in two-player 66.
TARGETS: dict[tuple[str, str], int] = {("pettingzoo", "sixtysix"): 20_000}

Run = Callable[[int], int]


def pettingzoo_run(variant: str, seed: int) -> Run:
    """``steps`` agent steps of the AEC environment; returns the moves made (the same)."""
    env = pettingzoo_env(variant)
    rnd = random.Random(seed)

    def run(steps: int) -> int:
        env.reset(seed=seed)
        last, step, reset = env.last, env.step, env.reset
        randrange = rnd.randrange
        done = 0
        while done < steps:
            obs, _, terminated, _, _ = last()
            if terminated:
                reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            step(legal[randrange(len(legal))])
            done += 1
        return done

    return run


def gym_run(variant: str, seed: int) -> Run:
    """``steps`` agent steps of the Gymnasium environment against random bots; returns every
    move made (the bots' too)."""
    env = gym_env(variant, opponents="random")
    rnd = random.Random(seed)
    episodes = env.unwrapped.episodes

    def run(steps: int) -> int:
        obs, _ = env.reset(seed=seed)
        step, reset = env.step, env.reset
        randrange = rnd.randrange
        moves = 0
        for _ in range(steps):
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, _, _ = step(legal[randrange(len(legal))])
            if terminated:
                moves += len(episodes.state.history)
                obs, _ = reset()
        return moves + len(episodes.state.history)

    return run


def engine_rate(variant: str, seed: int, games: int) -> float:
    """Random-vs-random games per second of the generic simulator (``throughput.py``'s
    generic figure), measured alongside: how fast this machine runs the engine right now."""
    cls = get_registry().variant(variant)
    configured = cls()
    bots: list[BotSpec] = [(RandomBot, {}) for _ in range(configured.seats)]
    master = Seed(seed)
    start = time.perf_counter()
    for i in range(games):
        play_game(configured, bots, master, i)
    return games / (time.perf_counter() - start)


def best_rates(run: Run, steps: int, repeat: int) -> tuple[float, float, int]:
    """Agent steps per wall-clock second and per CPU second (the best of ``repeat`` runs),
    and the moves of a run."""
    wall = cpu = float("inf")
    moves = 0
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        moves = run(steps)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return steps / wall, steps / max(cpu, 1e-9), moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50_000, help="agent steps a figure (50000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and agents (1)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure, best kept (1)")
    parser.add_argument(
        "--variant", action="append", default=None, help="only these variants (repeatable)"
    )
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (first allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = parser.parse_args(argv)

    pinned = "not pinned" if args.no_pin else pin_to_one_cpu(args.cpu)
    registry = get_registry()
    names = [registry.variant(v).name for v in args.variant or sorted(registry.variants)]
    print(
        f"Python {platform.python_version()}, {pinned}; {args.steps} agent steps a figure,"
        f" seed {args.seed}, best of {args.repeat}"
    )
    header = (
        f"{'adapter':<12}{'variant':<14}{'steps/s':>10}{'per CPU s':>11}{'moves/s':>10}"
        f"{'target':>9}  status"
    )
    print(header)
    print("-" * len(header))
    failed = False
    makers: list[tuple[str, Callable[[str, int], Run]]] = [
        ("pettingzoo", pettingzoo_run),
        ("gymnasium", gym_run),
    ]
    for name in names:
        for adapter, make in makers:
            run = make(name, args.seed)
            run(min(args.steps, 2000))  # warm up: caches, first encodings
            wall, cpu, moves = best_rates(run, args.steps, args.repeat)
            target = TARGETS.get((adapter, name))
            status = ""
            if target is not None:
                status = "meets target" if wall >= target else "BELOW target"
                failed |= wall < target
            moves_rate = wall * moves / args.steps
            print(
                f"{adapter:<12}{name:<14}{wall:>10,.0f}{cpu:>11,.0f}{moves_rate:>10,.0f}"
                f"{'-' if target is None else f'{target:,}':>9}  {status}"
            )
    engine = engine_rate("66", args.seed, 2000)
    print(
        f"the engine alongside: {engine:,.0f} random-vs-random games/s of 66 on the generic path"
        " (throughput.py; 12,000-14,000 on a quiet machine)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
