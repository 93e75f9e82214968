"""The PettingZoo adapter: PettingZoo's own API and seed tests for every variant (and a third
party's), reproducible deals, the engine's own scores as rewards, matches that end when the
variant says, and nothing in what an agent gets that its own view does not hold."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra")
pytest.importorskip("gymnasium", reason="needs the rl extra")
from pettingzoo.test import api_test, seed_test

from sixtysix.core.errors import OptionError, UnknownVariantError
from sixtysix.core.faults import FORFEIT_POINTS
from sixtysix.core.outcome import Reason
from sixtysix.envs import MissingExtraError, encoder
from sixtysix.envs.episodes import deal_rewards, match_rewards
from sixtysix.envs.errors import ActionIdError
from sixtysix.envs.pettingzoo_env import pettingzoo_env
from sixtysix.plugins.manager import get_registry
from tests.envs.adapters import (
    VARIANTS,
    Recorder,
    assert_plain,
    install_third_party,
    pick,
    replay_deal,
    replay_match,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice on Dict spaces


def play(env: Any, rnd: random.Random) -> tuple[list[Any], dict[str, float]]:
    """One episode with random legal actions: every (agent, observation, action), the rewards."""
    steps: list[Any] = []
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        action = None if terminated or truncated else pick(obs["action_mask"], rnd)
        steps.append((agent, obs["observation"].tobytes(), action, reward, info))
        env.step(action)
    return steps, returns


# ---------------------------------------------------------------- PettingZoo's own tests


@pytest.mark.parametrize("episode", ["deal", "match"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant: str, episode: str) -> None:
    api_test(pettingzoo_env(variant, episode=episode), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("episode", ["deal", "match"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant: str, episode: str) -> None:
    seed_test(lambda: pettingzoo_env(variant, episode=episode), num_cycles=300)


def test_a_third_party_variant_passes_them_too(monkeypatch: pytest.MonkeyPatch) -> None:
    third_party = install_third_party(monkeypatch)
    api_test(pettingzoo_env(third_party, episode="match"), num_cycles=300)
    seed_test(lambda: pettingzoo_env(third_party, episode="match"))
    env = pettingzoo_env(third_party)
    assert env.unwrapped.variant.name == "short-schnapsen"


# ---------------------------------------------------------------- seeds and deals


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_gives_the_same_episodes(variant: str) -> None:
    runs = []
    for _ in range(2):
        env = pettingzoo_env(variant)
        env.reset(seed=7)
        first = play(env, random.Random(1))
        env.reset()  # the episode after it, the same after the same seed
        runs.append((first, play(env, random.Random(2))))
    assert runs[0] == runs[1]
    env = pettingzoo_env(variant)
    env.reset(seed=8)
    assert play(env, random.Random(1)) != runs[0][0]


def test_without_a_seed_the_deals_are_secure_random() -> None:
    firsts = []
    for _ in range(2):
        env = pettingzoo_env("66")
        env.reset()
        firsts.append([env.observe(a)["observation"].tobytes() for a in env.possible_agents])
        assert not env.unwrapped.episodes.seed.reproducible
    assert firsts[0] != firsts[1]


def test_reset_seed_deals_as_play_does() -> None:
    """Episode 0 of a seed has the cards of ``sixtysix play VARIANT --seed`` (path ())."""
    from sixtysix.core.rng import Seed

    env = pettingzoo_env("schnapsen")
    env.reset(seed=42)
    variant = env.unwrapped.variant
    seed = Seed(42)
    setup = variant.deal(seed, ("deal", 0), variant.first_dealer(seed))
    assert env.unwrapped.episodes.state.setup == setup


# ---------------------------------------------------------------- rewards are the engine's


@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_rewards_are_the_engines_game_points(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    env = pettingzoo_env(variant)
    for episode in range(6):
        env.reset(seed=11) if episode == 0 else env.reset()
        steps, returns = play(env, random.Random(episode))
        outcome = replay_deal(env.unwrapped.variant, 11, episode, recorder.histories[-1])
        assert steps[-1][4]["outcome"] == outcome.as_json()
        expected = deal_rewards(outcome.game_points)
        assert [returns[a] for a in env.possible_agents] == pytest.approx(expected)
        assert sum(expected) == pytest.approx(0.0)


def test_rewards_are_zero_sum_and_alike_for_a_side() -> None:
    assert deal_rewards((3, 0)) == (3.0, -3.0)
    assert deal_rewards((0, 2, 0, 2)) == pytest.approx((-4 / 3, 4 / 3, -4 / 3, 4 / 3))
    assert deal_rewards((4, 0, 0, 0)) == pytest.approx((4.0, -4 / 3, -4 / 3, -4 / 3))
    assert deal_rewards((0, 1, 1)) == pytest.approx((-1.0, 0.5, 0.5))
    assert match_rewards([1], 2) == (-1.0, 1.0)
    assert match_rewards([0, 1], 2) == (0.0, 0.0)  # a shared win is a draw
    assert match_rewards([0], 3) == (1.0, -0.5, -0.5)
    assert match_rewards([0, 2], 3) == (0.5, -1.0, 0.5)
    assert match_rewards([2], 4) == pytest.approx((-1 / 3, -1 / 3, 1.0, -1 / 3))
    assert match_rewards([1, 3], 4) == pytest.approx((-2 / 3, 2 / 3, -2 / 3, 2 / 3))
    for seats in (2, 3, 4):
        for winners in itertools.chain.from_iterable(
            itertools.combinations(range(seats), k) for k in range(1, seats + 1)
        ):
            assert sum(match_rewards(winners, seats)) == pytest.approx(0.0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_match_episode_ends_when_the_variants_match_does(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    env = pettingzoo_env(variant, episode="match", target=3)
    env.reset(seed=5)
    steps, returns = play(env, random.Random(3))
    outcomes, totals, winners = replay_match(env.unwrapped.variant, 5, 0, recorder.histories)
    assert len(recorder.histories) == len(outcomes) > 1
    final = steps[-1][4]
    assert final["totals"] == totals and final["winners"] == winners
    assert final["deal"] == len(outcomes) - 1
    assert [returns[a] for a in env.possible_agents] == list(match_rewards(winners, len(totals)))
    # Nothing is paid before the match's end, and no agent is done before it.
    live = [s for s in steps if s[2] is not None]
    assert all(s[3] == 0 for s in live)


def test_a_match_of_a_fixed_number_of_deals_plays_them_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorder = Recorder(monkeypatch)
    env = pettingzoo_env("66", episode="match", match="four_deals")
    env.reset(seed=12)
    steps, returns = play(env, random.Random(5))
    assert len(recorder.histories) == 4 and steps[-1][4]["deal"] == 3
    outcomes, totals, winners = replay_match(env.unwrapped.variant, 12, 0, recorder.histories)
    assert len(outcomes) == 4 and steps[-1][4]["winners"] == winners
    assert steps[-1][4]["totals"] == totals
    assert [returns[a] for a in env.possible_agents] == list(match_rewards(winners, 2))


# ---------------------------------------------------------------- illegal actions


def test_an_illegal_action_forfeits_the_deal_by_the_fault_rule() -> None:
    env = pettingzoo_env("66")
    env.reset(seed=3)
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    gp = tuple(0 if s == seat else FORFEIT_POINTS for s in range(2))
    assert [env._cumulative_rewards[a] for a in env.possible_agents] == list(deal_rewards(gp))
    info = env.infos[agent]
    assert info["outcome"]["reason"] == Reason.FORFEIT
    assert info["fault"]["kind"] == "illegal" and info["fault"]["seat"] == seat
    assert "reason" in info["fault"]  # the engine's why, to the faulting agent only
    other = env.infos[env.possible_agents[1 - seat]]
    assert "reason" not in other["fault"] and other["fault"]["seat"] == seat


@pytest.mark.parametrize("action", [-1, 42, "play QD", 1.5, None])
def test_an_action_outside_the_space_raises(action: object) -> None:
    env = pettingzoo_env("66")
    env.reset(seed=3)
    with pytest.raises(ActionIdError):
        env.step(action)


def test_numpy_integers_are_actions() -> None:
    env = pettingzoo_env("66")
    env.reset(seed=3)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.int64(legal[0]))
    assert not any(env.terminations.values())


# ---------------------------------------------------------------- hidden information


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_agent_observes_its_own_view_and_nothing_else(variant: str) -> None:
    env = pettingzoo_env(variant, episode="match", target=3)
    enc = encoder(env.unwrapped.variant)
    env.reset(seed=9)
    rnd = random.Random(0)
    for _ in env.agent_iter():
        state = env.unwrapped.episodes.state
        for other in env.agents:
            seat = env.possible_agents.index(other)
            obs = env.observe(other)
            view = state.view(seat)
            assert np.array_equal(obs["observation"], enc.info_state(view))
            assert obs["observation"].dtype == np.float32
            assert obs["action_mask"].tolist() == [int(a in view.legal_actions) for a in range(42)]
            assert_plain(env.infos[other])
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else pick(obs["action_mask"], rnd))


def test_observations_are_fresh_arrays() -> None:
    env = pettingzoo_env("66")
    env.reset(seed=1)
    agent = env.agent_selection
    one, two = env.observe(agent), env.observe(agent)
    one["observation"][:] = 0
    one["action_mask"][:] = 0
    assert two["observation"].any() and two["action_mask"].any()


def test_a_cheat_finds_no_other_hand_in_what_it_is_given() -> None:
    """An agent that digs through its observation and infos for objects finds numbers only."""
    import gc

    env = pettingzoo_env("66-4")
    env.reset(seed=2)
    obs, _, _, _, info = env.last()
    for array in obs.values():
        assert isinstance(array, np.ndarray)
        reachable = gc.get_referents(array)
        assert not [r for r in reachable if type(r).__module__.startswith("sixtysix")]
    assert_plain(info)
    assert_plain(env.infos)


# ---------------------------------------------------------------- rendering and errors


def test_render_ansi_shows_the_table_of_the_agent_to_act() -> None:
    env = pettingzoo_env("66", render_mode="ansi")
    env.reset(seed=1)
    seat = env.possible_agents.index(env.agent_selection)
    text = env.render()
    assert f"you are seat {seat}" in text and "Your hand" in text


def test_render_human_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = pettingzoo_env("schnapsen", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "Your hand" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"variant": "77"}, UnknownVariantError, "unknown variant '77'"),
        ({"variant": "66", "trumps": 3}, OptionError, "trumps"),
        ({"variant": "66", "episode": "game"}, OptionError, "episode must be one of deal, match"),
        ({"variant": "66", "render_mode": "rgb_array"}, OptionError, "render_mode"),
        ({"variant": "66", "preset": "nope"}, OptionError, "unknown preset"),
        ({"variant": "66", "match_state": 1}, OptionError, "match_state must be True or False"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as caught:
        pettingzoo_env(**kwargs)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_configured_variant_is_played_as_it_is() -> None:
    variant = get_registry().variant("66").configure(None, {"target": 3})
    env = pettingzoo_env(variant)
    assert env.unwrapped.variant is variant
    with pytest.raises(OptionError):
        pettingzoo_env(variant, target=5)


def test_without_pettingzoo_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(
        MissingExtraError, match=r"needs the rl extra: pip install 'sixtysix\[rl\]'"
    ):
        pettingzoo_env("66")


def test_importing_the_adapters_imports_no_pettingzoo() -> None:
    """Gymnasium is imported to register the ids (tests/envs/test_gym_registration.py)."""
    code = (
        "import sys, sixtysix.envs.pettingzoo_env, sixtysix.envs.gym_env;"
        "assert 'pettingzoo' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("variant", "name"),
    [
        ("66", "sixtysix_66_v0"),
        ("schnapsen", "sixtysix_schnapsen_v0"),
        ("66-3", "sixtysix_66_3_v0"),
        ("66-4", "sixtysix_66_4_v0"),
    ],
)
def test_the_name_is_the_variants_short_name(variant: str, name: str) -> None:
    assert pettingzoo_env(variant).metadata["name"] == name
    assert pettingzoo_env(variant, target=3).metadata["name"] == name


def test_a_third_partys_name_follows_its_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    assert pettingzoo_env(install_third_party(monkeypatch)).metadata["name"] == "sixtysix_short_v0"


def test_the_research_pages_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text("utf-8")
    section = page.split("## PettingZoo and Gymnasium", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 5
    for code in blocks:
        exec(compile(code, "docs/research.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 4 and "player_0" in printed[0] and "reason" in printed[1]
    assert printed[2] == "('heuristic', 'agent', 'policy') (266,)"
    assert printed[3].endswith("episodes, a legal id in every mask")


def test_an_environment_pickles_mid_episode_and_goes_on_alike() -> None:
    import pickle

    env = pettingzoo_env("66-3")
    env.reset(seed=4)
    copy = pickle.loads(pickle.dumps(env))
    assert play(env, random.Random(1)) == play(copy, random.Random(1))


# ---------------------------------------------------------------- the match's state


def match_part(enc: Any, vector: np.ndarray) -> np.ndarray:
    field = enc.layout.field("match")
    return vector[field.offset : field.offset + field.size]


@pytest.mark.parametrize("variant", VARIANTS)
def test_match_state_shows_each_agent_the_score_as_a_match_goes_on(variant: str) -> None:
    env = pettingzoo_env(variant, episode="match", target=5, match_state=True)
    enc = encoder(env.unwrapped.variant, match=True)
    assert env.observation_space("player_0")["observation"].shape == (enc.info_size,)
    env.reset(seed=3)
    rnd = random.Random(3)
    parts: dict[str, set[bytes]] = {agent: set() for agent in env.possible_agents}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        view = env.unwrapped.episodes.state.view(env.possible_agents.index(agent))
        np.testing.assert_array_equal(obs["observation"], enc.info_state(view))
        assert match_part(enc, obs["observation"])[-1] == 1
        parts[agent].add(match_part(enc, obs["observation"]).tobytes())
        env.step(None if terminated or truncated else pick(obs["action_mask"], rnd))
    assert all(len(seen) > 1 for seen in parts.values())


def test_match_state_in_deal_episodes_is_zeros() -> None:
    env = pettingzoo_env("66-4", table_only=True, match_state=True)
    enc = encoder(env.unwrapped.variant, match=True)
    assert env.observation_space("player_3")["observation"].shape == (enc.obs_size,) == (350,)
    env.reset(seed=1)
    rnd = random.Random(1)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert not match_part(enc, obs["observation"]).any()
        env.step(None if terminated or truncated else pick(obs["action_mask"], rnd))
