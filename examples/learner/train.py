"""Train the linear softmax policy of ``policy.py`` by REINFORCE with a baseline, through the
Gymnasium adapter, against any registered bot (``random`` by default), numpy only; or through
the batched environment (``--batched N``: N deals at once against ``random``, needs numba).

    python examples/learner/train.py --episodes 30000 --seed 1 --out learner.npz
    python examples/learner/train.py --episodes 30000 --seed 1 --batched 64 --out learner.npz

Each episode is one deal from the agent's seat; its return is the deal's reward (the agent's
game points minus the opponent's). Every ``--batch`` episodes the policy takes one Adam step
along ``(return - baseline) * grad log pi(action)`` summed over the batch's moves, the baseline
being a running mean of the returns. With the same seed and episodes the weights are the same.

Batched, the same algorithm over the same features: every environment samples its move from
the policy at once, each deal that ends adds its episode (in environment order) and an Adam
step is taken once ``--batch`` episodes have ended, over all that have (a deal still in play
then keeps the probabilities it was sampled with, as the single path keeps them).
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
from sixtysix.envs.batched import batch_env
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
    batched: int = 0,
    log: Callable[[str], None] = print,
) -> Training:
    """Train for ``episodes`` deals (or until ``seconds`` have passed) and save the weights;
    through ``batched`` deals at once when it is not 0."""
    if batched:
        if opponents != "random":
            raise SystemExit("the batched environment plays against random only")
        return train_batched(out, variant, episodes, seed, lr, batch, seconds, batched, log)
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


def update(
    policy: LinearPolicy,
    optimizers: tuple[Adam, Adam],
    xs: list[Array],
    ps: list[Array],
    acts: list[Array],
    advantages: list[Array],
    count: int,
) -> None:
    """One Adam step over ``count`` episodes' moves (the lists are emptied)."""
    # grad log pi(a|x) with respect to the scores is onehot(a) - pi(x).
    eye = np.eye(NUM_ACTION_IDS)
    g = (eye[np.concatenate(acts)] - np.concatenate(ps)) * np.concatenate(advantages)[:, None]
    g /= count
    optimizers[0].step(policy.weights, g.T @ np.concatenate(xs))
    optimizers[1].step(policy.bias, g.sum(axis=0))
    for kept in (xs, ps, acts, advantages):
        kept.clear()


def report(log: Callable[[str], None], done: int, start: float, returns: list[float]) -> None:
    recent = float(np.mean(returns[-5000:]))
    log(f"{done} episodes, {time.perf_counter() - start:.0f} s: mean return {recent:+.3f}")


def train_batched(
    out: Path,
    variant: str,
    episodes: int,
    seed: int,
    lr: float,
    batch: int,
    seconds: float | None,
    num_envs: int,
    log: Callable[[str], None],
) -> Training:
    """:func:`train` through ``num_envs`` deals at once (see the module)."""
    envs = batch_env(variant, num_envs, opponents="random", seed=seed, table_only=True)
    policy = LinearPolicy(envs.width)
    optimizers = (
        Adam(lr, np.zeros_like(policy.weights), np.zeros_like(policy.weights)),
        Adam(lr, np.zeros_like(policy.bias), np.zeros_like(policy.bias)),
    )
    rng = np.random.default_rng(seed)
    baseline = 0.0
    returns: list[float] = []
    # Per step still needed: the features, probabilities and actions of every environment.
    steps: dict[int, tuple[Array, Array, Array]] = {}
    begun = np.zeros(num_envs, dtype=np.int64)  # the step each environment's episode began
    xs: list[Array] = []
    ps: list[Array] = []
    acts: list[Array] = []
    advantages: list[Array] = []
    pending = 0
    start = time.perf_counter()
    obs, masks = envs.reset()
    done = t = 0
    while done < episodes and (seconds is None or time.perf_counter() - start < seconds):
        x = envs.to_float32(obs).astype(np.float64)
        scores = np.where(masks, x @ policy.weights.T + policy.bias, -np.inf)
        p = np.exp(scores - scores.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        last = NUM_ACTION_IDS - 1 - masks[:, ::-1].argmax(axis=1)
        a = np.minimum((p.cumsum(axis=1) < rng.random(num_envs)[:, None]).sum(axis=1), last)
        steps[t] = (x, p, a)
        obs, masks, rewards, ended = envs.step(a)
        for j in np.flatnonzero(ended):
            moves = range(int(begun[j]), t + 1)
            reward = float(rewards[j])
            xs.append(np.array([steps[s][0][j] for s in moves]))
            ps.append(np.array([steps[s][1][j] for s in moves]))
            acts.append(np.array([steps[s][2][j] for s in moves]))
            advantages.append(np.full(len(moves), reward - baseline))
            baseline += 0.01 * (reward - baseline)
            returns.append(reward)
            begun[j] = t + 1
            done += 1
            pending += 1
            if done % 5000 == 0:
                report(log, done, start, returns)
            if done == episodes:
                break
        if pending >= batch:
            update(policy, optimizers, xs, ps, acts, advantages, pending)
            pending = 0
        for s in range(int(begun.min()) - 1, -1, -1):
            if steps.pop(s, None) is None:
                break
        t += 1
    elapsed = time.perf_counter() - start
    tenth = max(1, done // 10)
    result = Training(
        done, elapsed, float(np.mean(returns[:tenth])), float(np.mean(returns[-tenth:]))
    )
    meta = {
        "episodes": done,
        "seed": seed,
        "opponents": "random",
        "batched": num_envs,
        "seconds": round(elapsed, 1),
    }
    policy.save(out, envs.variant, meta)
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
    parser.add_argument(
        "--batched", type=int, default=0, help="train through N deals at once (0: single env)"
    )
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
        batched=args.batched,
    )
    print(
        f"{result.episodes} episodes in {result.seconds:.0f} s; mean return {result.first:+.3f}"
        f" in the first tenth, {result.last:+.3f} in the last; weights in {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
