"""analyse(view): every legal action with its expected game points, from the view alone."""

from __future__ import annotations

import random

import pytest

from sixtysix.bots.analysis import ActionValue, AnalysisError, analyse, analyse_position
from sixtysix.bots.search.solver import Solver
from sixtysix.core.rng import Seed
from tests.bots.test_expert import talon_run_out
from tests.bots.test_sampling import make, redealt

SMALL = {"samples": 4, "nodes": 2000}


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_every_legal_action_once_best_first(name: str) -> None:
    variant = make(name, {})
    rnd = random.Random(3)
    for attempt in range(20):
        state = variant.new_deal(variant.deal(Seed(attempt), ("a",), 0))
        while not state.is_over and len(state.history) < 6:
            state.apply(rnd.choice(state.legal_actions()))
        if not state.is_over and len(state.legal_actions()) > 1:
            break
    view = state.view(state.to_act)
    result = analyse(view, seed=1, **SMALL)
    assert sorted(a for a, _ in result) == sorted(view.legal_actions)
    values = [v for _, v in result]
    assert values == sorted(values, reverse=True)
    assert all(-6 <= v <= 6 for v in values)
    assert all(isinstance(item, ActionValue) for item in result)


def test_exact_when_the_information_is_complete() -> None:
    state = talon_run_out(make("sixtysix", {}), 5)
    seat = state.to_act
    analysis = analyse_position(state.view(seat), seed=0)
    assert analysis.exact and analysis.deals == 1
    assert dict(analysis.values) == Solver(seat).action_values(state)
    assert analysis.best.value == max(v for _, v in analysis.values)


def test_reproducible_with_a_seed_and_blind_to_hidden_cards() -> None:
    variant = make("schnapsen", {})
    rnd = random.Random(8)
    state = variant.new_deal(variant.deal(Seed(8), ("r",), 0))
    for _ in range(3):
        state.apply(rnd.choice(state.legal_actions()))
    seat = state.to_act
    other = redealt(state, seat, rnd)
    assert other is not None
    first = analyse(state.view(seat), seed=11, **SMALL)
    assert analyse(state.view(seat), seed=11, **SMALL) == first
    assert analyse(other.view(seat), seed=11, **SMALL) == first


def test_a_seat_not_to_act_has_nothing_to_analyse() -> None:
    variant = make("sixtysix", {})
    state = variant.new_deal(variant.deal(Seed(1), ("n",), 0))
    idle = 1 - state.to_act
    with pytest.raises(AnalysisError, match=f"seat {idle} has nothing to choose"):
        analyse(state.view(idle))
