"""Agent steps per second of the batched environments, on one core, with observations and
masks, against the single adapters measured in the same run.

For 66 and Schnapsen, against ``random`` and in self-play: the numpy batch
(``sixtysix.envs.batch_env``) and the Gymnasium vector environment
(``sixtysix.envs.vector_env``, its ``uint8`` observations, and its ``float32`` ones converted
at every step), ``--num-envs`` deals at once, a random agent picking a legal id of every mask
with numpy (its time counted); then the single adapter the batch reproduces (the Gymnasium
environment against random, the PettingZoo one in self-play, as ``envs.py`` measures them)
for the ratio. An agent step is one decision of one environment's agent.

    python -m benchmarks.speed.batched_env                  # 1024 deals, 300 steps a figure
    python -m benchmarks.speed.batched_env --num-envs 4096 --repeat 3 --variant 66

The process is pinned to one CPU (as ``throughput.py`` is; numba compiles single-threaded
kernels here); the figure is the best of ``--repeat`` runs by the wall clock, with the
process's CPU time beside it. The kernels are compiled (or loaded from numba's cache) before
timing. Exit status 1 when a batched figure misses the target.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.speed.envs import best_rates, gym_run, pettingzoo_run
from benchmarks.speed.throughput import pin_to_one_cpu
from sixtysix.envs.batched import batch_env
from sixtysix.envs.vector import vector_env

#: Agent steps/s the issue asks of the batched environments with observations and masks.
TARGET = 250_000

Run = Callable[[int], int]


def _picks(rng: np.random.Generator) -> Callable[[Any], Any]:
    """A random legal id per row of a mask batch."""

    def pick(masks: Any) -> Any:
        return (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)

    return pick


def batch_run(variant: str, opponents: str, num_envs: int, seed: int) -> Run:
    """``steps`` batch steps of the numpy API; returns the agent steps (``steps * num_envs``)."""
    batch = batch_env(variant, num_envs, opponents=opponents, seed=seed)
    pick = _picks(np.random.default_rng(seed))

    def run(steps: int) -> int:
        _, masks = batch.reset(seed=seed)
        for _ in range(steps):
            _, masks, _, _ = batch.step(pick(masks))
        return steps * num_envs

    return run


def vector_run(variant: str, opponents: str, num_envs: int, seed: int, dtype: str) -> Run:
    """``steps`` steps of the Gymnasium vector environment (masks from ``action_masks()``)."""
    envs = vector_env(variant, num_envs=num_envs, opponents=opponents, seed=seed, dtype=dtype)
    pick = _picks(np.random.default_rng(seed))

    def run(steps: int) -> int:
        envs.reset(seed=seed)
        for _ in range(steps):
            envs.step(pick(envs.action_masks()))
        return steps * num_envs

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-envs", type=int, default=1024, help="deals at once (1024)")
    parser.add_argument("--steps", type=int, default=300, help="batch steps a figure (300)")
    parser.add_argument("--single-steps", type=int, default=20_000, help="single adapter steps")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and agents (1)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure, best kept (1)")
    parser.add_argument(
        "--variant", action="append", default=None, help="66 and/or schnapsen (both)"
    )
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (first allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = parser.parse_args(argv)

    pinned = "not pinned" if args.no_pin else pin_to_one_cpu(args.cpu)
    print(
        f"Python {platform.python_version()}, {pinned}; {args.num_envs} deals x {args.steps}"
        f" steps a batched figure, {args.single_steps} single steps, seed {args.seed},"
        f" best of {args.repeat}"
    )
    header = (
        f"{'environment':<26}{'variant':<11}{'opponents':<10}{'steps/s':>11}{'per CPU s':>11}"
        f"{'x single':>9}  status"
    )
    print(header)
    print("-" * len(header))
    failed = False
    n = args.num_envs
    for variant in args.variant or ["66", "schnapsen"]:
        for opponents in ("random", "self"):
            single_name = "gymnasium single" if opponents == "random" else "pettingzoo single"
            maker = gym_run if opponents == "random" else pettingzoo_run
            single = maker(variant, args.seed)
            single(min(args.single_steps, 2000))
            single_wall, single_cpu, _ = best_rates(single, args.single_steps, args.repeat)
            runs: list[tuple[str, Run, bool]] = [
                ("numpy batch (uint8)", batch_run(variant, opponents, n, args.seed), True),
                ("vector env (uint8)", vector_run(variant, opponents, n, args.seed, "uint8"), True),
                (
                    "vector env (float32)",
                    vector_run(variant, opponents, n, args.seed, "float32"),
                    False,
                ),
            ]
            for name, run, targeted in runs:
                run(5)  # compile or load the kernels, allocate
                start, start_cpu = time.perf_counter(), time.process_time()
                wall = cpu = float("inf")
                for _ in range(args.repeat):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    agent_steps = run(args.steps)
                    wall = min(wall, time.perf_counter() - start)
                    cpu = min(cpu, time.process_time() - start_cpu)
                rate, cpu_rate = agent_steps / wall, agent_steps / max(cpu, 1e-9)
                status = ""
                if targeted:
                    status = "meets target" if rate >= TARGET else "BELOW target"
                    failed |= rate < TARGET
                print(
                    f"{name:<26}{variant:<11}{opponents:<10}{rate:>11,.0f}{cpu_rate:>11,.0f}"
                    f"{rate / single_wall:>8.0f}x  {status}"
                )
            print(
                f"{single_name:<26}{variant:<11}{opponents:<10}{single_wall:>11,.0f}"
                f"{single_cpu:>11,.0f}{1:>8.0f}x"
            )
    print(f"target: {TARGET:,} agent steps/s with observations and masks (batched rows)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
