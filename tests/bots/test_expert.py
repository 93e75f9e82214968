"""The expert: exact play on complete information, exhaustive small information sets."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from sixtysix.bots.base import Bot
from sixtysix.bots.compiled import available as compiled_available
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.players.expert import (
    ADVISOR_WEIGHTS,
    EXPERT_BUDGET,
    MANY_SEATS_SAMPLES,
    MAX_PRESUMED,
    MAX_TREE,
    OPEN_ROLLOUTS,
    OPEN_SEARCH,
    PLAYOUTS,
    RANDOM_FLOOR,
    TIE_MIX,
    ExpertBot,
    advisor_weights,
    blended,
    expert_estimate,
    needs_rollouts,
    rollout_estimate,
    rollout_policy,
    rule_players,
    weighted_deals,
)
from sixtysix.bots.players.heuristic import DEFAULT_WEIGHTS, decide
from sixtysix.bots.players.table_play import TABLE_CALLS
from sixtysix.bots.search.estimate import Budget, SearchEstimate, estimate
from sixtysix.bots.search.solver import Solver, deal_value
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import build_registry
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
    # random=0: the opponent is always expected to reply at its best (this deal was reached
    # by random play, which would otherwise read as a random opponent; see below).
    bot = ExpertBot(seat, Seed(0), {"random": "0"})
    choice = bot.choose(view)
    assert bot.last is not None
    assert bot.last.exact and bot.last.deals == 1
    truth = Solver(seat).action_values(state)
    assert truth[choice] == max(truth.values())
    assert bot.last.values == truth


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_a_random_opponent_is_read_and_expected_to_play_at_random() -> None:
    # These endgames were reached by random play: the expert reads the opponent as random and
    # values each action exactly against a reply that is random with that probability.
    from sixtysix.bots.compiled import CompiledSearch

    read = 0
    for name in ("sixtysix", "schnapsen"):
        variant = make(name, {})
        search = CompiledSearch(variant)
        for seed in (1, 2, 3):
            state = talon_run_out(variant, seed)
            seat = state.to_act
            bot = ExpertBot(seat, Seed(0))
            bot.choose(state.view(seat))
            assert bot.last is not None and bot.last.exact
            chance = bot.last.chance
            expected = search.action_values(state, seat, node_limit=0, mix=chance).values
            assert bot.last.values == pytest.approx(expected)
            read += chance > 0
    assert read >= 4


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_with_read_1_the_opponents_play_is_not_read() -> None:
    """``read=1`` (hand reading off, to measure it alone): the same endgames, where the
    opponent's random play reads as random above, are searched against the best reply, on
    deals drawn uniformly."""
    variant = make("sixtysix", {})
    for seed in (1, 2, 3):
        state = talon_run_out(variant, seed)
        seat = state.to_act
        bot = ExpertBot(seat, Seed(0), {"read": "1"})
        bot.choose(state.view(seat))
        assert bot.read == 1 and bot.last is not None and bot.last.chance == 0.0
    # With the talon open too: uniform draws, each standing for one deal.
    state = variant.new_deal(variant.deal(Seed(4), ("r",), 0))
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    view = state.view(state.to_act)
    stream = Seed(2).stream(("x",))
    policy = rollout_policy(2)
    deals, kept, chance = weighted_deals(view, Sampler(view), stream, 8, policy, 0.5, 1)
    assert len(deals) == 8 and kept == [1] * 8 and chance == 0.0
    deals, kept, _ = weighted_deals(view, Sampler(view), stream, 8, policy, 0.5)
    assert len(deals) == 3 * 8 and sum(kept) == 8


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_a_reasonable_opponent_is_not_read_as_random() -> None:
    # Against the heuristic player (the model itself) the reading stays below the floor:
    # the expert keeps expecting the best reply.
    from sixtysix.bots.players.heuristic import HeuristicBot

    variant = make("sixtysix", {})
    searched = 0
    for deal in range(6):
        state = variant.new_deal(variant.deal(Seed(deal), ("h",), deal % 2))
        expert = ExpertBot(0, Seed(deal))
        other = HeuristicBot(1, Seed(deal))
        while not state.is_over:
            seat = state.to_act
            if seat == 1:
                state.apply(other.choose(state.view(1)))
                continue
            expert.last = None
            state.apply(expert.choose(state.view(0)))
            if expert.last is not None and expert.last.method in ("search", "blend"):
                assert expert.last.chance == 0.0
                searched += 1
    assert searched >= 12


def tied_endgame(name: str) -> DealState:
    """A complete-information endgame reached by random play where minimax values several
    actions alike and an erring opponent would not: the expert must break the tie."""
    from sixtysix.bots.compiled import CompiledSearch

    variant = make(name, {})
    search = CompiledSearch(variant)
    for seed in range(1, 60):
        state = talon_run_out(variant, seed)
        rnd = random.Random(seed)
        while not state.is_over:
            seat = state.to_act
            legal = state.legal_actions()
            if len(legal) > 1:
                best = search.action_values(state, seat, 0).values
                top = max(best.values())
                tied = [a for a in legal if best[a] >= top - 1e-9]
                erring = search.action_values(state, seat, 0, mix=TIE_MIX).values
                if len(tied) > 1 and max(tied, key=erring.__getitem__) != min(tied):
                    return state
            state.apply(rnd.choice(legal))
    raise AssertionError("no tied endgame found")


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_ties_in_solved_endgames_go_to_the_opponents_chances_to_err(name: str) -> None:
    from sixtysix.bots.compiled import CompiledSearch

    state = tied_endgame(name)
    seat = state.to_act
    search = CompiledSearch(make(name, {}))
    best = search.action_values(state, seat, 0).values
    erring = search.action_values(state, seat, 0, mix=TIE_MIX).values
    top = max(best.values())
    tied = {a for a, v in best.items() if v >= top - 1e-9}
    # random=0: the tie-break alone (the opponent is not read as random).
    bot = ExpertBot(seat, Seed(0), {"random": "0"})
    choice = int(bot.choose(state.view(seat)))
    assert bot.last is not None and bot.last.solved and bot.last.exact
    assert bot.last.values == pytest.approx(best)
    assert set(bot.last.tiebreak) == tied
    assert bot.last.tiebreak == pytest.approx({a: erring[a] for a in tied})
    assert choice in tied and erring[choice] == max(erring[a] for a in tied)
    assert choice != min(tied)  # engine order alone would have played another card
    # Already expecting a random reply as often as the tie-break would: no second search.
    reading = ExpertBot(seat, Seed(0), {"random": "1"})
    reading.choose(state.view(seat))
    assert reading.last is not None and reading.last.chance == 1.0
    assert not reading.last.tiebreak
    plain = ExpertBot(seat, Seed(0), {"random": "0", "tie": "0"})
    assert int(plain.choose(state.view(seat))) == min(tied)
    assert plain.last is not None and not plain.last.tiebreak
    with pytest.raises(UnknownBotError, match=r"tie must be a number from 0 to 1, not '1\.5'"):
        ExpertBot(seat, Seed(0), {"tie": "1.5"})


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_once_every_sampled_deal_is_solved_the_search_decides_without_the_margin() -> None:
    # Schnapsen just after a close: the opponent's hand is one of thousands, so the deals are
    # sampled, but each is a five-card endgame the search solves to its end.
    from sixtysix.bots.players.heuristic import HeuristicBot
    from sixtysix.core.actions import CLOSE

    variant = make("schnapsen", {})
    overruled = 0
    for deal in range(40):
        state = variant.new_deal(variant.deal(Seed(deal), ("c",), 0))
        if CLOSE not in state.legal_actions():
            continue
        state.apply_legal(CLOSE)
        seat = state.to_act
        view = state.view(seat)
        stubborn = ExpertBot(seat, Seed(0), {"margin": "100", "samples": "6"})
        choice = int(stubborn.choose(view))
        assert stubborn.last is not None and not stubborn.last.complete
        assert stubborn.last.solved and not stubborn.last.exact
        assert choice == stubborn.last.best(EXPERT_BUDGET.close_confidence)
        overruled += choice != int(HeuristicBot(seat, Seed(0)).choose(view))
    assert overruled >= 3


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
    from sixtysix.bots.players.pimc import PimcBot

    expert = ExpertBot(0, Seed(0)).budget
    pimc = PimcBot(0, Seed(0)).budget
    assert expert.samples >= pimc.samples and expert.nodes > pimc.nodes
    assert expert.enumerate_up_to > 0 == pimc.enumerate_up_to


# ---------------------------------------------------------------------- rollouts


class FirstLegal(Bot):
    """A rollout policy that records what it is shown and plays its first legal action."""

    name = "first-legal"
    description = "test policy"

    def __init__(self, seat: int, seen: list[View]) -> None:
        super().__init__(seat, Seed(0))
        self.seen = seen

    def choose(self, view: View) -> Action:
        self.seen.append(view)
        return view.legal_actions[0]


def opening(name: str) -> View:
    variant = make(name, {})
    state = variant.new_deal(variant.deal(Seed(6), ("o",), 0))
    return state.view(state.to_act)


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_early_positions_are_played_out_late_ones_searched(name: str) -> None:
    view = opening(name)
    assert needs_rollouts(view)
    result = expert_estimate(view, Budget(samples=3), Seed(1).stream(("r",)), use_compiled=False)
    assert result.method == "rollouts" and result.deals == 3
    assert set(result.values) == set(view.legal_actions)


@pytest.mark.skipif(not compiled_available(), reason="needs numba (the fast extra)")
@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_with_numba_two_player_open_play_is_searched_by_the_compiled_search(name: str) -> None:
    view = opening(name)
    result = expert_estimate(view, Budget(samples=3, depth=1), Seed(1).stream(("r",)))
    assert result.method == "search" and result.deals == 3
    assert set(result.values) == set(view.legal_actions)
    assert result.nodes > 0 and not result.exact


@pytest.mark.skipif(not compiled_available(), reason="needs numba (the fast extra)")
def test_the_margin_keeps_the_rule_players_move_unless_the_search_beats_it() -> None:
    view = opening("sixtysix")
    advice = decide(view, advisor_weights(view))
    stubborn = ExpertBot(view.seat, Seed(0), {"margin": "100", "samples": "4"})
    assert stubborn.choose(view) == advice
    alone = ExpertBot(view.seat, Seed(0), {"margin": "0", "samples": "4"})
    choice = alone.choose(view)
    assert alone.last is not None
    assert choice == ACTIONS[alone.last.best(EXPERT_BUDGET.close_confidence)]
    with pytest.raises(UnknownBotError, match="margin must be a number"):
        ExpertBot(view.seat, Seed(0), {"margin": "lots"})
    with pytest.raises(UnknownBotError, match="at least 0"):
        ExpertBot(view.seat, Seed(0), {"margin": "-1"})
    with pytest.raises(UnknownBotError, match="random must be a number from 0 to 1, not '2'"):
        ExpertBot(view.seat, Seed(0), {"random": "2"})
    with pytest.raises(UnknownBotError, match="crowd must be at least 1"):
        ExpertBot(view.seat, Seed(0), {"crowd": "0"})
    with pytest.raises(UnknownBotError, match="fitted must be 0 or 1, not 2"):
        ExpertBot(view.seat, Seed(0), {"fitted": "2"})


def test_the_margin_defers_to_the_rule_player_fitted_to_the_game() -> None:
    """Where the fitted weights and the heuristic's own disagree, a stubborn expert plays the
    fitted rule player's move, and with ``fitted=0`` the heuristic's."""
    assert advisor_weights(opening("sixtysix")) == DEFAULT_WEIGHTS  # none fitted for 66
    variant = make("schnapsen", {})
    fitted = ADVISOR_WEIGHTS[variant.rules.deck.bit_count()]
    assert fitted != DEFAULT_WEIGHTS
    rnd = random.Random(5)
    found = 0
    for deal in range(200):
        state = variant.new_deal(variant.deal(Seed(deal), ("f",), deal % 2))
        while not state.is_over and state.talon and found < 3:
            view = state.view(state.to_act)
            mine, own = decide(view, fitted), decide(view, DEFAULT_WEIGHTS)
            if mine != own:
                stubborn = {"margin": "100", "samples": "2", "nodes": "2000"}
                bot = ExpertBot(view.seat, Seed(0), stubborn)
                choice = bot.choose(view)
                assert bot.last is not None
                if bot.last.method == "search" and not bot.last.solved:  # estimates
                    assert choice == mine
                    plain = ExpertBot(view.seat, Seed(0), {**stubborn, "fitted": "0"})
                    assert plain.choose(view) == own
                    found += 1
            state.apply(rnd.choice(state.legal_actions()))
        if found >= 3:
            return
    raise AssertionError("the fitted weights never changed a move")


#: A margin above the default, to show that the default is the one applied.
WIDER = 0.5


@pytest.mark.skipif(not compiled_available(), reason="needs numba (the fast extra)")
@pytest.mark.parametrize("game", ["sixtysix", "schnapsen"])
def test_the_default_margin_overrules_from_its_own_gap_in_both_games(game: str) -> None:
    from sixtysix.bots.players.expert import MARGIN

    assert 0 < MARGIN < WIDER
    variant = make(game, {})
    for deal in range(300):
        state = variant.new_deal(variant.deal(Seed(deal), ("m",), deal % 2))
        view = state.view(state.to_act)
        bot = ExpertBot(view.seat, Seed(0), {"samples": "4"})
        choice = int(bot.choose(view))
        assert bot.last is not None and not bot.last.solved
        advice = int(decide(view, advisor_weights(view)))
        best = bot.last.best(EXPERT_BUDGET.close_confidence)
        if MARGIN <= bot.last.values[best] - bot.last.values[advice] < WIDER:
            assert choice == best != advice
            wide = ExpertBot(view.seat, Seed(0), {"samples": "4", "margin": str(WIDER)})
            assert int(wide.choose(view)) == advice
            return
    raise AssertionError("no opening with a gap between the default margin and a wider one")


def test_strict_endgames_are_searched() -> None:
    state = talon_run_out(make("sixtysix", {}), 4)
    view = state.view(state.to_act)
    assert not needs_rollouts(view)
    assert expert_estimate(view, Budget(samples=3), Seed(1).stream(("s",))).method == "search"


def test_rollouts_play_each_deal_out_with_views_only() -> None:
    view = opening("schnapsen")
    seen: list[View] = []
    policy = [FirstLegal(s, seen) for s in range(view.seats)]
    sampler = Sampler(view)
    result = rollout_estimate(view, Budget(samples=2), Seed(2).stream(("p",)), sampler, policy)
    assert seen and all(isinstance(v, View) and v.my_turn for v in seen)
    assert all(len(v.legal_actions) > 1 for v in seen)  # forced moves are not asked
    assert result.nodes == len(seen)
    # The same deals played out by hand give the same values.
    stream = Seed(2).stream(("p",))
    deals = [sampler.sample(stream) for _ in range(2)]
    for a, value in result.values.items():
        total = 0.0
        for deal in deals:
            state = deal.copy()
            state.apply(a)
            while not state.is_over:
                state.apply(state.legal_actions()[0])
            total += deal_value(state, view.seat)
        assert value == pytest.approx(total / 2)


def test_rollouts_are_reproducible_and_keep_the_time_cap() -> None:
    view = opening("sixtysix")
    first = expert_estimate(view, Budget(samples=2), Seed(3).stream(("q",)))
    assert expert_estimate(view, Budget(samples=2), Seed(3).stream(("q",))) == first
    ticks = iter(range(10**6))
    capped = expert_estimate(
        view,
        Budget(samples=40, time_ms=100),
        Seed(3).stream(("q",)),
        clock=lambda: next(ticks) * 0.06,
    )
    assert capped.deals == 2


def test_without_the_rollout_player_the_expert_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    import sixtysix.bots.players.expert as expert

    monkeypatch.setattr(expert, "ROLLOUT_PLAYER", None)
    view = opening("sixtysix")
    bot = ExpertBot(view.seat, Seed(0), {"samples": "2", "nodes": "300", "open": "search"})
    assert bot.choose(view) in view.legal_actions
    assert bot.last is not None and bot.last.method == "search"
    # Open rollouts use the built-in rule player all the same.
    out = ExpertBot(view.seat, Seed(0), {"playouts": "2", "open": "rollouts"})
    assert out.choose(view) in view.legal_actions
    assert out.last is not None and out.last.method == "rollouts" and out.last.deals == 2


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_two_player_open_play_is_played_out_or_searched_as_told(name: str) -> None:
    view = opening(name)
    out = ExpertBot(view.seat, Seed(0), {"open": OPEN_ROLLOUTS, "playouts": "5"})
    assert out.choose(view) in view.legal_actions
    assert out.last is not None and out.last.method == "rollouts" and out.last.deals == 5
    assert set(out.last.values) == set(view.legal_actions)
    searched = ExpertBot(view.seat, Seed(0), {"open": OPEN_SEARCH, "samples": "3", "nodes": "3000"})
    assert searched.choose(view) in view.legal_actions
    # Without numba the generic search plays the open talon out with the registered player.
    method = "search" if compiled_available() else "rollouts"
    assert searched.last is not None and searched.last.method == method
    with pytest.raises(UnknownBotError, match="one of blend, rollouts, search, not 'x'"):
        ExpertBot(view.seat, Seed(0), {"open": "x"})
    with pytest.raises(UnknownBotError, match="playouts must be at least 1"):
        ExpertBot(view.seat, Seed(0), {"playouts": "0"})


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_by_default_open_play_is_valued_by_the_mean_of_play_outs_and_search(name: str) -> None:
    view = opening(name)
    bot = ExpertBot(view.seat, Seed(0))
    bot.choose(view)
    assert bot.last is not None and bot.last.method == "blend"
    assert bot.last.deals == PLAYOUTS + EXPERT_BUDGET.samples
    assert set(bot.last.values) == set(view.legal_actions)
    told = ExpertBot(view.seat, Seed(0), {"samples": "3"})
    told.choose(view)
    assert told.last is not None and told.last.deals == 3 + 3
    # Once the talon is gone the deal is searched as before.
    state = talon_run_out(make(name, {}), 2)
    late = ExpertBot(state.to_act, Seed(0))
    late.choose(state.view(state.to_act))
    assert late.last is not None and late.last.method == "search" and late.last.exact


def test_a_blend_is_the_mean_of_play_outs_and_search() -> None:
    rolled = SearchEstimate({1: 1.0, 2: -1.0}, {1: 1.0, 2: 0.0}, 4, False, False, 10, "rollouts")
    searched = SearchEstimate(
        {1: -2.0, 2: 3.0}, {1: 0.0, 2: 1.0}, 6, False, False, 20, certain=frozenset({2})
    )
    both = blended(rolled, searched)
    assert both.values == {1: -0.5, 2: 1.0} and both.wins == {1: 0.5, 2: 0.5}
    assert both.method == "blend" and both.deals == 10 and both.nodes == 30
    assert both.certain == frozenset() and not both.solved and not both.exact
    assert both.best() == 2
    leaning = blended(rolled, searched, share=0.75)
    assert leaning.values == {1: 0.25, 2: 0.0} and leaning.wins == {1: 0.75, 2: 0.25}
    assert leaning.best() == 1


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_the_blend_is_half_and_half_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    import sixtysix.bots.players.expert as expert

    shares: list[float] = []

    def spy(rolled: SearchEstimate, searched: SearchEstimate, share: float = 0.0) -> SearchEstimate:
        shares.append(share)
        return blended(rolled, searched, share)

    monkeypatch.setattr(expert, "blended", spy)
    for name, params, share in [
        ("sixtysix", {}, 0.5),
        ("schnapsen", {}, 0.5),
        ("schnapsen", {"share": "0.25"}, 0.25),
    ]:
        view = opening(name)
        ExpertBot(view.seat, Seed(0), {"samples": "2", **params}).choose(view)
        assert shares.pop() == share
    view = opening("sixtysix")
    with pytest.raises(UnknownBotError, match="share must be a number from 0 to 1"):
        ExpertBot(view.seat, Seed(0), {"share": "2"})


@pytest.mark.parametrize(
    ("method", "closes"), [("blend", False), ("search", False), ("rollouts", True)]
)
def test_a_close_needs_confidence_wherever_the_search_saw_the_cards(
    monkeypatch: pytest.MonkeyPatch, method: str, closes: bool
) -> None:
    import sixtysix.bots.players.expert as expert
    from sixtysix.core.actions import CLOSE

    view = opening("schnapsen")
    other = int(view.legal_actions[0])
    # Closing is worth most on average but came out ahead in only half of the deals.
    found = SearchEstimate(
        {CLOSE: 1.0, other: 0.0}, {CLOSE: 0.5, other: 0.5}, 8, False, False, 0, method
    )
    monkeypatch.setattr(expert, "expert_estimate", lambda *args, **kwargs: found)
    bot = ExpertBot(view.seat, Seed(0), {"margin": "0"})
    assert (bot.choose(view) == CLOSE) is closes


def test_a_close_the_deals_mostly_back_is_taken_only_as_sure_as_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sixtysix.bots.players.expert as expert
    from sixtysix.core.actions import CLOSE

    view = opening("schnapsen")
    other = int(view.legal_actions[0])
    # Closing is worth most on average and came out ahead in 95% of the deals.
    found = SearchEstimate({CLOSE: 1.0, other: 0.0}, {CLOSE: 0.95, other: 0.5}, 20, False, False, 0)
    monkeypatch.setattr(expert, "expert_estimate", lambda *args, **kwargs: found)
    assert expert.CLOSE_CONFIDENCE > 0.95
    assert ExpertBot(view.seat, Seed(0), {"margin": "0"}).choose(view) != CLOSE
    told = ExpertBot(view.seat, Seed(0), {"margin": "0", "confidence": "0.9"})
    assert told.choose(view) == CLOSE
    with pytest.raises(UnknownBotError, match="confidence must be a number from 0 to 1"):
        ExpertBot(view.seat, Seed(0), {"confidence": "2"})


def test_rollouts_play_each_weighted_deal_as_often_as_it_was_drawn() -> None:
    view = opening("sixtysix")
    sampler = Sampler(view)
    stream = Seed(3).stream(("w",))
    first, second = sampler.sample(stream), sampler.sample(stream)
    players = rule_players(DEFAULT_WEIGHTS, 2)
    both = rollout_estimate(
        view, Budget(), stream, sampler, players, draws=[(first, 2), (second, 0)]
    )
    alone = rollout_estimate(view, Budget(), stream, sampler, players, draws=[(first, 1)])
    assert both.deals == 2 and alone.deals == 1
    assert both.values == alone.values


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_open_play_against_a_random_player_is_searched_expecting_random_replies() -> None:
    # The rule players of the play-outs do not play like a random opponent: once its play
    # reads as random, the open talon is searched expecting random replies instead.
    variant = make("sixtysix", {})
    methods: dict[str, list[float]] = {"blend": [], "search": []}
    for deal in range(6):
        rnd = random.Random(deal)
        state = variant.new_deal(variant.deal(Seed(deal), ("rnd",), 0))
        expert = ExpertBot(0, Seed(deal), {"playouts": "4", "samples": "3", "nodes": "4000"})
        while not state.is_over:
            legal = state.legal_actions()
            if state.to_act == 1 or len(legal) == 1:
                state.apply(rnd.choice(legal))
                continue
            view = state.view(0)
            state.apply(expert.choose(view))
            assert expert.last is not None
            if view.talon_size and view.closed_by is None:
                methods[expert.last.method].append(expert.last.chance)
                if expert.last.method == "search" and not expert.last.complete:
                    # The deals drawn and read for the play-outs, not drawn and read again.
                    assert expert.last.deals == 4
    assert methods["blend"] and methods["search"]
    assert all(chance >= RANDOM_FLOOR for chance in methods["search"])


def test_more_deals_per_move_with_more_seats_unless_told() -> None:
    from sixtysix.bots.players.expert import MANY_SEATS_SAMPLES, TABLE_CALLS

    call = opening("sixtysix-4")
    bot = ExpertBot(call.seat, Seed(0))
    bot.choose(call)
    assert bot.last is not None and bot.last.deals == TABLE_CALLS  # a call: many deals
    variant = make("sixtysix-4", {})
    state = variant.new_deal(variant.deal(Seed(6), ("o",), 0))
    while state.phase != Phase.PLAY or len(state.legal_actions()) < 2:
        state.apply(decide(state.view(state.to_act)))
    view = state.view(state.to_act)
    bot = ExpertBot(view.seat, Seed(0))
    bot.choose(view)
    assert bot.last is not None and bot.last.deals == MANY_SEATS_SAMPLES
    told = ExpertBot(view.seat, Seed(0), {"samples": "3"})
    told.choose(view)
    assert told.last is not None and told.last.deals == 3
    crowd = ExpertBot(view.seat, Seed(0), {"samples": "3", "crowd": "5"})
    crowd.choose(view)
    assert crowd.last is not None and crowd.last.deals == 5
    two = opening("schnapsen")
    assert ExpertBot(two.seat, Seed(0)).budget.samples == EXPERT_BUDGET.samples


def test_without_numba_the_expert_falls_back_on_rollouts_and_the_generic_search() -> None:
    """``SIXTYSIX_NO_NUMBA`` (or numba missing) leaves the expert whole, only slower."""
    import os
    import subprocess
    import sys

    code = (
        "from sixtysix.bots import compiled\n"
        "from sixtysix.bots.players import expert\n"
        "from tests.bots.test_expert import opening, talon_run_out\n"
        "from tests.bots.test_sampling import make\n"
        "from sixtysix.core.rng import Seed\n"
        "assert not compiled.available()\n"
        "view = opening('sixtysix')\n"
        "bot = expert.ExpertBot(view.seat, Seed(0), {'samples': '3'})\n"
        "assert bot.choose(view) in view.legal_actions\n"
        "assert bot.last.method == 'rollouts'\n"
        "state = talon_run_out(make('sixtysix', {}), 1)\n"
        "view = state.view(state.to_act)\n"
        "assert bot.choose(view) in view.legal_actions and bot.last.exact\n"
        "print('ok')\n"
    )
    env = {**os.environ, "SIXTYSIX_NO_NUMBA": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_effort_scales_the_default_deals_playouts_and_nodes() -> None:
    """``effort`` multiplies every count left at its default; a count given keeps its value."""
    plain = ExpertBot(0, Seed(1))
    double = ExpertBot(0, Seed(1), {"effort": "2"})
    assert double.budget.samples == 2 * plain.budget.samples == 2 * EXPERT_BUDGET.samples
    assert double.budget.nodes == 2 * plain.budget.nodes
    assert double.playouts == 2 * PLAYOUTS == 2 * plain.playouts
    assert double._many.samples == 2 * MANY_SEATS_SAMPLES
    assert double._table.calls == 2 * TABLE_CALLS
    kept = ExpertBot(0, Seed(1), {"effort": "3", "nodes": "1000", "playouts": "5"})
    assert kept.budget.nodes == 1000 and kept.playouts == 5
    assert kept.budget.samples == 3 * plain.budget.samples
    tenth = ExpertBot(0, Seed(1), {"effort": "0.1"})
    assert tenth.budget.samples == max(1, round(0.1 * plain.budget.samples))


@pytest.mark.parametrize("value", ["0", "0.05", "101", "fast"])
def test_effort_out_of_range_is_one_line(value: str) -> None:
    with pytest.raises(UnknownBotError, match="effort"):
        ExpertBot(0, Seed(1), {"effort": value})


def test_more_effort_values_each_move_on_more_deals() -> None:
    """The knob reaches the search: at effort 2 a move is valued on twice the deals."""
    variant = build_registry().variant("66")()
    state = variant.new_deal(variant.deal(Seed(4), ("effort",), 0))
    seen = []
    for effort in ("1", "2"):
        bot = ExpertBot(state.to_act, Seed(9), {"effort": effort})
        bot.choose(state.view(state.to_act))
        assert bot.last is not None
        seen.append(bot.last.deals)
    assert seen[1] == 2 * seen[0] > 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("presume", "-1"),
        ("presume", str(MAX_PRESUMED + 1)),
        ("presume", "two"),
        ("presume_open", "2"),
        ("mcts", "-1"),
        ("mcts", str(MAX_TREE + 1)),
        ("mcts", "many"),
        ("solver", "2"),
    ],
)
def test_an_absurd_presumption_or_tree_is_refused_in_one_line(name: str, value: str) -> None:
    with pytest.raises(UnknownBotError, match=f"bot parameter {name} must be"):
        ExpertBot(0, Seed(0), {name: value})


def last_open_trick(seed: int) -> DealState:
    """A Schnapsen deal played on (cards only) to the last trick before the talon runs out,
    the seat to act leading with a choice."""
    variant = make("schnapsen", {})
    rnd = random.Random(seed)
    for attempt in range(100):
        state = variant.new_deal(variant.deal(Seed(seed * 1000 + attempt), ("l",), 0))
        while not state.is_over and state.view(state.to_act).talon_size > 2:
            state.apply(rnd.choice([a for a in state.legal_actions() if a < 24]))
        if state.is_over or state.trick or len(state.legal_actions()) < 2:
            continue
        if state.view(state.to_act).talon_size == 2:
            return state
    raise AssertionError("no such deal")


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_last_lets_the_search_alone_solve_the_last_open_trick(seed: int) -> None:
    state = last_open_trick(seed)
    view = state.view(state.to_act)
    # random=0: the opponent's random play is not read as a random player's, so without
    # ``last`` the talon still open means the blend of play-outs and search.
    blended = ExpertBot(state.to_act, Seed(1), {"random": "0"})
    blended.choose(view)
    assert blended.last.method == "blend"
    assert not blended.last.solved
    searched = ExpertBot(state.to_act, Seed(1), {"random": "0", "last": "1"})
    searched.choose(view)
    assert searched.last.method == "search"
    assert searched.last.solved
    # Two tricks earlier the look-ahead of one trick does not reach the talon's end.
    assert not searched.searched_to_end(replace(view, talon_size=4), searched.budget)
    assert searched.searched_to_end(view, searched.budget)
    assert not blended.searched_to_end(view, blended.budget)
