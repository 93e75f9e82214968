"""The ISMCTS prototype of ``benchmarks/`` (``_ismcts.py``): a measured, not kept, player.

Its figures in ``benchmarks/README.md`` are only worth something if it plays by the rules from
its own view, reproducibly under a seed, and keeps the rule player's move under a margin.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from sixtysix.bots.compiled import available
from sixtysix.bots.expert import advisor_weights
from sixtysix.bots.heuristic import decide
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from tests.bots.test_sampling import make

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from _ismcts import IsmctsBot

pytestmark = pytest.mark.skipif(not available(), reason="needs numba (the fast extra)")


def play(name: str, deal: int, params: dict[str, str]) -> list[int]:
    """One deal of ISMCTS in seat 0 against random legal play; the actions it chose."""
    variant = make(name, {})
    state = variant.new_deal(variant.deal(Seed(deal), ("t",), 0))
    bot = IsmctsBot(0, Seed(7), params)
    other = random.Random(deal)
    chosen = []
    while state.phase != Phase.OVER:
        view = state.view(state.to_act)
        if state.to_act == 0:
            action = bot.choose(view)
            assert action in view.legal_actions
            chosen.append(int(action))
        else:
            action = other.choice(view.legal_actions)
        state.apply(action)
    assert all(n == 60 for n in bot.done)  # an iteration budget is kept exactly
    return chosen


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_plays_legal_actions_reproducibly_under_a_seed(name: str) -> None:
    for deal in range(3):
        params = {"iterations": "60", "mix": "0.5"}
        assert play(name, deal, params) == play(name, deal, params)


def test_a_wide_margin_keeps_the_rule_players_move() -> None:
    variant = make("schnapsen", {})
    differ = 0
    for deal in range(8):
        state = variant.new_deal(variant.deal(Seed(deal), ("m",), 0))
        view = state.view(state.to_act)
        advice = decide(view, advisor_weights(view))
        wide = IsmctsBot(view.seat, Seed(1), {"iterations": "40", "margin": "100"})
        assert wide.choose(view) == advice
        differ += IsmctsBot(view.seat, Seed(1), {"iterations": "40"}).choose(view) != advice
    assert differ  # without the margin the tree has its own mind on some of these openings


def test_unknown_parameters_are_refused() -> None:
    with pytest.raises(UnknownBotError, match="no parameter 'depth'"):
        IsmctsBot(0, Seed(0), {"depth": "3"})


def test_the_script_plays_the_duels_games_and_refuses_bad_arguments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import ismcts

    assert ismcts.main(["schnapsen", "ismcts:iterations=20", "random", "--deals", "2"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("schnapsen: ismcts:iterations=20 against random: won ")
    assert "of 4 games" in line
    for bad in (["schnapsen", "ismcts:depth=2", "random"], ["66-3", "ismcts", "random"]):
        with pytest.raises(SystemExit) as exit_:
            ismcts.main(bad)
        assert exit_.value.code == 2
        assert capsys.readouterr().err.count("\n") <= 3  # usage and one error line
