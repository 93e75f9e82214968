"""The action-id space: ids both ways, the legal mask, and the ids each variant can use."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.actions import ACTION_NAMES, ACTIONS, NUM_ACTIONS, Action
from sixtysix.core.cards import FULL_DECK, NUM_CARDS
from sixtysix.core.errors import NotationError
from sixtysix.envs import NUM_ACTION_IDS, ActionIdError, action_id, action_of, legal_mask
from sixtysix.envs.actions import max_history, usable_ids, usable_ids_of
from tests.envs.common import CONFIGS, make, new_deal, played_to


def test_the_ids_are_the_engine_codes_both_ways() -> None:
    assert NUM_ACTION_IDS == NUM_ACTIONS == 42
    for code in range(NUM_ACTION_IDS):
        action = action_of(code)
        assert isinstance(action, Action) and action == code
        assert action_id(action) == code
        assert action_id(str(action)) == code
        assert action_id(ACTION_NAMES[code]) == code
        assert action_of(np.int64(code)) is ACTIONS[code]
        assert action_of(action_id(action)) is action


def test_named_ids() -> None:
    assert action_id("play 9C") == 0
    assert action_id("play QD") == 8
    assert action_id("play 10h") == action_id("play TH") == 16
    assert action_id("marry H") == 26
    assert action_id("exchange") == 28
    assert action_id("close") == 29
    assert action_id("claim") == 30
    assert action_id("trump S") == 34
    assert action_id("trump below") == 35
    assert action_id("partner AD") == 37
    assert action_id("solo") == 40
    assert action_id("concede") == 41


@pytest.mark.parametrize("bad", [-1, 42, 1000, True, 2.0, "7", None])
def test_ids_outside_the_space_are_refused(bad: object) -> None:
    with pytest.raises(ActionIdError):
        action_of(bad)  # type: ignore[arg-type]
    assert issubclass(ActionIdError, ValueError)


def test_unreadable_action_strings_are_refused() -> None:
    with pytest.raises(NotationError):
        action_id("play 1Z")
    with pytest.raises(ActionIdError):
        action_id(42)


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False))
def test_the_mask_is_the_views_legal_actions(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    variant = make(*config)
    state = new_deal(variant, rnd)
    usable = set(usable_ids(variant))
    while True:
        for seat in range(state.n):
            view = state.view(seat)
            mask = legal_mask(view)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTION_IDS,)
            assert [a for a in range(NUM_ACTION_IDS) if mask[a]] == list(view.legal_actions)
            assert set(view.legal_actions) <= usable
            if seat != state.to_act:
                assert not mask.any()
        if state.is_over:
            break
        state.apply(rnd.choice(state.legal_actions()))


def test_random_play_uses_every_usable_id_and_no_other() -> None:
    """usable_ids is exact: random play of each configuration offers all its ids, no more."""
    rnd = random.Random(66)
    for config in CONFIGS:
        variant = make(*config)
        seen: set[int] = set()
        for _ in range(400):
            state = new_deal(variant, rnd)
            while not state.is_over:
                legal = state.legal_actions()
                seen.update(legal)
                state.apply(rnd.choice(legal))
        assert seen == set(usable_ids(variant)), config


def test_usable_ids_of_the_built_in_variants() -> None:
    cards = list(range(NUM_CARDS))
    no_nines = [c for c in cards if c % 6]
    specials_66 = [24, 25, 26, 27, 28, 29]
    assert usable_ids(make("sixtysix")) == tuple(cards + specials_66)
    assert usable_ids(make("sixtysix", {"claim": "manual"})) == tuple(cards + specials_66 + [30])
    assert usable_ids(make("sixtysix", {"talonless": True})) == tuple([*cards, 24, 25, 26, 27])
    assert usable_ids(make("schnapsen")) == tuple(no_nines + specials_66)
    assert usable_ids(make("sixtysix-3")) == tuple([*cards, 24, 25, 26, 27, 31, 32, 33, 34, 35, 41])
    four = [*cards, 24, 25, 26, 27, 31, 32, 33, 34, 36, 37, 38, 39, 40]
    assert usable_ids(make("sixtysix-4")) == tuple(four)
    assert usable_ids(make("sixtysix-4", {"trump_from_below": True})) == tuple(sorted([*four, 35]))


def test_usable_ids_follow_the_rules_knobs() -> None:
    """Read from the Rules alone: a plugin's rules get the ids its knobs turn on."""
    rules = make("sixtysix").rules
    assert 28 not in usable_ids_of(dataclasses.replace(rules, exchange_min_talon=12))
    assert 28 in usable_ids_of(dataclasses.replace(rules, exchange_min_talon=10))
    assert 28 not in usable_ids_of(dataclasses.replace(rules, exchange_min_talon=11))
    assert 28 in usable_ids_of(
        dataclasses.replace(rules, exchange_needs_trick=False, exchange_min_talon=12)
    )
    assert not {24, 25, 26, 27} & set(usable_ids_of(dataclasses.replace(rules, marriages=False)))
    no_hearts_king = FULL_DECK & ~(1 << 3 + 2 * 6)
    ids = usable_ids_of(dataclasses.replace(rules, deck=no_hearts_king, deal_rounds=(3, 3)))
    assert 26 not in ids and 15 not in ids and 25 in ids


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False))
def test_no_deal_is_longer_than_the_history_bound(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    variant = make(*config)
    state = played_to(variant, rnd, 10_000)
    assert state.is_over
    assert len(state.history) <= max_history(variant.rules)


def test_the_history_bounds() -> None:
    assert max_history(make("sixtysix").rules) == 24 + 4 + 2
    assert max_history(make("sixtysix", {"claim": "manual"}).rules) == 24 + 4 + 3
    assert max_history(make("schnapsen").rules) == 20 + 4 + 2
    assert max_history(make("sixtysix-3").rules) == 24 + 4 + 1 + 1
    assert max_history(make("sixtysix-4").rules) == 24 + 4 + 2
