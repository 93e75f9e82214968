"""Duels: seatings, identical deals, determinism, and the statistics they report."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from sixtysix.bots.base import Bot
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import CLOSE, Action
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.sim.backends import Backend, RayBackend, StopFlag
from sixtysix.sim.duel import (
    A,
    B,
    Contestant,
    DealResult,
    arrangements,
    duel,
    iter_deals,
    local_backend,
    play_duel_deal,
    summarize,
)
from sixtysix.sim.match_duel import DuelMatch, iter_matches, play_duel_match
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4

HEURISTIC = Contestant("heuristic", HeuristicBot)
RANDOM = Contestant("random", RandomBot)


def test_two_player_seatings_swap() -> None:
    assert arrangements(2) == ((0, 1), (1, 0))


@pytest.mark.parametrize("seats", [3, 4])
def test_every_seat_alone_for_each_bot(seats: int) -> None:
    seatings = arrangements(seats)
    assert len(seatings) == 2 * seats == len(set(seatings))
    for who in (0, 1):
        alone = [s.index(who) for s in seatings if s.count(who) == 1]
        assert sorted(alone) == list(range(seats))


class Spy(Bot):
    """Records the first view each seat gets: its hand and the dealer."""

    name = "spy"
    parameters: ClassVar[Mapping[str, str]] = {}
    seen: ClassVar[list[tuple[int, int, tuple[int, ...]]]] = []

    def choose(self, view: View) -> Action:
        if not any(s == view.seat for s, _ in view.history):
            Spy.seen.append((view.seat, view.dealer, tuple(view.hand)))
        return view.legal_actions[0]


@pytest.mark.parametrize("variant", [SixtySix(), SixtySix4()], ids=lambda v: v.name)
def test_every_seating_plays_the_identical_deal(variant: SixtySix) -> None:
    Spy.seen = []
    result = play_duel_deal(variant, (Contestant("a", Spy), Contestant("b", Spy)), Seed(4), 7)
    assert len(result.games) == len(arrangements(variant.seats))
    first: dict[int, set[tuple[int, tuple[int, ...]]]] = {}
    for seat, dealer, hand in Spy.seen:
        first.setdefault(seat, set()).add((dealer, hand))
    assert sorted(first) == list(range(variant.seats))
    assert all(len(views) == 1 for views in first.values())  # same cards in every seating


def test_same_bot_on_both_sides_is_an_even_duel() -> None:
    """A deterministic bot against itself: seat-swapping makes A and B exactly even."""
    summary = duel(SixtySix(), HEURISTIC, Contestant("again", HeuristicBot), 30, Seed(2))
    assert summary.wins == summary.losses
    assert summary.margin.value == 0.0


@pytest.mark.parametrize("variant", [Schnapsen(), SixtySix3()], ids=lambda v: v.name)
def test_same_seed_same_duel(variant: Schnapsen) -> None:
    a = duel(variant, HEURISTIC, RANDOM, 12, Seed(5))
    b = duel(variant, HEURISTIC, RANDOM, 12, Seed(5))
    c = duel(variant, HEURISTIC, RANDOM, 12, Seed(6))

    def results(s: object) -> object:
        data = s.as_json()  # type: ignore[attr-defined]
        return data["games_won"], data["game_points_per_deal"]

    assert results(a) == results(b)
    assert results(a) != results(c)


def test_a_finished_parallel_duel_leaves_no_worker_running() -> None:
    import multiprocessing

    results = list(iter_deals(SixtySix(), (HEURISTIC, RANDOM), Seed(8), 6, jobs=2))
    assert len(results) == 6
    assert multiprocessing.active_children() == []


def test_workers_give_the_same_results() -> None:
    one = sorted(iter_deals(SixtySix(), (HEURISTIC, RANDOM), Seed(8), 6), key=lambda r: r.deal)
    two = sorted(
        iter_deals(SixtySix(), (HEURISTIC, RANDOM), Seed(8), 6, jobs=2), key=lambda r: r.deal
    )
    assert [[g.outcome for g in r.games] for r in one] == [
        [g.outcome for g in r.games] for r in two
    ]


def test_summary_counts_games_and_deals() -> None:
    s = duel(SixtySix4(), HEURISTIC, RANDOM, 5, Seed(9))
    assert (s.deals, s.games) == (5, 40)
    assert s.wins + s.draws + s.losses == 40
    assert s.win_rate[0].value == s.wins / 40
    assert s.times[0].moves > 0 and s.times[1].moves > 0
    assert 0 <= s.times[0].median <= s.times[0].p95
    data = s.as_json()
    assert data["games_won"] == {"a": s.wins, "b": s.losses, "draws": s.draws}


def test_summary_of_nothing() -> None:
    s = summarize("sixtysix", ("a", "b"), [])
    assert s.games == 0 and s.win_rate[0].low is None and s.times[0].moves == 0


def test_partial_results_in_any_order_summarize_alike() -> None:
    results = list(iter_deals(Schnapsen(), (HEURISTIC, RANDOM), Seed(3), 8))
    forward = summarize("schnapsen", ("a", "b"), results).as_json()
    backward = summarize("schnapsen", ("a", "b"), results[::-1]).as_json()
    assert forward == backward


class Cheat(Bot):
    name = "cheat"
    parameters: ClassVar[Mapping[str, str]] = {}

    def choose(self, view: View) -> Action:
        return Action(23 - min(view.legal_actions))  # often not a legal card


def test_an_illegal_choice_forfeits_the_game_and_the_duel_goes_on() -> None:
    summary = duel(SixtySix(), Contestant("cheat", Cheat), RANDOM, 3, Seed(1))
    assert summary.deals == 3 and summary.games == 6
    assert summary.faults[A].get("illegal", 0) >= 1 and summary.faults[B] == {}
    data = summary.as_json()
    assert data["faults"] == {"a": summary.faults[A], "b": {}}


# ---------------------------------------------------------------------- statistics


def test_deal_points_average_over_seatings() -> None:
    result = play_duel_deal(SixtySix(), (HEURISTIC, RANDOM), Seed(1), 0)
    assert isinstance(result, DealResult)
    assert result.points(0) == sum(g.points(0) for g in result.games) / 2


class Closer(Bot):
    """Closes the talon whenever it may, else plays its first legal action."""

    name = "closer"
    parameters: ClassVar[Mapping[str, str]] = {}

    def choose(self, view: View) -> Action:
        return CLOSE if CLOSE in view.legal_actions else view.legal_actions[0]


class Keeper(Bot):
    """Never closes: its first legal action that is not a close."""

    name = "keeper"
    parameters: ClassVar[Mapping[str, str]] = {}

    def choose(self, view: View) -> Action:
        return next(a for a in view.legal_actions if a != CLOSE)


def test_each_game_records_who_closed_the_talon_and_how_much_was_left() -> None:
    variant = Schnapsen()
    full = 20 - 2 * 5  # the talon with the turn-up, before the first trick
    closer, keeper = Contestant("closer", Closer), Contestant("keeper", Keeper)
    pair = (closer, keeper)
    games = [g for d in range(6) for g in play_duel_deal(variant, pair, Seed(3), d).games]
    closed = [g for g in games if g.closed_by >= 0]
    assert len(closed) > len(games) // 2  # unless the keeper kept the lead to the end
    for game in closed:
        assert game.closed_by == game.seating.index(0)  # the closer's seat
        assert 0 < game.closed_with <= full and game.closed_with % 2 == 0
    for game in games:
        if game.closed_by < 0:
            assert game.closed_with == 0
    assert any(g.closed_with == full for g in closed)  # closed at its very first lead
    calm = play_duel_deal(variant, (keeper, Contestant("again", Keeper)), Seed(3), 0).games
    assert all(g.closed_by == -1 and g.closed_with == 0 for g in calm)


# ---------------------------------------------------------------------- backends and Ctrl-C


def backend_named(where: str, request: pytest.FixtureRequest) -> Backend:
    """``one``: this process; ``two``: two local processes; ``ray``: the session's local Ray
    instance (skipped without the ray extra)."""
    if where == "ray":
        request.getfixturevalue("ray_instance")
        return RayBackend(workers=2)
    return local_backend(1 if where == "one" else 2)


BOTS = (Contestant("noisy", HeuristicBot, {"noise": "0.3"}), RANDOM)


def unit_results(unit: str, backend: Backend | None, count: int, stop: StopFlag | None) -> Any:
    """The duel's deals (or matches) as played on ``backend``."""
    if unit == "deals":
        return iter_deals(SixtySix(), BOTS, Seed(8), count, backend=backend, stop=stop)
    return iter_matches(Schnapsen(), BOTS, Seed(8), count, backend=backend, stop=stop)


def played_alone(unit: str, number: int) -> DealResult | DuelMatch:
    """Deal (match) ``number`` of that duel, played here by itself."""
    if unit == "deals":
        return play_duel_deal(SixtySix(), BOTS, Seed(8), number)
    return play_duel_match(Schnapsen(), BOTS, Seed(8), number)


def number(result: DealResult | DuelMatch) -> int:
    return result.deal if isinstance(result, DealResult) else result.match


def content(result: DealResult | DuelMatch) -> object:
    """What a deal or match gave, without the times per move (all that varies)."""
    if isinstance(result, DealResult):
        games = result.games
        return result.deal, [(g.seating, g.outcome, [len(t) for t in g.times]) for g in games]
    seatings = result.seatings
    return result.match, [(s.seating, s.totals, content(DealResult(0, s.games))) for s in seatings]


@pytest.mark.parametrize("where", ["two", "ray"])
@pytest.mark.parametrize(("unit", "count"), [("deals", 60), ("matches", 4)])
def test_every_backend_plays_the_units_of_one_process(
    where: str, unit: str, count: int, request: pytest.FixtureRequest
) -> None:
    here = sorted(map(content, unit_results(unit, None, count, None)), key=repr)
    with backend_named(where, request) as backend:
        there = sorted(map(content, unit_results(unit, backend, count, None)), key=repr)
    assert here == there and len(here) == count


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("where", ["one", "two", "ray"])
@pytest.mark.parametrize("unit", ["deals", "matches"])
def test_the_first_ctrl_c_keeps_every_finished_unit(
    where: str, unit: str, request: pytest.FixtureRequest
) -> None:
    """A real SIGINT once the first unit is in: nothing more is handed out, the work in
    progress finishes and is kept (units go out in order, so the kept ones are the first few,
    with no gap), and every unit kept is the one a single process plays."""
    kept: list[DealResult | DuelMatch] = []
    with backend_named(where, request) as backend, StopFlag() as stop:
        for result in unit_results(unit, backend, 1_000_000, stop):
            kept.append(result)
            if len(kept) == 1:
                os.kill(os.getpid(), signal.SIGINT)
    assert stop.requested
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    numbers = sorted(number(r) for r in kept)
    assert numbers == list(range(len(kept)))
    assert len(kept) == 1 if where == "one" else 1 <= len(kept) < 1_000_000
    for result in kept[:: max(1, len(kept) // 10)]:
        assert content(result) == content(played_alone(unit, number(result)))
