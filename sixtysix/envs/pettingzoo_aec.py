"""The PettingZoo AEC environment class (imports pettingzoo: made through
:func:`sixtysix.envs.pettingzoo_env.pettingzoo_env`, which checks the extra first)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import gymnasium
from pettingzoo import AECEnv

from sixtysix.core.faults import PlayerFault
from sixtysix.core.variant import Variant
from sixtysix.envs.actions import NUM_ACTION_IDS, legal_mask
from sixtysix.envs.adapters import (
    RENDER_MODES,
    Observation,
    action_index,
    check_render_mode,
    fault_infos,
    illegal,
    observation_space,
)
from sixtysix.envs.episodes import DealEnded, Episodes, render_text
from sixtysix.envs.observation import encoder
from sixtysix.envs.registration import pettingzoo_name

__all__ = ["SixtySixAEC"]


class SixtySixAEC(AECEnv):  # type: ignore[misc]
    """One variant's deals (or matches) as a PettingZoo AEC environment."""

    metadata: Mapping[str, object] = {
        "render_modes": list(RENDER_MODES),
        "name": "sixtysix_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant,
        match: bool,
        render_mode: str | None,
        table_only: bool = False,
        match_state: bool = False,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.variant = variant
        self.render_mode = render_mode
        #: With ``match_state``, the encoder that adds the match's public state.
        self.encoder = encoder(variant, match=match_state)
        #: Whether an observation is the table alone (``Encoder.observation``).
        self.table_only = table_only
        self.metadata = {**self.metadata, "name": pettingzoo_name(type(variant))}
        n = variant.seats
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        # One space object per agent, the same one every call (seeding works on it).
        size = self.encoder.obs_size if table_only else self.encoder.info_size
        self.observation_spaces = {a: observation_space(size) for a in self.possible_agents}
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(NUM_ACTION_IDS) for a in self.possible_agents
        }
        self.episodes = Episodes(variant, match)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, object]] = {}
        self.agent_selection = self.possible_agents[0]
        self._over = False

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The next episode (episode 0 of ``seed`` when given); ``options`` are unused."""
        state = self.episodes.reset(seed)
        agents = self.possible_agents
        self.agents = agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self._skip_agent_selection = None
        self._over = False
        self.agent_selection = agents[state.to_act]

    def observe(self, agent: str) -> Observation:
        """``agent``'s own view, encoded: its information state and its legal actions."""
        state = self.episodes.state
        assert state is not None, "reset() the environment first"
        view = state.view(self._seat_of[agent])
        enc = self.encoder
        vector = enc.observation(view) if self.table_only else enc.info_state(view)
        return {"observation": vector, "action_mask": legal_mask(view)}

    def step(self, action: Any) -> None:
        if self._over:  # every agent is done: each steps None once, and leaves
            self._was_dead_step(action)
            return
        state = self.episodes.state
        assert state is not None, "reset() the environment first"
        # Rewards are paid only at the episode's end, so a live agent's cumulative reward
        # (what last() hands it) is always 0 and needs no clearing here.
        a = action if type(action) is int and 0 <= action < NUM_ACTION_IDS else None
        if a is None:
            a = action_index(action)
        fault = None
        if a in state.legal_actions():
            state.apply_legal(a)
        else:
            fault = illegal(state, a)
        seat = state.to_act
        if seat < 0:  # the deal is over
            self._deal_over(self.episodes.deal_over(), fault, a)
        else:
            self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    def _deal_over(self, ended: DealEnded, fault: PlayerFault | None, action: int) -> None:
        agents = self.possible_agents
        infos = [ended.info() for _ in agents]
        if fault is not None:
            for info, told in zip(infos, fault_infos(fault, action, len(agents)), strict=True):
                info["fault"] = told
        self.infos = dict(zip(agents, infos, strict=True))
        if not ended.over:
            state = self.episodes.state
            assert state is not None
            self.agent_selection = agents[state.to_act]
            return
        for agent, reward in zip(agents, ended.rewards, strict=True):
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
        self.terminations = dict.fromkeys(agents, True)
        self._over = True

    def render(self) -> str | None:
        """The table as the agent to act sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        state = self.episodes.state
        if state is None:
            return None
        seat = self._seat_of[self.agent_selection]
        text = render_text(state.view(seat), self.episodes, self.possible_agents)
        if self.render_mode == "ansi":
            return text
        sys.stdout.write(text)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no processes or files."""
