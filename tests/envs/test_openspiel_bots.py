"""OpenSpiel's algorithms on the game: the ISMCTS bot under OpenSpiel's own match runner,
searching only worlds drawn from its seat's information, and NFSP and Deep CFR (PyTorch), which
need dm-tree from the ``openspiel`` extra."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from sixtysix.envs.openspiel_game import deal_returns, openspiel_game

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from sixtysix.envs.openspiel_bots import ISMCTSBot  # noqa: E402

TWO_HANDED = ("66", "schnapsen")
VISITS = ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT


def sampler(seed: int) -> Callable[[], float]:
    rng = np.random.RandomState(seed)
    return lambda: float(rng.uniform())


def hidden(state: Any) -> list[int]:
    """Every seat's hand and the talon."""
    deal = state._deal.state
    return [*deal.hands, *deal.talon]


def decisions(game: Any, seed: int) -> Iterator[Any]:
    """The decision states of a random deal with a choice to make."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if len(state.legal_actions()) > 1:
            yield state.clone()
        state.apply_action(int(rng.choice(state.legal_actions())))


# ---------------------------------------------------------------------- ISMCTS


def test_without_the_extra_the_bot_module_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n"
        "    import sixtysix.envs.openspiel_bots\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "MissingExtraError the OpenSpiel ISMCTS bot needs the openspiel extra:"
        " pip install 'sixtysix[openspiel]'"
    )


@pytest.mark.parametrize("variant", TWO_HANDED)
def test_ismcts_plays_under_evaluate_bots_against_a_random_bot(variant: str) -> None:
    game = openspiel_game(variant)
    runs = []
    for _ in range(2):
        results = []
        for deal in range(2):
            bots = [
                ISMCTSBot(game, simulations=8, random_state=deal),
                pyspiel.make_uniform_random_bot(1, deal),
            ]
            state = game.new_initial_state()
            returns = evaluate_bots(state, bots, np.random.RandomState(deal))
            assert state.is_terminal()
            assert returns == pytest.approx(list(deal_returns(state.game_points)))
            results.append((returns, state.history()))
        runs.append(results)
    assert runs[0] == runs[1]  # seeded bots and chance: the same deals, the same play
    assert runs[0][0][1] != runs[0][1][1]


def test_restarting_drops_the_search_tree() -> None:
    game = openspiel_game("66")
    bot = ISMCTSBot(game, simulations=8, random_state=1)
    state = next(decisions(game, 2))
    bot.step(state)
    assert bot._nodes  # the tree of the last search
    bot.restart_at(game.new_initial_state())
    assert not bot._nodes and not bot._node_pool
    bot.step(state)
    bot.restart()
    assert not bot._nodes
    bot.inform_action(state, pyspiel.PlayerId.CHANCE, 3)  # accepted, nothing kept
    assert not bot._nodes


def test_a_bot_plays_the_same_under_evaluate_bots_whatever_the_opponents_cards() -> None:
    """The runner tells every bot each card chance deals; the bot must not use them."""
    game = openspiel_game("schnapsen")
    state = next(decisions(game, 4))
    p = state.current_player()
    twin = state.resample_from_infostate(p, sampler(1))
    assert hidden(twin) != hidden(state)
    moves = []
    for s in (state, twin):
        bot = ISMCTSBot(game, simulations=20, random_state=9, final_policy_type=VISITS)
        for a in s.history():
            bot.inform_action(s, pyspiel.PlayerId.CHANCE, a)
        moves.append(bot.get_policy(s))
    assert moves[0] == moves[1]


def search_policies(
    game: Any, seed: int, peek: bool = False
) -> list[tuple[list[tuple[int, float]], list[tuple[int, float]]]]:
    """At decision states of a random deal, the searched policy at the state and at a deal
    the acting seat cannot tell from it (other hidden cards), with the same seed. ``peek``
    makes the search start from the true state itself, as a cheating bot would."""
    pairs = []
    for state in decisions(game, seed):
        p = state.current_player()
        twin = state.resample_from_infostate(p, sampler(len(pairs)))
        assert twin.information_state_string(p) == state.information_state_string(p)
        if hidden(twin) == hidden(state):
            continue
        policies = []
        for s in (state, twin):
            bot = ISMCTSBot(game, simulations=30, random_state=4, final_policy_type=VISITS)
            if peek:
                bot.set_resampler(lambda true, player: true.clone())
            policies.append(bot.get_policy(s))
        pairs.append((policies[0], policies[1]))
        if len(pairs) == 6:
            break
    return pairs


@pytest.mark.parametrize("variant", TWO_HANDED)
def test_ismcts_does_not_read_the_hidden_cards(variant: str) -> None:
    """With the same randomness, two states the seat cannot tell apart get the same search,
    visit for visit; a search of the true state (the control) tells them apart."""
    game = openspiel_game(variant)
    pairs = search_policies(game, 3)
    assert len(pairs) >= 4
    assert all(a == b for a, b in pairs)
    cheating = search_policies(game, 3, peek=True)
    assert any(a != b for a, b in cheating)


def test_ismcts_rejects_no_simulations() -> None:
    with pytest.raises(ValueError, match="simulations"):
        ISMCTSBot(openspiel_game("66"), simulations=0)


# ---------------------------------------------------------------------- NFSP and Deep CFR


def test_dm_tree_comes_with_the_openspiel_extra() -> None:
    """OpenSpiel's PyTorch NFSP, DQN and Deep CFR import ``tree`` (dm-tree)."""
    tree = pytest.importorskip("tree", reason="dm-tree: reinstall the openspiel extra")
    assert tree.flatten({"a": [1, (2, 3)]}) == [1, 2, 3]


@pytest.fixture
def global_randomness() -> Iterator[None]:
    """NFSP and Deep CFR seed numpy's global generator: leave it as it was."""
    saved = np.random.get_state()
    yield
    np.random.set_state(saved)


def needs_torch() -> None:
    pytest.importorskip(
        "torch", reason="OpenSpiel's NFSP and Deep CFR (PyTorch) need torch: the train extra"
    )


@pytest.mark.usefixtures("global_randomness")
def test_nfsp_learns_from_a_few_deals_of_66() -> None:
    needs_torch()
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import nfsp

    game = openspiel_game("66")
    env = rl_environment.Environment(game, seed=3)
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size()
    actions = env.action_spec()["num_actions"]
    agents = [
        # anticipatory 1: every deal by the best-response net, so both nets get trained
        nfsp.NFSP(
            p,
            size,
            actions,
            [16],
            reservoir_buffer_capacity=100,
            anticipatory_param=1.0,
            batch_size=8,
            min_buffer_size_to_learn=8,
            learn_every=8,
            replay_buffer_capacity=100,
            seed=p,
        )
        for p in range(2)
    ]
    for _ in range(3):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            out = agents[p].step(step)
            assert out.action in step.observations["legal_actions"][p]
            step = env.step([out.action])
        for agent in agents:
            agent.step(step)
    for agent in agents:
        supervised, rl = agent.loss
        assert np.isfinite(supervised) and np.isfinite(rl)


@pytest.mark.usefixtures("global_randomness")
def test_deep_cfr_builds_its_networks_on_66() -> None:
    """One Deep CFR traversal of a deal would walk millions of paths: the solver is built and
    its (untrained) policy asked at a decision state."""
    needs_torch()
    from open_spiel.python.pytorch import deep_cfr

    game = openspiel_game("66")
    solver = deep_cfr.DeepCFRSolver(
        game, policy_network_layers=(8,), advantage_network_layers=(8,), memory_capacity=10
    )
    state = next(decisions(game, 5))
    probs = solver.action_probabilities(state)
    assert sorted(probs) == state.legal_actions()
    assert all(0 <= p <= 1 for p in probs.values())
