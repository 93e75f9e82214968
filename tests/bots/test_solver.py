"""The perfect-information search: exact against brute force, on game points, for every variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix.bots.search.solver import (
    EXACT,
    BudgetExhausted,
    Solver,
    deal_value,
    evaluate,
    fast_copy,
    features,
    hand_made_evaluation,
    remaining_tricks,
    weights_for,
)
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.variants.sixtysix import SixtySix
from tests.helpers import position

REGISTRY: Registry = build_registry()

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("sixtysix", {}),
    ("sixtysix", {"claim": "manual", "failed_close": "2or3", "tie": "draw"}),
    ("sixtysix", {"talonless": True}),
    ("schnapsen", {}),
    ("schnapsen", {"claim": "manual"}),
    ("sixtysix-3", {}),
    ("sixtysix-3", {"must_overtrump": True, "no66": "last_trick_wins"}),
    ("sixtysix-4", {}),
    ("sixtysix-4", {"trump_from_below": True, "solo_loss": "double"}),
]


def make(name: str, options: dict[str, object]) -> Variant:
    cls = REGISTRY.variant(name)
    return cls(cls.options_class.build(options))


def minimax(state: DealState, seat: int) -> int:
    """Plain minimax over every line, no pruning and no table: the reference."""
    if state.phase == Phase.OVER:
        return deal_value(state, seat)
    values = []
    for a in state.legal_actions():
        child = state.copy()
        child.apply_legal(a)
        values.append(minimax(child, seat))
    if state.phase == Phase.PLAY:
        ours = state.sides[state.to_act] == state.sides[seat]
    else:
        ours = state.to_act == seat
    return max(values) if ours else min(values)


def small_position(variant: Variant, rnd: random.Random, tricks_left: int) -> DealState | None:
    """Random legal play until at most ``tricks_left`` tricks remain (None if the deal ended)."""
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("p",), 0))
    while not state.is_over and remaining_tricks(state) > tricks_left:
        state.apply_legal(rnd.choice(state.legal_actions()))
    return None if state.is_over else state


def some_position(variant: Variant, seed: int, tricks_left: int) -> DealState:
    rnd = random.Random(seed)
    while True:
        state = small_position(variant, rnd, tricks_left)
        if state is not None:
            return state


@settings(max_examples=40)
@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(1, 3))
def test_search_agrees_with_brute_force(
    config: tuple[str, dict[str, object]], rnd: random.Random, tricks_left: int
) -> None:
    variant = make(*config)
    state = None
    while state is None:
        state = small_position(variant, rnd, tricks_left)
    for seat in range(state.n):
        solver = Solver(seat)
        assert solver.solve(state) == minimax(state, seat)
        values = solver.action_values(state)
        for a, v in values.items():
            child = state.copy()
            child.apply_legal(a)
            assert v == minimax(child, seat), f"action {a}"


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_every_variant_solves_its_small_endgames(name: str, options: dict[str, object]) -> None:
    variant = make(name, options)
    rnd = random.Random(11)
    checked = 0
    for _ in range(30):
        state = small_position(variant, rnd, 2)
        if state is None:
            continue
        seat = state.to_act
        assert Solver(seat).solve(state) == minimax(state, seat)
        checked += 1
    assert checked >= 5


def test_the_value_is_game_points_not_card_points() -> None:
    # Strict play, hearts trump: seat 0 takes both tricks and wins with the opponent on
    # 10 points and one trick: 2 game points, whatever the card-point margin.
    state = position(SixtySix(), ["AH TH", "KS QS"], trump="H", tricks=[3, 1], card_points=[50, 10])
    assert Solver(0).solve(state) == 2
    assert Solver(1).solve(state) == -2


@pytest.mark.parametrize(("failed_close", "value"), [("flat2", -2), ("2or3", -3)])
def test_a_failed_close_is_valued_by_the_variants_options(failed_close: str, value: int) -> None:
    # Seat 0 closed on 20 points against an opponent without a trick and cannot reach 66.
    variant = SixtySix.configure(overrides={"failed_close": failed_close})
    state = position(
        variant,
        ["9C JC", "AC TC"],
        trump="H",
        turnup="9H",
        talon="QD KD",
        tricks=[1, 0],
        card_points=[20, 0],
        closed_by=0,
    )
    assert Solver(0).solve(state) == value
    assert Solver(1).solve(state) == -value


def test_the_table_remembers_solved_positions() -> None:
    state = some_position(make("sixtysix-3", {}), 3, 4)
    solver = Solver(state.to_act)
    first = solver.solve(state)
    used = solver.nodes
    assert solver.solve(state) == first
    assert solver.nodes == used + 1  # the root is found in the table at once


def test_a_node_budget_stops_the_search() -> None:
    state = make("sixtysix-4", {}).new_deal(make("sixtysix-4", {}).deal(Seed(1), ("b",), 0))
    solver = Solver(state.to_act, node_limit=50)
    with pytest.raises(BudgetExhausted):
        solver.search(state, EXACT)
    assert solver.nodes == 51


def test_iterative_deepening_is_exact_when_it_reaches_the_end() -> None:
    state = some_position(make("sixtysix", {}), 5, 3)
    seat = state.to_act
    values, exact = Solver(seat).iterative_values(state)
    assert exact
    assert values == Solver(seat).action_values(state)


def test_iterative_deepening_keeps_to_the_budget_after_one_trick() -> None:
    variant = make("sixtysix", {})
    state = variant.new_deal(variant.deal(Seed(4), ("b",), 0))
    solver = Solver(state.to_act, node_limit=400)
    values, exact = solver.iterative_values(state)
    assert not exact
    assert set(values) == set(state.legal_actions())
    assert all(-6 <= v <= 6 for v in values.values())
    shallow = Solver(state.to_act)
    shallow.action_values(state, depth=1)
    # Beyond the first trick ahead (always searched), the budget holds.
    assert solver.nodes <= max(400, shallow.nodes) + len(values)


def test_the_horizon_uses_the_evaluation() -> None:
    variant = make("schnapsen", {})
    state = variant.new_deal(variant.deal(Seed(2), ("h",), 0))
    seen: list[DealState] = []

    def spy(s: DealState, seat: int) -> float:
        seen.append(s)
        return 0.25

    values = Solver(state.to_act, evaluator=spy).action_values(state, depth=1)
    assert seen and all(not s.trick for s in seen)  # evaluated after whole tricks
    assert set(values.values()) <= {0.25, -3.0, -2.0, -1.0, 1.0, 2.0, 3.0}


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False))
def test_evaluation_stays_within_real_outcomes(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    variant = make(*config)
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("e",), 0))
    while not state.is_over:
        for seat in range(state.n):
            assert -6.0 <= evaluate(state, seat) <= 6.0
        state.apply_legal(rnd.choice(state.legal_actions()))


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 30))
def test_fast_copy_is_an_independent_equal_copy(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    variant = make(*config)
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("c",), 0))
    while not state.is_over and len(state.history) < stop:
        state.apply_legal(rnd.choice(state.legal_actions()))
    copy = fast_copy(state)
    reference = state.copy()
    for name in DealState.__slots__:
        if name != "_legal":
            assert getattr(copy, name) == getattr(reference, name), name
    if not state.is_over:
        before = state.view(state.to_act)
        copy.apply_legal(copy.legal_actions()[0])
        assert state.view(state.to_act) == before


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False))
def test_the_evaluation_is_the_fitted_linear_function_of_the_features(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    variant = make(*config)
    weights = weights_for(variant.rules)
    assert weights is not None  # every built-in shape has fitted weights
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("w",), 0))
    while not state.is_over:
        if state.phase == Phase.PLAY and state.closed_by < 0:
            for seat in range(state.n):
                linear = sum(w * f for w, f in zip(weights, features(state, seat), strict=True))
                assert evaluate(state, seat) == pytest.approx(max(-6.0, min(6.0, linear)))
        state.apply_legal(rnd.choice(state.legal_actions()))


def test_a_game_of_unknown_shape_falls_back_on_the_hand_made_evaluation() -> None:
    from dataclasses import replace

    variant = make("sixtysix", {})
    state = variant.new_deal(variant.deal(Seed(1), ("f",), 0))
    assert weights_for(replace(variant.rules, seats=5)) is None
    assert weights_for(replace(variant.rules, deck=variant.rules.deck & ~1)) is not None
    assert -3.0 <= hand_made_evaluation(state, 0) <= 3.0
