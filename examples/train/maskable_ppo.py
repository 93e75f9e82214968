"""sb3-contrib's MaskablePPO on the Gymnasium environment: one seat of 66 against a bot, the
illegal actions masked out by the environment's ``action_masks()``.

    python examples/train/maskable_ppo.py --seed 1 --steps 200000 --out runs/maskable-1.npz
    python examples/train/evaluate.py runs/maskable-1.npz --against random --against heuristic

The network sees the table alone (``table_only=True``: 256 floats in 66); half the
environments play seat 0, half seat 1, so the policy knows both. At the end the actor (the
layers from the observation to the logits) is written as a policy file of ``common.py``.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from common import Clock, Network, linear_layers, log, recipe_args, save_policy
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import HumanOutputFormat, Logger
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

import sixtysix.envs  # noqa: F401  (registers the sixtysix/ environments with Gymnasium)


def make_env(env_id: str, opponents: str, seat: int) -> Any:
    """One environment: the table as a flat observation; the mask stays on ``action_masks()``."""
    env = gym.make(env_id, opponents=opponents, seat=seat, table_only=True)
    space = env.observation_space["observation"]
    return gym.wrappers.TransformObservation(env, lambda obs: obs["observation"], space)


def train(
    env_id: str, opponents: str, steps: int, seed: int, envs: int = 8, verbose: int = 0
) -> Any:
    """A MaskablePPO model trained for ``steps`` agent steps."""
    vec = VecMonitor(
        DummyVecEnv([lambda s=i % 2: make_env(env_id, opponents, s) for i in range(envs)])
    )
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": [128, 128], "vf": [128, 128]}},
        seed=seed,
        verbose=verbose,
        device="cpu",
    )
    # Without a logger of its own, learn() makes an empty SB3-<time> folder in the temp dir.
    outputs = [HumanOutputFormat(sys.stdout)] if verbose else []
    model.set_logger(Logger(folder=None, output_formats=outputs))
    return model.learn(total_timesteps=steps)


def actor(model: Any) -> Network:
    """The policy's layers: the actor's hidden layers, then its action head (all Linear)."""
    policy = model.policy
    modules = [*policy.mlp_extractor.policy_net, policy.action_net]
    linears = [m for m in modules if isinstance(m, torch.nn.Linear)]
    assert all(isinstance(m, torch.nn.Linear | torch.nn.Tanh) for m in modules)
    return Network(tuple(linear_layers(linears)), "tanh")


def main(argv: list[str] | None = None) -> int:
    parser = recipe_args(__doc__, steps=200_000, out="maskable.npz")
    parser.add_argument("--env", default="sixtysix/66-v0", help="Gymnasium id (sixtysix/66-v0)")
    parser.add_argument("--opponents", default="random", help="bot spec of the other seat")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together (8)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    clock = Clock()
    model = train(args.env, args.opponents, args.steps, args.seed, args.envs, verbose=1)
    returns = [e["r"] for e in model.ep_info_buffer]
    meta = {"library": "sb3-contrib MaskablePPO", "seed": args.seed, "steps": args.steps}
    variant = model.get_env().envs[0].unwrapped.variant
    save_policy(args.out, [actor(model)], variant, table_only=True, meta=meta)
    log(f"{args.out}: mean return of the last {len(returns)} episodes {np.mean(returns):+.3f}")
    log(f"trained in {clock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
