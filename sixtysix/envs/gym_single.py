"""The Gymnasium environment class (imports gymnasium: made through
:func:`sixtysix.envs.gym_env.gym_env`, which checks the extra first)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt

from sixtysix.bots.base import Bot
from sixtysix.bots.seating import bot_seats
from sixtysix.core.actions import Action
from sixtysix.core.match import Seats, take_turn
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.actions import NUM_ACTION_IDS, legal_mask
from sixtysix.envs.adapters import (
    RENDER_MODES,
    Observation,
    action_index,
    end_mask,
    fault_infos,
    illegal,
    observation_space,
)
from sixtysix.envs.episodes import DealEnded, Episodes, render_text
from sixtysix.envs.observation import encoder
from sixtysix.envs.opponents import Opponent

__all__ = ["SixtySixGym"]


class _Agent(Bot):
    """The agent's seat among the bots: never asked (the environment's caller plays it)."""

    name = "agent"

    def choose(self, view: View) -> Action:  # pragma: no cover - never called
        raise AssertionError("the agent's seat is played through step()")


class SixtySixGym(gymnasium.Env):  # type: ignore[misc]
    """One seat of a variant's deals (or matches) against bots or policies."""

    metadata: ClassVar[Mapping[str, object]] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        variant: Variant,
        opponents: list[Opponent],
        seat: int,
        match: bool,
        render_mode: str | None,
        table_only: bool = False,
        match_state: bool = False,
    ) -> None:
        self.variant = variant
        self.seat = seat
        self.render_mode = render_mode
        #: With ``match_state``, the encoder that adds the match's public state.
        self.encoder = encoder(variant, match=match_state)
        #: Whether the observation is the table alone (``Encoder.observation``).
        self.table_only = table_only
        size = self.encoder.obs_size if table_only else self.encoder.info_size
        self.observation_space = observation_space(size)
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTION_IDS)
        others = iter(opponents)
        #: Per seat, the player of that seat (None: the agent).
        self.players: list[Opponent | None] = [
            None if s == seat else next(others) for s in range(variant.seats)
        ]
        self.labels = tuple("agent" if p is None else p.label for p in self.players)
        self.episodes = Episodes(variant, match)
        self._seats: Seats | None = None
        self._end_mask = end_mask(self.encoder)
        self._mask: npt.NDArray[np.int8] | None = None

    # --------------------------------------------------------------- the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """The next episode (episode 0 of ``seed`` when given), played up to the agent's
        first turn; ``options`` are unused."""
        super().reset(seed=seed)
        skipped = 0
        faults: list[dict[str, object]] = []
        while True:
            self.episodes.reset(seed)
            seed = None
            self._seat_bots()
            ended, more = self._others()
            faults += more
            if ended is None or not ended.over:
                break
            skipped += 1  # the episode ended before the agent's first turn
        info: dict[str, Any] = {} if ended is None else ended.info()
        if faults:
            info["faults"] = faults
        if skipped:
            info["skipped"] = skipped
        return self._observe(), info

    def _seat_bots(self) -> None:
        """This episode's bots, each with a seed of its own drawn from the episode's."""
        seed = self.episodes.seed
        assert seed is not None
        path = self.episodes.path
        bots = [
            _Agent(s, seed.child((*path, "agent")))
            if p is None
            else p.bot(s, seed.child((*path, "bot", s)))
            for s, p in enumerate(self.players)
        ]
        self._seats = bot_seats(bots)

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.phase == Phase.OVER:
            raise gymnasium.error.ResetNeeded("the episode is over: reset() first")
        seat = self.seat
        a = action_index(action)
        info: dict[str, Any] = {}
        if a in state.legal_actions():
            state.apply_legal(a)
        else:
            info["fault"] = fault_infos(illegal(state, a), a, state.n)[seat]
        ended, faults = self._others()
        reward = 0.0
        terminated = False
        if ended is not None:
            info.update(ended.info())
            if ended.over:
                terminated = True
                reward = ended.rewards[seat]
        if faults:
            info["faults"] = faults
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, False, info

    def _state(self) -> DealState:
        state = self.episodes.state
        if state is None:
            raise gymnasium.error.ResetNeeded("reset() the environment first")
        return state

    def _others(self) -> tuple[DealEnded | None, list[dict[str, object]]]:
        """Play the bots' turns until the agent's turn or the episode's end: the last deal
        that ended meanwhile (None if none did), and the bots' faults."""
        seats = self._seats
        assert seats is not None
        ended: DealEnded | None = None
        faults: list[dict[str, object]] = []
        while True:
            state = self._state()
            if state.phase == Phase.OVER:
                if seats.over is not None:
                    seats.over(state)
                ended = self.episodes.deal_over()
                if ended.over:
                    return ended, faults
                continue
            s = state.to_act
            if s == self.seat:
                return ended, faults
            pick = seats.picks[s] if seats.picks else None
            if pick is not None:
                state.apply_legal(pick(state.legal_actions()))
                continue
            _, fault = take_turn(state, s, seats.players[s])
            if fault is not None:
                faults.append({"seat": fault.seat, "kind": str(fault.kind)})

    def _observe(self) -> Observation:
        """The agent's observation; at the episode's end, with :func:`end_mask` as its mask."""
        state = self._state()
        view = state.view(self.seat)
        enc = self.encoder
        vector = enc.observation(view) if self.table_only else enc.info_state(view)
        mask = self._end_mask.copy() if state.phase == Phase.OVER else legal_mask(view)
        self._mask = mask
        return {"observation": vector, "action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The last observation's mask as ``bool`` (42 ids): the agent's legal ids, or at the
        episode's end the one id an autoreset ignores. sb3-contrib's MaskablePPO asks for it
        (through wrappers: ``env.get_wrapper_attr("action_masks")()``)."""
        if self._mask is None:
            raise gymnasium.error.ResetNeeded("reset() the environment first")
        return self._mask.astype(np.bool_)

    # --------------------------------------------------------------- showing it

    def render(self) -> str | None:
        """The table as the agent sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = render_text(self._state().view(self.seat), self.episodes, self.labels)
        if self.render_mode == "ansi":
            return text
        sys.stdout.write(text)
        return None

    def close(self) -> None:
        """Nothing to release here (``exec:`` players are closed by their own module)."""
