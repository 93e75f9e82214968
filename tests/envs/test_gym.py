"""The Gymnasium adapter: Gymnasium's own checker for every variant, reproducible episodes
with seeded bots, the engine's own scores as rewards, illegal actions forfeited by the fault
rule, and nothing in what the agent gets that its own view does not hold."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra")
from gymnasium.utils.env_checker import check_env

from sixtysix.bots.base import Bot
from sixtysix.core.actions import CONCEDE, Action
from sixtysix.core.errors import OptionError, UnknownBotError
from sixtysix.core.faults import FORFEIT_POINTS
from sixtysix.core.outcome import Reason
from sixtysix.core.view import View
from sixtysix.envs import MissingExtraError, encoder
from sixtysix.envs.episodes import deal_rewards, match_rewards
from sixtysix.envs.errors import ActionIdError
from sixtysix.envs.gym_env import gym_env
from sixtysix.plugins import hookimpl, manager
from sixtysix.plugins.manager import build_registry
from tests.envs.adapters import (
    VARIANTS,
    Recorder,
    assert_plain,
    install_third_party,
    pick,
    replay_deal,
    replay_match,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's advice


def play(env: Any, rnd: random.Random, seed: int | None = None) -> list[Any]:
    """One episode with random legal actions: every (observation, reward, info)."""
    obs, info = env.reset(seed=seed)
    steps: list[Any] = [(obs["observation"].tobytes(), 0.0, info)]
    while True:
        obs, reward, terminated, truncated, info = env.step(pick(obs["action_mask"], rnd))
        assert not truncated
        steps.append((obs["observation"].tobytes(), reward, info))
        if terminated:
            return steps


# ---------------------------------------------------------------- Gymnasium's own checker


@pytest.mark.parametrize("episode", ["deal", "match"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_check_env_with_random_opponents(variant: str, episode: str) -> None:
    check_env(gym_env(variant, opponents="random", episode=episode))


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_env_with_the_rule_player_in_another_seat(variant: str) -> None:
    check_env(gym_env(variant, opponents="heuristic", seat=1))


def test_check_env_with_a_third_party_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    check_env(gym_env(install_third_party(monkeypatch), opponents="@easy", episode="match"))


# ---------------------------------------------------------------- seeds and rewards


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_gives_the_same_episodes(variant: str) -> None:
    runs = []
    for _ in range(2):
        env = gym_env(variant, opponents="@easy")
        runs.append([play(env, random.Random(k), 21 if k == 0 else None) for k in range(3)])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_rewards_are_the_engines_game_points(
    variant: str, seat: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    env = gym_env(variant, opponents="heuristic", seat=seat)
    for episode in range(4):
        steps = play(env, random.Random(episode), 13 if episode == 0 else None)
        skipped = steps[0][2].get("skipped", 0)
        assert skipped == 0  # no variant's bots end a deal before the agent's turn
        outcome = replay_deal(env.unwrapped.variant, 13, episode, recorder.histories[-1])
        assert steps[-1][2]["outcome"] == outcome.as_json()
        assert steps[-1][1] == pytest.approx(deal_rewards(outcome.game_points)[seat])
        assert all(reward == 0 for _, reward, _ in steps[:-1])


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_match_episode_ends_when_the_variants_match_does(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    env = gym_env(variant, opponents="random", episode="match", target=3)
    steps = play(env, random.Random(4), 6)
    outcomes, totals, winners = replay_match(env.unwrapped.variant, 6, 0, recorder.histories)
    final = steps[-1][2]
    assert final["totals"] == totals and final["winners"] == winners
    assert final["deal"] == len(outcomes) - 1 > 0
    assert steps[-1][1] == match_rewards(winners, len(totals))[0]
    assert all(reward == 0 for _, reward, _ in steps[:-1])


# ---------------------------------------------------------------- faults


def test_an_illegal_action_forfeits_the_deal_by_the_fault_rule() -> None:
    env = gym_env("66", opponents="random")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated
    assert reward == deal_rewards((0, FORFEIT_POINTS))[0] == -FORFEIT_POINTS
    assert info["outcome"]["reason"] == Reason.FORFEIT
    assert info["fault"]["kind"] == "illegal" and info["fault"]["seat"] == 0
    assert np.flatnonzero(obs["action_mask"]).tolist() == [0]  # the one id an autoreset ignores


def test_in_a_match_an_illegal_action_forfeits_one_deal_and_the_match_goes_on() -> None:
    env = gym_env("66", opponents="random", episode="match")
    obs, _ = env.reset(seed=3)
    obs, reward, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert not terminated and reward == 0 and info["fault"]["kind"] == "illegal"
    assert info["totals"] == [0, FORFEIT_POINTS] and obs["action_mask"].any()


def test_stepping_a_finished_episode_needs_a_reset() -> None:
    import gymnasium

    env = gym_env("66", opponents="random")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    obs, _ = env.reset(seed=3)
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize("action", [-1, 42, "close", None])
def test_an_action_outside_the_space_raises(action: object) -> None:
    env = gym_env("66", opponents="random")
    env.reset(seed=3)
    with pytest.raises(ActionIdError):
        env.step(action)


class _Conceder(Bot):
    """Concedes the moment it may (a three-player declarer, on his first lead)."""

    name = "conceder"

    def choose(self, view: View) -> Action:
        return Action(CONCEDE) if CONCEDE in view.legal_actions else view.legal_actions[0]


class _Raiser(Bot):
    """A bot with a bug: it raises."""

    name = "raiser"

    def choose(self, view: View) -> Action:
        raise RuntimeError("bug")


def _install_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    module = ModuleType("test_bots")

    def register_bots(register: Callable[[type[Bot]], None]) -> None:
        register(_Conceder)
        register(_Raiser)

    module.register_bots = hookimpl(register_bots)  # type: ignore[attr-defined]
    monkeypatch.setattr(manager, "_cached", build_registry(autoload=False, extra=(module,)))


def test_a_deal_over_before_the_agents_first_turn_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _install_bots(monkeypatch)
    env = gym_env("66-3", opponents="conceder")
    skipped = []
    for k in range(12):
        obs, info = env.reset(seed=1 if k == 0 else None)
        assert obs["action_mask"].any()
        skipped.append(info.get("skipped", 0))
    assert any(skipped)  # the bots' declarer conceded at once, and the next deal was dealt


def test_a_bots_fault_forfeits_the_deal_for_its_side(monkeypatch: pytest.MonkeyPatch) -> None:
    _install_bots(monkeypatch)
    env = gym_env("66", opponents="raiser")
    rnd = random.Random(0)
    for k in range(6):
        obs, info = env.reset(seed=5 if k == 0 else None)
        # Where the bot led, it faulted at once: that deal is skipped, the next one dealt.
        assert info.get("faults", []) == [{"seat": 1, "kind": "crash"}] * info.get("skipped", 0)
        terminated = False
        while not terminated:  # the agent's turn may go on (a marriage, an exchange)
            obs, reward, terminated, _, info = env.step(pick(obs["action_mask"], rnd))
        assert info["faults"] == [{"seat": 1, "kind": "crash"}]
        assert info["outcome"]["reason"] == Reason.FORFEIT and reward == FORFEIT_POINTS


# ---------------------------------------------------------------- opponents


def test_one_spec_per_other_seat() -> None:
    env = gym_env("66-3", opponents=["random", "@easy"], seat=1)
    assert env.unwrapped.labels == ("random", "agent", "@easy")
    env.reset(seed=1)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"opponents": "nobody"}, UnknownBotError, "unknown bot 'nobody'"),
        ({"opponents": "@champion"}, UnknownBotError, "unknown level '@champion'"),
        ({"opponents": "heuristic:depth=3"}, UnknownBotError, "no parameter 'depth'"),
        ({"opponents": ["random", "random"]}, OptionError, "one opponent or 1 of them"),
        ({"seat": 2}, OptionError, "seat must be a seat 0..1"),
        ({"episode": "set"}, OptionError, "episode must be"),
        ({"render_mode": "rgb_array"}, OptionError, "render_mode"),
        ({"match_state": "yes"}, OptionError, "match_state must be True or False"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as caught:
        gym_env("66", **kwargs)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_without_gymnasium_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    with pytest.raises(MissingExtraError, match="the Gymnasium environment needs the rl extra"):
        gym_env("66")


# ---------------------------------------------------------------- hidden information


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_agent_observes_its_own_view_and_nothing_else(variant: str) -> None:
    env = gym_env(variant, opponents="heuristic", episode="match", target=3)
    enc = encoder(env.unwrapped.variant)
    obs, info = env.reset(seed=2)
    rnd = random.Random(1)
    while True:
        view = env.unwrapped.episodes.state.view(0)
        assert np.array_equal(obs["observation"], enc.info_state(view))
        assert obs["action_mask"].tolist() == [int(a in view.legal_actions) for a in range(42)]
        assert_plain(info)
        obs, _, terminated, _, info = env.step(pick(obs["action_mask"], rnd))
        if terminated:
            break


def test_render_ansi_is_the_agents_table() -> None:
    env = gym_env("66-4", opponents="random", seat=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "you are seat 2" in text and "agent" in text


def test_an_environment_pickles_mid_episode_and_goes_on_alike() -> None:
    import pickle

    env = gym_env("66", opponents="heuristic")
    obs, _ = env.reset(seed=4)
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(3):
        action = pick(obs["action_mask"], random.Random(0))
        obs, reward, terminated, _, info = env.step(action)
        other, other_reward, other_terminated, _, other_info = copy.step(action)
        assert np.array_equal(obs["observation"], other["observation"])
        assert (reward, terminated, info) == (other_reward, other_terminated, other_info)
        if terminated:
            break


# ---------------------------------------------------------------- the match's state


def match_part(enc: Any, vector: np.ndarray) -> np.ndarray:
    field = enc.layout.field("match")
    return vector[field.offset : field.offset + field.size]


@pytest.mark.parametrize("variant", VARIANTS)
def test_match_state_shows_the_score_as_a_match_goes_on(variant: str) -> None:
    """Each deal's observations (the agent's and a policy opponent's) hold the totals of the
    deals before it: the ``match`` part changes from deal to deal."""
    handed: list[np.ndarray] = []

    def lowest(obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
        handed.append(obs["observation"])
        return int(np.flatnonzero(mask)[0])

    env = gym_env(variant, opponents=lowest, episode="match", target=5, match_state=True)
    enc = encoder(env.unwrapped.variant, match=True)
    assert env.observation_space["observation"].shape == (enc.info_size,)
    assert env.spec.kwargs["match_state"] is True
    obs, _ = env.reset(seed=5)
    rnd = random.Random(5)
    parts = [match_part(enc, obs["observation"])]
    while True:
        obs, _, terminated, _, info = env.step(pick(obs["action_mask"], rnd))
        if terminated:
            break
        part = match_part(enc, obs["observation"])
        assert part[-1] == 1
        np.testing.assert_array_equal(
            obs["observation"], enc.info_state(env.unwrapped.episodes.state.view(0))
        )
        if "totals" in info:  # a deal ended: seat 0 sees the totals in seat order
            expected = [min(t / 5, 1.0) for t in info["totals"]]
            np.testing.assert_array_equal(part[: len(expected)], np.array(expected, np.float32))
        if not np.array_equal(part, parts[-1]):
            parts.append(part)
    assert len(parts) > 1
    assert handed and all(x.shape == (enc.info_size,) and match_part(enc, x)[-1] for x in handed)


def test_match_state_in_deal_episodes_is_zeros() -> None:
    """A deal episode is a deal played alone: the views carry no match, the part is zeros
    (the flag too), and the rest is the default encoder's observation."""
    env = gym_env("66", opponents="random", table_only=True, match_state=True)
    enc, base = encoder(env.unwrapped.variant, match=True), encoder(env.unwrapped.variant)
    assert env.observation_space["observation"].shape == (enc.obs_size,) == (265,)
    obs, _ = env.reset(seed=2)
    rnd = random.Random(2)
    for _ in range(3):
        terminated = False
        while not terminated:
            view = env.unwrapped.episodes.state.view(0)
            assert view.match is None and not match_part(enc, obs["observation"]).any()
            np.testing.assert_array_equal(
                obs["observation"][: base.obs_size], base.observation(view)
            )
            obs, _, terminated, _, _ = env.step(pick(obs["action_mask"], rnd))
        obs, _ = env.reset()
