"""Train the linear softmax policy of ``policy.py`` by REINFORCE with a baseline, through the
Gymnasium adapter, against any registered bot (``random`` by default), numpy only.

    python examples/learner/train.py --episodes 30000 --seed 1 --out learner.npz

Each episode is one deal from the agent's seat; its return is the deal's reward (the agent's
game points minus the opponent's). Every ``--batch`` episodes the policy takes one Adam step
along ``(return - baseline) * grad log pi(action)`` summed over the batch's moves, the baseline
being a running mean of the returns. With the same seed and episodes the weights are the same.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from policy import Array, LinearPolicy, features

from sixtysix.envs import NUM_ACTION_IDS
from sixtysix.envs.gym_env import gym_env


@dataclass
class Adam:
    """Adam's running moments for one array (ascent: the step is added)."""

    lr: float
    m: Array
    v: Array
    t: int = 0

    def step(self, value: Array, grad: Array) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9**self.t)
        v = self.v / (1 - 0.999**self.t)
        value += self.lr * m / (np.sqrt(v) + 1e-8)


@dataclass(frozen=True)
class Training:
    episodes: int
    seconds: float
    #: Mean return of the first and of the last tenth of the episodes.
    first: float
    last: float


def train(
    out: Path,
    *,
    variant: str = "66",
    opponents: str = "random",
    episodes: int = 30_000,
    seed: int = 1,
    lr: float = 0.01,
    batch: int = 64,
    seconds: float | None = None,
    log: Callable[[str], None] = print,
) -> Training:
    """Train for ``episodes`` deals (or until ``seconds`` have passed) and save the weights."""
    env = gym_env(variant, opponents=opponents)
    size = env.unwrapped.encoder.obs_size
    policy = LinearPolicy(size)
    optimizers = (
        Adam(lr, np.zeros_like(policy.weights), np.zeros_like(policy.weights)),
        Adam(lr, np.zeros_like(policy.bias), np.zeros_like(policy.bias)),
    )
    rng = np.random.default_rng(seed)
    eye = np.eye(NUM_ACTION_IDS)
    baseline = 0.0
    returns: list[float] = []
    xs: list[Array] = []
    ps: list[Array] = []
    acts: list[int] = []
    advantages: list[float] = []
    start = time.perf_counter()
    obs, _ = env.reset(seed=seed)
    done = 0
    while done < episodes and (seconds is None or time.perf_counter() - start < seconds):
        steps = 0
        while True:
            x = features(obs["observation"], size)
            p = policy.probabilities(x, obs["action_mask"])
            a = min(int(np.searchsorted(np.cumsum(p), rng.random())), int(np.flatnonzero(p)[-1]))
            xs.append(x)
            ps.append(p)
            acts.append(a)
            steps += 1
            obs, reward, terminated, _, _ = env.step(a)
            if terminated:
                break
        returns.append(float(reward))
        advantages += [float(reward) - baseline] * steps
        baseline += 0.01 * (float(reward) - baseline)
        done += 1
        obs, _ = env.reset()
        if done % batch == 0:
            # grad log pi(a|x) with respect to the scores is onehot(a) - pi(x).
            g = (eye[acts] - np.array(ps)) * np.array(advantages)[:, None] / batch
            optimizers[0].step(policy.weights, g.T @ np.array(xs))
            optimizers[1].step(policy.bias, g.sum(axis=0))
            for kept in (xs, ps, acts, advantages):
                kept.clear()
        if done % 5000 == 0:
            recent = float(np.mean(returns[-5000:]))
            log(f"{done} episodes, {time.perf_counter() - start:.0f} s: mean return {recent:+.3f}")
    elapsed = time.perf_counter() - start
    tenth = max(1, done // 10)
    result = Training(
        done, elapsed, float(np.mean(returns[:tenth])), float(np.mean(returns[-tenth:]))
    )
    meta = {"episodes": done, "seed": seed, "opponents": opponents, "seconds": round(elapsed, 1)}
    policy.save(out, env.unwrapped.variant, meta)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="66", help="the variant (66)")
    parser.add_argument("--opponents", default="random", help="the opponents' bot spec (random)")
    parser.add_argument("--episodes", type=int, default=30_000, help="deals to train on (30000)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and choices (1)")
    parser.add_argument("--lr", type=float, default=0.01, help="Adam's step size (0.01)")
    parser.add_argument("--batch", type=int, default=64, help="episodes a step (64)")
    parser.add_argument("--out", type=Path, default=Path("learner.npz"), help="weights file")
    args = parser.parse_args(argv)
    result = train(
        args.out,
        variant=args.variant,
        opponents=args.opponents,
        episodes=args.episodes,
        seed=args.seed,
        lr=args.lr,
        batch=args.batch,
        seconds=args.seconds,
    )
    print(
        f"{result.episodes} episodes in {result.seconds:.0f} s; mean return {result.first:+.3f}"
        f" in the first tenth, {result.last:+.3f} in the last; weights in {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
