"""OpenSpiel's Neural Fictitious Self-Play (its PyTorch NFSP) on the OpenSpiel game of 66,
one NFSP agent per seat, through OpenSpiel's ``rl_environment``.

    python examples/train/nfsp.py --seed 1 --steps 150000 --out runs/nfsp-1.npz
    python examples/train/evaluate.py runs/nfsp-1.npz --against random --against heuristic

The agents observe the table (OpenSpiel's observation tensor, ``Encoder.observation``); the
dealer is drawn by chance (``dealer=-1``), so each seat's agent plays forehand and dealer. NFSP's
average policy is what approaches an equilibrium: each seat's average-policy network is written
to the policy file of ``common.py`` (the bot uses its own seat's; ``play=sample`` draws from
it, the default plays its most probable action).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import torch
from common import Clock, Network, linear_layers, log, recipe_args, save_policy
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp

from sixtysix.envs import openspiel_game

HIDDEN = [128, 128]


def make_agents(size: int, actions: int, steps: int, seed: int) -> list[Any]:
    """One NFSP agent per seat: OpenSpiel's Leduc example, but Adam at 1e-3 and a learning step
    every 16 agent steps (its SGD at 0.01 every 64 steps had not left random play after
    200,000 steps)."""
    return [
        nfsp.NFSP(
            player,
            size,
            actions,
            HIDDEN,
            reservoir_buffer_capacity=200_000,
            anticipatory_param=0.1,
            batch_size=128,
            rl_learning_rate=0.001,
            sl_learning_rate=0.001,
            min_buffer_size_to_learn=1000,
            learn_every=16,
            optimizer_str="adam",
            replay_buffer_capacity=100_000,
            epsilon_start=0.06,
            epsilon_end=0.001,
            epsilon_decay_duration=steps,
            update_target_network_every=1000,
            seed=seed + 10 * player,
        )
        for player in (0, 1)
    ]


def train(steps: int, seed: int, variant: str = "66") -> tuple[list[Any], Any, list[float]]:
    """The two agents after ``steps`` agent steps, the game, and seat 0's return of each deal."""
    game = openspiel_game(variant, dealer=-1)
    env = rl_environment.Environment(
        game,
        observation_type=rl_environment.ObservationType.OBSERVATION,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed),
    )
    size = env.observation_spec()["info_state"][0]
    agents = make_agents(size, env.action_spec()["num_actions"], steps, seed)
    returns, done = [], 0
    while done < steps:
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step).action])
            done += 1
        for agent in agents:  # every agent sees the end of the deal
            agent.step(time_step)
        returns.append(time_step.rewards[0])
    return agents, game, returns


def average_policy(agent: Any) -> Network:
    """An agent's average-policy network (Linear and ReLU layers)."""
    linears = [m for m in agent._avg_network.modules() if isinstance(m, torch.nn.Linear)]
    return Network(tuple(linear_layers(linears)), "relu")


def main(argv: list[str] | None = None) -> int:
    parser = recipe_args(__doc__, steps=150_000, out="nfsp.npz")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    clock = Clock()
    agents, game, returns = train(args.steps, args.seed)
    meta = {"library": "OpenSpiel NFSP", "seed": args.seed, "steps": args.steps}
    variant = game.variant
    save_policy(args.out, [average_policy(a) for a in agents], variant, table_only=True, meta=meta)
    log(f"{args.out}: {len(returns)} deals, seat 0's mean return {np.mean(returns):+.3f}")
    log(f"trained in {clock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
