"""Rated games: the move timer on an injected clock, no undo or hints, leaving the table,
and the standings (RULES.md "Play on the Portal")."""

from __future__ import annotations

from pathlib import Path

import pytest

from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import Replay, replay
from sixtysix.core.rng import Seed
from sixtysix.play.session import Ending
from sixtysix.service.standings import Standings, leaving_score, match_score
from sixtysix.service.timer import MoveTimer
from tests.play.conftest import REGISTRY, make_session, make_variant
from tests.play.scripted import (
    AutoInput,
    FakeClock,
    Interrupt,
    RecordingScreen,
    ScriptedInput,
    Wait,
)


def test_timer_counts_down_and_warns_once_in_the_last_ten_seconds() -> None:
    clock = FakeClock()
    timer = MoveTimer(30, clock)
    assert timer.poll() == (30, False, False)
    assert timer.poll() is None  # nothing changed
    clock.advance(19.5)
    assert timer.poll() == (11, False, False)
    clock.advance(1)
    assert timer.poll() == (10, True, True)  # the warning begins: ring once
    clock.advance(1)
    assert timer.poll() == (9, True, False)
    clock.advance(9)
    assert timer.expired() and timer.poll() == (0, False, False)


@pytest.mark.parametrize(
    ("totals", "seat", "score"),
    [
        ([7, 3], 0, 1),
        ([3, 7], 0, -1),
        ([7, 7], 1, 0),  # a drawn two-player match
        ([16, 9, 4], 0, 1),  # sole first
        ([16, 9, 4], 1, 0),  # in between
        ([16, 9, 4], 2, -1),  # sole last
        ([16, 16, 4], 0, 0),  # shared first
        ([16, 4, 4], 2, -1),  # shared last
        ([16, 10, 8, 8], 1, 0),
        ([16, 10, 8, 8], 3, -1),
    ],
)
def test_match_scores(totals: list[int], seat: int, score: int) -> None:
    assert match_score(totals, seat) == score


def test_leaving_scores() -> None:
    assert leaving_score([0, 0], 0, 0) == -1  # in the first deal: a loss
    assert leaving_score([3, 1], 1, 0) is None  # sole leader on completed deals: no score
    assert leaving_score([3, 3], 2, 0) == -1  # shared lead: a loss
    assert leaving_score([1, 3], 2, 0) == -1
    assert leaving_score([4, 4, 1], 3, 2) == -1


def test_standings_database(tmp_path: Path) -> None:
    book = Standings(tmp_path / "s.sqlite3")
    assert book.table() == []
    for score in (1, 1, -1, 0, None):
        book.add(
            variant="sixtysix",
            level="expert",
            seats=2,
            seat=0,
            ending="finished" if score is not None else "left",
            score=score,
            deals=3,
            totals=[7, 2],
        )
    book.add(
        variant="schnapsen",
        level="hard",
        seats=2,
        seat=1,
        ending="left",
        score=-1,
        deals=0,
        totals=[0, 0],
    )
    rows = {(r.variant, r.level): r for r in book.table()}
    s = rows[("sixtysix", "expert")]
    assert (s.games, s.wins, s.draws, s.losses, s.unscored, s.score) == (5, 2, 1, 1, 1, 1)
    assert rows[("schnapsen", "hard")].score == -1
    assert [r.variant for r in book.table("schnapsen")] == ["schnapsen"]


def rated(variant_name: str, steps: list[object], clock: FakeClock, **kw: object):
    variant = make_variant(variant_name, **kw.pop("options", {}))  # type: ignore[arg-type]
    screen = RecordingScreen()
    book = Standings()
    session = make_session(
        variant,
        ScriptedInput(steps, clock),  # type: ignore[arg-type]
        screen,
        rated=True,
        move_time=60,
        clock=clock,
        standings=book,
        **kw,  # type: ignore[arg-type]
    )
    return session, screen, book


def test_rated_game_refuses_undo_and_hints_and_warns_before_leaving() -> None:
    clock = FakeClock()
    steps = ["undo", "hint", "quit", "n", "1", "quit", "y"]
    session, screen, book = rated("sixtysix", steps, clock)
    result = session.run()
    assert "No take-backs in rated games." in screen.said
    assert "No hints in rated games." in screen.said
    warnings = [s for s in screen.said if s.startswith("Leaving a rated game")]
    assert len(warnings) == 2  # the first quit warned and was declined, "1" was played
    assert screen.said.count("Playing on.") == 1
    assert "it would count as a loss (-1)" in warnings[0]
    assert result.ending is Ending.LEFT and result.score == -1
    [row] = book.table()
    assert (row.games, row.losses, row.score) == (1, 1, -1)


def test_running_out_of_time_leaves_the_table() -> None:
    clock = FakeClock()
    session, screen, book = rated("schnapsen", [Wait(45), "zz", Wait(20)], clock)
    result = session.run()
    assert result.ending is Ending.TIMED_OUT and result.score == -1
    assert "Time is up: you have left the table." in screen.said
    seconds = [c[0] for c in screen.countdowns]
    assert seconds[0] == 60 and 15 in seconds and 0 in seconds
    assert [c for c in screen.countdowns if c[2]] == [(10, True, True)]  # one bell, at 10 s
    assert all(w for s, w, _ in screen.countdowns if 0 < s <= 10)
    assert not any(w for s, w, _ in screen.countdowns if s > 10)
    assert book.table()[0].score == -1


def test_a_move_typed_after_the_time_is_up_does_not_count() -> None:
    class Slow(ScriptedInput):
        def read(self, prompt, view, tick):  # type: ignore[no-untyped-def]
            self.clock.advance(61)  # the line arrives late, without ticks in between
            return "1"

    clock = FakeClock()
    variant = make_variant("sixtysix")
    screen = RecordingScreen()
    session = make_session(variant, Slow([], clock), screen, rated=True, move_time=60, clock=clock)
    result = session.run()
    assert result.ending is Ending.TIMED_OUT
    assert session.record.deals[0].actions == [] or all(
        s != 0 for s, _ in session.record.deals[0].actions
    )


def test_the_timer_restarts_for_every_move() -> None:
    clock = FakeClock()
    person = AutoInput(seed=3, mistakes=False)

    class Thinker:
        def read(self, prompt, view, tick):  # type: ignore[no-untyped-def]
            for _ in range(50):  # 50 s per move: never out of time with 60 s a move
                clock.advance(1)
                assert not tick()
            return person.read(prompt, view, tick)

    variant = make_variant("sixtysix", target=1)
    session = make_session(
        variant,
        Thinker(),
        RecordingScreen(),
        rated=True,
        move_time=60,
        clock=clock,
        standings=Standings(),
    )
    result = session.run()
    assert result.ending is Ending.FINISHED
    assert result.score == match_score(result.totals, 0)
    [row] = Standings().table()
    assert row.score == result.score and row.games == 1


def test_ctrl_c_and_end_of_input_leave_a_rated_table() -> None:
    for steps, interrupted in ((["1", Interrupt()], True), (["1"], False)):
        clock = FakeClock()
        session, _screen, _ = rated("sixtysix", list(steps), clock)
        result = session.run()
        assert result.ending is Ending.LEFT and result.score == -1
        assert result.interrupted is interrupted  # Ctrl-C: the command exits with 130


def _after_one_deal(winner_wanted: int) -> tuple[Replay, list[int]]:
    """A rated match's first deal played out by random bots, where seat 0 led (or not)."""
    variant = make_variant("sixtysix")
    bots = [REGISTRY.bot("random")(s, Seed(s)) for s in range(2)]
    for k in range(200):
        setup = variant.deal(Seed(k), ("deal", 0), 1)
        state = variant.new_deal(setup)
        while not state.is_over:
            state.apply(bots[state.to_act].choose(state.view(state.to_act)))
        assert state.outcome is not None
        gp = state.outcome.game_points
        if (winner_wanted == 0 and gp[0] > gp[1]) or (winner_wanted == 1 and gp[1] > gp[0]):
            record = Record(variant.name, {}, None, [DealRecord(setup, state.history)])
            return replay(load_record_text(record.dumps()), REGISTRY), list(gp)
    raise AssertionError("no such deal")


def test_leaving_later_while_sole_leader_is_not_scored() -> None:
    done, _gp = _after_one_deal(winner_wanted=0)
    clock = FakeClock()
    session, screen, book = rated("sixtysix", ["quit", "y"], clock, resume=done)
    result = session.run()
    assert result.ending is Ending.LEFT and result.score is None
    assert "You led on the completed deals: the match is not scored." in screen.said
    [row] = book.table()
    assert (row.games, row.unscored, row.score) == (1, 1, 0)


def test_leaving_later_while_behind_is_a_loss() -> None:
    done, _ = _after_one_deal(winner_wanted=1)
    clock = FakeClock()
    session, _screen, book = rated("sixtysix", [Wait(61)], clock, resume=done)
    result = session.run()
    assert result.ending is Ending.TIMED_OUT and result.score == -1
    assert book.table()[0].losses == 1


def test_turkish_countdown_and_leaving_messages() -> None:
    clock = FakeClock()
    session, screen, _ = rated("sixtysix", [Wait(61)], clock, lang="tr")
    session.run()
    assert "Süre doldu: masadan kalktın." in screen.said
