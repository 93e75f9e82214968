"""The OpenSpiel game's public and private observations: what every seat knows (the same for
every player, blind to the hidden cards, without any hand) and what only one seat knows."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from sixtysix.core.cards import CARD_NAMES, iter_mask
from sixtysix.envs.openspiel_game import openspiel_game

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.observation import make_observation  # noqa: E402

from sixtysix.envs.observation import encoder  # noqa: E402
from sixtysix.envs.public import PRIVATE_FIELDS, public_encoder  # noqa: E402

VARIANTS = ("66", "schnapsen", "66-3", "66-4")


def obs_type(recall: bool, public: bool, private: Any) -> Any:
    return pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=public, private_info=private
    )


def public_type(recall: bool) -> Any:
    return obs_type(recall, True, pyspiel.PrivateInfoType.NONE)


PRIVATE = obs_type(False, False, pyspiel.PrivateInfoType.SINGLE_PLAYER)


def deal_cards(state: Any, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def random_states(game: Any, seed: int, deals: int) -> list[Any]:
    """Every decision state and the end of ``deals`` random deals (copies), in order."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(deals):
        state = game.new_initial_state()
        deal_cards(state, rng)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
            deal_cards(state, rng)
        out.append(state)
    return out


def sampler(seed: int) -> Callable[[], float]:
    rng = np.random.RandomState(seed)
    return lambda: float(rng.uniform())


def public_of(game: Any, state: Any, player: int, recall: bool) -> tuple[str, np.ndarray]:
    observer = make_observation(game, public_type(recall))
    observer.set_from(state, player)
    return observer.string_from(state, player), observer.tensor.copy()


def hidden(state: Any) -> list[tuple[int, ...]]:
    """Every seat's hand and the talon: what the public observation must not show."""
    deal = state._deal.state
    return [tuple(iter_mask(h)) for h in deal.hands] + [tuple(deal.talon)]


def twins(game: Any, seed: int) -> list[tuple[Any, Any]]:
    """Pairs of states with the same public history and different hidden cards: a state and
    a deal a seat could not tell from it."""
    out = []
    for state in random_states(game, seed, 1)[1:-1:4]:
        p = state.current_player()
        twin = state.resample_from_infostate(p, sampler(len(out)))
        if hidden(twin) != hidden(state):
            out.append((state, twin))
    assert out
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("recall", [False, True])
def test_the_public_observation_is_the_same_for_every_player(variant: str, recall: bool) -> None:
    game = openspiel_game(variant)
    for state in random_states(game, 5, 2)[::3]:
        seen = {public_of(game, state, p, recall)[0] for p in range(game.num_players())}
        assert len(seen) == 1
        tensors = [public_of(game, state, p, recall)[1] for p in range(game.num_players())]
        for tensor in tensors[1:]:
            np.testing.assert_array_equal(tensor, tensors[0])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("recall", [False, True])
def test_hidden_cards_do_not_change_the_public_observation(variant: str, recall: bool) -> None:
    game = openspiel_game(variant)
    for state, twin in twins(game, 13):
        for p in range(game.num_players()):
            text, tensor = public_of(game, state, p, recall)
            twin_text, twin_tensor = public_of(game, twin, p, recall)
            assert twin_text == text
            np.testing.assert_array_equal(twin_tensor, tensor)
        # while some seat's own observation tells the two apart
        assert any(
            state.observation_string(p) != twin.observation_string(p)
            for p in range(game.num_players())
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_public_observation_changes_with_public_information(variant: str) -> None:
    game = openspiel_game(variant)
    states = [s for s in random_states(game, 17, 1) if not s.is_chance_node()]
    strings = [public_of(game, s, 0, True)[0] for s in states]
    tensors = [public_of(game, s, 0, True)[1] for s in states]
    assert len(set(strings)) == len(states)  # every action is public: a new history each time
    assert len({t.tobytes() for t in tensors}) == len(states)
    tables = [public_of(game, s, 0, False)[0] for s in states]
    assert len(set(tables)) > len(states) // 2  # the table alone changes at most moves
    assert public_of(game, states[0], 0, False)[0] != public_of(game, states[-1], 0, False)[0]


def card_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text)) & set(CARD_NAMES)


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_hidden_card_is_in_the_public_observation(variant: str) -> None:
    """A card shows in the public string only once every seat has seen it: played, face up,
    or known to be in a hand (a declared marriage, the exchanged turn-up)."""
    game = openspiel_game(variant)
    for state in random_states(game, 23, 2):
        view = state.view(0)
        shown = set(view.played) | {c for cards in view.known for c in cards}
        if view.turnup is not None:
            shown.add(view.turnup)
        if view.called_ace is not None:
            shown.add(view.called_ace)  # named in the call, wherever it lies
        words = card_words(public_of(game, state, 0, True)[0])
        assert words <= {CARD_NAMES[c] for c in shown}
    for state, twin in twins(game, 29):
        # the tensors of two deals with different hands, the same public history, are equal
        np.testing.assert_array_equal(
            public_of(game, state, 0, True)[1], public_of(game, twin, 0, True)[1]
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_public_fields_are_the_encoders_without_the_seats_own(variant: str) -> None:
    game = openspiel_game(variant)
    enc = encoder(game.variant)
    public = public_encoder(game.variant)
    names = [f.name for f in enc.obs_fields if f.name not in PRIVATE_FIELDS]
    assert [f.name for f in public.obs_fields] == names
    assert [f.name for f in public.info_fields] == [*names, "history"]
    observer = make_observation(game, public_type(False))
    assert list(observer.dict) == names
    assert (
        observer.tensor.size
        == public.obs_size
        == enc.obs_size - sum(f.size for f in enc.obs_fields if f.name in PRIVATE_FIELDS)
    )
    # Seen from seat 0, the public fields are seat 0's own (seats are absolute for it); the
    # partner field differs only while seat 0 alone knows it.
    for state in random_states(game, 31, 1)[::2]:
        view = state.view(0)
        if view.partner is not None and view.called_ace not in view.played:
            continue
        own = enc.info_state(view)
        mine = np.concatenate(
            [own[f.offset : f.offset + f.size] for f in enc.info_fields if f.name in names]
            + [own[enc.info_fields[-1].offset :]]
        )
        np.testing.assert_array_equal(public.info_state(view), mine)


def test_the_partner_is_public_only_once_the_called_ace_falls() -> None:
    game = openspiel_game("66-4")
    checked = 0
    for state in random_states(game, 37, 3):
        views = [state.view(p) for p in range(4)]
        partner = next((v.partner for v in views if v.partner is not None), None)
        if partner is None:
            continue
        text = public_of(game, state, partner, False)[0]
        fallen = views[0].called_ace in views[0].played or views[0].is_over
        assert (f"partner {partner};" in text) == fallen
        assert ("partner -;" in text) != fallen
        checked += 1
    assert checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_private_observation_is_the_seats_hand(variant: str) -> None:
    game = openspiel_game(variant)
    observer = make_observation(game, PRIVATE)
    assert list(observer.dict) == ["hand"]
    for state in random_states(game, 41, 1)[::3]:
        for p in range(game.num_players()):
            view = state.view(p)
            observer.set_from(state, p)
            assert list(np.flatnonzero(observer.tensor)) == sorted(view.hand)
            words = card_words(observer.string_from(state, p))
            assert words == {CARD_NAMES[c] for c in view.hand}
    # public and private together give back the seat's own observation
    for state, twin in twins(game, 43):
        for p in range(game.num_players()):
            same_public = public_of(game, state, p, False)[0] == public_of(game, twin, p, False)[0]
            same_private = observer.string_from(state, p) == observer.string_from(twin, p)
            same_own = state.observation_string(p) == twin.observation_string(p)
            assert same_public and (same_own == same_private)


def test_while_dealing_the_public_and_private_observations_show_no_card() -> None:
    game = openspiel_game("66")
    state = game.new_initial_state()
    state.apply_action(5)
    state.apply_action(9)
    for p in range(2):
        text, tensor = public_of(game, state, p, True)
        assert text == "dealing: 2 cards dealt" and not tensor.any()
        private = make_observation(game, PRIVATE)
        private.set_from(state, p)
        assert private.string_from(state, p) == "hand -" and not private.tensor.any()


@pytest.mark.parametrize(
    "kind",
    [
        obs_type(False, True, pyspiel.PrivateInfoType.ALL_PLAYERS),
        obs_type(False, False, pyspiel.PrivateInfoType.NONE),
        obs_type(True, False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    ],
)
def test_other_observation_types_are_refused_in_one_line(kind: Any) -> None:
    game = openspiel_game("66")
    with pytest.raises(ValueError, match="not offered") as info:
        game.make_py_observer(kind)
    assert "\n" not in str(info.value)
