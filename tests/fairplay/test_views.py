"""Nothing a bot can reach from its view is shared with the engine, or leads to hidden facts."""

from __future__ import annotations

import gc
import types
from typing import ClassVar

import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import Action
from sixtysix.core.cards import CARDS, Card
from sixtysix.core.deal import DealSetup
from sixtysix.core.match import play_match
from sixtysix.core.match_state import MatchState
from sixtysix.core.options import Options
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.simulate import BotSpec, play_game
from sixtysix.testing.bot_checks import snapshot
from sixtysix.testing.play import (
    consistent_redeal,
    play_random,
    random_deal,
    redeal_unseen,
    replayed,
)
from tests.fairplay.cheaters import RulesMutator, RulesReferrerReader

VARIANTS = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")


def variant(name: str) -> Variant:
    return get_registry().variant(name)()


def position(name: str, seed: int = 1, stop: int = 5) -> DealState:
    v = variant(name)
    state = random_deal(v, Seed(seed), 0)
    play_random(state, Seed(seed).stream(("play",)), stop=stop)
    return state


@pytest.mark.parametrize("name", VARIANTS)
def test_a_view_holds_its_own_rules(name: str) -> None:
    state = position(name)
    view = state.view(state.to_act)
    assert view.rules == state.rules and view.rules is not state.rules
    assert view.rules is not state.view(state.to_act).rules  # one copy per view
    referrers = [r for r in gc.get_referrers(view.rules) if not isinstance(r, types.FrameType)]
    assert referrers == [view]


@pytest.mark.parametrize("name", VARIANTS)
def test_changing_a_view_changes_nothing_else(name: str) -> None:
    state = position(name)
    seat = state.to_act
    view = state.view(seat)
    object.__setattr__(view.rules, "winning_points", 1000)
    object.__setattr__(view, "hand", ())
    assert state.rules.winning_points == state.variant.rules.winning_points == 66
    assert state.view(seat).rules.winning_points == 66 and state.view(seat).hand
    assert all(state.view(s).rules.winning_points == 66 for s in range(state.n))


def test_the_outcome_in_a_view_is_a_copy() -> None:
    state = position("sixtysix", stop=200)
    assert state.outcome is not None
    scored = state.outcome.game_points
    view = state.view(0)
    assert view.outcome == state.outcome and view.outcome is not state.outcome
    object.__setattr__(view.outcome, "game_points", (9, 9))
    assert state.outcome.game_points == scored == state.view(0).outcome.game_points  # type: ignore[union-attr]


def test_cards_and_actions_in_a_view_have_no_state_of_their_own() -> None:
    card = CARDS[5]
    assert type(card) is Card and Card.__slots__ == ()
    with pytest.raises(AttributeError):
        object.__setattr__(card, "suit", 3)


class _Watcher(RandomBot):
    """Records the winning points its views show."""

    name = "watcher"
    description = "records view.rules.winning_points (tests only)"
    seen: ClassVar[set[int]] = set()

    def choose(self, view: View) -> Action:
        _Watcher.seen.add(view.rules.winning_points)
        return super().choose(view)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_rules_mutator_changes_no_game(name: str) -> None:
    v = variant(name)
    _Watcher.seen = set()
    mutated: list[BotSpec] = [(RulesMutator, {})] + [(_Watcher, {})] * (v.seats - 1)
    plain: list[BotSpec] = [(RandomBot, {})] * v.seats
    for i in range(6):
        # The mutator chooses as the random bot does: the very same games, or it changed one.
        assert play_game(v, mutated, Seed(5), i) == play_game(v, plain, Seed(5), i)
    assert v.rules.winning_points == 66 and _Watcher.seen == {66}
    bots = [RulesMutator(s, Seed(5).child(("bot", s))) for s in range(v.seats)]
    result = play_match(v, [b.choose for b in bots], Seed(5))
    assert v.rules.winning_points == 66 and max(result.totals) < 1000


@pytest.mark.parametrize("name", VARIANTS)
def test_the_rules_referrers_lead_nowhere(name: str) -> None:
    v = variant(name)
    RulesReferrerReader.found = 0
    for i in range(3):
        play_game(v, [(RulesReferrerReader, {})] * v.seats, Seed(1), i)
    assert RulesReferrerReader.found == 0


def _reachable(view: View) -> list[object]:
    """Everything the view's object graph reaches, through any reference at all."""
    seen: dict[int, object] = {}
    todo: list[object] = list(gc.get_referents(view))
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue  # classes are the program, not the deal
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def _partner_hidden_positions() -> list[tuple[DealState, int]]:
    """Four-player positions after the call, with the called ace's holder hidden from a seat."""
    v = variant("sixtysix-4")
    out: list[tuple[DealState, int]] = []
    for number in range(40):
        state = random_deal(v, Seed(3), number)
        play_random(state, Seed(3).stream(("p", number)), stop=3 + number % 6)
        if state.is_over or state.partner < 0 or state.revealed:
            continue
        for seat in range(4):
            if seat not in (state.partner, state.declarer) and state.view(seat).partner is None:
                out.append((state, seat))
                break
    assert len(out) >= 5
    return out


def test_the_hidden_partner_is_nowhere_in_a_view() -> None:
    """In four-player 66 the partner is hidden until the called ace falls: the whole graph
    reachable from a view (rules and options copies included) holds no deal, no variant, no
    mutable container; and when the hidden cards are dealt so that the ace lies elsewhere,
    another seat is the partner, and every value reachable from the view is the same."""
    changed_partner = 0
    for state, seat in _partner_hidden_positions():
        view = state.view(seat)
        for obj in _reachable(view):
            assert not isinstance(obj, (DealState, DealSetup, Variant, Options, list, dict, set))
        v = state.variant
        for k in range(8):
            other = consistent_redeal(v, state, seat, Seed(k).child(("partner", seat)))
            if other is None:
                continue
            alt = v.new_deal(other)
            for _, action in state.history:
                alt.apply(action)
            assert snapshot(alt.view(seat)) == snapshot(view)
            changed_partner += alt.partner != state.partner
    assert changed_partner > 0


@pytest.mark.parametrize("number", [1146, 3510, 3722, 3782])
def test_a_redeal_that_would_have_ended_the_deal_is_not_offered(number: int) -> None:
    """In four-player 66 a side at 66 ends the deal, and its members are hidden: dealing the
    unseen cards so that the side differs can end the deal where play went on. Such a redeal
    contradicts what play showed, so the consistent redeal passes over it.

    The numbers are positions where the first permutation tried does end the deal."""
    v = variant("sixtysix-4")
    state = random_deal(v, Seed(7), number)
    play_random(state, Seed(7).stream(("play", number)), stop=12 + number % 20)
    seat = number % v.seats
    first = redeal_unseen(state, seat, Seed(number), 0)
    assert not state.is_over and first is not None
    ended = v.new_deal(first)
    for _, action in state.history:
        ended.apply(action)  # every action legal, but the deal is over
    assert ended.is_over and replayed(v, state, first) is None
    other = consistent_redeal(v, state, seat, Seed(number))
    assert other is not None and other != first
    alt = replayed(v, state, other)
    assert alt is not None and not alt.is_over and alt.view(seat) == state.view(seat)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_views_match_state_is_public_and_its_own(name: str) -> None:
    """The match state in a view is its own copy, holds plain numbers only, and says nothing a
    seat at the table does not know: the totals before the deal, which the deals' public
    outcomes sum to, the format, the deals settled and the next dealer."""
    v = variant(name)
    match = MatchState(v, Seed(8))
    settled: list[tuple[int, ...]] = []
    for _ in range(2):
        state = match.next_deal()
        play_random(state, Seed(8).stream(("m", len(settled))), stop=4)
        for seat in range(v.seats):
            view = state.view(seat)
            assert view.match is not None and view.match is not state.match
            for obj in _reachable(view):
                assert not isinstance(obj, (DealState, MatchState, Variant, list, dict, set))
            sums = tuple(sum(points[s] for points in settled) for s in range(v.seats))
            assert view.match.totals == sums and view.match.played == len(settled)
            assert view.match.next_dealer == (state.dealer + 1) % v.seats
        play_random(state, Seed(8).stream(("rest", len(settled))))
        outcome = match.settle()
        settled.append(tuple(outcome.game_points))
