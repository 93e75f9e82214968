"""The OpenSpiel game of every variant: OpenSpiel's own checks, the encodings through the view,
resampling from a seat's information alone, and OpenSpiel's search bots playing it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.cards import iter_mask
from sixtysix.core.deal import deal_from_order
from sixtysix.core.errors import OptionError, RecordError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.envs.openspiel_game import (
    deal_order,
    deal_returns,
    game_name,
    openspiel_game,
    register_openspiel_games,
)
from sixtysix.plugins.manager import get_registry

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from sixtysix.envs.observation import encoder  # noqa: E402

BUILT_IN = ("sixtysix_66", "sixtysix_schnapsen", "sixtysix_66_3", "sixtysix_66_4")
VARIANTS = ("66", "schnapsen", "66-3", "66-4")


def installed_names() -> list[str]:
    return [game_name(cls) for cls in get_registry().variants.values()]


def deal_cards(state: Any, rng: np.random.RandomState) -> None:
    """Let chance deal until a seat is to act."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def random_states(game: Any, seed: int, deals: int) -> list[Any]:
    """Every decision state of ``deals`` random deals (copies), in order."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(deals):
        state = game.new_initial_state()
        deal_cards(state, rng)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
            deal_cards(state, rng)
    return out


def finished(game: Any, seed: int) -> Any:
    """A random deal played to its end."""
    state = random_states(game, seed, 1)[-1]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def sampler(seed: int) -> Callable[[], float]:
    rng = np.random.RandomState(seed)
    return lambda: float(rng.uniform())


# ---------------------------------------------------------------------- registration


def test_register_gives_the_short_names_and_load_game_finds_them() -> None:
    names = register_openspiel_games()
    assert set(BUILT_IN) <= set(names)
    assert sorted(names) == sorted(installed_names())
    assert register_openspiel_games() == names  # a second call registers nothing new
    for name in names:
        game = pyspiel.load_game(name)
        assert game.get_type().short_name == name
        assert game.num_distinct_actions() == 42
        assert game.max_chance_outcomes() == 24
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_options_and_presets_are_game_parameters() -> None:
    game = openspiel_game("66", preset="classic", target=11)
    params = game.get_parameters()
    assert params["claim"] == "manual" and params["tie"] == "draw" and params["target"] == 11
    assert params["dealer"] == 0
    same = pyspiel.load_game(str(game))
    assert str(same) == str(game)
    assert same.variant.options == game.variant.options
    assert pyspiel.load_game("sixtysix_66", {"target": 11}).variant.target == 11


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: openspiel_game("no-such-game"), UnknownVariantError),
        (lambda: openspiel_game("66", target="lots"), OptionError),
        (lambda: openspiel_game("66", preset="nope"), OptionError),
        (lambda: openspiel_game("66", dealer=2), OptionError),
    ],
)
def test_bad_arguments_are_one_line_errors(call: Callable[[], object], error: type) -> None:
    with pytest.raises(error) as info:
        call()
    assert "\n" not in str(info.value)


def test_importing_the_package_needs_no_pyspiel() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from sixtysix.envs import openspiel_game\n"
        "try:\n"
        "    openspiel_game('66')\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "MissingExtraError the OpenSpiel game needs the openspiel extra:"
        " pip install 'sixtysix[openspiel]'"
    )


# ---------------------------------------------------------------------- OpenSpiel's checks


@pytest.mark.parametrize("name", installed_names())
def test_random_simulation_passes_openspiel_checks(name: str) -> None:
    register_openspiel_games()
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_simulation_with_a_chance_dealer() -> None:
    game = openspiel_game("66-3", dealer=-1)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "dealer 2"
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_chance_deals_each_card_once_uniformly() -> None:
    game = openspiel_game("schnapsen")
    state = game.new_initial_state()
    deck = list(iter_mask(game.variant.rules.deck))
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == deck
    assert all(p == pytest.approx(1 / 20) for _, p in outcomes)
    state.apply_action(deck[3])
    assert [a for a, _ in state.chance_outcomes()] == deck[:3] + deck[4:]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, deck[0]) == "deal JC"


def test_the_deal_is_deal_from_order_of_the_chance_outcomes() -> None:
    game = openspiel_game("66")
    order = Seed(5).shuffled(list(iter_mask(game.variant.rules.deck)), ("x",))
    state = game.new_initial_state()
    for card in order:
        state.apply_action(card)
    setup = deal_from_order(game.variant.rules, order, 0)
    view = state.view(1)
    assert sorted(view.hand) == sorted(setup.hands[1])
    assert view.turnup == setup.trump_card
    assert state.current_player() == 1  # the forehand
    assert state.history() == order
    names = [state.action_to_string(1, a) for a in state.legal_actions()]
    assert names == [str(a) for a in view.legal_actions]
    assert all(name.startswith("play ") for name in names[: len(view.hand)])


@pytest.mark.parametrize("variant", VARIANTS)
def test_state_of_an_engine_deal(variant: str) -> None:
    game = openspiel_game(variant, dealer=-1)
    v = game.variant
    deal = v.new_deal(v.deal(Seed(8), ("d",), 1))
    for _ in range(5):
        deal.apply(deal.legal_actions()[0])
    state = game.state_of_deal(deal)
    assert state.history()[0] == 1  # chance named the dealer first
    assert all(state.view(p) == deal.view(p) for p in range(v.seats))
    assert state.current_player() == deal.to_act
    with pytest.raises(OptionError):
        openspiel_game(variant, dealer=0).state_of_deal(deal)


def test_clone_serialize_and_returns() -> None:
    game = openspiel_game("66-4")
    for state in random_states(game, 3, 2)[::7]:
        copy = state.clone()
        copy.apply_action(copy.legal_actions()[0])
        assert str(copy) != str(state)
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
    state = finished(game, 4)
    assert state.returns() == pytest.approx(list(deal_returns(state.game_points)))


def test_returns_are_game_points_minus_the_others_mean() -> None:
    assert deal_returns((2, 0)) == (2.0, -2.0)
    assert deal_returns((0, 3)) == (-3.0, 3.0)
    assert deal_returns((2, 0, 0)) == (2.0, -1.0, -1.0)
    assert deal_returns((0, 2, 2)) == (-2.0, 1.0, 1.0)
    assert sum(deal_returns((1, 0, 1, 0))) == pytest.approx(0.0)
    assert deal_returns((0, 0, 0)) == (0.0, 0.0, 0.0)


# ---------------------------------------------------------------------- deal order


@pytest.mark.parametrize("variant", VARIANTS)
@given(seed=st.integers(0, 10**9), dealer=st.integers(0, 3))
def test_deal_order_inverts_deal_from_order(variant: str, seed: int, dealer: int) -> None:
    v = get_registry().variant(variant)()
    rules = v.rules
    dealer %= rules.seats
    order = Seed(seed).shuffled(list(iter_mask(rules.deck)), ("deck",))
    setup = deal_from_order(rules, order, dealer)
    assert deal_order(rules, setup) == order


def test_deal_order_rejects_what_is_not_a_deal() -> None:
    v = get_registry().variant("66")()
    setup = v.deal(Seed(1), ("d",), 0)
    broken = type(setup)(0, (setup.hands[1], setup.hands[0][:5]), setup.trump_card, setup.talon)
    with pytest.raises(RecordError):
        deal_order(v.rules, broken)


# ---------------------------------------------------------------------- encodings


@pytest.mark.parametrize("variant", VARIANTS)
def test_tensors_and_strings_are_the_encoders_on_the_view(variant: str) -> None:
    game = openspiel_game(variant)
    enc = encoder(game.variant)
    assert game.information_state_tensor_size() == enc.info_size
    assert game.observation_tensor_size() == enc.obs_size
    for state in random_states(game, 11, 2)[::3]:
        for p in range(game.num_players()):
            view = state.view(p)
            info = np.asarray(state.information_state_tensor(p), np.float32)
            np.testing.assert_array_equal(info, enc.info_state(view))
            obs = np.asarray(state.observation_tensor(p), np.float32)
            np.testing.assert_array_equal(obs, enc.observation(view))
            assert state.information_state_string(p) == enc.info_string(view)
            assert state.observation_string(p) == enc.obs_string(view)


def test_while_dealing_nobody_is_shown_a_card() -> None:
    game = openspiel_game("66")
    state = game.new_initial_state()
    state.apply_action(5)
    for p in range(2):
        assert not any(state.information_state_tensor(p))
        assert state.information_state_string(p) == "dealing: 1 cards dealt"


# ---------------------------------------------------------------------- resampling


def public(view: Any) -> tuple[object, ...]:
    return (view.history, view.trick, view.turnup, view.talon_size, view.known, view.to_act)


@pytest.mark.parametrize("variant", VARIANTS)
def test_resample_keeps_the_seats_information_and_varies_the_rest(variant: str) -> None:
    game = openspiel_game(variant)
    states = random_states(game, 21, 1)
    probe = sampler(7)
    for state in states[: len(states) // 2 : 3]:
        truth = str(state)
        for p in range(game.num_players()):
            mine = state.view(p)
            others: set[tuple[int, ...]] = set()
            for _ in range(12):
                other = state.resample_from_infostate(p, probe)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.current_player() == state.current_player()
                view = other.view(p)
                assert view.hand == mine.hand and public(view) == public(mine)
                played = [a for _, a in mine.history]
                history = other.history()
                assert len(history) == len(state.history())
                assert history[len(history) - len(played) :] == played
                others.add(tuple(h for s, h in enumerate(other._deal.state.hands) if s != p))
            assert len(others) > 1  # the hidden cards are dealt anew
        assert str(state) == truth  # the true state is left as it was


def test_resample_depends_only_on_the_seats_information() -> None:
    """Two states the seat cannot tell apart, resampled with the same randomness, give the
    same state: nothing of the true hidden cards gets through."""
    game = openspiel_game("66")
    differ = 0
    for state in random_states(game, 31, 1)[2:12:3]:
        p = state.current_player()
        twin = state.resample_from_infostate(p, sampler(1))
        differ += str(twin) != str(state)
        a = state.resample_from_infostate(p, sampler(99))
        b = twin.resample_from_infostate(p, sampler(99))
        assert str(a) == str(b) and a.history() == b.history()
    assert differ


@pytest.mark.parametrize("variant", VARIANTS)
def test_resample_at_the_end_of_a_deal(variant: str) -> None:
    game = openspiel_game(variant)
    state = finished(game, 41)
    for p in range(game.num_players()):
        other = state.resample_from_infostate(p, sampler(p))
        assert other.is_terminal() and other.returns() == state.returns()
        assert other.information_state_string(p) == state.information_state_string(p)


def test_resample_while_dealing() -> None:
    game = openspiel_game("66-3")
    state = game.new_initial_state()
    for card in (0, 7, 13):
        state.apply_action(card)
    other = state.resample_from_infostate(0, sampler(3))
    assert other.is_chance_node() and len(other.history()) == 3
    assert other.information_state_string(0) == state.information_state_string(0)


# ---------------------------------------------------------------------- OpenSpiel's bots


def play_out(game: Any, bots: list[Any], rng: np.random.RandomState) -> Any:
    """The finished deal of ``bots``, each asked with the OpenSpiel state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            deal_cards(state, rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_ismcts_and_mcts_play_whole_deals(variant: str) -> None:
    game = openspiel_game(variant)
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    n = game.num_players()
    searchers = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng) for _ in range(n)]
    planner = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)
    for bots in (searchers, [planner] * n):
        state = play_out(game, bots, rng)
        assert state.view(0).outcome is not None
        assert state.returns() == pytest.approx(list(deal_returns(state.game_points)))
