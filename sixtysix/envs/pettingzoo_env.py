"""Every installed variant as a PettingZoo AEC environment (the ``rl`` extra).

``pettingzoo_env("66")`` is a raw AEC environment: agents ``player_0`` .. ``player_{n-1}`` are
the seats, one acts at a time (``agent_selection`` is the seat to act), and each observes
``{"observation": Encoder.info_state(view), "action_mask": legal_mask(view)}`` of its own
view only, computed when asked (``observe`` / ``last``), a fresh array every time. Actions are
the 42 action ids of :mod:`sixtysix.envs.actions` (``Discrete(42)``); the mask says which are
legal, and is all zeros for an agent that is not to act.

An action in the space but not legal is a fault: by the project's one fault rule
(:func:`sixtysix.core.faults.forfeit`) the acting seat's side forfeits the deal, the deal ends
there and is paid like any other, and every agent's info says ``fault`` (as PettingZoo's own
``TerminateIllegalWrapper`` ends a game on an illegal move). Anything outside the space
(``-1``, ``42``, ``"play QD"``) raises :class:`~sixtysix.envs.errors.ActionIdError`.

Rewards: see :mod:`sixtysix.envs.episodes` (game points at the end of a deal, or +1/-1 at the
end of a match). Infos are empty until a deal ends, then hold its public outcome and the totals;
they never hold the state, a hand or the talon.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sixtysix.core.errors import OptionError, shown
from sixtysix.core.faults import PlayerFault
from sixtysix.core.state import DealState
from sixtysix.core.turn import Turn
from sixtysix.core.variant import Variant
from sixtysix.envs.actions import NUM_ACTION_IDS, legal_mask
from sixtysix.envs.episodes import (
    DealEnded,
    Episodes,
    check_episode,
    make_variant,
    render_text,
)
from sixtysix.envs.errors import ActionIdError
from sixtysix.envs.extras import require
from sixtysix.envs.observation import encoder

if TYPE_CHECKING:
    import numpy as np

#: The render modes: ``human`` prints the table of the agent to act, ``ansi`` returns it.
RENDER_MODES = ("human", "ansi")

Observation = dict[str, "np.ndarray[Any, Any]"]


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(RENDER_MODES)
        raise OptionError(f"render_mode must be one of {modes} or None, not {shown(render_mode)}")


def action_index(action: object) -> int:
    """``action`` as an action id (numpy integers too), or
    :class:`~sixtysix.envs.errors.ActionIdError` if it is none of 0..41."""
    try:
        a = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise ActionIdError(f"an action id is an integer, not {shown(action)}") from None
    if not 0 <= a < NUM_ACTION_IDS or isinstance(action, bool):
        raise ActionIdError(f"action id {a} is not one of 0..{NUM_ACTION_IDS - 1}")
    return a


def illegal(state: DealState, action: int) -> PlayerFault:
    """The fault of the seat to act for an action that is not legal: the deal is forfeited
    by the fault rule (through the referee's :class:`~sixtysix.core.turn.Turn`)."""
    with Turn(state, state.to_act) as turn:
        state.apply(action)
    assert turn.fault is not None
    return turn.fault


def fault_infos(fault: PlayerFault, action: int, seats: int) -> list[dict[str, object]]:
    """What each seat is told of a fault: who, what kind, which action; the engine's reason
    only to the seat that faulted (it may speak of that seat's own cards)."""
    from sixtysix.core.actions import ACTION_NAMES

    public = {"seat": fault.seat, "kind": str(fault.kind), "action": ACTION_NAMES[action]}
    return [
        {**public, "reason": fault.detail} if s == fault.seat else dict(public)
        for s in range(seats)
    ]


def observation_space(size: int) -> Any:
    """``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1, (42,), int8))``."""
    import gymnasium
    import numpy as np

    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTION_IDS,), np.int8),
        }
    )


def pettingzoo_env(
    variant: str | Variant,
    *,
    episode: str = "deal",
    preset: str | None = None,
    render_mode: str | None = None,
    **options: object,
) -> Any:
    """A PettingZoo AEC environment of ``variant`` (a name or alias, with a preset and
    options; or a configured :class:`~sixtysix.core.variant.Variant`).

    ``episode="deal"``: an episode is one deal, paid in game points
    (:func:`sixtysix.envs.episodes.deal_rewards`); ``episode="match"``: a whole match, +1 to
    its winners and -1 to the others at its end. ``reset(seed=s)`` deals reproducibly.
    """
    require("pettingzoo", "rl", "the PettingZoo environment")
    return _env_class()(make_variant(variant, preset, options), check_episode(episode), render_mode)


_CLASS: type[Any] | None = None


def _env_class() -> type[Any]:
    """The environment class, made once pettingzoo is known to be importable."""
    global _CLASS
    if _CLASS is None:
        _CLASS = _make_class()
    return _CLASS


def _make_class() -> type[Any]:
    import gymnasium
    from pettingzoo import AECEnv

    class SixtySixAEC(AECEnv):  # type: ignore[misc]
        """One variant's deals (or matches) as a PettingZoo AEC environment."""

        metadata: Mapping[str, object] = {
            "render_modes": list(RENDER_MODES),
            "name": "sixtysix_v0",
            "is_parallelizable": False,
        }

        def __init__(self, variant: Variant, match: bool, render_mode: str | None) -> None:
            super().__init__()
            check_render_mode(render_mode)
            self.variant = variant
            self.render_mode = render_mode
            self.encoder = encoder(variant)
            self.metadata = {**self.metadata, "name": f"sixtysix_{variant.name}_v0"}
            n = variant.seats
            self.possible_agents = [f"player_{s}" for s in range(n)]
            self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
            # One space object per agent, the same one every call (seeding works on it).
            self.observation_spaces = {
                a: observation_space(self.encoder.info_size) for a in self.possible_agents
            }
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
            return {
                "observation": self.encoder.info_state(view),
                "action_mask": legal_mask(view),
            }

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

    return SixtySixAEC
