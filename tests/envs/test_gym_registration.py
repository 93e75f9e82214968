"""The Gymnasium ids: ``gym.make`` and ``gym.make_vec`` for every installed variant (a plugin's
too), with a spec that lets Gymnasium's checker run its render checks; ``action_masks()``; and a
mask with a legal id in every observation a library receives, the end of an episode included,
under Gymnasium's vector environments and the loops of sb3 and CleanRL."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra")
import gymnasium as gym
from gymnasium.utils import env_checker
from gymnasium.vector import AutoresetMode

from sixtysix.envs import encoder
from sixtysix.envs.gym_env import gym_env
from sixtysix.envs.registration import ENTRY_POINT, gym_ids, pettingzoo_name, register_gym_envs
from sixtysix.plugins.manager import get_registry
from tests.envs.adapters import install_third_party, pick

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's advice

#: The built-in ids and the variant each makes.
BUILT_IN = {
    "sixtysix/66-v0": "sixtysix",
    "sixtysix/schnapsen-v0": "schnapsen",
    "sixtysix/66-3-v0": "sixtysix-3",
    "sixtysix/66-4-v0": "sixtysix-4",
}

needs_santase = pytest.mark.skipif(
    "santase" not in get_registry().variants, reason="the example plugin is not installed"
)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The environments Gymnasium's checker renders (a spy on its render check)."""
    seen: list[Any] = []
    original = env_checker.env_render_passive_checker

    def spy(env: Any) -> None:
        seen.append(env.render_mode)
        original(env)

    monkeypatch.setattr(env_checker, "env_render_passive_checker", spy)
    return seen


# ---------------------------------------------------------------- registration


def test_importing_sixtysix_envs_registers_every_installed_variant() -> None:
    ids = gym_ids()
    assert {i: n for n, i in ids.items() if n in BUILT_IN.values()} == BUILT_IN
    for name, env_id in ids.items():
        spec = gym.spec(env_id)
        assert spec.entry_point == ENTRY_POINT and spec.kwargs == {"variant": name}
    assert sorted(register_gym_envs()) == sorted(ids.values())  # again: nothing changes


@pytest.mark.parametrize("env_id", sorted(BUILT_IN))
def test_gym_make_passes_the_checker_with_its_render_checks(
    env_id: str, renders: list[Any]
) -> None:
    env = gym.make(env_id, opponents="random", seat=1)
    assert env.unwrapped.variant.name == BUILT_IN[env_id] and env.unwrapped.seat == 1
    assert env.spec.id == env_id and env.spec.kwargs["opponents"] == "random"
    env_checker.check_env(env.unwrapped)
    assert sorted(renders) == ["ansi", "human"]  # a new environment per mode, from the spec


def test_options_presets_and_episodes_pass_through_gym_make() -> None:
    env = gym.make("sixtysix/66-v0", opponents=["@easy"], episode="match", target=3)
    assert env.unwrapped.variant.options.target == 3 and env.unwrapped.episodes.match
    env = gym.make("sixtysix/66-v0", preset="classic")
    assert (
        env.unwrapped.variant.options == get_registry().variant("66").configure("classic").options
    )


def test_match_state_passes_through_gym_make() -> None:
    env = gym.make("sixtysix/66-v0", opponents="random", episode="match", match_state=True)
    size = encoder(env.unwrapped.variant, match=True).info_size
    assert env.observation_space["observation"].shape == (size,) == (1225,)
    assert env.spec.kwargs["match_state"] is True
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (size,)
    assert gym.make("sixtysix/66-v0").observation_space["observation"].shape == (1216,)


def test_an_environment_made_directly_has_the_same_spec(renders: list[Any]) -> None:
    env = gym_env("schnapsen", opponents="heuristic", seat=1, target=3)
    assert env.spec.id == "sixtysix/schnapsen-v0" and env.spec.entry_point == ENTRY_POINT
    assert env.spec.kwargs["seat"] == 1 and env.spec.kwargs["target"] == 3
    env_checker.check_env(env)
    assert sorted(renders) == ["ansi", "human"]
    again = env.spec.make()
    assert again.unwrapped.variant.options.target == 3 and again.unwrapped.seat == 1


@needs_santase
def test_an_installed_plugins_variant_has_its_id(renders: list[Any]) -> None:
    env = gym.make("sixtysix/santase-v0", opponents="random")
    assert env.unwrapped.variant.name == "santase"
    env_checker.check_env(env.unwrapped)
    assert sorted(renders) == ["ansi", "human"]


@pytest.fixture
def restored_registry() -> Iterator[None]:
    saved = dict(gym.registry)
    yield
    gym.registry.clear()
    gym.registry.update(saved)


def test_a_plugin_added_in_the_process_is_registered_on_request(
    monkeypatch: pytest.MonkeyPatch, restored_registry: None
) -> None:
    install_third_party(monkeypatch)
    assert "sixtysix/short-v0" in register_gym_envs()
    env = gym.make("sixtysix/short-v0", opponents="random")
    assert env.unwrapped.variant.name == "short-schnapsen"
    env_checker.check_env(env.unwrapped)


def test_the_module_id_form_needs_no_import_first() -> None:
    code = (
        "import gymnasium as gym, sys\n"
        "assert 'sixtysix.envs' not in sys.modules\n"
        "try:\n"
        "    gym.make('sixtysix/66-v0')\n"
        "except gym.error.NamespaceNotFound:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('registered without an import')\n"
        "env = gym.make('sixtysix.envs:sixtysix/66-3-v0', opponents='random')\n"
        "obs, _ = env.reset(seed=1)\n"
        "assert env.unwrapped.variant.name == 'sixtysix-3' and obs['action_mask'].any()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_gymnasium_the_import_registers_nothing_and_works() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import sixtysix.envs\n"
        "from sixtysix.envs import MissingExtraError, gym_env\n"
        "try:\n"
        "    gym_env('66')\n"
        "except MissingExtraError as e:\n"
        "    assert 'rl extra' in str(e)\n"
        "else:\n"
        "    raise AssertionError('no error')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_names_follow_the_variants_aliases() -> None:
    from sixtysix.envs.openspiel_game import game_name

    for cls in get_registry().variants.values():
        assert pettingzoo_name(cls) == game_name(cls) + "_v0"
    assert pettingzoo_name(get_registry().variant("66")) == "sixtysix_66_v0"
    assert pettingzoo_name(get_registry().variant("66-4")) == "sixtysix_66_4_v0"


# ---------------------------------------------------------------- action_masks


@pytest.mark.parametrize("env_id", sorted(BUILT_IN))
def test_action_masks_is_the_observations_mask_as_bool(env_id: str) -> None:
    env = gym.make(env_id, opponents="random", episode="match", target=3)
    masks = env.get_wrapper_attr("action_masks")
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.action_masks()
    obs, _ = env.reset(seed=2)
    rnd = random.Random(2)
    terminated = False
    while not terminated:
        got = masks()
        assert got.dtype == np.bool_ and got.shape == (42,)
        assert np.array_equal(got, obs["action_mask"].astype(bool)) and got.any()
        obs, _, terminated, _, _ = env.step(pick(obs["action_mask"], rnd))
    assert np.array_equal(masks(), obs["action_mask"].astype(bool))


@pytest.mark.parametrize("variant", ["66", "schnapsen", "66-3", "66-4"])
def test_the_last_observation_allows_the_lowest_usable_id_only(variant: str) -> None:
    env = gym_env(variant, opponents="random")
    lowest = encoder(env.unwrapped.variant).usable_ids[0]
    assert lowest == (1 if variant == "schnapsen" else 0)  # Schnapsen has no nines
    obs, _ = env.reset(seed=5)
    rnd = random.Random(5)
    for _ in range(3):
        terminated = False
        while not terminated:
            obs, _, terminated, _, _ = env.step(pick(obs["action_mask"], rnd))
        assert np.flatnonzero(obs["action_mask"]).tolist() == [lowest]
        view = env.unwrapped.episodes.state.view(0)
        assert not view.legal_actions  # nothing is left to play: the id is a filler
        obs, _ = env.reset()


# ---------------------------------------------------------------- vector environments


def _sample(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A random legal id per row, as a masked policy samples (fails on an empty mask)."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("env_id", ["sixtysix/66-v0", "sixtysix/66-3-v0"])
def test_make_vec_next_step_autoreset_has_a_legal_id_in_every_mask(env_id: str) -> None:
    envs = gym.make_vec(env_id, num_envs=4, vectorization_mode="sync", opponents="random")
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    lowest = envs.envs[0].unwrapped.encoder.usable_ids[0]
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=3)
    ended = np.zeros(4, dtype=bool)
    episodes = 0
    for _ in range(300):
        masks = obs["action_mask"]
        assert masks.shape == (4, 42) and masks.any(axis=1).all()
        called = np.stack(envs.call("action_masks"))
        assert np.array_equal(called, masks.astype(bool))
        obs, rewards, terminated, truncated, _ = envs.step(_sample(masks, rng))
        assert not truncated.any()
        # The step after an episode's end: the filler id was taken, ignored, and a new
        # episode started (no reward, not over).
        assert (rewards[ended] == 0).all() and not terminated[ended].any()
        for j in np.flatnonzero(terminated):
            assert np.flatnonzero(obs["action_mask"][j]).tolist() == [lowest]
        ended = terminated
        episodes += int(terminated.sum())
    assert episodes > 20


def test_make_vec_same_step_autoreset_keeps_legal_masks_and_final_observations() -> None:
    envs = gym.make_vec(
        "sixtysix/schnapsen-v0",
        num_envs=3,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
        opponents="random",
    )
    rng = np.random.default_rng(1)
    obs, _ = envs.reset(seed=4)
    finals = 0
    for _ in range(150):
        assert obs["action_mask"].any(axis=1).all()
        obs, _, terminated, _, infos = envs.step(_sample(obs["action_mask"], rng))
        for j in np.flatnonzero(terminated):
            assert infos["final_obs"][j]["action_mask"].any()
            finals += 1
    assert finals > 5


def test_make_vec_async_runs_with_names() -> None:
    envs = gym.make_vec(
        "sixtysix/66-v0", num_envs=2, vectorization_mode="async", opponents="heuristic"
    )
    try:
        rng = np.random.default_rng(2)
        obs, _ = envs.reset(seed=1)
        for _ in range(30):
            assert obs["action_mask"].any(axis=1).all()
            obs, *_ = envs.step(_sample(obs["action_mask"], rng))
    finally:
        envs.close()


def test_an_sb3_style_loop_reads_a_legal_mask_after_every_autoreset() -> None:
    """What MaskablePPO on sb3's DummyVecEnv sees: step, on the episode's end keep the last
    observation and reset at once, then ask every environment's ``action_masks()``."""
    envs = [gym.make("sixtysix/66-4-v0", opponents="random") for _ in range(3)]
    rng = np.random.default_rng(3)
    for k, env in enumerate(envs):
        env.reset(seed=k)
    ends = 0
    for _ in range(200):
        masks = np.stack([env.get_wrapper_attr("action_masks")() for env in envs])
        assert masks.any(axis=1).all()
        for env, action in zip(envs, _sample(masks, rng), strict=True):
            terminal, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                assert terminal["action_mask"].any()  # info["terminal_observation"]
                env.reset()
                ends += 1
    assert ends > 10
