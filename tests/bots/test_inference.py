"""Weighing imagined deals by the other seats' play."""

from __future__ import annotations

import math
import random

import pytest

from sixtysix.bots.base import Bot
from sixtysix.bots.inference.play import (
    TRUST,
    PlayLikelihood,
    chance_of_random,
    read_play,
    resample,
)
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.view import View
from tests.bots.test_sampling import make


class FirstLegal(Bot):
    """A model that always plays the first legal action."""

    name = "first"

    def choose(self, view: View) -> Action:
        return view.legal_actions[0]


def play(state: DealState, moves: int, deviate_at: int | None = None) -> int:
    """Seat 1 plays like :class:`FirstLegal` (but at its ``deviate_at``-th choice), seat 0
    randomly; returns how many real choices seat 1 had."""
    rnd = random.Random(3)
    choices = 0
    for _ in range(moves):
        if state.phase == Phase.OVER:
            break
        legal = state.legal_actions()
        if state.to_act == 1:
            a = legal[0]
            if len(legal) > 1:
                if choices == deviate_at:
                    a = legal[-1]
                choices += 1
        else:
            a = rnd.choice(legal)
        state.apply_legal(a)
    return choices


def test_a_deal_that_explains_the_play_weighs_more() -> None:
    variant = make("sixtysix", {})
    model = [FirstLegal(s, Seed(0)) for s in range(2)]
    faithful = variant.new_deal(variant.deal(Seed(8), ("i",), 1))
    choices = play(faithful, 8)
    assert choices >= 2
    assert read_play(faithful, 0, model).model == pytest.approx(choices * math.log(TRUST))
    unfaithful = variant.new_deal(variant.deal(Seed(8), ("i",), 1))
    play(unfaithful, 8, deviate_at=0)
    assert read_play(unfaithful, 0, model).model < read_play(faithful, 0, model).model


def test_weights_come_from_imagined_deals_only() -> None:
    # Deals the sampler imagines for seat 0 are weighed by replaying the public history in
    # them: every weight is finite (the softened model never rules a deal out).
    variant = make("sixtysix", {})
    model = [FirstLegal(s, Seed(0)) for s in range(2)]
    state = variant.new_deal(variant.deal(Seed(9), ("i",), 1))
    play(state, 7)
    view = state.view(0)
    sampler = Sampler(view, variant)
    stream = Seed(1).stream(("t",))
    for _ in range(20):
        deal = sampler.sample(stream)
        assert [a for _, a in deal.history] == [int(a) for _, a in view.history]
        assert math.isfinite(read_play(deal, 0, model).model)


def test_resample_keeps_the_count_and_follows_the_weights() -> None:
    stream = Seed(2).stream(("r",))
    assert sum(resample([0.0, -1.0, -2.0], 24, stream)) == 24
    assert resample([0.0, 0.0, 0.0, 0.0], 8, stream) == [2, 2, 2, 2]
    assert resample([0.0, -50.0, -50.0], 10, stream) == [10, 0, 0]
    kept = resample([math.log(3.0), 0.0], 400, stream)
    assert kept == [300, 100]


def test_the_expert_reads_the_play_without_losing_legality() -> None:
    from sixtysix.bots.players.expert import ExpertBot

    variant = make("sixtysix", {})
    state = variant.new_deal(variant.deal(Seed(5), ("i",), 0))
    bots = [ExpertBot(s, Seed(s), {"samples": "4", "nodes": "4000"}) for s in range(2)]
    while state.phase != Phase.OVER:
        view = state.view(state.to_act)
        action = bots[state.to_act].choose(view)
        assert action in view.legal_actions
        state.apply(ACTIONS[int(action)])


def random_play(state: DealState, moves: int, seed: int) -> None:
    """Both seats play uniformly at random for ``moves`` moves."""
    rnd = random.Random(seed)
    for _ in range(moves):
        if state.phase == Phase.OVER:
            break
        state.apply_legal(rnd.choice(state.legal_actions()))


def test_read_play_counts_the_random_reading_from_the_legal_choices() -> None:
    variant = make("sixtysix", {})
    model = [FirstLegal(s, Seed(0)) for s in range(2)]
    state = variant.new_deal(variant.deal(Seed(8), ("i",), 1))
    play(state, 8)
    expected = 0.0
    choices = 0
    replay = variant.new_deal(state.setup)
    for seat, action in state.history:
        legal = replay.legal_actions()
        if seat == 1 and replay.phase == Phase.PLAY and len(legal) > 1:
            expected -= math.log(len(legal))
            choices += 1
        replay.apply_legal(action)
    reading = read_play(state, 0, model)
    assert reading.random == pytest.approx(expected)
    assert reading.model == pytest.approx(choices * math.log(TRUST))
    assert reading.model > reading.random  # seat 1 played exactly like the model


def test_a_seat_that_plays_like_the_model_is_not_taken_for_random() -> None:
    variant = make("sixtysix", {})
    model = [FirstLegal(s, Seed(0)) for s in range(2)]
    faithful = variant.new_deal(variant.deal(Seed(8), ("i",), 1))
    play(faithful, 10)
    chance, _ = chance_of_random([read_play(faithful, 0, model)], 0.1)
    assert chance < 0.1
    # A random seat: over twenty deals the random reading gains far more often than not.
    chances = []
    for seed in range(20):
        wild = variant.new_deal(variant.deal(Seed(seed), ("i",), 1))
        random_play(wild, 30, seed=seed)
        chances.append(chance_of_random([read_play(wild, 0, model)], 0.1)[0])
    assert sum(c > 0.5 for c in chances) >= 14


def test_chance_of_random_mixes_the_readings_per_deal() -> None:
    readings = [PlayLikelihood(model=-1.0, random=-3.0), PlayLikelihood(model=-4.0, random=-3.0)]
    chance, weights = chance_of_random(readings, 0.5)
    by_model = math.exp(-1.0) + math.exp(-4.0)
    by_chance = 2 * math.exp(-3.0)
    assert chance == pytest.approx(by_chance / (by_model + by_chance))
    assert weights[0] == pytest.approx(math.log(0.5 * math.exp(-1.0) + 0.5 * math.exp(-3.0)))
    assert weights[1] == pytest.approx(math.log(0.5 * math.exp(-4.0) + 0.5 * math.exp(-3.0)))
    # Against a sure random player every deal explains the play alike: the deals weigh the same.
    chance, weights = chance_of_random(readings, 1.0)
    assert chance == 1.0
    assert weights == [-3.0, -3.0]
    chance, weights = chance_of_random(readings, 0.0)
    assert chance == 0.0
    assert weights == [-1.0, -4.0]
    assert chance_of_random([], 0.25) == (0.25, [])
    # Readings so unlikely that exp() underflows still give finite weights.
    chance, weights = chance_of_random(
        [PlayLikelihood(0.0, -1.0), PlayLikelihood(-2000.0, -2000.0)], 0.1
    )
    assert all(math.isfinite(w) for w in weights)
