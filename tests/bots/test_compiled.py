"""The compiled two-player search: the same rules and values as the engine and the generic
search, for every option of the two-player games."""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix.bots import compiled
from sixtysix.bots.search.solver import Solver, deal_value, fast_copy
from sixtysix.compiled.position import knobs, pack, play_random
from sixtysix.core.outcome import DealEnd, Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.variants.two_hand import TwoHandVariant
from tests.bots.test_solver import make, minimax, small_position, some_position

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs numba (pip install 'sixtysix[fast]')"
)

#: Every option of the two-player games that changes play or scoring, each set at least once.
CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("sixtysix", {}),
    ("sixtysix", {"claim": "manual"}),
    ("sixtysix", {"claim": "manual", "failed_close": "2or3", "tie": "draw"}),
    ("sixtysix", {"tie": "draw", "schneider_card_points_only": True, "last_trick_bonus": 20}),
    ("sixtysix", {"talonless": True}),
    ("sixtysix", {"marriages": False, "exchange": False}),
    ("sixtysix", {"marriage_after_close": False, "closing": False}),
    (
        "sixtysix",
        {"close_needs_trick": True, "exchange_needs_trick": False, "exchange_min_talon": 5},
    ),
    ("schnapsen", {}),
    ("schnapsen", {"claim": "auto"}),
    ("schnapsen", {"schneider_card_points_only": True, "marriage_after_close": False}),
    ("schnapsen", {"exchange_needs_trick": True, "close_needs_trick": True}),
]


def random_position(variant: Variant, rnd: random.Random, moves: int) -> DealState | None:
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("c",), rnd.randrange(2)))
    for _ in range(moves):
        if state.phase == Phase.OVER:
            return None
        state.apply_legal(rnd.choice(state.legal_actions()))
    return None if state.phase == Phase.OVER else state


def check_playout(variant: Variant, state: DealState, rnd: random.Random) -> None:
    """The compiled rules offer the engine's legal actions at every step and end the deal
    with the engine's score."""
    words = [rnd.getrandbits(32) for _ in range(64)]
    moves, (reason, *game_points) = play_random(variant, state, words)
    ref = fast_copy(state)
    for i, (count, action) in enumerate(moves):
        legal = ref.legal_actions()
        assert (count, action) == (len(legal), legal[words[i] % len(legal)]), f"move {i}"
        ref.apply_legal(action)
    assert ref.phase == Phase.OVER and ref.outcome is not None
    assert (reason, tuple(game_points)) == (ref.outcome.reason, ref.outcome.game_points)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_compiled_rules_match_the_engine(name: str, options: dict[str, object]) -> None:
    variant = make(name, options)
    assert compiled.supports(variant)
    rnd = random.Random(5)
    played = 0
    while played < 150:
        state = random_position(variant, rnd, rnd.randrange(0, 16))
        if state is not None:
            check_playout(variant, state, rnd)
            played += 1


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 20))
def test_compiled_rules_match_the_engine_anywhere(
    config: tuple[str, dict[str, object]], rnd: random.Random, moves: int
) -> None:
    variant = make(*config)
    state = random_position(variant, rnd, moves)
    if state is not None:
        check_playout(variant, state, rnd)


def mixed_minimax(state: DealState, seat: int, mix: float) -> float:
    """The reference for an opponent who plays at random with probability ``mix`` (0: plain
    minimax): plain recursion, the other seat's nodes worth ``mix`` times the mean of their
    children plus ``1 - mix`` times the least."""
    if state.phase == Phase.OVER:
        return float(deal_value(state, seat))
    values = []
    for a in state.legal_actions():
        child = state.copy()
        child.apply_legal(a)
        values.append(mixed_minimax(child, seat, mix))
    if state.to_act == seat:
        return max(values)
    return mix * sum(values) / len(values) + (1.0 - mix) * min(values)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(CONFIGS),
    st.randoms(use_true_random=False),
    st.integers(1, 3),
    st.sampled_from([0.0, 0.25, 1.0]),
)
def test_compiled_search_agrees_with_brute_force(
    config: tuple[str, dict[str, object]], rnd: random.Random, tricks_left: int, mix: float
) -> None:
    variant = make(*config)
    state = None
    while state is None:
        state = small_position(variant, rnd, tricks_left)
    search = compiled.CompiledSearch(variant, table_bits=10)
    for seat in range(2):
        # Plain minimax, then the same position against a random reply on the same table:
        # neither may read the other's values.
        plain = search.action_values(state, seat, node_limit=0)
        values, exact, final = search.action_values(state, seat, node_limit=0, mix=mix)
        assert plain.exact and exact
        for a, v in values.items():
            child = state.copy()
            child.apply_legal(a)
            assert plain.values[a] == minimax(child, seat), f"action {a}"
            assert v == pytest.approx(mixed_minimax(child, seat, mix)), f"action {a}"
            assert (a in final) == (child.phase == Phase.OVER), f"action {a}"


def test_expecting_a_random_reply_changes_the_values() -> None:
    # Somewhere in a few endgames the random reply must be worth more than the best reply.
    variant = make("sixtysix", {})
    search = compiled.CompiledSearch(variant, table_bits=12)
    raised = 0
    for seed in range(30):
        state = some_position(variant, seed, 4)
        seat = state.to_act
        best = search.action_values(state, seat, node_limit=0).values
        hoped = search.action_values(state, seat, node_limit=0, mix=1.0).values
        assert all(hoped[a] >= best[a] - 1e-9 for a in best)
        raised += any(hoped[a] > best[a] + 1e-9 for a in best)
    assert raised >= 3


@pytest.mark.parametrize(("name", "options"), CONFIGS[:1] + CONFIGS[8:9])
def test_compiled_search_agrees_with_the_generic_search_in_endgames(
    name: str, options: dict[str, object]
) -> None:
    variant = make(name, options)
    search = compiled.CompiledSearch(variant)
    rnd = random.Random(2)
    checked = 0
    while checked < 25:
        state = small_position(variant, rnd, 4)
        if state is None:
            continue
        seat = state.to_act
        got, exact, _ = search.action_values(state, seat, node_limit=0)
        assert exact
        assert got == Solver(seat).action_values(fast_copy(state))
        checked += 1


def test_node_limit_is_respected_and_every_action_valued() -> None:
    variant = make("sixtysix", {})
    state = variant.new_deal(variant.deal(Seed(1), ("n",), 0))
    search = compiled.CompiledSearch(variant)
    values, exact, _ = search.action_values(state, state.to_act, node_limit=5_000)
    assert not exact
    assert set(values) == set(state.legal_actions())
    assert search.nodes <= 5_000 + 64
    assert all(-6.0 <= v <= 6.0 for v in values.values())


def test_the_same_budget_gives_the_same_values() -> None:
    variant = make("schnapsen", {})
    state = variant.new_deal(variant.deal(Seed(4), ("n",), 1))
    first = compiled.CompiledSearch(variant).action_values(state, 0, 50_000)
    again = compiled.CompiledSearch(variant).action_values(state, 0, 50_000)
    assert first == again


def test_schnapsen_is_solved_exactly_from_the_first_trick() -> None:
    # A Schnapsen deal is small enough to solve whole: the values are game points.
    variant = make("schnapsen", {})
    state = variant.new_deal(variant.deal(Seed(1), ("z",), 0))
    values, exact, _ = compiled.CompiledSearch(variant).action_values(state, 0, 5_000_000)
    assert exact
    assert all(v == int(v) and -3 <= v <= 3 for v in values.values())


class _HouseScoring(TwoHandVariant):
    """A third-party variant with its own scoring: the compiled copy must not guess it."""

    name: ClassVar[str] = "house"

    def settle(self, state: DealState, end: DealEnd) -> Outcome:  # pragma: no cover
        raise NotImplementedError


def test_supports_only_the_two_hand_rules_it_copies() -> None:
    assert compiled.supports(make("sixtysix", {}))
    assert compiled.supports(make("schnapsen", {}))
    assert not compiled.supports(make("sixtysix-3", {}))
    assert not compiled.supports(make("sixtysix-4", {}))
    house = type("House", (_HouseScoring,), {"rules": make("sixtysix", {}).rules})
    assert not compiled.supports(house.__new__(house))

    class OwnDeal(type(make("sixtysix", {}))):  # type: ignore[misc]
        def new_deal(self, setup: object) -> DealState:  # pragma: no cover
            raise NotImplementedError

    assert not compiled.supports(OwnDeal())


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_the_horizon_evaluation_is_the_generic_searchs(
    name: str, options: dict[str, object]
) -> None:
    """The compiled search values its horizon with the generic search's fitted evaluation."""
    from sixtysix.bots import _search_kernels
    from sixtysix.bots.search.solver import evaluate

    variant = make(name, options)
    k, w = knobs(variant), compiled.weights(variant)
    rnd = random.Random(8)
    checked = 0
    while checked < 60:
        state = random_position(variant, rnd, rnd.randrange(0, 14))
        if state is None or state.closed_by >= 0:
            continue  # after a close the compiled search never stops at a horizon
        for seat in range(2):
            got = _search_kernels._evaluate(pack(state), k, w, seat)
            assert got == pytest.approx(evaluate(state, seat)), f"seat {seat}"
        checked += 1


@pytest.mark.parametrize(
    "knobs",
    [
        {"last_trick_bonus": 256},
        {"last_trick_bonus": -1},
        {"last_trick_bonus": 2**63 - 1},
        {"last_trick_bonus": 2**64},
        {"winning_points": 2**63},
        {"exchange_min_talon": -(2**63)},
        {"exchange_rank": 9},
    ],
    ids=str,
)
def test_numbers_it_cannot_hold_exactly_go_to_the_generic_search(knobs: dict[str, object]) -> None:
    """int64 positions, and a transposition key with 8 bits per seat's bonus: a rule set
    beyond them is refused, so the expert searches it with the generic solver."""
    from sixtysix.bots.players.expert import compiled_search_for

    variant = make("sixtysix", {})
    variant.rules = dataclasses.replace(variant.rules, **knobs)  # type: ignore[arg-type]
    assert not compiled.supports(variant)
    assert compiled_search_for(variant) is None
    with pytest.raises(ValueError, match="does not play"):
        compiled.CompiledSearch(variant)


def test_the_largest_bonus_it_holds_is_played_exactly() -> None:
    variant = make("sixtysix", {})
    variant.rules = dataclasses.replace(variant.rules, last_trick_bonus=255)
    assert compiled.supports(variant)
    rnd = random.Random(9)
    played = 0
    while played < 60:
        state = random_position(variant, rnd, rnd.randrange(0, 16))
        if state is not None:
            check_playout(variant, state, rnd)
            played += 1
