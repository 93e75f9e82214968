"""The expert at three- and four-player tables: calls valued on many deals, deals weighed by
everyone's calls and play, small endgames solved."""

from __future__ import annotations

import math
import random

import pytest

from sixtysix.bots.inference.play import TRUST
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.inference.table import read_table, trump_call_probability, weighted_table_deals
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.table_play import Table, is_call
from sixtysix.core.actions import CONCEDE, PARTNER, SOLO, TRUMP, TRUMP_BELOW
from sixtysix.core.cards import parse_card
from sixtysix.core.deal import DealSetup
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from tests.bots.test_sampling import make

#: A light budget for tests: the choices below are clear on far fewer deals.
LIGHT = {"calls": "48", "crowd": "16"}


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(parse_card(c)) for c in text.split())


def dealt(variant: Variant, hands: list[str], dealer: int) -> DealState:
    return variant.new_deal(DealSetup(dealer, tuple(map(cards, hands)), None, ()))


def rule_model(seats: int) -> list[HeuristicBot]:
    return [HeuristicBot(s, Seed(0)) for s in range(seats)]


def heuristic_play(variant: Variant, seed: int, moves: int) -> DealState:
    """A deal played ``moves`` actions on by the rule player in every seat."""
    rnd = random.Random(seed)
    state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("t",), 0))
    bots = rule_model(variant.seats)
    while not state.is_over and len(state.history) < moves:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


def with_a_choice(state: DealState) -> DealState:
    """``state`` played on by the rule player until the seat to act has a choice."""
    bots = rule_model(state.n)
    while not state.is_over and len(state.legal_actions()) < 2:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert not state.is_over
    return state


# ---------------------------------------------------------------------- the calls


def test_four_trumps_of_a_suit_in_the_first_cards_name_that_suit() -> None:
    v = make("sixtysix-3", {})
    # Seat 1 (the forehand) sees AH TH KH QH first.
    state = dealt(
        v,
        [
            "9C JC QC KC TC AC 9D JD",
            "AH TH KH QH 9S JS QD KD",
            "JH 9H QS KS TS AS TD AD",
        ],
        dealer=0,
    )
    view = state.view(1)
    assert view.phase == Phase.TRUMP_CALL and is_call(view)
    bot = ExpertBot(1, Seed(3), LIGHT)
    assert bot.choose(view) == TRUMP + 2  # hearts
    assert bot.last is not None and bot.last.deals == 48


def test_a_hopeless_declarer_concedes_before_the_first_card() -> None:
    v = make("sixtysix-3", {})
    # Seat 1 names clubs from nines and jacks: nothing in his hand can take a trick.
    state = dealt(
        v,
        [
            "AC TC KC QC AD TD KD QD",
            "9C JC 9D JD 9H JH 9S JS",
            "AH TH KH QH AS TS KS QS",
        ],
        dealer=0,
    )
    state.apply(TRUMP + 0)
    view = state.view(1)
    assert CONCEDE in view.legal_actions and is_call(view)
    bot = ExpertBot(1, Seed(3), LIGHT)
    assert bot.choose(view) == CONCEDE


def test_the_top_trumps_and_a_side_ace_go_solo_a_weak_hand_calls() -> None:
    v = make("sixtysix-4", {})
    strong = dealt(
        v,
        [
            "9C JC QC TC 9D JD",
            "AH TH KH QH KC AS",
            "AC 9H JH QD KD TD",
            "AD 9S JS QS KS TS",
        ],
        dealer=0,
    )
    strong.apply(TRUMP + 2)
    view = strong.view(1)
    assert view.phase == Phase.PARTNER_CALL and PARTNER + 0 in view.legal_actions
    assert ExpertBot(1, Seed(3), LIGHT).choose(view) == SOLO
    weak = dealt(
        v,
        [
            "AH TH KH QH TC AS",
            "9H JH 9C JC QD KD",
            "AC 9D JD TD QC KC",
            "AD 9S JS QS KS TS",
        ],
        dealer=0,
    )
    weak.apply(TRUMP + 2)
    view = weak.view(1)
    choice = ExpertBot(1, Seed(3), LIGHT).choose(view)
    assert PARTNER <= choice < PARTNER + 4 and choice in view.legal_actions


# ---------------------------------------------------------------------- reading the table


def test_a_trump_call_is_likelier_from_a_hand_long_in_that_suit() -> None:
    legal = (TRUMP, TRUMP + 1, TRUMP + 2, TRUMP + 3, TRUMP_BELOW)
    hearts = cards("AH TH KH QH 9C JC 9S JS")
    none = cards("AC TC KC QC AS TS KS QS")
    long = trump_call_probability(hearts, None, 4, legal, TRUMP + 2)
    void = trump_call_probability(none, None, 4, legal, TRUMP + 2)
    assert void == pytest.approx((1 - TRUST) / 4)  # the rule player never names a void suit
    assert long > 0.5 > void
    # Trump from below: the shown (last) card is never among the first four.
    weak = cards("9C JC 9D JD 9H JH 9S AS")
    below = trump_call_probability(weak, weak[-1], 4, legal, TRUMP_BELOW)
    assert below == pytest.approx(TRUST)


@pytest.mark.parametrize("name", ["sixtysix-3", "sixtysix-4"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_rule_players_own_play_reads_as_its_own(name: str, seed: int) -> None:
    v = make(name, {})
    state = heuristic_play(v, seed, 10)
    seat = state.to_act
    model = rule_model(v.seats)
    replay = v.new_deal(state.setup)
    expected = 0.0
    for s, a in state.history:
        legal = replay.legal_actions()
        if s != seat and len(legal) > 1:
            if replay.phase == Phase.TRUMP_CALL:
                hand = state.setup.hands[s]
                shown = hand[-1] if a == TRUMP_BELOW else None
                p = trump_call_probability(hand, shown, v.rules.call_after, tuple(legal), a)
                expected += math.log(p)
            else:
                expected += math.log(TRUST)  # every decision is the model's own
        replay.apply(a)
    assert read_table(state, seat, model) == pytest.approx(expected)


def test_weighing_keeps_the_deals_that_explain_the_play() -> None:
    v = make("sixtysix-3", {})
    state = heuristic_play(v, 4, 12)
    seat = state.to_act
    view = state.view(seat)
    sampler = Sampler(view)
    model = rule_model(3)
    draws = weighted_table_deals(view, sampler, Seed(1).stream(("w",)), 24, model, 4)
    assert sum(k for _, k in draws) == 24
    kept = [read_table(d, seat, model) for d, _ in draws]
    pool = [sampler.sample(Seed(2).stream(("u",))) for _ in range(96)]
    uniform = [read_table(d, seat, model) for d in pool]
    assert sum(kept) / len(kept) > sum(uniform) / len(uniform)


def test_without_anyone_elses_decision_nothing_is_read() -> None:
    v = make("sixtysix-3", {})
    state = v.new_deal(v.deal(Seed(5), ("t",), 0))
    view = state.view(state.to_act)
    draws = weighted_table_deals(view, Sampler(view), Seed(1).stream(("w",)), 8, rule_model(3))
    assert [k for _, k in draws] == [1] * 8


# ---------------------------------------------------------------------- the bot


@pytest.mark.parametrize("name", ["sixtysix-3", "sixtysix-4"])
def test_the_table_expert_is_reproducible_and_plays_legal_moves(name: str) -> None:
    v = make(name, {})
    state = with_a_choice(heuristic_play(v, 6, 9))
    seat = state.to_act
    view = state.view(seat)
    first = ExpertBot(seat, Seed(9), LIGHT)
    second = ExpertBot(seat, Seed(9), LIGHT)
    choice = first.choose(view)
    assert choice in view.legal_actions
    assert second.choose(view) == choice
    assert first.last is not None and second.last is not None
    assert first.last.values == second.last.values


def test_no_reading_samples_uniformly() -> None:
    bot = ExpertBot(0, Seed(1), {"read": "1", "calls": "10"})
    assert bot._table == Table(calls=10, candidates=1)


def test_a_whole_table_of_experts_plays_to_the_end() -> None:
    v = make("sixtysix-4", {})
    state = v.new_deal(v.deal(Seed(8), ("t",), 0))
    bots = [ExpertBot(s, Seed(s), {"calls": "16", "crowd": "6"}) for s in range(4)]
    while not state.is_over:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    assert state.outcome is not None


def test_a_given_sample_size_sets_the_calls_too_unless_told() -> None:
    from sixtysix.bots.players.expert import TABLE_CALLS

    assert ExpertBot(0, Seed(1))._table.calls == TABLE_CALLS
    assert ExpertBot(0, Seed(1), {"samples": "8"})._table.calls == 8
    assert ExpertBot(0, Seed(1), {"samples": "8", "calls": "20"})._table.calls == 20


@pytest.mark.parametrize("name", ["sixtysix-3", "sixtysix-4"])
@pytest.mark.parametrize("moves", [0, 9, 14])
def test_without_reading_and_with_as_many_deals_a_call_the_expert_values_as_before(
    name: str, moves: int
) -> None:
    from sixtysix.bots.players.expert import expert_estimate, rollout_policy
    from sixtysix.bots.search.estimate import Budget

    v = make(name, {})
    state = heuristic_play(v, 7, moves)
    if not state.is_over:
        state = with_a_choice(state)
    view = state.view(state.to_act)
    budget = Budget(samples=4, nodes=60_000, enumerate_up_to=24)
    policy = rollout_policy(v.seats)
    plain = Table(calls=4, candidates=1)
    before = expert_estimate(view, budget, Seed(2).stream(("e",)), policy=policy)
    after = expert_estimate(view, budget, Seed(2).stream(("e",)), policy=policy, table=plain)
    assert before == after


def at_hand_size(variant: Variant, seed: int, cards_left: int) -> DealState:
    """A deal played on by the rule player until the seat to act has a choice with
    ``cards_left`` cards in hand."""
    rnd = random.Random(seed)
    for _ in range(50):
        state = variant.new_deal(variant.deal(Seed(rnd.getrandbits(32)), ("t",), 0))
        bots = rule_model(variant.seats)
        while not state.is_over:
            view = state.view(state.to_act)
            if (
                view.phase == Phase.PLAY
                and len(view.hand) == cards_left
                and len(view.legal_actions) > 1
            ):
                return state
            state.apply(bots[state.to_act].choose(view))
    raise AssertionError("no such position")


@pytest.mark.parametrize("name", ["sixtysix-3", "sixtysix-4"])
def test_endgames_are_solved_up_to_the_endgame_size(name: str) -> None:
    v = make(name, {})
    four, five = at_hand_size(v, 3, 4), at_hand_size(v, 3, 5)
    methods = {}
    for label, state, params in [
        ("four", four, {}),
        ("five", five, {}),
        ("four, endgame 3", four, {"endgame": "3"}),
        ("five, endgame 5", five, {"endgame": "5"}),
    ]:
        bot = ExpertBot(state.to_act, Seed(9), {**LIGHT, **params})
        assert bot.choose(state.view(state.to_act)) in state.legal_actions()
        assert bot.last is not None
        methods[label] = bot.last.method
    assert methods["four"] != "rollouts" and methods["five, endgame 5"] != "rollouts"
    assert methods["five"] == "rollouts" == methods["four, endgame 3"]


def test_the_margin_keeps_the_rule_players_move_at_a_table_unless_beaten() -> None:
    from sixtysix.bots.players.heuristic import decide

    v = make("sixtysix-3", {})
    changed = 0
    for seed in range(12):
        state = at_hand_size(v, seed, 7)
        view = state.view(state.to_act)
        plain = ExpertBot(state.to_act, Seed(9), LIGHT)
        wary = ExpertBot(state.to_act, Seed(9), {**LIGHT, "margin": "0.5"})
        choice, careful = plain.choose(view), wary.choose(view)
        assert plain.last is not None and wary.last is not None
        values, advice = plain.last.values, decide(view)
        assert wary.last.values == values  # the same deals, valued alike
        beaten = values[int(choice)] >= values[int(advice)] + 0.5
        assert careful == (choice if beaten else advice)
        changed += careful != choice
    assert changed > 0  # the margin changed some choices
