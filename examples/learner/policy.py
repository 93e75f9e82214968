"""A linear softmax policy over the legal action ids, and the same policy as a sixtysix bot.

The policy scores every action id by one linear function of the seat's table features (the
first ``Encoder.obs_size`` entries of the information state: hand, trump, turn-up, talon,
trick, tricks, points, marriages, known and played cards; the history is left out), and picks
among the legal ids only, in proportion to ``exp(score)`` (or the best one, greedily).

Numpy only. The weights file (``.npz``) holds the weights and the variant (name and options)
they were trained for, so :class:`LearnerBot` can encode the views it is given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from sixtysix.bots.base import Bot
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs import NUM_ACTION_IDS, encoder, legal_mask
from sixtysix.plugins.manager import get_registry

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """Scores ``W @ x + b`` for the 42 action ids, ``x`` the table features of a view."""

    def __init__(self, features: int, weights: Array | None = None, bias: Array | None = None):
        self.features = features
        self.weights = np.zeros((NUM_ACTION_IDS, features)) if weights is None else weights
        self.bias = np.zeros(NUM_ACTION_IDS) if bias is None else bias

    def probabilities(self, x: Array, mask: npt.NDArray[np.int8]) -> Array:
        """The softmax of the scores over the legal ids (0 elsewhere)."""
        scores = self.weights @ x + self.bias
        scores = np.where(mask > 0, scores, -np.inf)
        scores -= scores.max()
        p: Array = np.exp(scores)
        return p / p.sum()  # type: ignore[no-any-return]

    def greedy(self, x: Array, mask: npt.NDArray[np.int8]) -> int:
        """The legal id with the highest score (the lowest id among equals)."""
        scores = self.weights @ x + self.bias
        return int(np.argmax(np.where(mask > 0, scores, -np.inf)))

    def save(self, path: Path, variant: Variant, meta: Mapping[str, object]) -> None:
        info = {"variant": variant.name, "options": variant.options.diff(), **meta}
        np.savez(path, weights=self.weights, bias=self.bias, info=json.dumps(info))

    @staticmethod
    def load(path: Path) -> tuple[LinearPolicy, dict[str, Any]]:
        with np.load(path) as data:
            weights, bias = data["weights"], data["bias"]
            info: dict[str, Any] = json.loads(str(data["info"]))
        return LinearPolicy(weights.shape[1], weights, bias), info


def features(info_state: npt.NDArray[np.float32], size: int) -> Array:
    """The policy's input: the table part of an information state."""
    return info_state[:size].astype(np.float64)


@lru_cache(maxsize=8)
def _loaded(path: str, mtime: float) -> tuple[LinearPolicy, Variant]:
    policy, info = LinearPolicy.load(Path(path))
    variant = get_registry().variant(info["variant"]).configure(None, info["options"])
    return policy, variant


class LearnerBot(Bot):
    """The trained policy as a player: greedy over its legal actions, from its view alone."""

    name = "learner"
    description = "a linear softmax policy trained by REINFORCE (examples/learner)"
    parameters: ClassVar[Mapping[str, str]] = {
        "weights": "the .npz file that train.py wrote",
        "seed": "an integer seed of its own (unused: the bot is greedy)",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        path = Path(self.params.get("weights", "learner.npz"))
        if not path.is_file():
            raise UnknownBotError(f"bot parameter weights: no file {str(path)!r}")
        self.policy, variant = _loaded(str(path.resolve()), path.stat().st_mtime)
        self.encoder = encoder(variant)
        self.variant_name = variant.name

    def choose(self, view: View) -> Action:
        if view.variant != self.variant_name:
            raise UnknownBotError(f"these weights play {self.variant_name}, not {view.variant}")
        mask = legal_mask(view)
        x = features(self.encoder.info_state(view), self.encoder.obs_size)
        return ACTIONS[self.policy.greedy(x, mask)]
