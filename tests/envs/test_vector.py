"""The Gymnasium vector environment over the compiled batch: each of its environments is the
single Gymnasium environment (against random) or the PettingZoo environment (self-play) of the
same seed, step for step (observations, masks, rewards, ends); its spaces hold what it
returns; every mask after an autoreset has a move; bad arguments are one-line errors."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra")
pytest.importorskip("pettingzoo", reason="needs the rl extra")
pytest.importorskip("numba", reason="needs the fast extra")

import gymnasium
from gymnasium.vector import AutoresetMode

from sixtysix.core.errors import IllegalActionError, OptionError
from sixtysix.core.rng import Seed
from sixtysix.envs import encoder
from sixtysix.envs.gym_env import gym_env
from sixtysix.envs.pettingzoo_env import pettingzoo_env
from sixtysix.envs.vector import vector_env


def random_actions(rng: np.random.Generator, masks: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    actions: npt.NDArray[np.int64] = (rng.random(masks.shape) * masks).argmax(axis=1)
    return actions


class Single:
    """Environment ``env`` of a vector environment as a single one: the Gymnasium
    environment against random, or the PettingZoo one observed by the seat to act."""

    def __init__(self, name: str, opponents: str, key: bytes, **options: Any) -> None:
        self.gym = opponents == "random"
        self.env: Any = (
            gym_env(name, opponents="random", **options)
            if self.gym
            else pettingzoo_env(name, **options)
        )
        episodes = self.env.unwrapped.episodes if self.gym else self.env.episodes
        episodes.seed = Seed.from_key(key)  # the batch's environment draws from this key
        episodes.episode = -1
        self.obs = self.reset()

    def reset(self) -> dict[str, Any]:
        if self.gym:
            return dict(self.env.reset()[0])
        self.env.reset()
        return dict(self.env.observe(self.env.agent_selection))

    def step(self, action: int) -> tuple[float, bool]:
        env = self.env
        if self.gym:
            obs, reward, terminated, _, _ = env.step(action)
            self.obs = self.reset() if terminated else obs
            return float(reward), bool(terminated)
        acting = env.agent_selection
        env.step(action)
        if all(env.terminations.values()):
            reward = float(env.rewards[acting])
            self.obs = self.reset()
            return reward, True
        self.obs = env.observe(env.agent_selection)
        return 0.0, False


@pytest.mark.parametrize("opponents", ["random", "self"])
@pytest.mark.parametrize(
    ("name", "options"),
    [("66", {}), ("schnapsen", {}), ("66", {"claim": "manual"}), ("66", {"match_state": True})],
)
def test_each_environment_is_the_single_environment_of_its_seed(
    name: str, options: dict[str, Any], opponents: str
) -> None:
    envs = vector_env(name, num_envs=4, opponents=opponents, seed=9, dtype=np.float32, **options)
    obs, _ = envs.reset()
    singles = [
        Single(name, opponents, envs.unwrapped.batch.env_key(j), **options) for j in range(4)
    ]
    rng = np.random.default_rng(9)
    ended = 0
    for t in range(120):
        for j, single in enumerate(singles):
            for part in ("observation", "action_mask"):
                assert np.array_equal(obs[part][j], single.obs[part]), f"step {t}, {j}: {part}"
                assert obs[part][j].dtype == single.obs[part].dtype
        actions = random_actions(rng, envs.action_masks())
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        assert not truncated.any()
        for j, single in enumerate(singles):
            assert single.step(int(actions[j])) == (rewards[j], terminated[j]), f"step {t}, {j}"
        ended += int(terminated.sum())
    assert ended > 5


@pytest.mark.parametrize("dtype", ["uint8", np.float32])
@pytest.mark.parametrize("opponents", ["random", "self"])
def test_the_spaces_hold_every_observation_and_masks_never_run_dry(
    dtype: object, opponents: str
) -> None:
    envs = vector_env("schnapsen", num_envs=32, opponents=opponents, seed=4, dtype=dtype)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(42)
    assert envs.action_space.shape == (32,)
    size = encoder(envs.unwrapped.batch.variant).info_size
    single = envs.single_observation_space["observation"]
    assert single.shape == (size,) and envs.observation_space["observation"].shape == (32, size)
    assert envs.observation_space.contains(envs.observation_space.sample())
    obs, info = envs.reset(seed=4)
    rng = np.random.default_rng(4)
    finals = 0
    for _ in range(100):
        assert envs.observation_space.contains(obs)
        masks = envs.action_masks()
        assert masks.dtype == np.bool_ and masks.any(axis=1).all()
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert np.array_equal(info["seat"], envs.unwrapped.batch.seats)
        obs, rewards, terminated, _, info = envs.step(random_actions(rng, masks))
        if terminated.any():
            final = info["final_info"]
            assert np.array_equal(info["_final_info"], terminated)
            points = final["game_points"][terminated]
            assert points.max(axis=1).min() >= 1 or (final["reason"][terminated] == 5).any()
            assert np.array_equal(np.abs(rewards[terminated]), np.abs(points[:, 0] - points[:, 1]))
            finals += int(terminated.sum())
        assert not rewards[~terminated].any()
    assert finals > 20


def test_it_works_under_gymnasiums_vector_wrappers() -> None:
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(vector_env("66", num_envs=8, seed=1))
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(60):
        obs, _, _, _, info = envs.step(random_actions(rng, obs["action_mask"]))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0


def test_a_seed_replays_the_same_episodes() -> None:
    def run(seed: int) -> list[Any]:
        envs = vector_env("66", num_envs=8, opponents="self")
        obs, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs["observation"]]
        for _ in range(30):
            obs, rewards, _, _, _ = envs.step(random_actions(rng, envs.action_masks()))
            out += [obs["observation"], rewards]
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(3), run(3), strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(run(3), run(4), strict=True))


def test_the_table_only_observation_is_the_encoders_observation() -> None:
    envs = vector_env("66", num_envs=2, table_only=True, dtype="float32", seed=2)
    obs, _ = envs.reset()
    size = encoder(envs.unwrapped.batch.variant).obs_size
    assert obs["observation"].shape == (2, size)
    single = Single("66", "random", envs.unwrapped.batch.env_key(1))
    assert np.array_equal(obs["observation"][1], single.obs["observation"][:size])


@pytest.mark.parametrize("table_only", [False, True])
def test_match_state_gives_the_match_field_all_zeros(table_only: bool) -> None:
    """The batch plays single deals: room for the match's state, zeros and flag 0, as the
    single environments' deal episodes give it."""
    envs = vector_env(
        "schnapsen", num_envs=3, match_state=True, table_only=table_only, dtype="float32", seed=3
    )
    enc = encoder(envs.unwrapped.batch.variant, match=True)
    field = enc.layout.field("match")
    size = enc.obs_size if table_only else enc.info_size
    obs, _ = envs.reset()
    assert obs["observation"].shape == (3, size) == (3, 250 if table_only else 978)
    rng = np.random.default_rng(3)
    for _ in range(40):
        assert not obs["observation"][:, field.offset : field.offset + field.size].any()
        obs, *_ = envs.step(random_actions(rng, envs.action_masks()))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: vector_env("sixtysix-4"), OptionError, "compiled rules do not play"),
        (lambda: vector_env("66", num_envs=0), OptionError, "num_envs must be"),
        (lambda: vector_env("66", opponents="expert"), OptionError, "opponents must be"),
        (lambda: vector_env("66", dtype=np.float16), OptionError, "dtype must be"),
        (lambda: vector_env("66", match_state=cast(bool, "on")), OptionError, "match_state must"),
        (lambda: vector_env("66").reset(seed=[1, 2]), OptionError, "seed must be one integer"),
        (
            lambda: vector_env("66", num_envs=2, seed=1).step(np.array([42, 42])),
            OptionError,
            "reset",
        ),
    ],
)
def test_bad_arguments_are_one_line_errors(call: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)


def test_an_illegal_action_names_the_environment() -> None:
    envs = vector_env("66", num_envs=3, seed=1)
    obs, _ = envs.reset()
    actions = envs.action_masks().argmax(axis=1)
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="environment 1"):
        envs.step(actions)


def test_the_package_exports_the_factories() -> None:
    import sixtysix.envs

    assert "vector_env" in sixtysix.envs.__all__ and "batch_env" in sixtysix.envs.__all__
