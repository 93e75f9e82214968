"""PPO in one file, in the style of CleanRL's ppo.py, with invalid-action masking, on the
batched environment (``sixtysix.envs.vector_env``: many deals of 66 stepped together in
compiled code) against the random player.

    python examples/train/cleanrl_ppo.py --seed 1 --steps 1000000 --out runs/cleanrl-1.npz
    python examples/train/evaluate.py runs/cleanrl-1.npz --against random --against heuristic

Half the deals are played from seat 0, half from seat 1. The vector environment resets a deal
in the step that ends it (same-step autoreset), as CleanRL's loop expects: ``done`` marks the
first observation of a new deal. Illegal ids get a logit of -1e8, so they are never sampled and
carry no gradient. At the end the actor is written as a policy file of ``common.py``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import torch
from common import Clock, Network, linear_layers, log, recipe_args, save_policy
from torch import nn
from torch.distributions.categorical import Categorical

from sixtysix.envs import vector_env


@dataclass
class Args:
    seed: int = 1
    total_timesteps: int = 1_000_000
    num_envs: int = 128  # deals stepped together, half from each seat
    num_steps: int = 64  # steps per environment per rollout
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 1.0  # one deal is one episode, paid at its end
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 128
    variant: str = "66"


def layer(i: int, o: int, std: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(i, o)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    def __init__(self, obs_size: int, hidden: int, actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(obs_size, hidden),
            nn.Tanh(),
            layer(hidden, hidden),
            nn.Tanh(),
            layer(hidden, 1, 1.0),
        )
        self.actor = nn.Sequential(
            layer(obs_size, hidden),
            nn.Tanh(),
            layer(hidden, hidden),
            nn.Tanh(),
            layer(hidden, actions, 0.01),
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        logits = torch.where(mask, self.actor(x), torch.tensor(-1e8))
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


class Seats:
    """Two vector environments, one per seat, stepped as one."""

    def __init__(self, args: Args) -> None:
        half = args.num_envs // 2
        self.envs = [
            vector_env(args.variant, num_envs=half, seat=s, dtype="float32", table_only=True)
            for s in (0, 1)
        ]
        self.variant = self.envs[0].batch.variant
        self.seed = args.seed

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        parts = [e.reset(seed=2 * self.seed + s)[0] for s, e in enumerate(self.envs)]
        return np.concatenate([p["observation"] for p in parts]), self.action_masks()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        half = len(actions) // 2
        out = [e.step(a) for e, a in zip(self.envs, (actions[:half], actions[half:]), strict=True)]
        obs = np.concatenate([o[0]["observation"] for o in out])
        rewards = np.concatenate([o[1] for o in out])
        done = np.concatenate([o[2] for o in out])
        return obs, self.action_masks(), rewards, done

    def action_masks(self) -> np.ndarray:
        return np.concatenate([e.action_masks() for e in self.envs])


def train(args: Args) -> tuple[Agent, Seats, list[float]]:
    """Train: the agent, its environments and the mean return of each rollout's ended deals."""
    torch.manual_seed(args.seed)
    envs = Seats(args)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = max(1, args.total_timesteps // batch_size)
    next_obs_np, next_mask_np = envs.reset()
    agent = Agent(next_obs_np.shape[1], args.hidden, next_mask_np.shape[1])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, e = args.num_steps, args.num_envs
    obs = torch.zeros((n, e, next_obs_np.shape[1]))
    masks = torch.zeros((n, e, next_mask_np.shape[1]), dtype=torch.bool)
    actions = torch.zeros((n, e), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((n, e)) for _ in range(4))
    next_obs, next_mask = torch.from_numpy(next_obs_np), torch.from_numpy(next_mask_np)
    next_done = torch.zeros(e)
    history = []

    for iteration in range(1, num_iterations + 1):
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        ended: list[float] = []  # the returns of the deals that end in this rollout
        for step in range(n):
            obs[step], masks[step], dones[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            values[step], actions[step], logprobs[step] = value.flatten(), action, logprob
            o, m, r, d = envs.step(action.numpy())
            rewards[step] = torch.from_numpy(r).float()
            next_obs, next_mask = torch.from_numpy(o), torch.from_numpy(m)
            next_done = torch.from_numpy(d).float()
            ended += r[d].tolist()
        history.append(float(np.mean(ended)) if ended else 0.0)

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(e)
            for t in reversed(range(n)):
                nextnonterminal = 1.0 - (next_done if t == n - 1 else dones[t + 1])
                nextvalues = next_value if t == n - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values

        b_obs, b_masks = obs.reshape(batch_size, -1), masks.reshape(batch_size, -1)
        b_logprobs, b_actions = logprobs.reshape(-1), actions.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), returns.reshape(-1)
        b_inds = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.default_rng([args.seed, iteration]).shuffle(b_inds)
            for start in range(0, batch_size, minibatch_size):
                mb = b_inds[start : start + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_masks[mb], b_actions[mb]
                )
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(
                    -mb_adv * ratio,
                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef),
                ).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
    return agent, envs, history


def actor(agent: Agent) -> Network:
    return Network(tuple(linear_layers(m for m in agent.actor if isinstance(m, nn.Linear))), "tanh")


def main(argv: list[str] | None = None) -> int:
    parser = recipe_args(__doc__, steps=Args.total_timesteps, out="cleanrl.npz")
    parser.add_argument("--envs", type=int, default=Args.num_envs, help="deals at once (128)")
    a = parser.parse_args(argv)
    torch.set_num_threads(a.threads)
    args = Args(seed=a.seed, total_timesteps=a.steps, num_envs=a.envs)
    clock = Clock()
    agent, envs, history = train(args)
    meta = {"library": "CleanRL-style PPO", "seed": args.seed, "steps": args.total_timesteps}
    save_policy(a.out, [actor(agent)], envs.variant, table_only=True, meta=meta)
    tenth = max(1, len(history) // 10)
    first, last = np.mean(history[:tenth]), np.mean(history[-tenth:])
    log(f"{a.out}: mean return of ended deals, first tenth {first:+.3f}, last tenth {last:+.3f}")
    log(f"trained in {clock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
