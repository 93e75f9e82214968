"""The Gymnasium vector environment class (imports gymnasium and numba: made through
:func:`sixtysix.envs.vector.vector_env`, which checks the extras first)."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from sixtysix.compiled.batch import Batch
from sixtysix.core.errors import OptionError, shown
from sixtysix.envs.actions import NUM_ACTION_IDS

__all__ = ["SixtySixVector"]

Observations = dict[str, npt.NDArray[Any]]


class SixtySixVector(VectorEnv):  # type: ignore[misc]
    """A :class:`~sixtysix.compiled.batch.Batch` as a Gymnasium vector environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "autoreset_mode": AutoresetMode.SAME_STEP,
    }

    def __init__(self, batch: Batch, dtype: type[np.generic]) -> None:
        self.batch = batch
        self.num_envs = batch.num_envs
        self.render_mode = None
        self._float = dtype is np.float32
        width = batch.width
        if self._float:
            observation = gymnasium.spaces.Box(0.0, 1.0, (width,), np.float32)
        else:
            high = np.ones(width, dtype=np.uint8)
            at, size = batch.plan.fields["card_points"]
            high[at : at + size] = batch.plan.deck_points
            observation = gymnasium.spaces.Box(np.zeros(width, np.uint8), high, dtype=np.uint8)
        self.single_observation_space = gymnasium.spaces.Dict(
            {
                "observation": observation,
                "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTION_IDS,), np.int8),
            }
        )
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTION_IDS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._masks = np.zeros((self.num_envs, NUM_ACTION_IDS), dtype=np.bool_)

    def _observations(self, obs: npt.NDArray[np.uint8], masks: npt.NDArray[np.bool_]) -> Any:
        self._masks = masks
        return {
            "observation": self.batch.to_float32(obs) if self._float else obs,
            "action_mask": masks.view(np.int8),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """Every environment's next episode (episode 0 of each under ``seed`` when given);
        ``options`` are unused."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise OptionError(f"seed must be one integer for the whole batch, not {shown(seed)}")
        super().reset(seed=seed)
        obs, masks = self.batch.reset(None if seed is None else int(seed))
        return self._observations(obs, masks), self._info()

    def step(
        self, actions: Any
    ) -> tuple[
        Observations,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        obs, masks, rewards, ended = self.batch.step(actions)
        info = self._info()
        if ended.any():
            info["final_info"] = {
                "game_points": self.batch.final_points.copy(),
                "reason": self.batch.final_reasons.copy(),
                "_game_points": ended.copy(),
                "_reason": ended.copy(),
            }
            info["_final_info"] = ended.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observations(obs, masks), rewards, ended, truncated, info

    def _info(self) -> dict[str, Any]:
        return {"seat": self.batch.seats, "_seat": np.ones(self.num_envs, dtype=np.bool_)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of every environment's seat to act, ``(num_envs, 42)`` ``bool``
        (for MaskablePPO-style libraries)."""
        return self._masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the batch holds no processes or files."""
