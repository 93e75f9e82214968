"""``strength.py``'s checks: which duels each group plays, and how the match targets judge.

Run by ``pytest -q benchmarks/strength`` (outside the main test run, as ``test_ceiling.py``).
"""

from __future__ import annotations

import strength

from sixtysix.bots.levels import resolve_player
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant
from sixtysix.sim.match_duel import duel_matches


def test_the_match_targets_are_two_player_and_in_matches() -> None:
    found = strength.checks(strength.ALL_VARIANTS, ["matches"])
    assert {c.variant for c in found} == set(strength.TWO_PLAYER)
    assert all(c.in_matches and (c.a, c.b) == ("expert", "heuristic") for c in found)
    assert {c.requirement for c in found} == {">= 90% of matches", "median <= 100 ms/move"}
    assert not any(c.in_matches for c in strength.checks(strength.ALL_VARIANTS, ["targets"]))


def test_a_match_target_is_judged_on_the_seated_matches() -> None:
    reg = get_registry()
    a, b = (Contestant(*resolve_player(s, reg)) for s in ("heuristic", "random"))
    summary = duel_matches(reg.variant("schnapsen")(), a, b, 3, Seed(4))
    share = summary.wins / summary.games
    passed, figure = strength.matches_won_at_least(0.9)(summary)
    assert passed == (share >= 0.9)
    assert figure.startswith(f"won {summary.wins} of {summary.games} matches")
    assert strength.matches_won_at_least(share)(summary)[0]
    assert not strength.matches_won_at_least(share + 0.01)(summary)[0]
    slow, text = strength.in_matches(strength.median_time_at_most(1e9))(summary)
    assert slow and text.startswith("median ")
