"""The ceiling's yardstick (``_all_seeing.py``, ``_share.py``, ``ceiling.py``): that it sees
what its figures in ``docs/benchmarks.md`` claim, and nothing a bot could use.

Run by ``pytest -q benchmarks/strength`` (outside the main test run, as ``test_told.py``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

import sixtysix.sim.duel as duel
from benchmarks.strength import _all_seeing, _share, _watched, ceiling, ladder
from benchmarks.strength._split import ExpertAt
from sixtysix.bots.base import Bot
from sixtysix.bots.levels import resolve_player
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.players.heuristic import HeuristicBot, decide
from sixtysix.bots.players.table_play import is_call
from sixtysix.bots.search.solver import EXACT, Solver, fast_copy
from sixtysix.cli import cli
from sixtysix.core.actions import CLOSE
from sixtysix.core.cards import iter_mask
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.match import play_deal
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant, deal_path, iter_deals
from sixtysix.sim.match_duel import iter_matches
from sixtysix.sim.stats import Estimate


def make(name: str) -> Variant:
    return get_registry().variant(name)()


@pytest.fixture(autouse=True)
def nothing_watched() -> Iterator[None]:
    yield
    _watched._CURRENT[0] = None


# ------------------------------------------------------------------ it sees the true deal


def played_to(variant: Variant, seed: int, cards_left: int, close: bool) -> DealState | None:
    """A deal of ``seed`` played by the rule player until the seat to act holds at most
    ``cards_left`` cards and has a choice (with ``close``: the talon closed at the first
    chance, so that the talon's cards stay hidden); None if it never comes to that."""
    state = variant.new_deal(variant.deal(Seed(seed), ("twin",), 0))
    bots = [HeuristicBot(s, Seed(s)) for s in range(variant.seats)]
    while state.phase != Phase.OVER:
        legal = state.legal_actions()
        seat = state.to_act
        if close and CLOSE in legal:
            state.apply_legal(CLOSE)
            continue
        ready = state.phase == Phase.PLAY and state.hands[seat].bit_count() <= cards_left
        if ready and len(legal) > 1 and (not close or state.closed_by >= 0):
            return state
        state.apply(bots[seat].choose(state.view(seat)))
    return None


def twins(state: DealState) -> Iterator[DealState]:
    """The same position with two hidden cards swapped: the seat to act sees no difference."""
    seat = state.to_act
    known = 0
    for k in state.known:
        known |= k
    places = [s for s in range(state.n) if s != seat]
    for p, q in itertools.combinations(places, 2):
        for x in iter_mask(state.hands[p] & ~known):
            for y in iter_mask(state.hands[q] & ~known):
                twin = fast_copy(state)
                twin.hands[p] ^= (1 << x) | (1 << y)
                twin.hands[q] ^= (1 << x) | (1 << y)
                yield twin
    if state.closed_by >= 0:  # two players: a card of the hidden hand against the talon's
        other = places[0]
        for x in iter_mask(state.hands[other] & ~known):
            for i, y in enumerate(state.talon):
                twin = fast_copy(state)
                twin.hands[other] ^= (1 << x) | (1 << y)
                twin.talon[i] = x
                yield twin


def exact_best(state: DealState) -> int | None:
    """The one best action of the seat to act on this very deal, solved exactly (None: a tie)."""
    values = Solver(state.to_act).action_values(fast_copy(state), EXACT)
    top = max(values.values())
    best = [a for a, v in values.items() if v == top]
    return best[0] if len(best) == 1 else None


def all_seeing_choice(state: DealState) -> int:
    """What the all-seeing player plays, told (as :class:`~_watched.Watched` tells it)
    that ``state`` is the game being played."""
    _watched._CURRENT[0] = state
    player = _all_seeing.AllSeeing(state.to_act, Seed(1))
    return int(player.choose(state.view(state.to_act)))


@pytest.mark.parametrize(("name", "cards_left", "close"), [("66-3", 3, False), ("66", 4, True)])
def test_the_move_depends_on_the_hidden_cards_and_it_finds_it(
    name: str, cards_left: int, close: bool
) -> None:
    """Two deals the seat to act cannot tell apart, whose one best move differs: the
    all-seeing player plays each deal's own best move."""
    variant = make(name)
    for seed in range(200):
        state = played_to(variant, seed, cards_left, close)
        if state is None:
            continue
        here = exact_best(state)
        if here is None:
            continue
        for twin in twins(state):
            there = exact_best(twin)
            if there is None or there == here:
                continue
            assert twin.view(twin.to_act) == state.view(state.to_act)
            assert all_seeing_choice(state) == here
            assert all_seeing_choice(twin) == there
            return
    pytest.fail("no position whose best move depends on the hidden cards")


def test_it_refuses_a_view_of_another_game() -> None:
    """Asked without the true state of the view's game, it raises rather than guess."""
    variant = make("66-3")
    state = variant.new_deal(variant.deal(Seed(2), ("x",), 0))
    other = variant.new_deal(variant.deal(Seed(2), ("x",), 1))
    player = _all_seeing.AllSeeing(state.to_act, Seed(1))
    with pytest.raises(RuntimeError, match="no watched game"):
        player.choose(state.view(state.to_act))
    _watched._CURRENT[0] = other
    with pytest.raises(RuntimeError, match="no watched game"):
        player.choose(state.view(state.to_act))


@pytest.mark.parametrize("name", ["66-3", "66-4"])
def test_a_play_out_of_the_level_below_replays_the_true_deal(name: str) -> None:
    """``level=2`` plays whole deals (its own moves in the play-outs by level 1, on the
    play-out's true state): every answer legal, the deal played to its end."""
    variant = make(name)
    state = _watched.Watched(variant).new_deal(variant.deal(Seed(4), ("x",), 0))
    players: list[Bot] = [_all_seeing.AllSeeing(0, Seed(1), {"level": "2"})]
    players += [HeuristicBot(s, Seed(s)) for s in range(1, variant.seats)]
    while state.phase != Phase.OVER:
        state.apply(players[state.to_act].choose(state.view(state.to_act)))
    assert state.outcome is not None


# ------------------------------------------------------------------ never a bot


def test_the_all_seeing_player_is_not_a_registered_bot() -> None:
    assert _all_seeing.AllSeeing.name not in get_registry().bots
    with pytest.raises(UnknownBotError):
        resolve_player(_all_seeing.AllSeeing.name, get_registry(), seats=2)
    result = CliRunner().invoke(cli, ["bots"])
    assert result.exit_code == 0
    assert "expert" in result.output and "all-seeing" not in result.output


# ------------------------------------------------------------------ the same deals


def test_watched_deals_the_variant_s_own_deals() -> None:
    variant = make("66-4")
    watched = _watched.Watched(variant)
    assert watched.name == variant.name and watched.seats == variant.seats
    for d in range(5):
        setup = watched.deal(Seed(7), deal_path(d), d % 4)
        assert setup == variant.deal(Seed(7), deal_path(d), d % 4)
        state = watched.new_deal(setup)
        assert _watched._CURRENT[0] is state
        assert state.variant is variant


def test_the_ceiling_and_the_bots_play_the_same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every duel of ``ceiling.py`` (the heuristic against itself, the ceiling, each bot)
    plays the same deals in the same seatings, the ceiling's games the duel's own."""
    seen: list[DealSetup] = []
    real = play_deal

    def spy(state: DealState, *args: Any, **kwargs: Any) -> Outcome:
        seen.append(state.setup)
        return real(state, *args, **kwargs)

    monkeypatch.setattr(duel, "play_deal", spy)
    assert ceiling.main(["66-3", "--deals", "2", "--seed", "3", "--bots", "@easy"]) == 0
    games = len(seen) // 3
    assert games == 2 * 6
    runs = [seen[k * games : (k + 1) * games] for k in range(3)]
    assert runs[0] == runs[1] == runs[2]
    variant = make("66-3")
    dealt = [variant.deal(Seed(3), deal_path(d), d % 3) for d in range(2) for _ in range(6)]
    assert runs[0] == dealt


def test_the_ceiling_s_duel_is_the_duel_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """On ``Watched``, a duel of two ordinary bots is the very duel played without it."""
    variant = make("66-3")
    bots = [Contestant("h", HeuristicBot), Contestant("e", HeuristicBot, {"noise": "0.5"})]
    plain = list(iter_deals(variant, bots, Seed(5), 2))
    watched = list(iter_deals(_watched.Watched(variant), bots, Seed(5), 2))
    assert [g.outcome for r in plain for g in r.games] == [
        g.outcome for r in watched for g in r.games
    ]


# ------------------------------------------------------------------ the share of the way


def figures(rows: list[tuple[float, float]]) -> dict[int, _share.DealFigures]:
    return {d: _share.DealFigures(d, w, p) for d, (w, p) in enumerate(rows)}


def test_the_share_of_the_way_on_made_up_figures() -> None:
    assert _share.share(0.55, 0.5, 0.6) == pytest.approx(0.5)
    assert _share.share(0.45, 0.5, 0.6) == pytest.approx(-0.5)
    assert _share.share(0.7, 0.5, 0.6) == pytest.approx(2.0)
    assert _share.share(0.5, 0.5, 0.5) is None
    base = figures([(0.5, 0.0)] * 40)
    top = figures([(0.7, 1.0), (0.5, 0.6)] * 20)  # mean 0.6 and +0.8
    bot = figures([(0.6, 0.4), (0.5, 0.0)] * 20)  # mean 0.55 and +0.2
    won = _share.share_of_way(bot, base, top, "won", seed=1)
    points = _share.share_of_way(bot, base, top, "points", seed=1)
    assert won.estimate == pytest.approx(0.5)
    assert points.estimate == pytest.approx(0.25)
    for s in (won, points):
        assert s.low is not None and s.high is not None
        assert s.low <= s.estimate <= s.high  # type: ignore[operator]
    assert points.high < 0.5  # type: ignore[operator]


def test_a_share_uses_only_the_deals_all_three_finished() -> None:
    base = figures([(0.5, 0.0)] * 4)
    top = figures([(1.0, 2.0)] * 4)
    bot = {d: f for d, f in figures([(0.75, 1.0), (0.75, 1.0), (0.0, -2.0)]).items() if d < 2}
    s = _share.share_of_way(bot, base, top, "points", resamples=0)
    assert s.estimate == pytest.approx(0.5)
    assert s.low is None and s.text() == "50%"


def test_no_way_to_go_gives_no_share() -> None:
    same = figures([(0.5, 0.0)] * 10)
    s = _share.share_of_way(same, same, same, "won")
    assert s.estimate is None and s.text() == "n/a"


def test_bot_lists_split_at_the_commas_between_bots() -> None:
    assert ceiling.split_bots("expert:samples=8,margin=0,@hard, heuristic") == [
        "expert:samples=8,margin=0",
        "@hard",
        "heuristic",
    ]
    assert ceiling.split_bots("") == []


def test_a_bad_bot_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        ceiling.main(["66-3", "--bots", "nosuchbot"])
    assert exc.value.code == 2
    assert "nosuchbot" in capsys.readouterr().err


def test_per_match_figures_are_the_seated_matches_won() -> None:
    """In matches, a share is resampled by match: each match's figure is the share of its
    seatings' matches the bot won (a made-up bot, always winning, wins all of them)."""
    variant = make("66-3")
    bots = [Contestant("h", HeuristicBot), Contestant("e", HeuristicBot, {"noise": "1"})]
    matches = list(iter_matches(variant, bots, Seed(2), 2))
    found = _share.per_match(matches)
    assert sorted(found) == [0, 1]
    for m in matches:
        won = [s.winner for s in m.seatings]
        assert found[m.match].won == pytest.approx(won.count(0) / len(won))
    assert sum(f.won for f in found.values()) > 1  # the rule player beats a random one


def test_a_ladder_step_is_clear_only_when_its_interval_is() -> None:
    close = ladder.Step("hard", "medium", "matches", 100, 55, 45, 1.0, 1.0)
    far = ladder.Step("hard", "medium", "matches", 100, 70, 28, 1.0, 1.0)
    assert close.rate.value == pytest.approx(0.55) and not close.clear
    assert far.clear and far.decided.value == pytest.approx(70 / 98)
    assert far.as_json()["clear_of_half"] is True


def test_the_ladder_plays_only_the_steps_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.main(["66", "--matches", "1", "--steps", "@medium", "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert [(s["upper"], s["lower"], s["unit"]) for s in steps] == [("medium", "easy", "matches")]
    with pytest.raises(SystemExit) as exc:
        ladder.main(["66", "--steps", "easy"])
    assert exc.value.code == 2 and "--steps names upper levels" in capsys.readouterr().err


def test_a_step_cut_short_by_ctrl_c_keeps_its_finished_matches(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def one_then_ctrl_c(*args: Any, **kwargs: Any) -> Iterator[object]:
        yield next(iter_matches(*args, **kwargs))
        raise KeyboardInterrupt

    monkeypatch.setattr(ladder, "iter_matches", one_then_ctrl_c)
    assert ladder.main(["66", "--matches", "3", "--steps", "medium,hard", "--json"]) == 130
    out = capsys.readouterr()
    (cut,) = json.loads(out.out)["steps"]
    assert (cut["upper"], cut["results"], cut["interrupted"]) == ("medium", 2, True)
    assert out.err.strip() == "interrupted: 0 steps finished"


def test_the_ladder_on_ray_gives_the_local_results(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    args = ["66", "--matches", "1", "--deals", "4", "--steps", "medium", "--json"]
    found = []
    for where in (["--jobs", "2"], ["--backend", "ray", "--jobs", "2"]):
        assert ladder.main([*args, *where]) == 0
        steps = json.loads(capsys.readouterr().out)["steps"]
        for s in steps:
            del s["seconds"], s["median_ms_upper"]
        found.append(steps)
    assert found[0] == found[1] and len(found[0]) == 2


def test_the_ladder_takes_an_address_only_for_ray(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        ladder.main(["66", "--address", "127.0.0.1:1"])
    assert exc.value.code == 2 and "--address is only for --backend ray" in capsys.readouterr().err


# ------------------------------------------------------------------ the ceiling's edge, split


def split_positions(name: str) -> Iterator[DealState]:
    """Positions of rule-player deals with a choice: calls and card play alike."""
    variant = make(name)
    for seed in range(6):
        state = variant.new_deal(variant.deal(Seed(seed), ("split",), seed % variant.seats))
        bots = [HeuristicBot(s, Seed(s)) for s in range(variant.seats)]
        while state.phase != Phase.OVER:
            if len(state.legal_actions()) > 1:
                yield state
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))


@pytest.mark.parametrize("name", ["66-3", "66-4"])
def test_the_split_players_look_only_where_they_are_told(name: str) -> None:
    """``sees=calls`` is the all-seeing player at the calls and the rule player elsewhere,
    ``sees=play`` the other way round; ``ExpertAt`` splits the expert alike."""
    calls = plays = 0
    for state in split_positions(name):
        view = state.view(state.to_act)
        call = is_call(view)
        calls += call
        plays += not call
        if not call and plays % 4:
            continue  # every call, a quarter of the card play: enough, and quick
        rule = int(decide(view))
        full = all_seeing_choice(state)
        for sees, looks in (("calls", call), ("play", not call)):
            player = _all_seeing.AllSeeing(state.to_act, Seed(1), {"sees": sees})
            assert int(player.choose(view)) == (full if looks else rule)
        light = {"calls": "12", "crowd": "6"}
        expert = int(ExpertBot(state.to_act, Seed(3), light).choose(view))
        for at, looks in (("calls", call), ("play", not call)):
            split = ExpertAt(state.to_act, Seed(3), {**light, "at": at})
            assert int(split.choose(view)) == (expert if looks else rule)
    assert calls and plays


def test_the_splits_refuse_unknown_parts_and_two_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(UnknownBotError, match="sees must be one of all, calls, play"):
        _all_seeing.AllSeeing(0, Seed(1), {"sees": "cards"})
    with pytest.raises(UnknownBotError, match="at must be one of calls, play"):
        ExpertAt(0, Seed(1), {"at": ""})
    with pytest.raises(SystemExit) as exc:
        ceiling.main(["66", "--parts", "--deals", "1"])
    assert exc.value.code == 2
    assert "--parts needs three or four players" in capsys.readouterr().err


def test_a_run_too_small_for_an_interval_still_reports(capsys: pytest.CaptureFixture[str]) -> None:
    """One deal whose games all end alike has no interval on its game points: the line gives
    the figure alone (it raised a TypeError)."""
    assert ceiling.main(["66-3", "--deals", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "heuristic (itself)" in out and "+0.000 game points per deal" in out
    assert ceiling.points(Estimate(0.25, None, None)) == "+0.250"
    assert ceiling.points(Estimate(0.25, 0.1, 0.4)) == "+0.250 (+0.100 to +0.400)"
