"""The expert: exact play on complete information, exhaustive small information sets."""

from __future__ import annotations

import random

import pytest

from sixtysix.bots.expert import EXPERT_BUDGET, ExpertBot
from sixtysix.bots.pimc import Budget, estimate
from sixtysix.bots.sampling import Sampler
from sixtysix.bots.solver import Solver
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from tests.bots.test_sampling import make


def talon_run_out(variant: Variant, seed: int) -> DealState:
    """A two-player deal played on (no closing) until the talon is gone."""
    rnd = random.Random(seed)
    for attempt in range(100):
        state = variant.new_deal(variant.deal(Seed(seed * 1000 + attempt), ("x",), 0))
        while not state.is_over and (state.talon or state.turnup >= 0 or state.trick):
            legal = [a for a in state.legal_actions() if a < 24] or state.legal_actions()
            state.apply(rnd.choice(legal))
        if not state.is_over and len(state.legal_actions()) > 1:
            return state
    raise AssertionError("no such deal")


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_complete_information_is_played_exactly(name: str, seed: int) -> None:
    state = talon_run_out(make(name, {}), seed)
    seat = state.to_act
    view = state.view(seat)
    bot = ExpertBot(seat, Seed(0))
    choice = bot.choose(view)
    assert bot.last is not None
    assert bot.last.exact and bot.last.deals == 1
    truth = Solver(seat).action_values(state)
    assert truth[choice] == max(truth.values())
    assert bot.last.values == truth


def small_information_set(name: str, limit: int) -> DealState:
    variant = make(name, {})
    rnd = random.Random(4)
    for attempt in range(300):
        state = variant.new_deal(variant.deal(Seed(attempt), ("s",), 0))
        while not state.is_over:
            view = state.view(state.to_act)
            if len(view.legal_actions) > 1:
                sampler = Sampler(view)
                if 2 <= sampler.count * sampler.orders <= limit:
                    return state
            state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError("no small information set found")


@pytest.mark.parametrize("name", ["sixtysix-3", "sixtysix-4", "schnapsen"])
def test_small_information_sets_are_averaged_exhaustively(name: str) -> None:
    state = small_information_set(name, EXPERT_BUDGET.enumerate_up_to)
    seat = state.to_act
    view = state.view(seat)
    # A budget large enough to solve every deal to its end.
    budget = Budget(nodes=10**7, enumerate_up_to=EXPERT_BUDGET.enumerate_up_to)
    result = estimate(view, budget, Seed(0).stream(("e",)))
    layouts = list(Sampler(view).layouts())
    assert result.complete and result.deals == len(layouts)
    expected = {a: 0.0 for a in view.legal_actions}
    for deal in layouts:
        for a, v in Solver(seat).action_values(deal).items():
            expected[a] += v / len(layouts)
    assert result.exact
    assert result.values == pytest.approx(expected)


def test_without_enumeration_the_expert_samples() -> None:
    state = small_information_set("sixtysix-3", EXPERT_BUDGET.enumerate_up_to)
    view = state.view(state.to_act)
    sampled = estimate(view, Budget(samples=3, nodes=10**5), Seed(0).stream(("e",)))
    assert not sampled.complete and sampled.deals == 3


def test_the_expert_spends_more_than_pimc_by_default() -> None:
    from sixtysix.bots.pimc import PimcBot

    expert = ExpertBot(0, Seed(0)).budget
    pimc = PimcBot(0, Seed(0)).budget
    assert expert.samples >= pimc.samples and expert.nodes > pimc.nodes
    assert expert.enumerate_up_to > 0 == pimc.enumerate_up_to
