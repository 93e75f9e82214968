"""Every answer is turned into its plain form before the legality check; anything else is a fault.

The always-equal ``Action`` subclass once passed ``action in legal`` and played a card its seat
did not hold. Now it is the seat's fault: the seat forfeits the deal and the run goes on.
"""

from __future__ import annotations

import numpy as np
import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import ACTIONS, CLOSE, Action, parse_action
from sixtysix.core.answers import canonical_action
from sixtysix.core.cards import CARDS
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.faults import FaultKind, PlayerFault
from sixtysix.core.match import play_deal, play_match
from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant
from sixtysix.sim.duel import play_game as duel_game
from sixtysix.sim.simulate import BotSpec, play_one
from sixtysix.testing.play import random_deal
from tests.fairplay.cheaters import AlwaysEqual, LyingAction, SneakyInt

LEGAL = [0, 5, 12, CLOSE]


def variant(name: str) -> Variant:
    return get_registry().variant(name)()


@pytest.mark.parametrize("answer", [5, ACTIONS[5], "play AC", " PLAY a♣ ", "close"])
def test_plain_answers_are_taken(answer: object) -> None:
    code = canonical_action(answer, 1, LEGAL)
    assert type(code) is int and code in LEGAL


@pytest.mark.parametrize(
    "answer",
    [
        AlwaysEqual(5),
        AlwaysEqual(7),
        SneakyInt(5),
        np.int64(5),
        True,
        CARDS[5],
        5.0,
        None,
        [5],
        "play AC extra",
        "",
    ],
    ids=repr,
)
def test_anything_else_is_an_illegal_fault_of_the_seat(answer: object) -> None:
    with pytest.raises(PlayerFault) as info:
        canonical_action(answer, 1, LEGAL)
    assert info.value.seat == 1 and info.value.kind is FaultKind.ILLEGAL


@pytest.mark.parametrize("answer", [7, ACTIONS[7], "play KC", 99, -1])
def test_an_action_not_legal_now_is_a_fault(answer: object) -> None:
    with pytest.raises(PlayerFault, match="not a legal action"):
        canonical_action(answer, 0, LEGAL)


def test_the_answer_is_compared_as_a_plain_int() -> None:
    legal = [ACTIONS[5], ACTIONS[12]]
    assert canonical_action(5, 0, legal) == 5
    assert parse_action("play AC") == 5


@pytest.mark.parametrize("name", ["sixtysix", "sixtysix-4"])
def test_the_core_loop_forfeits_a_lying_action_and_goes_on(name: str) -> None:
    v = variant(name)
    liar = LyingAction(0, Seed(1))
    randoms = [RandomBot(s, Seed(1).child(("bot", s))) for s in range(v.seats)]
    players = [liar.choose] + [b.choose for b in randoms[1:]]
    result = play_match(v, players, Seed(1), faults=True)
    faults = result.faults
    assert result.winners and 0 not in result.winners
    assert faults and all(f == (0, str(FaultKind.ILLEGAL)) for f in faults)
    forfeited = [o for o in result.outcomes if o.reason is Reason.FORFEIT]
    assert len(forfeited) == len(faults) == len(result.outcomes)
    for record in result.record.deals:
        assert all(seat != 0 for seat, _ in record.actions)  # the lie was never played


def test_a_player_cannot_make_another_seat_forfeit() -> None:
    v = variant("sixtysix")
    state = random_deal(v, Seed(2), 0)
    asked = state.to_act

    def framer(view: View) -> Action:
        raise PlayerFault(1 - view.seat, FaultKind.TIMEOUT, "it was the other one")

    faults: list[tuple[int, str]] = []
    outcome = play_deal(state, [framer, framer], faults)
    assert outcome.reason is Reason.FORFEIT and outcome.game_points[asked] == 0
    assert faults == [(asked, str(FaultKind.TIMEOUT))]


def _never_played(state: DealState | None) -> None:
    if state is not None:
        assert state.outcome is not None and state.outcome.reason is Reason.FORFEIT


@pytest.mark.parametrize("name", ["sixtysix", "sixtysix-3"])
def test_the_drivers_never_play_a_lying_action(name: str) -> None:
    """The drivers' loops check every answer: a lie ends the deal as the liar's forfeit."""
    v = variant(name)
    bots: list[BotSpec] = [(LyingAction, {})] + [(RandomBot, {})] * (v.seats - 1)
    _never_played(play_one(v, bots, Seed(4), 0))
    contestants = (Contestant("liar", LyingAction), Contestant("random", RandomBot))
    game = duel_game(v, contestants, Seed(4), 0, 0, (0,) + (1,) * (v.seats - 1))
    assert game.outcome.reason is Reason.FORFEIT


def test_the_engine_checks_and_keeps_the_plain_value() -> None:
    """Defence in depth for callers of ``DealState.apply`` (replays, a bot's own look-ahead):
    an always-equal subclass is judged by its value and never stored."""
    state = random_deal(variant("sixtysix"), Seed(1), 0)
    legal = state.legal_actions()
    unheld = next(a for a in range(24) if a not in legal)
    with pytest.raises(IllegalActionError):
        state.apply(AlwaysEqual(unheld))
    state.apply(AlwaysEqual(legal[0]))
    assert type(state.history[-1][1]) is int
