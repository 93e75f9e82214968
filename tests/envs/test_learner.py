"""The worked example of docs/research.md (examples/learner): a short training run writes a
weights file, the same seed gives the same weights, and the trained policy plays only legal
actions, in a duel that finds no fault."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra")

from sixtysix.envs import encoder

LEARNER = Path(__file__).resolve().parents[2] / "examples" / "learner"


@pytest.fixture
def learner(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ModuleType, ...]]:
    """The example's three modules, imported from its directory (forgotten afterwards)."""
    import importlib

    monkeypatch.syspath_prepend(str(LEARNER))
    modules = []
    for name in ("policy", "train", "evaluate"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        modules.append(importlib.import_module(name))
    yield tuple(modules)
    for name in ("policy", "train", "evaluate"):
        sys.modules.pop(name, None)


def test_a_short_run_trains_reproducibly_and_plays_legally(
    learner: tuple[ModuleType, ...], tmp_path: Path
) -> None:
    policy, train, evaluate = learner
    paths = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for path in paths:
        result = train.train(path, episodes=128, seed=3, batch=32, log=lambda _: None)
        assert result.episodes == 128
    first, info = policy.LinearPolicy.load(paths[0])
    second, _ = policy.LinearPolicy.load(paths[1])
    assert info["variant"] == "sixtysix" and info["episodes"] == 128 and info["seed"] == 3
    assert np.array_equal(first.weights, second.weights) and np.array_equal(first.bias, second.bias)
    assert first.weights.any()  # it learned something (four Adam steps)
    variant = policy._loaded(str(paths[0].resolve()), paths[0].stat().st_mtime)[1]
    assert first.weights.shape == (42, encoder(variant).obs_size)

    (summary,) = evaluate.evaluate(paths[0], ["random"], deals=6, seed=1)
    assert summary.games == 12 and summary.faults == ({}, {})
    assert "learner vs random: 12 games of 6 deals" in evaluate.describe(summary)


def test_the_bot_refuses_a_missing_weights_file(
    learner: tuple[ModuleType, ...], tmp_path: Path
) -> None:
    from sixtysix.core.errors import UnknownBotError
    from sixtysix.core.rng import Seed

    policy = learner[0]
    with pytest.raises(UnknownBotError, match="no file"):
        policy.LearnerBot(0, Seed(1), {"weights": str(tmp_path / "none.npz")})


def test_a_short_batched_run_trains_reproducibly_and_plays_legally(
    learner: tuple[ModuleType, ...], tmp_path: Path
) -> None:
    pytest.importorskip("numba", reason="the batched environment needs the fast extra")
    policy, train, evaluate = learner
    paths = [tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"]
    for path, seed in zip(paths, (3, 3, 4), strict=True):
        result = train.train(
            path, episodes=300, seed=seed, batch=32, batched=16, log=lambda _: None
        )
        assert result.episodes == 300
    first, info = policy.LinearPolicy.load(paths[0])
    second, _ = policy.LinearPolicy.load(paths[1])
    third, _ = policy.LinearPolicy.load(paths[2])
    assert info["batched"] == 16 and info["episodes"] == 300 and info["seed"] == 3
    assert np.array_equal(first.weights, second.weights) and np.array_equal(first.bias, second.bias)
    assert first.weights.any() and not np.array_equal(first.weights, third.weights)
    variant = policy._loaded(str(paths[0].resolve()), paths[0].stat().st_mtime)[1]
    assert first.weights.shape == (42, encoder(variant).obs_size)
    (summary,) = evaluate.evaluate(paths[0], ["random"], deals=6, seed=1)
    assert summary.games == 12 and summary.faults == ({}, {})


def test_the_batched_run_plays_only_random(learner: tuple[ModuleType, ...], tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="against random only"):
        learner[1].train(tmp_path / "x.npz", opponents="heuristic", episodes=10, batched=4)
