"""Parallel runs give the same games as one process, and stopping keeps every finished game."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import Registry
from sixtysix.sim.backends import BoundPool, LocalBackend, StopFlag, _pool_context
from sixtysix.sim.jobs import MatchJob, SimJob, run_matches, run_simulation
from sixtysix.sim.simulate import BotSpec, play_game
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from tests.sim.bots_for_tests import CloserBot, FirstBot
from tests.sim.conftest import rows_of

RANDOM2: tuple[BotSpec, ...] = ((RandomBot, {}), (RandomBot, {}))


def run_rows(job: SimJob, games: int, workers: int | None, out: Path) -> list[dict[str, object]]:
    with StopFlag() as stop, LocalBackend(workers) as backend:
        report = run_simulation(job, games, backend, stop, out=out)
    assert not report.interrupted and report.played == games
    if workers is not None:
        assert report.workers == workers
    return rows_of(out)


def test_fast_path_rows_do_not_depend_on_workers(tmp_path: Path) -> None:
    job = SimJob(SixtySix(), RANDOM2, Seed(11))
    one = run_rows(job, 6000, 1, tmp_path / "one.jsonl")
    two = run_rows(job, 6000, 2, tmp_path / "two.jsonl")
    assert one == two
    assert [r["index"] for r in one] == list(range(6000))


def test_generic_path_gives_the_fast_paths_games(tmp_path: Path) -> None:
    fast = run_rows(SimJob(Schnapsen(), RANDOM2, Seed(2)), 800, 1, tmp_path / "f.jsonl")
    slow = run_rows(
        SimJob(Schnapsen(), RANDOM2, Seed(2), use_fast=False), 800, 2, tmp_path / "s.jsonl"
    )
    assert fast == slow


def test_test_bots_play_the_same_games_in_worker_processes(tmp_path: Path) -> None:
    bots: tuple[BotSpec, ...] = ((FirstBot, {}), (RandomBot, {"seed": "4"}))
    job = SimJob(SixtySix(), bots, Seed(5))
    pooled = run_rows(job, 400, 2, tmp_path / "p.jsonl")
    here = [play_game(SixtySix(), bots, Seed(5), i) for i in range(400)]
    assert [
        (r["dealer"], r["reason"], r["game_points"], r["points"], r["tricks"]) for r in pooled
    ] == [
        (
            g.dealer,
            str(g.outcome.reason),
            *map(list, (g.outcome.game_points, g.outcome.points, g.outcome.tricks)),
        )
        for g in here
    ]
    assert pooled[0]["bots"] == ["first", "random:seed=4"]


def test_a_small_automatic_run_stays_in_this_process() -> None:
    job = SimJob(SixtySix(), RANDOM2, Seed(1))
    with StopFlag() as stop, LocalBackend(None) as backend:
        report = run_simulation(job, 500, backend, stop)
    assert report.workers == 1 and report.summary.games == 500


@pytest.mark.parametrize("workers", [1, 2])
def test_stopping_keeps_exactly_the_finished_games(tmp_path: Path, workers: int) -> None:
    """Ctrl-C (the stop request) lets running chunks finish; the file and totals agree."""
    job = SimJob(SixtySix(), ((CloserBot, {}), (RandomBot, {})), Seed(8))
    full = run_rows(job, 1500, 1, tmp_path / "full.jsonl")
    out = tmp_path / "stopped.jsonl"
    with StopFlag() as stop, LocalBackend(workers) as backend:

        def progress(k: int) -> None:
            stop.request()

        report = run_simulation(job, 1500, backend, stop, out=out, progress=progress)
    assert report.interrupted
    rows = rows_of(out)
    assert 0 < len(rows) == report.summary.games == report.played < 1500
    assert rows == [full[int(str(r["index"]))] for r in rows]


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_a_real_sigint_stops_the_run_cleanly(tmp_path: Path) -> None:
    job = SimJob(SixtySix(), RANDOM2, Seed(3), use_fast=False)
    out = tmp_path / "sig.jsonl"
    with StopFlag() as stop, LocalBackend(1) as backend:
        report = run_simulation(
            job,
            5000,
            backend,
            stop,
            out=out,
            progress=lambda k: os.kill(os.getpid(), signal.SIGINT),
        )
    assert report.interrupted and stop.requested
    assert len(rows_of(out)) == report.summary.games < 5000
    # The handler is restored afterwards.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_sigint_stays_ignored(tmp_path: Path) -> None:
    """Started with SIGINT ignored (a background job), a run does not turn it back on."""
    job = SimJob(SixtySix(), RANDOM2, Seed(3), use_fast=False)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with StopFlag() as stop, LocalBackend(1) as backend:
            report = run_simulation(
                job, 1500, backend, stop, progress=lambda k: os.kill(os.getpid(), signal.SIGINT)
            )
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert not report.interrupted and not stop.requested
    assert report.summary.games == 1500


def _reports_sigint(queue: Any) -> None:
    queue.put(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_pool_workers_ignore_sigint_from_their_start() -> None:
    """A Ctrl-C while a worker starts must not kill it before the pool's initializer runs
    (that broke the pool: a traceback and exit 1), so a worker starts with SIGINT ignored."""
    ctx = _pool_context()
    queue = ctx.SimpleQueue()
    worker = ctx.Process(target=_reports_sigint, args=(queue,))  # type: ignore[attr-defined]
    worker.start()
    ignored = queue.get()
    worker.join()
    assert ignored is True and worker.exitcode == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_abort_keeps_what_had_arrived(tmp_path: Path) -> None:
    """A second Ctrl-C raises KeyboardInterrupt: workers end, the file is still consistent."""
    job = SimJob(SixtySix(), RANDOM2, Seed(3), use_fast=False)
    out = tmp_path / "abort.jsonl"
    calls = []

    def progress(k: int) -> None:
        calls.append(k)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with StopFlag() as stop, LocalBackend(2) as backend:
        report = run_simulation(job, 20_000, backend, stop, out=out, progress=progress)
    assert report.interrupted
    assert len(rows_of(out)) == report.summary.games == sum(calls)


def _sleeps(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_an_aborted_pool_ends_its_workers_and_its_queue_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Work queued behind busy workers is dropped, the workers end, and the pool's own thread
    raises nothing. (Cancelling the queued futures from this thread while the workers died made
    that thread fail on them: ``InvalidStateError``, a traceback on a duel's Ctrl-C.)"""
    failures: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda a: failures.append(repr(a.exc_value)))
    for _ in range(3):
        pool = BoundPool(2, mp_context=_pool_context())
        futures = [pool.submit(_sleeps, 0.4) for _ in range(8)]
        time.sleep(0.2)
        processes = list(pool._processes.values())  # type: ignore[union-attr]
        pool.abort()
        assert all(f.done() for f in futures)
        assert sum(f.cancelled() for f in futures) >= 3  # the queue, behind two busy workers
        assert not any(p.is_alive() for p in processes)
    assert failures == []


def test_matches_do_not_depend_on_workers(test_registry: Registry) -> None:
    job = MatchJob(SixtySix.configure("classic"), RANDOM2, Seed(4))
    totals = []
    for workers in (1, 2):
        with StopFlag() as stop, LocalBackend(workers) as backend:
            report = run_matches(job, 12, backend, stop)
        s = report.summary
        totals.append((s.games, s.deals, s.wins, s.game_points, s.game_points_sq, s.reasons))
    assert totals[0] == totals[1]
    assert totals[0][0] == 12 and sum(totals[0][2]) >= 12
