"""``strength.py``'s checks (which duels each group plays, how the match targets judge) and
``match_odds.py``'s model of matches.

Run by ``pytest -q benchmarks/strength`` (outside the main test run, as ``test_ceiling.py``).
"""

from __future__ import annotations

import pytest

from benchmarks.strength import match_odds, strength
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
    a, b = (Contestant(*resolve_player(s, reg, seats=2)) for s in ("heuristic", "random"))
    summary = duel_matches(reg.variant("schnapsen")(), a, b, 3, Seed(4))
    share = summary.wins / summary.games
    passed, figure = strength.matches_won_at_least(0.9)(summary)
    assert passed == (share >= 0.9)
    assert figure.startswith(f"won {summary.wins} of {summary.games} matches")
    assert strength.matches_won_at_least(share)(summary)[0]
    assert not strength.matches_won_at_least(share + 0.01)(summary)[0]
    slow, text = strength.in_matches(strength.median_time_at_most(1e9))(summary)
    assert slow and text.startswith("median ")


def test_the_match_model_on_cases_worked_by_hand() -> None:
    one = {1: 10}
    assert match_odds.match_rate(0.3, one, 1) == pytest.approx(0.3)
    # to 2 by single points: win both, or one of the first two and then the third
    assert match_odds.match_rate(0.6, one, 2) == pytest.approx(0.6**2 + 2 * 0.6 * 0.4 * 0.6)
    spread = {1: 55, 2: 38, 3: 7}
    assert match_odds.match_rate(0.5, spread, 7) == pytest.approx(0.5)  # even deals, even odds
    rates = [match_odds.match_rate(p, spread, 7) for p in (0.55, 0.65, 0.75)]
    assert rates == sorted(rates) and rates[0] > 0.55  # a match magnifies a per-deal edge
    need = match_odds.rate_needed(0.9, spread, 7)
    assert match_odds.match_rate(need, spread, 7) == pytest.approx(0.9, abs=1e-6)


def test_the_match_model_reads_the_duels_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert match_odds.main(["66", "heuristic", "random", "--deals", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "12 games decided" in out and "<- the duel's" in out and "of the deals" in out
    with pytest.raises(SystemExit):
        match_odds.main(["66-3", "heuristic", "random"])
