"""The compiled Monte Carlo tree search of one deal, and the expert that values open-talon deals
with it."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from sixtysix.bots.compiled import CompiledSearch, SearchResult
from sixtysix.bots.compiled import available as compiled_available
from sixtysix.bots.players.expert import MAX_SOLVER_TREE, MAX_TREE, ExpertBot
from sixtysix.core.actions import CLOSE, MARRY
from sixtysix.core.cards import ACE, KING, QUEEN
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.testing.bot_checks import check_bot_view_only
from tests.bots.test_expert import talon_run_out
from tests.bots.test_sampling import make

pytestmark = pytest.mark.skipif(not compiled_available(), reason="needs numba")


def endgame(name: str, seed: int, cards: int) -> DealState:
    """A deal played on until the talon is gone and at most ``cards`` cards are left in each
    hand, the seat to act having a choice."""
    state = talon_run_out(make(name, {}), seed)
    while not state.is_over and state.hands[state.to_act].bit_count() > cards:
        state.apply(state.legal_actions()[0])
    return state


def search_for(name: str) -> CompiledSearch:
    return CompiledSearch(make(name, {}))


def endgames(name: str, cards: int) -> Iterator[tuple[int, DealState, SearchResult]]:
    """Endgames of ``cards`` cards a hand with a choice to make, each with its seed and its
    exact values (alpha-beta) for the seat to act."""
    search = search_for(name)
    for seed in range(1, 12):
        state = endgame(name, seed, cards)
        if state.is_over or len(state.legal_actions()) < 2:
            continue
        exact = search.action_values(state, state.to_act, 0)
        assert exact.exact
        yield seed, state, exact


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_the_tree_finds_the_exact_best_action_of_a_small_endgame(name: str) -> None:
    search = search_for(name)
    checked = 0
    for seed, state, exact in endgames(name, 3):
        tree = search.mcts_values(state, state.to_act, MAX_TREE, seed)
        assert tree.values.keys() == exact.values.keys()
        assert not tree.exact
        best = max(tree.values, key=tree.values.__getitem__)
        # The tree's best is a minimax best, and its mean has come close to the exact value.
        assert exact.values[best] == max(exact.values.values())
        assert tree.values[best] == pytest.approx(exact.values[best], abs=0.15)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_the_solver_values_an_endgame_exactly_once_its_root_is_solved(name: str) -> None:
    """Every line of four cards each played out, the solver's values are the alpha-beta's."""
    search = search_for(name)
    checked = 0
    for seed, state, exact in endgames(name, 4):
        seat = state.to_act
        solved = search.mcts_values(state, seat, MAX_SOLVER_TREE, seed, solver=True)
        assert solved.exact
        assert solved.values == exact.values
        assert solved.final == exact.final
        # Too few iterations to play every line: means, not minimax, and not called exact.
        early = search.mcts_values(state, seat, len(exact.values), seed, solver=True)
        assert not early.exact
        assert early.values.keys() == exact.values.keys()
        checked += 1
    assert checked >= 5


def test_the_solver_is_reproducible_by_its_seed_and_differs_from_the_plain_tree() -> None:
    search = search_for("schnapsen")
    variant = make("schnapsen", {})
    state = variant.new_deal(variant.deal(Seed(7), ("t",), 0))
    seat = state.to_act
    first = search.mcts_values(state, seat, 300, 11, solver=True)
    assert not first.exact
    assert search.mcts_values(state, seat, 300, 11, solver=True) == first
    assert search.mcts_values(state, seat, 300, 12, solver=True).values != first.values
    assert search.mcts_values(state, seat, 300, 11).values != first.values


def test_the_solver_refuses_a_tree_too_big_for_its_memory_or_no_tree() -> None:
    with pytest.raises(UnknownBotError, match="at most 5000 with solver=1"):
        ExpertBot(0, Seed(1), {"mcts": str(MAX_SOLVER_TREE + 1), "solver": "1"})
    ExpertBot(0, Seed(1), {"mcts": str(MAX_SOLVER_TREE + 1)})
    with pytest.raises(UnknownBotError, match="solver=1 needs a tree"):
        ExpertBot(0, Seed(1), {"solver": "1"})
    ExpertBot(0, Seed(1), {"mcts": str(MAX_SOLVER_TREE), "solver": "1"})


def test_an_action_that_ends_the_deal_is_valued_at_its_score() -> None:
    search = search_for("schnapsen")
    for seed in range(1, 30):
        state = endgame("schnapsen", seed, 5)
        seat = state.to_act
        exact = search.action_values(state, seat, 0)
        if not exact.final:
            continue
        tree = search.mcts_values(state, seat, 200, seed)
        assert tree.final == exact.final
        for action in exact.final:
            assert tree.values[action] == exact.values[action]
        return
    pytest.fail("no endgame with an action that ends the deal")


def test_the_tree_is_reproducible_by_its_seed() -> None:
    search = search_for("sixtysix")
    variant = make("sixtysix", {})
    state = variant.new_deal(variant.deal(Seed(7), ("t",), 0))
    seat = state.to_act
    first = search.mcts_values(state, seat, 300, 11)
    assert search.mcts_values(state, seat, 300, 11) == first
    assert search.mcts_values(state, seat, 300, 12).values != first.values


def test_pairs_leave_a_king_or_queen_with_its_partner_to_the_marriage() -> None:
    from sixtysix.bots._mcts_kernels import _paired

    clubs, spades = 0, 3
    king, queen, ace = clubs * 6 + KING, clubs * 6 + QUEEN, clubs * 6 + ACE
    lone_king = spades * 6 + KING
    acts = np.array([king, queen, ace, lone_king, MARRY + clubs, CLOSE, 0, 0], dtype=np.int64)
    kept = _paired(acts, 6)
    assert sorted(acts[:kept].tolist()) == sorted([ace, lone_king, MARRY + clubs, CLOSE])
    # No marriage to declare (following, or after the marriage itself): every card stays.
    follow = np.array([king, queen, ace], dtype=np.int64)
    assert _paired(follow, 3) == 3
    assert follow.tolist() == [king, queen, ace]


def test_pairs_value_every_root_action_and_change_the_play_outs() -> None:
    search = search_for("schnapsen")
    variant = make("schnapsen", {})
    for seed in range(1, 40):
        state = variant.new_deal(variant.deal(Seed(seed), ("t",), 0))
        seat = state.to_act
        legal = state.legal_actions()
        if not any(MARRY <= a < MARRY + 4 for a in legal):
            continue
        paired = search.mcts_values(state, seat, 300, 11, pairs=True)
        # The root keeps its unmarried leads: our rules offer them, so they need a value.
        assert paired.values.keys() == {int(a) for a in legal}
        assert search.mcts_values(state, seat, 300, 11, pairs=True) == paired
        assert search.mcts_values(state, seat, 300, 11).values != paired.values
        return
    pytest.fail("no first lead with a marriage to declare")


def test_pairs_need_a_tree() -> None:
    with pytest.raises(UnknownBotError, match="pairs=1 needs a tree"):
        ExpertBot(0, Seed(1), {"pairs": "1"})
    ExpertBot(0, Seed(1), {"mcts": "10", "pairs": "1"})


@pytest.mark.parametrize("solver", ["0", "1"])
def test_the_expert_with_the_tree_decides_from_its_view_alone(solver: str) -> None:
    params = {"mcts": "50", "samples": "3", "solver": solver, "pairs": solver}
    check_bot_view_only(ExpertBot, make("schnapsen", {}), Seed(6), deals=1, params=params)


def test_the_expert_grows_trees_while_the_talon_is_open_and_searches_after() -> None:
    variant = make("schnapsen", {})
    opened = variant.new_deal(variant.deal(Seed(4), ("t",), 0))
    strict = talon_run_out(variant, 4)
    plain = {"open": "search", "random": "0", "margin": "0", "samples": "4"}
    for state, differ in ((opened, True), (strict, False)):
        seat = state.to_act
        found = []
        for params in (plain, {**plain, "mcts": "400"}, {**plain, "mcts": "400", "solver": "1"}):
            bot = ExpertBot(seat, Seed(1), params)
            bot.choose(state.view(seat))
            assert bot.last is not None
            found.append(bot.last.values)
        assert (found[0] != found[1]) is differ
        assert (found[0] != found[2]) is differ
