"""The PIMC bot: legal, reproducible, blind to hidden cards, within its budget, in any variant."""

from __future__ import annotations

import dataclasses
import random
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import sixtysix.plugins.manager as manager
from sixtysix.bots.base import Bot, parse_bot_spec
from sixtysix.bots.inference import views
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.players.pimc import PimcBot
from sixtysix.bots.search.estimate import Budget, SearchEstimate, estimate
from sixtysix.core.actions import ACTION_NAMES, CLOSE, parse_action
from sixtysix.core.cards import FULL_DECK, JACK, NINES_MASK
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.options import Options, option
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins import hookimpl
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.variants.two_hand import TwoHandVariant
from tests.bots.test_sampling import CONFIGS, make, redealt

REGISTRY: Registry = build_registry()
TINY = {"samples": "2", "nodes": "150"}


def play(variant: Variant, bots: list[Bot], seed: int) -> DealState:
    state = variant.new_deal(variant.deal(Seed(seed), ("deal",), seed % variant.seats))
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        state.apply(action)
    return state


def test_pimc_and_expert_are_registered_with_documented_parameters() -> None:
    budget = {"samples", "nodes", "time", "depth", "confidence", "seed"}
    for name, extra in (
        ("pimc", set()),
        (
            "expert",
            {
                "margin",
                "random",
                "crowd",
                "calls",
                "read",
                "endgame",
                "tie",
                "fitted",
                "open",
                "playouts",
                "share",
                "effort",
                "match",
                "presume",
                "presume_open",
                "mcts",
                "solver",
                "pairs",
                "last",
            },
        ),
    ):
        cls = REGISTRY.bot(name)
        assert set(cls.parameters) == budget | extra
        assert all(doc.strip() for doc in cls.parameters.values())
    name, params = parse_bot_spec("expert:samples=64,seed=3")
    bot = REGISTRY.bot(name)(0, Seed(0), params)
    assert isinstance(bot, PimcBot) and bot.budget.samples == 64 and bot.seed.value == 3


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"samples": "0"}, "samples must be at least 1"),
        ({"nodes": "lots"}, "nodes must be an integer, not 'lots'"),
        ({"time": "-5"}, "time must be at least 1"),
        ({"seed": "x"}, "seed must be an integer"),
        ({"budget": "3"}, "has no parameter 'budget'"),
    ],
)
def test_bad_parameters_are_one_line_errors(params: dict[str, str], message: str) -> None:
    with pytest.raises(UnknownBotError, match=message):
        PimcBot(0, Seed(0), params)


BOTS = st.sampled_from([PimcBot, ExpertBot])


@given(BOTS, st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 40))
def test_only_legal_actions_on_any_reachable_state(
    cls: type[PimcBot], config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    variant = make(*config)
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("l",), 0))
    while not state.is_over and len(state.history) < stop:
        state.apply(rnd.choice(state.legal_actions()))
    assume(not state.is_over)
    seat = state.to_act
    view = state.view(seat)
    bot = cls(seat, Seed(rnd.getrandbits(32)), TINY)
    assert bot.choose(view) in view.legal_actions


@pytest.mark.parametrize("cls", [PimcBot, ExpertBot])
@pytest.mark.parametrize("name", ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_plays_whole_deals_of_every_variant_in_every_seat(name: str, cls: type[PimcBot]) -> None:
    variant = make(name, {})
    for number in range(2):
        bots: list[Bot] = [cls(s, Seed(number), TINY) for s in range(variant.seats)]
        assert play(variant, bots, number).outcome is not None


def test_manual_claims_and_concessions_are_decided_too() -> None:
    seen: set[str] = set()
    for name, options in [("sixtysix", {"claim": "manual"}), ("sixtysix-3", {})]:
        variant = make(name, options)
        for number in range(6):
            bots: list[Bot] = [PimcBot(s, Seed(number), TINY) for s in range(variant.seats)]
            state = play(variant, bots, 50 + number)
            seen |= {ACTION_NAMES[a] for _, a in state.history}
    assert "claim" in seen  # manual mode: the deal ends only by a claim or the last card


@pytest.mark.parametrize("cls", [PimcBot, ExpertBot])
@pytest.mark.parametrize("name", ["schnapsen", "sixtysix-4"])
def test_the_same_seed_gives_the_same_choices(name: str, cls: type[PimcBot]) -> None:
    variant = make(name, {})
    n = variant.seats
    first = play(variant, [cls(s, Seed(7), TINY) for s in range(n)], 3).history
    second = play(variant, [cls(s, Seed(7), TINY) for s in range(n)], 3).history
    assert first == second


@given(BOTS, st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 30))
def test_the_choice_depends_on_the_view_alone(
    cls: type[PimcBot], config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    """The hidden cards dealt differently, the same view: the same choice."""
    variant = make(*config)
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("h",), 0))
    while not state.is_over and len(state.history) < stop:
        state.apply(rnd.choice(state.legal_actions()))
    assume(not state.is_over)
    seat = state.to_act
    other = redealt(state, seat, rnd)
    assume(other is not None)
    assert other is not None
    a = cls(seat, Seed(1), TINY).choose(state.view(seat))
    b = cls(seat, Seed(1), TINY).choose(other.view(seat))
    assert a == b


def position(name: str, seed: int, stop: int) -> DealState:
    variant = make(name, {})
    rnd = random.Random(seed)
    state = variant.new_deal(variant.deal(Seed(seed), ("b",), 0))
    while len(state.history) < stop:
        state.apply(rnd.choice(state.legal_actions()))
    assert not state.is_over and len(state.legal_actions()) > 1
    return state


def test_the_node_budget_is_kept_and_is_reproducible() -> None:
    state = position("sixtysix", 1, 0)
    view = state.view(state.to_act)
    for nodes in (300, 3000):
        budget = Budget(samples=4, nodes=nodes)
        result = estimate(view, budget, Seed(2).stream(("n",)))
        again = estimate(view, budget, Seed(2).stream(("n",)))
        assert result == again
        assert result.deals == 4
        # Each deal searches one trick ahead whatever the budget; beyond that, its share.
        first_pass = estimate(view, Budget(samples=4, nodes=4, depth=1), Seed(2).stream(("n",)))
        assert result.nodes <= max(nodes, first_pass.nodes) + 4 * len(view.legal_actions)
    small = estimate(view, Budget(samples=4, nodes=300), Seed(2).stream(("n",)))
    large = estimate(view, Budget(samples=4, nodes=3000), Seed(2).stream(("n",)))
    assert small.nodes < large.nodes


def fake_clock(step: float) -> Callable[[], float]:
    ticks: Iterator[float] = (i * step for i in range(10**9))
    return lambda: next(ticks)


def test_a_time_budget_stops_sampling() -> None:
    view = position("schnapsen", 2, 0).view(0 if position("schnapsen", 2, 0).to_act == 0 else 1)
    # Every reading of the clock advances it by 40 ms; a 100 ms budget allows a few deals.
    result = estimate(
        view,
        Budget(samples=50, nodes=10**6, time_ms=100),
        Seed(1).stream(("t",)),
        clock=fake_clock(0.04),
    )
    assert 1 <= result.deals <= 3
    untimed = estimate(view, Budget(samples=5, nodes=2000), Seed(1).stream(("t",)))
    assert untimed.deals == 5


def test_the_time_parameter_is_a_cap_in_milliseconds() -> None:
    bot = PimcBot(0, Seed(0), {"time": "250", "samples": "9"})
    assert bot.budget.time_ms == 250.0 and bot.budget.samples == 9
    assert PimcBot(0, Seed(0)).budget.time_ms is None


def test_the_confidence_parameter_sets_how_sure_a_close_must_be() -> None:
    assert PimcBot(0, Seed(0)).budget.close_confidence == Budget().close_confidence
    assert PimcBot(0, Seed(0), {"confidence": "0.5"}).budget.close_confidence == 0.5
    assert "default 0.9" in PimcBot.parameters["confidence"]
    for text in ["2", "-0.1", "sure", "nan"]:
        with pytest.raises(UnknownBotError, match="confidence must be a number from 0 to 1"):
            PimcBot(0, Seed(0), {"confidence": text})


def test_closing_needs_confidence() -> None:
    est = SearchEstimate(
        values={0: 0.5, CLOSE: 0.9},
        wins={0: 0.6, CLOSE: 0.7},
        deals=10,
        exact=False,
        complete=False,
        nodes=1,
    )
    assert est.best() == CLOSE
    assert est.best(close_confidence=0.8) == 0
    assert est.best(close_confidence=0.7) == CLOSE


# ---------------------------------------------------------------------- a third-party variant


@dataclass(frozen=True)
class HouseOptions(Options):
    variant_name: ClassVar[str] = "house-schnapsen"
    target: int = option(5, "game points that end a match")


class HouseSchnapsen(TwoHandVariant):
    """A house rule the bots have never heard of: Schnapsen with a last-trick bonus of 10,
    marriages off and no closing."""

    name = "house-schnapsen"
    options_class = HouseOptions

    def make_rules(self, options: Options) -> Rules:
        return Rules(
            seats=2,
            deck=FULL_DECK & ~NINES_MASK,
            deal_rounds=(3, 2),
            turnup_after_round=0,
            marriages=False,
            exchange=True,
            exchange_rank=JACK,
            exchange_min_talon=2,
            exchange_needs_trick=False,
            last_trick_bonus=10,
        )


@pytest.fixture
def house_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    plugin = types.ModuleType("house_plugin")

    @hookimpl
    def register_variants(register: Callable[[type[Variant]], None]) -> None:
        register(HouseSchnapsen)

    plugin.register_variants = register_variants  # type: ignore[attr-defined]
    registry = build_registry(extra=(plugin,))
    assert "house-schnapsen" in registry.variants
    monkeypatch.setattr(manager, "_cached", registry)
    views._variant_from.cache_clear()
    yield registry
    views._variant_from.cache_clear()


def test_a_third_party_variant_is_played_through_the_view_alone(house_registry: Registry) -> None:
    variant = HouseSchnapsen()
    for number in range(2):
        for name in ("pimc", "expert"):
            cls = house_registry.bot(name)
            bots = [cls(s, Seed(number), TINY) for s in range(2)]
            state = play(variant, bots, number)
            assert state.outcome is not None
            assert not any(a == parse_action("close") for _, a in state.history)


def test_ties_go_to_a_certain_end_of_the_deal() -> None:
    est = SearchEstimate(
        values={0: 2.0, 25: 2.0, 26: 2.0},
        wins={0: 1.0, 25: 1.0, 26: 0.5},
        deals=4,
        exact=False,
        complete=False,
        nodes=1,
        certain=frozenset({25}),
    )
    assert est.best() == 25
    assert dataclasses.replace(est, certain=frozenset()).best() == 0


def test_ties_go_next_to_the_better_tiebreak() -> None:
    est = SearchEstimate(
        values={0: -1.0, 3: -1.0, 7: -1.0, 9: -2.0},
        wins={0: 0.0, 3: 0.0, 7: 0.0, 9: 0.0},
        deals=4,
        exact=False,
        complete=False,
        nodes=1,
        tiebreak={0: -0.9, 3: -0.4, 7: -0.6},
    )
    assert est.best() == 3
    # A certain end of the deal still comes first; no tiebreak: engine order.
    assert dataclasses.replace(est, certain=frozenset({7})).best() == 7
    assert dataclasses.replace(est, tiebreak={}).best() == 0
    # Negative tie-break values still beat an action the tie-break did not value.
    assert dataclasses.replace(est, tiebreak={3: -0.4, 7: -0.6}).best() == 3


def test_the_estimate_says_whether_every_deal_was_solved() -> None:
    from tests.bots.test_expert import talon_run_out

    state = talon_run_out(make("sixtysix", {}), 2)
    view = state.view(state.to_act)
    big = estimate(view, Budget(samples=2, nodes=10**6), Seed(0).stream(("s",)))
    assert big.solved and big.exact == big.complete
    small = estimate(view, Budget(samples=2, nodes=2, depth=1), Seed(0).stream(("s",)))
    assert not small.solved and not small.exact


def test_a_marriage_that_reaches_66_is_certain_and_chosen() -> None:
    from sixtysix.bots.search.estimate import ends_at_once
    from sixtysix.core.actions import MARRY

    variant = make("sixtysix", {})
    rnd = random.Random(1)
    for attempt in range(500):
        state = variant.new_deal(variant.deal(Seed(attempt), ("m",), 0))
        while not state.is_over:
            marriages = [a for a in state.legal_actions() if MARRY <= a < MARRY + 4]
            if any(ends_at_once(state, a) for a in marriages):
                break
            legal = [a for a in state.legal_actions() if a < MARRY]  # no marriage yet
            state.apply(rnd.choice(legal or state.legal_actions()))
        if not state.is_over:
            break
    else:
        pytest.fail("no marriage reaching 66 found")
    seat = state.to_act
    view = state.view(seat)
    winning = {a for a in view.legal_actions if MARRY <= a < MARRY + 4 and ends_at_once(state, a)}
    for cls in (PimcBot, ExpertBot):
        bot = cls(seat, Seed(0), TINY)
        assert bot.choose(view) in winning
        assert bot.last is not None and winning <= bot.last.certain
