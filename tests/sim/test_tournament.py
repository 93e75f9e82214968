"""Round-robin tournaments: tables, identical deals, tallies, ratings and determinism."""

from __future__ import annotations

from collections import Counter

import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.sim.backends import LocalBackend, StopFlag
from sixtysix.sim.errors import SimulationError
from sixtysix.sim.simulate import BotSpec
from sixtysix.sim.tournament import (
    Tournament,
    TournamentChunk,
    TournamentJob,
    play_tournament_chunk,
    run_tournament,
    unique_names,
)
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from tests.sim.bots_for_tests import CloserBot, FirstBot

RANDOM: BotSpec = (RandomBot, {})
FIRST: BotSpec = (FirstBot, {})
CLOSER: BotSpec = (CloserBot, {})


def test_tables_are_every_group_that_fills_the_seats() -> None:
    job = TournamentJob.round_robin(SixtySix(), [RANDOM, FIRST, CLOSER], Seed(1))
    assert job.tables == ((0, 1), (0, 2), (1, 2))
    assert job.games_per_deal == 6
    three = TournamentJob.round_robin(SixtySix3(), [RANDOM, FIRST, CLOSER, RANDOM], Seed(1))
    assert len(three.tables) == 4 and three.games_per_deal == 12
    with pytest.raises(SimulationError, match="needs at least 3 bots"):
        TournamentJob.round_robin(SixtySix3(), [RANDOM, FIRST], Seed(1))


def test_every_seating_plays_the_same_deal() -> None:
    """Two copies of a deterministic bot: swapping seats on the same cards repeats the game."""
    job = TournamentJob.round_robin(SixtySix(), [FIRST, FIRST], Seed(3))
    chunk = play_tournament_chunk(job, 0, 20)
    for points in chunk.points:
        assert points[0:2] == points[2:4]
    assert sum(chunk.reasons.values()) == 40


def test_tally_of_a_hand_made_chunk() -> None:
    job = TournamentJob.round_robin(SixtySix(), [RANDOM, FIRST, CLOSER], Seed(1))
    contest = Tournament(job, ["a", "b", "c"])
    # One deal; per table (a-b, a-c, b-c) and rotation (0: first bot in seat 0; 1: swapped),
    # the game points of seats 0 and 1.
    points = (2, 0, 0, 1, 0, 3, 3, 0, 1, 0, 0, 0)
    contest.add(TournamentChunk(0, 1, 0.0, [points], Counter(reached_66=6)))
    t = contest.tally
    # a-b: a wins in rotation 0 (2:0) and rotation 1 (a in seat 1 has 1, b 0): a scores 2.
    # a-c: c wins both (3 vs 0 twice). b-c: b wins rotation 0, rotation 1 is 0:0, a tie.
    assert t.per_deal[0] == (2.0, 0.0, 1.5)
    assert t.games == [4, 4, 4]
    assert t.points == [3, 1, 6] and t.wins == [2, 1, 2]
    scores = {(p.a, p.b): p.score_a for p in contest.pair_scores()}
    assert scores == {("a", "b"): 1.0, ("a", "c"): 0.0, ("b", "c"): 0.75}


def test_ratings_order_the_bots_and_do_not_depend_on_workers() -> None:
    bots = [RANDOM, CLOSER, FIRST]
    results = []
    for workers in (1, 2):
        job = TournamentJob.round_robin(SixtySix(), bots, Seed(21))
        contest = Tournament(job, ["random", "closer", "first"])
        with StopFlag() as stop, LocalBackend(workers) as backend:
            report = run_tournament(contest, 150, backend, stop)
        assert not report.interrupted and contest.deals == 150
        results.append([s.as_json() for s in contest.standings(replicates=60)])
    assert results[0] == results[1]
    standings = results[0]
    # Closing at every chance loses: the closer is last, its interval clear of the others.
    assert standings[-1]["bot"] == "closer"
    assert standings[-1]["rating"]["high"] < standings[-2]["rating"]["low"]
    assert standings[-1]["score"]["value"] < 0.5 < standings[0]["score"]["value"]
    assert all(s["games"] == 150 * 4 for s in standings)
    assert sum(s["rating"]["value"] for s in standings) == pytest.approx(0, abs=0.5)


def test_a_three_seat_tournament() -> None:
    job = TournamentJob.round_robin(SixtySix3(), [RANDOM, FIRST, CLOSER], Seed(2))
    contest = Tournament(job, unique_names(["random", "first", "closer"]))
    with StopFlag() as stop, LocalBackend(1) as backend:
        run_tournament(contest, 10, backend, stop)
    standings = contest.standings(replicates=20)
    assert {s.name for s in standings} == {"random", "first", "closer"}
    assert all(s.games == 30 for s in standings)
    # Each pair meets in 3 seatings of the one table on every deal.
    assert contest.per_deal == [3, 3, 3]


def test_unique_names() -> None:
    assert unique_names(["random", "first", "random", "random"]) == [
        "random",
        "first",
        "random#2",
        "random#3",
    ]


def test_a_stopped_tournament_rates_the_finished_deals() -> None:
    job = TournamentJob.round_robin(SixtySix(), [RANDOM, CLOSER], Seed(5))
    contest = Tournament(job, ["random", "closer"])
    with StopFlag() as stop, LocalBackend(1) as backend:
        report = run_tournament(contest, 10_000, backend, stop, lambda k: stop.request())
    assert report.interrupted
    assert 0 < contest.deals < 10_000
    assert sorted(contest.tally.per_deal) == list(range(contest.deals))
    assert {s.name for s in contest.standings(replicates=10)} == {"random", "closer"}
