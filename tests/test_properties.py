"""Properties over random legal play, for every installed variant.

Each test draws a variant and a random sequence of legal actions; the invariants must hold at
every step, whatever the variant or its options.
"""

from __future__ import annotations

import dataclasses
import gc
import random
from enum import Enum

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from sixtysix.core.cards import FULL_DECK, POINTS, iter_mask, mask_of, mask_points
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.testing.play import hidden_from, located, replayed

REGISTRY: Registry = build_registry()

#: Variants and option sets that the properties run over.
CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("sixtysix", {}),
    ("sixtysix", {"claim": "manual", "failed_close": "2or3", "tie": "draw"}),
    ("sixtysix", {"talonless": True}),
    ("sixtysix", {"exchange_needs_trick": False, "marriage_after_close": False}),
    ("sixtysix", {"exchange_anytime": True}),
    ("sixtysix", {"exchange_anytime": True, "exchange_needs_trick": False, "match": "four_deals"}),
    ("schnapsen", {}),
    ("schnapsen", {"claim": "manual"}),
    ("sixtysix-3", {}),
    ("sixtysix-3", {"must_overtrump": True, "no66": "last_trick_wins"}),
    ("sixtysix-4", {}),
    ("sixtysix-4", {"trump_from_below": True, "solo_loss": "double"}),
]
CONFIGS = [(n, o) for n, o in CONFIGS if n in REGISTRY.variants]

GAME_POINT_VALUES = {0, 1, 2, 3, 4, 6}


def make(name: str, options: dict[str, object]) -> Variant:
    return REGISTRY.variant(name)(REGISTRY.variant(name).options_class.build(options))


def random_deal(variant: Variant, rnd: random.Random) -> DealState:
    seed = Seed(rnd.getrandbits(64))
    return variant.new_deal(variant.deal(seed, ("p",), rnd.randrange(variant.seats)))


configs = st.sampled_from(CONFIGS)


@given(configs, st.randoms(use_true_random=False))
def test_random_play_invariants(config: tuple[str, dict[str, object]], rnd: random.Random) -> None:
    variant = make(*config)
    state = random_deal(variant, rnd)
    deck = variant.rules.deck
    steps = 0
    while not state.is_over:
        assert located(state) == deck
        legal = state.legal_actions()
        assert legal, "a legal action must exist until the deal ends"
        assert legal == sorted(set(legal))
        state.apply(rnd.choice(legal))
        steps += 1
        assert steps < 200
    outcome = state.outcome
    assert outcome is not None
    assert located(state) == deck
    assert (
        sum(state.card_points)
        + mask_points(deck & ~mask_of(c for s in range(state.n) for c in iter_mask(state.won[s])))
        == 120
    )
    assert set(outcome.game_points) <= GAME_POINT_VALUES
    assert sum(outcome.tricks) == sum(state.tricks)
    if not any(state.hands) and not state.talon and state.turnup < 0:
        # All cards played: 120 card points, plus the bonus, plus realised marriages.
        assert sum(state.card_points) == 120
        assert sum(outcome.points) == 120 + sum(state.bonus) + sum(
            state.marriage_points[s] for s in range(state.n) if state.side_has_trick(state.sides[s])
        )
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the deal is over"):
        state.apply(0)


def play_random(state: DealState, rnd: random.Random, stop: int | None = None) -> None:
    while not state.is_over and (stop is None or len(state.history) < stop):
        state.apply(rnd.choice(state.legal_actions()))


@given(configs, st.randoms(use_true_random=False))
def test_written_record_replays_to_the_same_deal(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    variant = make(*config)
    state = random_deal(variant, rnd)
    play_random(state, rnd, stop=None if rnd.random() < 0.7 else rnd.randrange(30))
    record = Record(
        variant.name, variant.options.diff(), None, [DealRecord(state.setup, state.history)]
    )
    raw = load_record_text(record.dumps())
    result = replay(raw, REGISTRY)
    replayed = result.deals[0]
    assert replayed.result == state.outcome
    assert replayed.state.history == state.history
    assert [s.action for s in replayed.steps] == _actions(state)


def _actions(state: DealState) -> list[str]:
    from sixtysix.core.actions import ACTION_NAMES

    return [ACTION_NAMES[a] for _, a in state.history]


def view_cards(view: View) -> int:
    mask = mask_of(view.hand) | mask_of(view.played) | mask_of(c for _, c in view.trick)
    for k in view.known:
        mask |= mask_of(k)
    if view.turnup is not None:
        mask |= 1 << view.turnup
    if view.called_ace is not None and view.called_ace not in view.played:
        # Naming the called ace is public; where it lies is not (checked separately).
        mask &= ~(1 << view.called_ace) | mask_of(view.hand)
    return mask


@given(configs, st.randoms(use_true_random=False))
def test_views_never_show_hidden_cards(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    variant = make(*config)
    state = random_deal(variant, rnd)
    while True:
        for seat in range(state.n):
            view = state.view(seat)
            assert view_cards(view) & hidden_from(state, seat) == 0
            if view.to_act != seat:
                assert view.legal_actions == ()
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))


_SAFE = (int, str, bool, float, type(None), Enum, Rules, Outcome)


def test_view_holds_no_reference_to_the_state() -> None:
    """Walk everything a view refers to: only plain values, tuples and frozensets."""
    for name, options in CONFIGS:
        variant = make(name, options)
        state = random_deal(variant, random.Random(7))
        play_random(state, random.Random(8), stop=9)
        view = state.view(0)
        seen: set[int] = set()
        todo: list[object] = [getattr(view, f) for f in view.__slots__]  # type: ignore[attr-defined]
        while todo:
            obj = todo.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            assert not isinstance(obj, (DealState, DealSetup, list, dict, Variant)), type(obj)
            assert isinstance(obj, (*_SAFE, tuple, frozenset)), type(obj)
            if isinstance(obj, (tuple, frozenset)):
                todo.extend(obj)
        assert all(not isinstance(r, DealState) for r in gc.get_referents(view))


def test_each_view_field_holds_its_own_fact() -> None:
    """make_view fills a view's fields by position: each must hold what its name says."""
    for name, options in CONFIGS:
        variant = make(name, options)
        state = random_deal(variant, random.Random(5))
        rnd = random.Random(6)
        while True:
            for seat in range(state.n):
                view = state.view(seat)
                assert type(view) is View and view == dataclasses.replace(view)
                assert (view.variant, view.rules, view.seat, view.seats) == (
                    variant.name,
                    state.rules,
                    seat,
                    state.n,
                )
                assert (view.dealer, view.phase, view.to_act, view.leader) == (
                    state.dealer,
                    state.phase,
                    state.to_act,
                    state.leader,
                )
                if state.phase != Phase.TRUMP_CALL:
                    assert mask_of(view.hand) == state.hands[seat]
                assert view.trump == (None if state.trump < 0 else state.trump)
                assert view.turnup == (None if state.turnup < 0 else state.turnup)
                assert view.talon_size == state.talon_size
                assert view.closed_by == (None if state.closed_by < 0 else state.closed_by)
                assert view.trick == tuple(state.trick)
                assert view.history == tuple(state.history)
                assert view.tricks == tuple(state.tricks)
                assert view.card_points == tuple(state.card_points)
                assert view.marriages == tuple(tuple(m) for m in state.marriages)
                assert [mask_of(k) for k in view.known] == state.known
                assert mask_of(view.played) == mask_of(c for _, c in state.trick) | sum(state.won)
                assert view.declarer == (None if state.declarer < 0 else state.declarer)
                ace = state.called_ace
                assert view.called_ace == (None if ace < 0 else ace)
                assert view.partner in (None, state.partner)
                assert view.solo == state.solo
                mine = state.to_act == seat
                assert view.legal_actions == (tuple(state.legal_actions()) if mine else ())
                assert view.outcome == state.outcome
                # Equal copies, never the engine's own objects (see test_views_share_nothing).
                assert view.rules is not state.rules
                assert view.outcome is None or view.outcome is not state.outcome
                assert view.options == tuple(
                    (spec.name, getattr(variant.options, spec.name))
                    for spec in variant.options.specs()
                )
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))


def redeal_unseen(state: DealState, seat: int, rnd: random.Random) -> DealSetup | None:
    """The same deal with the cards ``seat`` cannot see permuted among the places it cannot see.

    Returns None when the permutation would change nothing.
    """
    hidden = list(iter_mask(hidden_from(state, seat)))
    if len(hidden) < 2:
        return None
    shuffled = hidden[:]
    rnd.shuffle(shuffled)
    return state.setup.relabel(dict(zip(hidden, shuffled, strict=True)))


@given(configs, st.randoms(use_true_random=False), st.integers(0, 40))
def test_view_unchanged_when_unseen_cards_are_dealt_differently(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    variant = make(*config)
    state = random_deal(variant, rnd)
    play_random(state, rnd, stop=stop)
    assume(not state.is_over)
    seat = rnd.randrange(state.n)
    tried = 0
    for _ in range(20):
        other = redeal_unseen(state, seat, rnd)
        if other is None:
            break
        alt = replayed(variant, state, other)
        if alt is None:
            continue  # the permutation contradicts what play showed (a void, the deal's end)
        tried += 1
        assert alt.view(seat) == state.view(seat)
    assume(tried > 0)


def test_card_points_total_120() -> None:
    assert mask_points(FULL_DECK) == 120 == sum(POINTS)
