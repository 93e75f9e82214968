"""The match's stakes (bots.search.stakes) and the expert playing for the match: a deal's results
valued by the chance they leave to win the match, averaged over imagined deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.bots.compiled import available as compiled_available
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.match_equity import arrays_available, equity_for
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.search.estimate import Budget, estimate
from sixtysix.bots.search.solver import Solver
from sixtysix.bots.search.stakes import MAX_SCORES, Stakes, stakes_for
from sixtysix.core.actions import Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.match_view import LIMIT, MatchView
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState
from tests.bots.test_sampling import make

SIXTYSIX = make("sixtysix", {})


def to_seven(totals: tuple[int, ...], next_dealer: int = 1) -> MatchView:
    return MatchView(totals, 7, None, 3, next_dealer)


def stakes(totals: tuple[int, int], seat: int = 0) -> Stakes:
    found = stakes_for(SIXTYSIX, to_seven(totals), seat)
    assert found is not None
    return found


def test_at_six_all_every_win_is_worth_the_same_and_every_loss() -> None:
    """One deal decides the match: a schneider is worth no more than a plain win."""
    six = stakes((6, 6))
    wins = [six.value(points, (0, 1)) for points in (1, 2, 3)]
    losses = [six.value(-points, (0, 1)) for points in (1, 2, 3)]
    assert wins == pytest.approx([wins[0]] * 3)
    assert losses == pytest.approx([losses[0]] * 3)
    # One plain win's worth from a win to a loss, the unit of the scale.
    assert wins[0] - losses[0] == pytest.approx(2.0)


def test_early_in_a_match_the_worth_is_close_to_game_points() -> None:
    """At nought all a deal's game points are worth about what they say, so the expert's
    margins keep their meaning."""
    start = stakes((0, 0))
    for points in (-3, -2, -1, 1, 2, 3):
        assert start.value(points, (0, 1)) == pytest.approx(points, abs=0.1)


def test_one_short_of_the_target_a_loss_of_any_size_ends_it() -> None:
    """Needing one game point against a player who needs seven: every loss costs the same
    (the opponent's total matters little), every win gets the seat over the line."""
    ahead = stakes((6, 0))
    assert ahead.value(1, (0, 1)) == ahead.value(3, (0, 1))
    behind = stakes((0, 6))
    assert behind.value(-1, (0, 1)) == behind.value(-3, (0, 1))
    # Behind, a schneider is worth much more than a plain win: it is the way back.
    assert behind.value(3, (0, 1)) > 2 * behind.value(1, (0, 1))


@given(
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    st.integers(0, 1),
    st.integers(0, 1),
    st.floats(-8, 8),
    st.floats(0, 2),
)
def test_the_worth_rises_with_the_game_points(
    totals: tuple[int, int], seat: int, dealer: int, value: float, step: float
) -> None:
    """A monotone map: the searches' minimax on each deal commutes with it (see the module)."""
    found = stakes_for(SIXTYSIX, to_seven(totals, dealer), seat)
    assert found is not None
    assert found.value(value + step, (0, 1)) >= found.value(value, (0, 1)) - 1e-12


def test_a_finished_deal_is_worth_what_its_game_points_say() -> None:
    """:meth:`Stakes.final` (the play-outs' finished deals) and :meth:`Stakes.value` (the
    searches' values with the sides) agree, with two players and with three."""
    two = stakes((4, 5), seat=1)
    assert two.final((0, 2)) == pytest.approx(two.value(2, (0, 1)))
    assert two.final((3, 0)) == pytest.approx(two.value(-3, (0, 1)))
    three = stakes_for(make("sixtysix-3", {}), MatchView((5, 9, 12), 16, None, 4, 2), 2)
    assert three is not None
    # Seat 2 defends with seat 1 against seat 0, the declarer.
    sides = (0, 1, 1)
    assert three.final((0, 2, 2)) == pytest.approx(three.value(2, sides))
    assert three.final((3, 0, 0)) == pytest.approx(three.value(-3, sides))
    # A win is worth more to the leader than to a seat far behind it.
    assert three.value(1, sides) > three.value(-1, sides)


def test_when_the_deal_is_played_for_its_game_points() -> None:
    assert stakes_for(SIXTYSIX, None, 0) is None  # a deal played alone
    # Another rule than those whose deals were counted: no measured distribution.
    assert stakes_for(make("sixtysix", {"marriages": False}), to_seven((0, 0)), 0) is None
    # Four players to 40: too many scores to tabulate within a move (2,560,000).
    four = make("sixtysix-4", {})
    assert stakes_for(four, MatchView((0, 0, 0, 0), 40, None, 0, 1), 0) is None
    # A stranger's absurd match (a protocol VIEW may say anything within its bounds).
    assert stakes_for(SIXTYSIX, MatchView((0, 0), LIMIT, None, 0, 1), 0) is None
    assert stakes_for(SIXTYSIX, MatchView((0, 0), None, LIMIT, 0, 1), 0) is None
    # A match of a fixed number of deals is tabulated while it is short enough.
    assert stakes_for(SIXTYSIX, MatchView((2, 0), None, 12, 1, 1), 0) is not None
    assert stakes_for(SIXTYSIX, MatchView((2, 0), None, 40, 1, 1), 0) is None


def test_four_players_to_16_are_tabulated_in_arrays_or_played_for_points() -> None:
    """65,536 scores: in arrays where numpy is there, else too many for a move."""
    four = make("sixtysix-4", {})
    found = stakes_for(four, MatchView((3, 12, 0, 15), 16, None, 9, 2), 1)
    if arrays_available():
        assert found is not None and found.equity.arrays
        # Seat 1 with its partner (seat 3, one short) against seats 0 and 2: any win ends it.
        sides = (0, 1, 0, 1)
        assert found.value(1, sides) == pytest.approx(found.value(3, sides))
    else:
        assert found is None
    equity = equity_for(four)
    assert equity is not None and equity.scores > MAX_SCORES


def test_the_format_comes_from_the_view_not_the_options() -> None:
    """A match to 11 played with the variant's default options is valued to 11."""
    eleven = stakes_for(SIXTYSIX, MatchView((6, 6), 11, None, 4, 1), 0)
    assert eleven is not None
    assert eleven.value(3, (0, 1)) > eleven.value(1, (0, 1))
    equity = equity_for(SIXTYSIX)
    assert equity is not None and equity.fmt.target == 7


def test_each_imagined_deal_is_turned_before_the_average() -> None:
    """The values are the mean of each deal's worth, not the worth of the mean game points:
    the averaging is what makes the expert weigh risk by the score."""
    state = marriage_or_schneider()
    state.match = to_seven((6, 5))
    view = state.view(state.to_act)
    six = stakes_for(SIXTYSIX, view.match, view.seat)
    assert six is not None
    stream = Stream(Seed(1), ("t",))
    deals = [Sampler(view).sample(stream) for _ in range(8)]
    exact = Budget(samples=8, nodes=10**7)
    found = estimate(view, exact, stream, draws=[(d, 1) for d in deals], stakes=six)
    assert found.solved
    by_deal = [Solver(view.seat).action_values(deal) for deal in deals]
    spread = False
    for action, value in found.values.items():
        points = [values[action] for values in by_deal]
        turned = [six.value(p, deal.sides) for p, deal in zip(points, deals, strict=True)]
        assert value == pytest.approx(sum(turned) / len(turned))
        spread = spread or len(set(points)) > 1
    assert spread  # the deals disagree, so the order of turning and averaging matters


def marriage_or_schneider() -> DealState:
    """Six all in a match to seven; the opponent closed the talon. The seat holds K♣ Q♦ K♦ 10♠:
    playing 10♠ goes for a schneider (three game points on some deals, a loss of two on others),
    marrying in diamonds wins more of the deals for fewer points."""
    rnd = random.Random(10)
    state = SIXTYSIX.new_deal(SIXTYSIX.deal(Seed(10), ("x",), 0))
    for _ in range(7):
        state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.skipif(not compiled_available(), reason="needs numba")
def test_at_six_all_the_expert_plays_for_the_deal_not_for_the_points() -> None:
    state = marriage_or_schneider()
    assert state.closed_by is not None
    seat = state.to_act
    in_match = state.copy()
    in_match.match = to_seven((6, 6))
    choices: dict[str, Action] = {}
    for label, deal, params in [
        ("match", in_match, {}),
        ("points", in_match, {"match": "0"}),
        ("alone", state, {}),
    ]:
        bot = ExpertBot(seat, Seed(5), {"random": "0", **params})
        choices[label] = bot.choose(deal.view(seat))
        assert bot.last is not None
        if label == "match":
            wins = bot.last.wins
            assert wins[int(choices[label])] == max(wins.values())
    assert str(choices["match"]) == "marry D"
    assert str(choices["points"]) == str(choices["alone"]) == "play TS"


def test_the_match_parameter() -> None:
    assert ExpertBot(0, Seed(0)).match_aware
    assert not ExpertBot(0, Seed(0), {"match": "0"}).match_aware
    with pytest.raises(UnknownBotError, match="match must be 0 or 1"):
        ExpertBot(0, Seed(0), {"match": "2"})


@pytest.mark.parametrize("method", ["rollouts", "search", "blend"])
def test_each_way_of_valuing_an_open_talon_takes_the_stakes(method: str) -> None:
    """Play-outs, search and their blend all value in the match's worth: at six all no action
    is worth more than a win or less than a loss, where the same positions valued for game
    points go beyond both."""
    beyond = played_out = 0
    for seed in range(4):
        rnd = random.Random(seed)
        state = SIXTYSIX.new_deal(SIXTYSIX.deal(Seed(seed), ("x",), 0))
        state.apply(rnd.choice(state.legal_actions()))
        state.match = to_seven((6, 6))
        view = state.view(state.to_act)
        six = stakes((6, 6), view.seat)
        win, loss = six.value(1, (0, 1)), six.value(-1, (0, 1))
        for match, params in ((True, {}), (False, {"match": "0"})):
            bot = ExpertBot(view.seat, Seed(1), {"open": method, **params})
            bot.choose(view)
            assert bot.last is not None
            values = bot.last.values.values()
            if match:
                assert loss - 1e-9 <= min(values) and max(values) <= win + 1e-9
                if bot.last.method == "rollouts":
                    # Every play-out ends the deal: each is worth a win or a loss, no more.
                    for a, v in bot.last.values.items():
                        assert v == pytest.approx(loss + (win - loss) * bot.last.wins[a])
                    played_out += 1
            else:
                beyond += min(values) < loss - 1e-6 or max(values) > win + 1e-6
    assert beyond  # the bound comes from the stakes, not from the positions
    assert played_out or method != "rollouts"
