"""A simulation run: what one chunk of games does in a worker, and the driver around it.

:func:`play_sim_chunk` is the kernel the backends run. It plays games ``start..stop-1`` (by
the compiled rules when they apply), totals them into a :class:`Summary` and, when the run
writes output, encodes their rows; only those small totals and the encoded rows travel back.
:func:`run_simulation` hands the chunks out, writes the rows as they arrive, merges the totals
and keeps everything finished when the run is stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sixtysix.bots.external import match_over
from sixtysix.bots.seating import bot_seats
from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.sim.backends import Backend, StopFlag
from sixtysix.sim.chunks import ChunkPlan, missing_intervals
from sixtysix.sim.errors import OutputError
from sixtysix.sim.games import BotSpec, GameResult, play_game, seat_bots
from sixtysix.sim.output import Resumed, RowEncoder, open_sink
from sixtysix.sim.resume import load_for_resume
from sixtysix.sim.rows import RunInfo, bot_label, output_kind, require_pyarrow
from sixtysix.sim.simulate import Summary, fast_path

#: Largest seed the Parquet ``seed`` column (int64) holds.
_INT64_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class SimJob:
    """Everything a worker needs to play any game of a run (sent by pickle)."""

    variant: Variant
    bots: tuple[BotSpec, ...]
    master: Seed
    use_fast: bool = True
    encoder: RowEncoder | None = None

    @property
    def fast(self) -> bool:
        """Whether the compiled rules play these games."""
        return self.use_fast and fast_path(self.variant, self.bots) is not None

    def info(self, bot_names: list[str] | None = None) -> RunInfo:
        """The run-level fields of this job's rows."""
        names = bot_names or [cls.name for cls, _ in self.bots]
        return RunInfo(
            self.variant.name,
            self.variant.options.diff(),
            self.master.value,
            tuple(bot_label(n, p) for n, (_, p) in zip(names, self.bots, strict=True)),
        )


@dataclass
class SimChunk:
    """What a worker sends back for games ``start..stop-1``."""

    start: int
    stop: int
    seconds: float
    summary: Summary
    payload: Any = None
    #: CPU seconds the worker spent (unlike ``seconds``, not inflated by a busy machine).
    cpu_seconds: float = 0.0


def play_games(job: SimJob, start: int, stop: int) -> tuple[list[GameResult], list[float]]:
    """Games ``start..stop-1`` and the seconds each took (a batch's mean on the fast path)."""
    fast = fast_path(job.variant, job.bots) if job.use_fast else None
    if fast is not None:
        t0 = time.perf_counter()
        results = fast.results(job.master, start, stop)
        each = (time.perf_counter() - t0) / max(1, stop - start)
        return results, [each] * len(results)
    results = []
    durations = []
    clock = time.perf_counter
    for i in range(start, stop):
        t0 = clock()
        results.append(play_game(job.variant, job.bots, job.master, i))
        durations.append(clock() - t0)
    return results, durations


def play_sim_chunk(job: SimJob, start: int, stop: int) -> SimChunk:
    """The kernel: play, total and (if asked) encode games ``start..stop-1``."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    summary = Summary(job.variant.seats)
    fast = fast_path(job.variant, job.bots) if job.use_fast else None
    if fast is not None and job.encoder is None:
        for reason, game_points, count in fast.tallies(job.master, start, stop):
            summary.add_game(reason, game_points, count)
        return SimChunk(
            start, stop, time.perf_counter() - t0, summary, None, time.process_time() - c0
        )
    results, durations = play_games(job, start, stop)
    summary.add_outcomes(r.outcome for r in results)
    summary.add_faults(f for r in results for f in r.faults)
    payload = None
    if job.encoder is not None:
        master = job.master
        if master.reproducible:
            keys: list[str | None] = [None] * len(results)
        else:
            keys = [master.child(("game", r.index)).key.hex() for r in results]
        payload = job.encoder.encode(results, durations, keys)
    return SimChunk(
        start, stop, time.perf_counter() - t0, summary, payload, time.process_time() - c0
    )


@dataclass(frozen=True)
class MatchJob:
    """Whole matches to the target: match ``m`` draws from ``master.child(("match", m))``."""

    variant: Variant
    bots: tuple[BotSpec, ...]
    master: Seed


def play_match_chunk(job: MatchJob, start: int, stop: int) -> SimChunk:
    """The matches kernel: ``wins`` counts match wins, the rest totals every deal."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    summary = Summary(job.variant.seats)
    for m in range(start, stop):
        seed = job.master.child(("match", m))
        bots = seat_bots(job.bots, seed)
        result = play_match(job.variant, bot_seats(bots, direct=False), seed, faults=True)
        match_over(bots, result.totals, result.winners)
        summary.add_faults(result.faults)
        summary.games += 1
        for outcome in result.outcomes:
            summary.add_deal(str(outcome.reason), outcome.game_points)
        for s in result.winners:
            summary.wins[s] += 1
    return SimChunk(
        start, stop, time.perf_counter() - t0, summary, cpu_seconds=time.process_time() - c0
    )


def run_matches(
    job: MatchJob,
    matches: int,
    backend: Backend,
    stop: StopFlag,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> RunReport:
    """Play matches ``0..matches-1`` on ``backend``; stopped runs keep the finished ones.

    ``progress`` and ``on_start`` as for :func:`run_simulation` (nothing is resumed here).
    """
    summary = Summary(job.variant.seats)
    report = RunReport(summary, backend=backend.name)
    plan = ChunkPlan([(0, matches)], first=1, max_size=1024, workers=backend.workers)
    start = time.perf_counter()
    if on_start is not None:
        on_start(0)
    try:
        with closing(backend.run(play_match_chunk, job, plan, stop)) as chunks:
            for chunk in chunks:
                summary.merge(chunk.summary)
                report.played += chunk.stop - chunk.start
                report.worker_seconds += chunk.seconds
                report.worker_cpu_seconds += chunk.cpu_seconds
                if progress is not None:
                    progress(chunk.stop - chunk.start)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        report.seconds = summary.elapsed = time.perf_counter() - start
        report.workers = backend.workers
    report.interrupted = report.interrupted or stop.requested
    return report


def chunk_plan(job: SimJob, todo: list[tuple[int, int]], workers: int) -> ChunkPlan:
    """Chunks of about half a second: whole batches on the fast path, a few games at first on
    the generic one (whose bots may take anything from microseconds to seconds a game)."""
    if job.fast:
        return ChunkPlan(todo, first=2048, min_size=1024, max_size=16_384, workers=workers)
    return ChunkPlan(todo, first=4, min_size=1, max_size=4096, workers=workers)


@dataclass
class RunReport:
    """How a run went: totals over every game (those resumed included) and what was done."""

    summary: Summary
    played: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    workers: int = 1
    backend: str = "local"
    dropped_bytes: int = 0
    out: str | None = None
    #: Seconds the workers spent on the chunks (summed over workers), wall clock and CPU.
    worker_seconds: float = 0.0
    worker_cpu_seconds: float = 0.0

    @property
    def rate(self) -> float | None:
        """Games per second played by this run (resumed games excluded)."""
        return self.played / self.seconds if self.seconds > 0 else None


def prepare_output(
    job: SimJob, out: Path, resume: bool, games: int, info: RunInfo, summary: Summary
) -> tuple[SimJob, Resumed | None]:
    """Check the output file and, for ``resume``, read what it holds into ``summary``."""
    kind = output_kind(out)
    if kind == "parquet":
        require_pyarrow()
        if info.seed is not None and not -_INT64_MAX - 1 <= info.seed <= _INT64_MAX:
            raise OutputError("Parquet stores the seed as a 64-bit integer; use a smaller --seed")
    resumed = None
    if out.exists():
        if not resume:
            raise OutputError(f"{out} already exists: add --resume to continue it, or remove it")
        resumed = load_for_resume(out, info, games, summary)
    encoder = RowEncoder(info, kind)
    job = SimJob(job.variant, job.bots, job.master, job.use_fast, encoder)
    return job, resumed


def run_simulation(
    job: SimJob,
    games: int,
    backend: Backend,
    stop: StopFlag,
    out: Path | None = None,
    resume: bool = False,
    bot_names: list[str] | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> RunReport:
    """Play games ``0..games-1`` (those not already in ``out`` when resuming).

    ``on_start`` is told how many games were already done, as the run's clock starts (a
    progress bar's rate then means what :attr:`RunReport.rate` means); ``progress`` how many
    finished with each chunk. When ``stop`` is requested (Ctrl-C) the running chunks
    finish and are kept; an abort (a second Ctrl-C) keeps what had arrived. Either way the
    output file is closed properly and the report says ``interrupted``.
    """
    summary = Summary(job.variant.seats)
    info = job.info(bot_names)
    resumed: Resumed | None = None
    if out is not None:
        job, resumed = prepare_output(job, out, resume, games, info, summary)
    elif resume:
        raise OutputError("--resume needs --out FILE: the file to continue")
    done = resumed.done if resumed else bytearray(games)
    report = RunReport(summary, resumed=resumed.count if resumed else 0, backend=backend.name)
    report.out = None if out is None else str(out)
    report.dropped_bytes = resumed.dropped_bytes if resumed else 0
    plan = chunk_plan(job, missing_intervals(games, done), backend.workers)
    sink = None if out is None else open_sink(out, output_kind(out), resumed)
    start = time.perf_counter()
    if on_start is not None:
        on_start(report.resumed)
    try:
        with closing(backend.run(play_sim_chunk, job, plan, stop)) as chunks:
            for chunk in chunks:
                if sink is not None:
                    sink.write(chunk.payload)
                summary.merge(chunk.summary)
                report.played += chunk.stop - chunk.start
                report.worker_seconds += chunk.seconds
                report.worker_cpu_seconds += chunk.cpu_seconds
                if progress is not None:
                    progress(chunk.stop - chunk.start)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        if sink is not None:
            sink.close()
        report.seconds = time.perf_counter() - start
        summary.elapsed = report.seconds
        report.workers = backend.workers
    report.interrupted = report.interrupted or stop.requested
    return report
