"""The Gymnasium environment's other seats played by a Bot class or instance or any
``policy(observation, mask)`` callable: each handed its own seat's observation only, every wrong
answer that seat's fault, never a traceback; and the table-only observation."""

from __future__ import annotations

import gc
import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra")
from gymnasium.utils.env_checker import check_env

from sixtysix.bots.base import Bot
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import Action
from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.errors import OptionError
from sixtysix.core.faults import FORFEIT_POINTS
from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.envs import encoder, legal_mask
from sixtysix.envs.gym_env import gym_env
from sixtysix.envs.pettingzoo_env import pettingzoo_env
from tests.envs.adapters import VARIANTS, pick

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's advice


def play(env: Any, rnd: random.Random, seed: int | None = None) -> list[Any]:
    """One episode with random legal actions: every (observation, reward, info)."""
    obs, info = env.reset(seed=seed)
    steps: list[Any] = [(obs["observation"].tobytes(), 0.0, info)]
    while True:
        obs, reward, terminated, _, info = env.step(pick(obs["action_mask"], rnd))
        steps.append((obs["observation"].tobytes(), reward, info))
        if terminated:
            return steps


def lowest_legal(observation: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
    """A policy: the lowest legal id (a module-level function, so it pickles)."""
    return int(np.flatnonzero(mask)[0])


# ---------------------------------------------------------------- bots given as objects


def test_a_bot_class_plays_like_its_name() -> None:
    by_name = gym_env("66", opponents="heuristic")
    by_class = gym_env("66", opponents=HeuristicBot)
    assert by_class.unwrapped.labels == ("agent", "heuristic")
    for k in range(3):
        seed = 8 if k == 0 else None
        assert play(by_name, random.Random(k), seed) == play(by_class, random.Random(k), seed)


def test_a_bot_instance_is_asked_as_it_is() -> None:
    class Counting(HeuristicBot):
        asked = 0

        def choose(self, view: View) -> Action:
            assert view.seat == 1
            Counting.asked += 1
            return super().choose(view)

    bot = Counting(1, Seed(3))
    env = gym_env("66", opponents=bot)
    for k in range(3):
        play(env, random.Random(k), 1 if k == 0 else None)
    assert Counting.asked > 0
    assert env.unwrapped._seats.players[1].__self__ is bot


def test_a_bot_made_for_another_seat_is_refused() -> None:
    with pytest.raises(OptionError, match="made for seat 0 and cannot play seat 1"):
        gym_env("66", opponents=HeuristicBot(0, Seed(1)))
    with pytest.raises(OptionError, match="cannot play seat 2"):  # one instance, two seats
        gym_env("66-3", opponents=HeuristicBot(1, Seed(1)))


def test_one_opponent_of_each_kind_per_seat() -> None:
    env = gym_env("66-4", opponents=[RandomBot, lowest_legal, "@easy"], seat=2)
    assert env.unwrapped.labels == ("random", "policy", "agent", "@easy")
    check_env(env)


@pytest.mark.parametrize(
    ("opponents", "words"),
    [
        (int, "must be a Bot subclass"),
        (3, "an opponent is a bot name or level, a Bot class or instance"),
        ([lowest_legal, lowest_legal], "one opponent or 1 of them"),
    ],
)
def test_bad_opponents_are_one_line_errors(opponents: Any, words: str) -> None:
    with pytest.raises(OptionError) as caught:
        gym_env("66", opponents=opponents)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_bot_class_that_cannot_be_made_is_a_one_line_error() -> None:
    class Needy(Bot):
        name = "needy"

        def __init__(self, seat: int, seed: Seed, params: Any = None) -> None:
            raise RuntimeError("needs a model file")

    with pytest.raises(OptionError, match="Needy cannot be made for seat 1: RuntimeError"):
        gym_env("66", opponents=Needy)


# ---------------------------------------------------------------- policies


@pytest.mark.parametrize("table_only", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_policy_is_handed_its_own_seats_observation_and_nothing_else(
    variant: str, table_only: bool
) -> None:
    """The policy tries to cheat: it digs through what it is given for objects, and its
    observation is compared with the encoding of its own view and with the other hands."""
    calls: list[int] = []
    holder: list[Any] = []

    def cheater(observation: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
        state = holder[0].unwrapped.episodes.state  # the test's oracle, not the policy's
        me = state.to_act
        view = state.view(me)
        enc = encoder(holder[0].unwrapped.variant)
        expected = enc.observation(view) if table_only else enc.info_state(view)
        assert set(observation) == {"observation", "action_mask"}
        assert np.array_equal(observation["observation"], expected)
        assert observation["observation"].dtype == np.float32
        assert np.array_equal(observation["action_mask"], legal_mask(view))
        assert mask.dtype == np.bool_ and np.array_equal(mask, legal_mask(view).astype(bool))
        hand = enc.layout.field("hand")
        held = np.flatnonzero(observation["observation"][hand.offset : hand.offset + NUM_CARDS])
        assert set(held.tolist()) == set(state.view(me).hand)
        others = {c for s in range(state.n) if s != me for c in state.view(s).hand}
        assert not others & set(held.tolist())  # no other seat's card in its hand field
        for value in (observation, *observation.values(), mask):
            found = [
                r for r in gc.get_referents(value) if type(r).__module__.startswith("sixtysix")
            ]
            assert not found  # plain numbers: no state, view or bot to read other hands from
        calls.append(me)
        return int(np.flatnonzero(mask)[0])

    env = gym_env(variant, opponents=cheater, table_only=table_only, episode="match", target=3)
    holder.append(env)
    play(env, random.Random(1), 4)
    assert calls and 0 not in calls  # asked for every other seat, never the agent's


def test_a_frozen_learners_answers_are_taken_as_numpy_gives_them() -> None:
    answers = [np.int64, np.int32, lambda a: np.array(a), lambda a: np.array([a])]
    for make in answers:
        env = gym_env("66", opponents=lambda obs, mask, make=make: make(np.flatnonzero(mask)[-1]))
        for k in range(3):
            steps = play(env, random.Random(k), 2 if k == 0 else None)
            assert "faults" not in steps[-1][2] and "faults" not in steps[0][2]


def _episode_faults(env: Any, episodes: int = 4) -> list[Any]:
    """The opponents' faults of a few episodes, and the last step's info of each."""
    out = []
    rnd = random.Random(0)
    for k in range(episodes):
        obs, info = env.reset(seed=6 if k == 0 else None)
        faults = list(info.get("faults", []))
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(pick(obs["action_mask"], rnd))
        faults += info.get("faults", [])
        out.append((faults, info, reward))
    return out


@pytest.mark.parametrize(
    ("policy", "kind"),
    [
        (lambda obs, mask: int(np.flatnonzero(mask == 0)[0]), "illegal"),  # not legal
        (lambda obs, mask: 42, "illegal"),  # not an id at all
        (lambda obs, mask: None, "illegal"),  # no answer
        (lambda obs, mask: 1.0, "illegal"),  # a float
        (lambda obs, mask: True, "illegal"),  # a bool is not an id
        (lambda obs, mask: np.array([0, 1]), "illegal"),  # a batch, not an id
        (lambda obs, mask: 1 // 0, "crash"),  # it raises
    ],
)
def test_a_wrong_answer_is_the_policys_seats_fault(policy: Any, kind: str) -> None:
    env = gym_env("66", opponents=policy)
    for faults, info, reward in _episode_faults(env):
        # The policy's first answer of each deal forfeited it (a deal it led was skipped at
        # reset); the episode's deal ended there, paid by the fault rule.
        assert faults and all(f == {"seat": 1, "kind": kind} for f in faults)
        assert info["outcome"]["reason"] == Reason.FORFEIT
        assert info["outcome"]["game_points"] == [FORFEIT_POINTS, 0]
        assert reward == FORFEIT_POINTS


def test_a_policy_in_every_other_seat_of_four() -> None:
    seats: set[int] = set()
    holder: list[Any] = []

    def policy(obs: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
        seats.add(holder[0].unwrapped.episodes.state.to_act)
        return int(np.flatnonzero(mask)[-1])

    env = gym_env("66-4", opponents=policy, seat=3)
    holder.append(env)
    for k in range(3):
        play(env, random.Random(k), 9 if k == 0 else None)
    assert seats == {0, 1, 2}


# ---------------------------------------------------------------- pickling


def test_environments_with_names_classes_and_module_functions_pickle() -> None:
    env = gym_env("66-3", opponents=[HeuristicBot, lowest_legal])
    obs, _ = env.reset(seed=4)
    copy = pickle.loads(pickle.dumps(env))
    rnd, again = random.Random(0), random.Random(0)
    for _ in range(4):
        one = env.step(pick(obs["action_mask"], rnd))
        two = copy.step(pick(obs["action_mask"], again))
        assert np.array_equal(one[0]["observation"], two[0]["observation"])
        assert one[1:] == two[1:]
        obs = one[0]
        if one[2]:
            break


def test_an_environment_with_a_lambda_pickles_as_the_lambda_does() -> None:
    env = gym_env("66", opponents=lambda obs, mask: 0)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(env)


# ---------------------------------------------------------------- the table alone


@pytest.mark.parametrize("variant", VARIANTS)
def test_table_only_observes_the_table_now(variant: str) -> None:
    env = gym_env(variant, opponents="random", table_only=True)
    enc = encoder(env.unwrapped.variant)
    assert env.observation_space["observation"].shape == (enc.obs_size,)
    if variant == "66":
        assert enc.obs_size == 256
    check_env(env)
    obs, _ = env.reset(seed=3)
    rnd = random.Random(3)
    while True:
        view = env.unwrapped.episodes.state.view(0)
        assert np.array_equal(obs["observation"], enc.observation(view))
        obs, _, terminated, _, _ = env.step(pick(obs["action_mask"], rnd))
        if terminated:
            break


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_table_only_observes_the_table_now(variant: str) -> None:
    from pettingzoo.test import api_test

    env = pettingzoo_env(variant, table_only=True)
    enc = encoder(env.unwrapped.variant)
    assert env.observation_space("player_0")["observation"].shape == (enc.obs_size,)
    api_test(env, num_cycles=100)
    env.reset(seed=2)
    rnd = random.Random(2)
    for agent in env.agent_iter():
        seat = env.possible_agents.index(agent)
        obs, _, terminated, truncated, _ = env.last()
        view = env.unwrapped.episodes.state.view(seat)
        assert np.array_equal(obs["observation"], enc.observation(view))
        env.step(None if terminated or truncated else pick(obs["action_mask"], rnd))


@pytest.mark.parametrize("value", [1, "yes", None])
def test_table_only_is_a_bool(value: object) -> None:
    with pytest.raises(OptionError, match="table_only must be True or False"):
        gym_env("66", table_only=value)
    with pytest.raises(OptionError, match="table_only must be True or False"):
        pettingzoo_env("66", table_only=value)
