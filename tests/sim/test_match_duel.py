"""Duels in whole matches: identical cards across seatings, matches to the target, who won."""

from __future__ import annotations

import math

import pytest

from sixtysix.bots.base import Bot
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import Action
from sixtysix.core.deal import DealSetup
from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.sim.duel import A, B, Contestant, DuelGame, arrangements
from sixtysix.sim.match_duel import (
    DuelMatch,
    SeatedMatch,
    duel_matches,
    iter_matches,
    play_duel_match,
    play_seating,
    summarize_matches,
)
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4

HEURISTIC = Contestant("heuristic", HeuristicBot)
RANDOM = Contestant("random", RandomBot)


def setups(variant: Variant, match: int, game: int, seating: tuple[int, ...]) -> list[DealSetup]:
    seen: list[DealSetup] = []

    def keep(setup: DealSetup, state: DealState) -> None:
        seen.append(setup)

    played = play_seating(variant, (HEURISTIC, RANDOM), Seed(21), match, game, seating, keep)
    assert len(seen) == len(played.games)
    return seen


@pytest.mark.parametrize("variant", [Schnapsen(), SixtySix4()], ids=lambda v: v.name)
def test_deal_k_has_the_same_cards_and_dealer_in_every_seating(variant: Variant) -> None:
    dealt = [setups(variant, 3, g, s) for g, s in enumerate(arrangements(variant.seats))]
    assert len({len(d) for d in dealt}) > 1 or variant.seats == 2  # lengths may differ
    for k in range(max(len(d) for d in dealt)):
        reached = [d[k] for d in dealt if k < len(d)]
        assert all(s == reached[0] for s in reached), k
    firsts = {d[0].dealer for d in dealt}
    assert len(firsts) == 1
    other = setups(variant, 4, 0, arrangements(variant.seats)[0])
    assert other[0] != dealt[0][0]  # another match, other cards


def test_random_against_itself_plays_seatings_of_different_lengths() -> None:
    """Seatings' matches may differ in length, and the longer one's extra deals still count."""
    pair = (RANDOM, Contestant("again", RandomBot))
    matches = [play_duel_match(SixtySix(), pair, Seed(5), m) for m in range(12)]
    uneven = [m for m in matches if len({len(s.games) for s in m.seatings}) > 1]
    assert uneven
    match = uneven[0]
    deals = match.deal_results(0)
    assert len(deals) == max(len(s.games) for s in match.seatings)
    assert [len(d.games) for d in deals][-1] == 1


@pytest.mark.parametrize(
    "variant", [SixtySix(), Schnapsen(), SixtySix3(), SixtySix4()], ids=lambda v: v.name
)
def test_each_match_ends_at_the_target(variant: Variant) -> None:
    match = play_duel_match(variant, (HEURISTIC, RANDOM), Seed(2), 0)
    assert len(match.seatings) == len(arrangements(variant.seats))
    for seated in match.seatings:
        points = [sum(g.outcome.game_points[s] for g in seated.games) for s in range(variant.seats)]
        assert list(seated.totals) == points
        assert max(points) >= variant.target
        before = [
            sum(g.outcome.game_points[s] for g in seated.games[:-1]) for s in range(variant.seats)
        ]
        assert max(before) < variant.target  # it ended at the first deal reaching it
        assert list(seated.winners) == [s for s, t in enumerate(points) if t == max(points)]


def game(seating: tuple[int, ...], points: tuple[int, ...]) -> DuelGame:
    outcome = Outcome(Reason.REACHED_66, points, (0,) * len(points), (0,) * len(points))
    return DuelGame(0, seating, outcome, ((), ()))


def seated(seating: tuple[int, ...], winners: tuple[int, ...]) -> SeatedMatch:
    return SeatedMatch(seating, (game(seating, (1,) * len(seating)),), (7,) * 2, winners)


def test_who_won_a_match() -> None:
    assert seated((A, B), (0,)).winner == A
    assert seated((B, A), (0,)).winner == B
    assert seated((A, B), (0, 1)).winner is None  # a shared win (a fixed number of deals)
    # The lone bot wins with its seat, a partner who is the other bot sharing the win.
    assert seated((B, A, B, B), (1, 3)).winner == A
    assert seated((B, A, B, B), (0, 2)).winner == B
    assert seated((A, B, B), (1,)).winner == B
    assert seated((B, A, A), (0,)).winner == B
    assert seated((B, A, A), (2,)).winner == A


def test_same_bot_on_both_sides_wins_exactly_half_the_matches() -> None:
    """A deterministic bot against itself on identical cards: each match's two seatings
    mirror each other, so A and B win the same number of matches, deal for deal."""
    s = duel_matches(Schnapsen(), HEURISTIC, Contestant("again", HeuristicBot), 6, Seed(4))
    assert s.wins == s.losses == 6 and s.draws == 0
    assert s.deals.wins == s.deals.losses and s.deals.margin.value == 0.0


def test_summary_counts_every_seating_and_every_deal() -> None:
    s = duel_matches(SixtySix(), HEURISTIC, RANDOM, 6, Seed(3))
    assert s.matches == 6 and s.games == 12
    assert s.wins + s.draws + s.losses == 12
    assert s.win_rate[A].value == s.wins / 12
    assert s.length.value * 12 == pytest.approx(s.deals.games)
    data = s.as_json()
    matches = data["matches"]
    assert isinstance(matches, dict)
    assert matches["won"] == {"a": s.wins, "b": s.losses, "draws": s.draws}
    assert data["games_won"] == {"a": s.deals.wins, "b": s.deals.losses, "draws": s.deals.draws}


def test_same_seed_same_matches_whatever_the_workers() -> None:
    one = list(iter_matches(Schnapsen(), (HEURISTIC, RANDOM), Seed(8), 4))
    two = sorted(
        iter_matches(Schnapsen(), (HEURISTIC, RANDOM), Seed(8), 4, jobs=2), key=lambda m: m.match
    )

    def outcomes(matches: list[DuelMatch]) -> object:
        return [[[g.outcome for g in s.games] for s in m.seatings] for m in matches]

    assert outcomes(one) == outcomes(two)
    other = list(iter_matches(Schnapsen(), (HEURISTIC, RANDOM), Seed(9), 4))
    assert outcomes(other) != outcomes(one)


def test_partial_results_in_any_order_summarize_alike() -> None:
    results = list(iter_matches(SixtySix(), (HEURISTIC, RANDOM), Seed(3), 4))
    forward = summarize_matches("sixtysix", ("a", "b"), results).as_json()
    backward = summarize_matches("sixtysix", ("a", "b"), results[::-1]).as_json()
    assert forward == backward


def test_summary_of_no_match() -> None:
    s = summarize_matches("sixtysix", ("a", "b"), [])
    assert s.matches == s.games == 0 and s.win_rate[A].low is None
    assert s.deals.games == 0 and math.isnan(s.win_rate[B].value)
    assert s.as_json()["matches"] is not None


class Cheat(Bot):
    """Answers a card it may not hold whenever it leads a trick: a fault, every deal it leads."""

    name = "cheat"

    def choose(self, view: View) -> Action:
        if not view.trick and view.history:
            return Action(23 - min(view.legal_actions))
        return view.legal_actions[0]


def test_a_fault_forfeits_its_deal_and_the_match_goes_on() -> None:
    match = play_duel_match(SixtySix(), (Contestant("cheat", Cheat), RANDOM), Seed(1), 0)
    for seated_match in match.seatings:
        forfeited = [g for g in seated_match.games if g.outcome.reason == Reason.FORFEIT]
        assert all(len(g.faults) == 1 for g in forfeited)
        assert all(g.faults == () for g in seated_match.games if g not in forfeited)
        for g in forfeited:
            seat, kind = g.faults[0]
            assert g.seating[seat] == A and kind == "illegal"
    s = summarize_matches("sixtysix", ("cheat", "random"), [match])
    assert s.deals.faults[A].get("illegal", 0) >= 1 and s.deals.faults[B] == {}
