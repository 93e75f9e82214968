"""RLlib's PPO through the PettingZoo environment: both seats of 66 played by one shared policy
(self-play), the illegal actions masked as RLlib's action-masking example does it.

    python examples/train/rllib_ppo.py --seed 1 --steps 200000 --out runs/rllib-1.npz
    python examples/train/evaluate.py runs/rllib-1.npz --against random --against heuristic

RLlib's ``PettingZooEnv`` turns the turn-based (AEC) environment into a multi-agent one; its
``ActionMaskingTorchRLModule`` wants the observation as ``{"observations", "action_mask"}``,
so a small subclass renames the environment's ``"observation"``. Everything runs in this
process (no remote env runners or learners), 16 deals stepped together. At the end the
module's actor (encoder, then policy head) is written as a policy file of ``common.py``.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium as gym
import numpy as np
import ray
import torch
from common import Clock, Network, linear_layers, log, recipe_args, save_policy
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from sixtysix.envs.pettingzoo_env import pettingzoo_env

HIDDEN = [128, 128]


class MaskedPettingZoo(PettingZooEnv):  # type: ignore[misc]
    """The PettingZoo environment with the observation keys RLlib's masking module reads."""

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(pettingzoo_env(config.get("variant", "66"), table_only=True))
        self.observation_spaces = {a: self._space(s) for a, s in self.observation_spaces.items()}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)

    @staticmethod
    def _space(space: gym.spaces.Dict) -> gym.spaces.Dict:
        mask = gym.spaces.Box(0.0, 1.0, space["action_mask"].shape, np.float32)
        return gym.spaces.Dict({"observations": space["observation"], "action_mask": mask})

    @staticmethod
    def _obs(obs: dict[str, Any]) -> dict[str, Any]:
        return {
            a: {
                "observations": o["observation"],
                "action_mask": o["action_mask"].astype(np.float32),
            }
            for a, o in obs.items()
        }

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, infos = super().reset(seed=seed, options=options)
        return self._obs(obs), infos

    def step(self, action: dict[str, int]) -> Any:
        obs, *rest = super().step(action)
        return (self._obs(obs), *rest)


def config(seed: int, batch: int = 4000, variant: str = "66") -> Any:
    """PPO with one policy for both seats, all in this process."""
    register_env("sixtysix-masked", lambda cfg: MaskedPettingZoo(cfg))
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={
            "fcnet_hiddens": HIDDEN,
            "fcnet_activation": "tanh",
            "head_fcnet_hiddens": [],
        },
    )
    return (
        PPOConfig()
        .environment("sixtysix-masked", env_config={"variant": variant})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        # 16 deals at once in this process; episodes left as lists (RLlib's numpy conversion
        # of finished episodes at every step costs more than the whole game here).
        .env_runners(num_env_runners=0, num_envs_per_env_runner=16, episodes_to_numpy=False)
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=min(batch, 500),
            num_epochs=4,
            lr=3e-4,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        .debugging(seed=seed)
    )


def actor(module: Any) -> Network:
    """The policy's layers: the actor encoder's, then the policy head's (all Linear)."""
    parts = [module.encoder.actor_encoder, module.pi]
    linears = [m for p in parts for m in p.modules() if isinstance(m, torch.nn.Linear)]
    return Network(tuple(linear_layers(linears)), "tanh")


def train(steps: int, seed: int, batch: int = 4000, log_every: int = 1) -> Any:
    """An RLlib PPO algorithm trained for at least ``steps`` agent steps."""
    algo = config(seed, batch).build_algo()
    done, i = 0, 0
    while done < steps:
        result = algo.train()
        done = int(result["num_env_steps_sampled_lifetime"])  # one agent acts per step
        i += 1
        if i % log_every == 0:
            log(f"iteration {i}: {done} steps")
    return algo


def main(argv: list[str] | None = None) -> int:
    parser = recipe_args(__doc__, steps=200_000, out="rllib.npz")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    clock = Clock()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    algo = train(args.steps, args.seed)
    module = algo.get_module("shared")
    variant = MaskedPettingZoo({}).env.unwrapped.variant
    meta = {"library": "RLlib PPO", "seed": args.seed, "steps": args.steps}
    save_policy(args.out, [actor(module)], variant, table_only=True, meta=meta)
    algo.stop()
    log(f"{args.out}: trained in {clock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
