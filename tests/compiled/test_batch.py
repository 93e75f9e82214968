"""The batched environments' numpy API (sixtysix.compiled.batch) held to the engine: each
environment's deals are the engine's deals of its seed, its random opponent is the engine's
RandomBot of that seed, and at every step the observation (converted to float32) and the mask
are the Encoder's and the engine's for the same deal and history, for 66 and Schnapsen under
several option sets, against random and in self-play."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("numba", reason="needs the fast extra")

from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.errors import IllegalActionError, OptionError
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.envs import encoder, legal_mask
from sixtysix.envs.batched import batch_env
from sixtysix.envs.episodes import deal_rewards, episode_path
from sixtysix.plugins.manager import build_registry

REGISTRY = build_registry()

#: Option sets the compiled rules play (the allow-list admits them), presets among them.
CONFIGS: list[tuple[str, str | None, dict[str, object]]] = [
    ("66", None, {}),
    ("66", "classic", {}),
    ("66", None, {"talonless": True}),
    ("66", None, {"exchange_needs_trick": False, "marriage_after_close": False}),
    ("66", None, {"close_needs_trick": True, "marriages": False, "exchange": False}),
    (
        "66",
        None,
        {"schneider_card_points_only": True, "last_trick_bonus": 20, "exchange_min_talon": 5},
    ),
    ("schnapsen", None, {}),
    ("schnapsen", None, {"claim": "manual", "closing": False}),
]


def make(name: str, preset: str | None, options: dict[str, object]) -> Variant:
    cls = REGISTRY.variant(name)
    values = {**(cls.presets[preset] if preset else {}), **options}
    return cls.configure(None, values)


class Reference:
    """Environment ``env`` of a batch played by the engine itself: its episodes dealt from
    ``Seed(seed).child(("env", env))`` as the single environments deal theirs, the random
    opponent a RandomBot of that seed, observed through the Encoder."""

    def __init__(self, variant: Variant, seed: int, env: int, opponents: str, seat: int) -> None:
        self.variant = variant
        self.seed = Seed(seed).child(("env", env))
        self.opponents = opponents
        self.seat = seat
        self.episode = -1
        self.skipped = 0
        self.state: DealState = self.new_episode()

    def new_episode(self) -> DealState:
        while True:
            self.episode += 1
            path = episode_path(self.episode)
            dealer = self.variant.first_dealer(self.seed, path)
            setup = self.variant.deal(self.seed, (*path, "deal", 0), dealer)
            self.state = self.variant.new_deal(setup)
            if self.opponents == "self":
                return self.state
            other = 1 - self.seat
            self.bot = RandomBot(other, self.seed.child((*path, "bot", other)))
            if self.play_opponent() is None:
                return self.state
            self.skipped += 1

    def play_opponent(self) -> float | None:
        """The opponent's moves to the agent's turn; the agent's reward if the deal ended."""
        state = self.state
        while not state.is_over and state.to_act != self.seat:
            state.apply(self.bot.pick(state.legal_actions()))
        return self.reward(self.seat) if state.is_over else None

    def reward(self, seat: int) -> float:
        assert self.state.outcome is not None
        return deal_rewards(self.state.outcome.game_points)[seat]

    def step(self, action: int) -> tuple[float, bool, tuple[int, ...] | None]:
        state = self.state
        seat = state.to_act
        state.apply(action)
        reward = self.reward(seat) if state.is_over else None
        if reward is None and self.opponents == "random":
            reward = self.play_opponent()
        if reward is None:
            return 0.0, False, None
        assert state.outcome is not None
        points = state.outcome.game_points
        self.new_episode()
        return reward, True, points

    @property
    def observer(self) -> int:
        return self.state.to_act if self.opponents == "self" else self.seat


def check_row(
    ref: Reference,
    floats: npt.NDArray[np.float32],
    mask: npt.NDArray[np.bool_],
    table_only: bool,
    where: str,
) -> None:
    view = ref.state.view(ref.observer)
    enc = encoder(ref.variant)
    want = enc.observation(view) if table_only else enc.info_state(view)
    differ = np.flatnonzero(floats != want)
    assert not differ.size, f"{where}: elements {differ[:8]} differ"
    assert np.array_equal(mask, legal_mask(view).astype(bool)), where
    assert mask.any(), where


def random_actions(rng: np.random.Generator, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    actions: npt.NDArray[np.int64] = (rng.random(masks.shape) * masks).argmax(axis=1)
    return actions


def run_against_engine(
    name: str,
    preset: str | None,
    options: dict[str, object],
    opponents: str,
    *,
    seed: int = 11,
    num_envs: int = 6,
    steps: int = 150,
    seat: int = 0,
    table_only: bool = False,
) -> int:
    """Step a batch and its engine references alike; the deals that ended."""
    variant = make(name, preset, options)
    batch = batch_env(variant, num_envs, opponents=opponents, seat=seat, seed=seed,
                      table_only=table_only)  # fmt: skip
    refs = [Reference(variant, seed, j, opponents, seat) for j in range(num_envs)]
    obs, masks = batch.reset()
    for j, ref in enumerate(refs):
        assert batch.setup(j) == ref.state.setup
        assert batch.history(j) == ref.state.history
    rng = np.random.default_rng(seed)
    ended = 0
    for t in range(steps):
        floats = batch.to_float32(obs)
        assert floats.dtype == np.float32
        for j, ref in enumerate(refs):
            check_row(ref, floats[j], masks[j], table_only, f"step {t}, environment {j}")
        assert np.array_equal(batch.seats, [ref.observer for ref in refs])
        actions = random_actions(rng, masks)
        obs, masks, rewards, done = batch.step(actions)
        for j, ref in enumerate(refs):
            reward, over, points = ref.step(int(actions[j]))
            assert (rewards[j], done[j]) == (reward, over), f"step {t}, environment {j}"
            if over:
                ended += 1
                assert tuple(batch.final_points[j]) == points
                reason = batch.final_reason(j)
                assert reason is not None
            else:
                assert batch.final_reason(j) is None and not batch.final_points[j].any()
            assert batch.history(j) == ref.state.history
            assert batch.episode(j) == ref.episode
    assert list(batch.skipped) == [ref.skipped for ref in refs]
    return ended


@pytest.mark.parametrize("opponents", ["random", "self"])
@pytest.mark.parametrize(("name", "preset", "options"), CONFIGS)
def test_every_step_is_the_engines_and_the_encoders(
    name: str, preset: str | None, options: dict[str, object], opponents: str
) -> None:
    assert run_against_engine(name, preset, options, opponents) > 10


@pytest.mark.parametrize("opponents", ["random", "self"])
def test_the_table_only_observation_is_the_encoders(opponents: str) -> None:
    run_against_engine("schnapsen", None, {}, opponents, table_only=True, steps=60)


def test_the_agent_may_play_the_second_seat() -> None:
    run_against_engine("66", None, {}, "random", seat=1, steps=60)


@settings(max_examples=8)
@given(seed=st.integers(0, 2**64), name=st.sampled_from(["66", "schnapsen"]))
def test_any_seed_deals_the_engines_deals(seed: int, name: str) -> None:
    run_against_engine(name, None, {}, "random", seed=seed, num_envs=3, steps=25)


def run(batch_seed: int | None, opponents: str, steps: int = 40) -> list[npt.NDArray[np.generic]]:
    batch = batch_env("66", 16, opponents=opponents, seed=batch_seed)
    obs, masks = batch.reset()
    rng = np.random.default_rng(0)
    out: list[npt.NDArray[np.generic]] = [obs, masks]
    for _ in range(steps):
        obs, masks, rewards, done = batch.step(random_actions(rng, masks))
        out += [obs, masks, rewards, done]
    return out


@pytest.mark.parametrize("opponents", ["random", "self"])
def test_a_seed_replays_the_same_run_and_no_seed_another(opponents: str) -> None:
    first, again = run(5, opponents), run(5, opponents)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], run(6, opponents)[0])
    assert not np.array_equal(run(None, opponents)[0], run(None, opponents)[0])


def test_reset_with_a_seed_starts_over_and_without_one_goes_on() -> None:
    batch = batch_env("66", 4, seed=3)
    first = batch.reset()[0]
    assert [batch.episode(j) for j in range(4)] == [0] * 4
    batch.reset()
    assert [batch.episode(j) for j in range(4)] == [1] * 4
    assert np.array_equal(batch.reset(seed=3)[0], first)


def test_self_play_observes_the_seat_to_act_and_every_mask_has_a_move() -> None:
    batch = batch_env("schnapsen", 64, opponents="self", seed=2)
    obs, masks = batch.reset()
    rng = np.random.default_rng(2)
    seat_field = encoder(batch.variant).info_fields[0]
    assert seat_field.name == "seat"
    seen = set()
    for _ in range(200):
        assert masks.any(axis=1).all()
        seats = batch.seats
        seen.update(seats.tolist())
        # The seat one-hot names the observer, and to_act (relative) is always "me".
        assert np.array_equal(obs[:, seat_field.offset + 1], seats)
        actions = random_actions(rng, masks)
        obs, masks, rewards, done = batch.step(actions)
        assert not rewards[~done].any() and np.abs(rewards).max() <= 3
    assert seen == {0, 1}


def test_the_compact_dtype_holds_points_as_integers() -> None:
    batch = batch_env("66", 8, seed=1)
    obs, masks = batch.reset()
    at, size = batch.plan.fields["card_points"]
    rng = np.random.default_rng(1)
    biggest = 0
    for _ in range(50):
        assert obs.dtype == np.uint8 and masks.dtype == np.bool_
        others = np.delete(obs, np.s_[at : at + size], axis=1)
        assert others.max() <= 1
        biggest = max(biggest, int(obs[:, at : at + size].max()))
        obs, masks, _, _ = batch.step(random_actions(rng, masks))
    assert 11 <= biggest <= 120


def test_an_illegal_action_names_its_environment_and_steps_nothing() -> None:
    batch = batch_env("66", 4, seed=1)
    _, masks = batch.reset()
    before = [batch.history(j) for j in range(4)]
    actions = masks.argmax(axis=1)
    bad = int(np.flatnonzero(~masks[2])[0])
    actions[2] = bad
    with pytest.raises(IllegalActionError, match="not legal in environment 2"):
        batch.step(actions)
    masks[2, bad] = True  # the masks handed out are the caller's: editing them allows nothing
    with pytest.raises(IllegalActionError, match="not legal in environment 2"):
        batch.step(actions)
    masks[2, bad] = False
    for wrong in (42, -1):
        actions[2] = wrong
        with pytest.raises(IllegalActionError, match=r"not an action id 0\.\.41 \(environment 2\)"):
            batch.step(actions)
    with pytest.raises(OptionError, match="4 integer action ids"):
        batch.step(actions[:3])
    with pytest.raises(OptionError, match="4 integer action ids"):
        batch.step(actions.astype(float))
    assert [batch.history(j) for j in range(4)] == before
    _, after, _, _ = batch.step(masks.argmax(axis=1))  # the batch steps on unharmed
    assert after.any(axis=1).all()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: batch_env("sixtysix-3", 4), "compiled rules do not play sixtysix-3"),
        (lambda: batch_env("66", 4, exchange_anytime=True), "compiled rules do not play"),
        (lambda: batch_env("66", 0), r"num_envs must be 1\.\."),
        (lambda: batch_env("66", 1 << 30), r"num_envs must be 1\.\."),
        (lambda: batch_env("66", True), "num_envs must be an integer"),
        (lambda: batch_env("66", cast(Any, "8")), "num_envs must be an integer"),
        (lambda: batch_env("66", 4, opponents="heuristic"), "opponents must be one of"),
        (lambda: batch_env("66", 4, seat=2), "seat must be 0 or 1"),
        (lambda: batch_env("66", 4, seed=cast(Any, "x")), "seed must be an integer or a Seed"),
        (lambda: batch_env("66", 4).step(np.zeros(4, dtype=int)), r"reset\(\) the batch first"),
    ],
)
def test_bad_arguments_are_one_line_errors(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(OptionError, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)
