"""Parallel efficiency of ``sixtysix duel`` on Ray against local processes.

Plays one duel (by default ``sixtysix duel 66 heuristic random --deals 60000 --seed 1``, about a
minute in one process) three ways through the duel's own driver,
:func:`sixtysix.sim.duel.run_units` with the kernel of ``sixtysix duel`` (of ``sixtysix duel
--matches`` with ``--matches``):

* ``local, 1 worker``: in this process, one unit after another (the serial time);
* ``local, N workers``: the local process pool of ``sixtysix duel --workers N``;
* ``ray, N CPUs``: a local Ray instance started with N CPUs (its start-up timed apart, as
  ``sixtysix duel`` leaves it out of its own seconds);

checks that the three gave the very same deals (or matches), and prints the parallel
efficiency ``serial / (N * time)`` of each and Ray's time against the local pool's; beside
them the chunks handed out, the seconds the workers spent in the kernel against the serial
run's (``work vs serial``: what a unit costs more in a worker), the same by the workers' CPU
clocks (``CPU vs serial``, which other load on the machine hardly moves), the workers' CPU time
over their kernel seconds (``CPU share``: below 100% when other load took the CPUs), this
process's own CPU seconds beside the units (``driver CPU s``), and the serial run's CPU seconds
over this run's, workers and driver together (``CPU efficiency``: the most the wall-clock
efficiency can reach on idle CPUs, which the workers' start, the wait for the last chunks and
Ray's own processes lower further; other load hardly moves it). Exit status 1 when Ray's
efficiency is below ``--target`` (0.9).

    python -m benchmarks.speed.ray_duel
    python -m benchmarks.speed.ray_duel --deals 300 --a @hard --b @medium
    python -m benchmarks.speed.ray_duel --matches 40 --a @hard --b @medium --variant 66
    python -m benchmarks.speed.ray_duel --skip-serial 61.2     # reuse a serial time

Wall-clock figures: run on an otherwise idle machine (the load average is printed first).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.speed._local_ray import start_local_ray, stop_local_ray
from sixtysix.bots.levels import resolve_player
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.backends import Backend, LocalBackend, RayBackend, available_cpus
from sixtysix.sim.duel import (
    Contestant,
    DuelChunk,
    DuelGame,
    DuelJob,
    local_backend,
    play_duel_chunk,
    run_units,
)
from sixtysix.sim.match_duel import MatchChunk, play_match_chunk


@dataclass(frozen=True)
class Timed:
    """A chunk of the duel as a worker played it, with the worker's CPU seconds for it."""

    start: int
    stop: int
    seconds: float
    cpu: float
    chunk: DuelChunk | MatchChunk


def timed_deals(job: DuelJob, start: int, stop: int) -> Timed:
    """The duel's own deal kernel, timed by the worker's CPU clock too."""
    cpu = time.process_time()
    chunk = play_duel_chunk(job, start, stop)
    return Timed(start, stop, chunk.seconds, time.process_time() - cpu, chunk)


def timed_matches(job: DuelJob, start: int, stop: int) -> Timed:
    """The duel's own match kernel, timed by the worker's CPU clock too."""
    cpu = time.process_time()
    chunk = play_match_chunk(job, start, stop)
    return Timed(start, stop, chunk.seconds, time.process_time() - cpu, chunk)


@dataclass(frozen=True)
class Run:
    """One way of playing the duel: wall seconds; the chunks, their seconds and CPU seconds
    in the workers; this process's CPU seconds; and the units' results in unit order without
    the times per move (the one thing that differs)."""

    seconds: float
    chunks: int
    work: float
    work_cpu: float
    driver_cpu: float
    found: list[object]

    @property
    def cpu(self) -> float:
        """CPU seconds of the workers' units and of this process beside them."""
        return self.work_cpu + self.driver_cpu

    @property
    def share(self) -> float:
        """The workers' CPU time over their wall time: below 1 when other load took CPUs."""
        return self.work_cpu / self.work if self.work else 1.0


def play(args: argparse.Namespace, contestants: Sequence[Contestant], backend: Backend) -> Run:
    """The duel played on ``backend`` by :func:`~sixtysix.sim.duel.run_units`, as ``sixtysix
    duel`` plays it."""
    variant = get_registry().variant(args.variant)()
    job = DuelJob(variant, tuple(contestants), Seed(args.seed))
    kernel = timed_matches if args.matches else timed_deals
    cpu = time.process_time()
    start = time.perf_counter()
    chunks = list(run_units(kernel, job, args.matches or args.deals, 1, backend))
    seconds = time.perf_counter() - start
    driver = time.process_time() - cpu
    found: list[object] = []
    for timed in sorted(chunks, key=lambda t: t.start):
        chunk = timed.chunk
        if isinstance(chunk, MatchChunk):
            found.extend(
                (m.match, [(s.seating, s.totals, s.winners, _games(s.games)) for s in m.seatings])
                for m in chunk.matches
            )
        else:
            found.extend((d.deal, _games(d.games)) for d in chunk.deals)
    work = sum(t.seconds for t in chunks)
    work_cpu = sum(t.cpu for t in chunks)
    if isinstance(backend, LocalBackend) and backend.workers == 1:
        driver -= work_cpu  # the units were played in this process: not the driver's own work
    return Run(seconds, len(chunks), work, work_cpu, driver, found)


def _games(games: Sequence[DuelGame]) -> list[object]:
    return [(g.seating, g.outcome, g.faults, [len(t) for t in g.times]) for g in games]


def idle_share(seconds: float) -> float | None:
    """The share of every CPU's time spent idle over the next ``seconds`` (None off Linux)."""

    def idle_total() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return fields[3] + fields[4], sum(fields)

    if not Path("/proc/stat").exists():
        return None
    idle0, total0 = idle_total()
    time.sleep(seconds)
    idle1, total1 = idle_total()
    return (idle1 - idle0) / max(1, total1 - total0)


def wait_for_idle(share: float, limit: float) -> float | None:
    """Wait (at most ``limit`` seconds) until the CPUs were idle ``share`` of 3 seconds;
    the share last seen."""
    deadline = time.monotonic() + limit
    seen = idle_share(3.0)
    while seen is not None and seen < share and time.monotonic() < deadline:
        seen = idle_share(3.0)
    return seen


def on_ray(args: argparse.Namespace, contestants: Sequence[Contestant], workers: int) -> Run:
    """The duel on a local Ray instance of ``workers`` CPUs started for it (not timed)."""
    print(f"    {start_local_ray(workers)}")
    try:
        return play(args, contestants, RayBackend(workers=workers))
    finally:
        stop_local_ray()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", default="66")
    parser.add_argument("--a", default="heuristic", help="bot A (default heuristic)")
    parser.add_argument("--b", default="random", help="bot B (default random)")
    parser.add_argument("--deals", type=int, default=60_000, help="deals (default 60,000)")
    parser.add_argument("--matches", type=int, default=0, help="whole matches instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="pool size (every CPU)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds, the fastest run kept")
    parser.add_argument(
        "--wait-idle",
        type=float,
        default=None,
        metavar="SHARE",
        help="before each run, wait until the CPUs were idle this share of 3 s (e.g. 0.9)",
    )
    parser.add_argument(
        "--wait-limit", type=float, default=1800.0, help="the longest wait for idle CPUs (s)"
    )
    parser.add_argument(
        "--skip-serial", type=float, default=None, metavar="SECONDS", help="a known serial time"
    )
    parser.add_argument("--no-local", action="store_true", help="skip the local pool")
    parser.add_argument("--target", type=float, default=0.9, help="efficiency target (0.9)")
    args = parser.parse_args(argv)
    workers = args.workers or available_cpus()
    reg = get_registry()
    variant = reg.variant(args.variant)()
    contestants = [
        Contestant(*resolve_player(s, reg, seats=variant.seats)) for s in (args.a, args.b)
    ]
    unit = f"{args.matches} matches" if args.matches else f"{args.deals} deals"
    if hasattr(os, "getloadavg"):
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load average before the run: {load} (figures need otherwise idle CPUs)")
    print(
        f"Python {platform.python_version()}, {available_cpus()} CPUs available; duel"
        f" {variant.name} {args.a} {args.b}, {unit}, seed {args.seed}, best of {args.repeat}"
    )
    ways: list[tuple[str, Callable[[], Run]]] = []
    if args.skip_serial is None:
        ways.append(("local, 1 worker", lambda: play(args, contestants, local_backend(1))))
    if not args.no_local:
        ways.append(
            (f"local, {workers} workers", lambda: play(args, contestants, local_backend(workers)))
        )
    ways.append((f"ray, {workers} CPUs", lambda: on_ray(args, contestants, workers)))
    best: dict[str, Run] = {}
    for round_ in range(args.repeat):
        for label, way in ways:
            idle = (
                None if args.wait_idle is None else wait_for_idle(args.wait_idle, args.wait_limit)
            )
            found = way()
            note = "" if idle is None else f", CPUs {100 * idle:.0f}% idle just before"
            print(f"  round {round_ + 1}, {label}: {found.seconds:.2f} s{note}", flush=True)
            if label not in best or found.seconds < best[label].seconds:
                best[label] = found
    rows = list(best.items())
    serial = rows[0][1].seconds if args.skip_serial is None else args.skip_serial
    pool = None if args.no_local else best[f"local, {workers} workers"]
    ray_run = best[f"ray, {workers} CPUs"]
    print("Ray's start-up is not counted, as `sixtysix duel` leaves it out of its seconds.")
    if args.skip_serial is not None:
        print(f"  serial time given: {serial:.2f} s")
    print(
        f"  {'':<22}{'wall s':>9}{'units/s':>10}{'efficiency':>12}{'chunks':>8}"
        f"{'work vs serial':>16}{'CPU vs serial':>15}{'CPU share':>11}{'driver CPU s':>14}"
        f"{'CPU efficiency':>16}"
    )
    count = args.matches or args.deals
    base = rows[0][1] if args.skip_serial is None else None
    for label, run in rows:
        n = 1 if label == "local, 1 worker" else workers
        efficiency = serial / (n * run.seconds)
        work = "-" if base is None else f"{100 * (run.work / base.work - 1):+.1f}%"
        cpu = "-" if base is None else f"{100 * (run.work_cpu / base.work_cpu - 1):+.1f}%"
        spent = "-" if base is None else f"{100 * base.cpu / run.cpu:.1f}%"
        print(
            f"  {label:<22}{run.seconds:>9.2f}{count / run.seconds:>10.1f}"
            f"{100 * efficiency:>11.1f}%{run.chunks:>8}{work:>16}{cpu:>15}"
            f"{100 * run.share:>10.0f}%{run.driver_cpu:>14.2f}{spent:>16}"
        )
    if ray_run.share < 0.9:
        print(
            f"  NOTE: Ray's workers got only {100 * ray_run.share:.0f}% of their CPUs (other load"
            " on the machine); the efficiency above measures that, not the backend"
        )
    if pool is not None:
        print(f"  ray time / local pool time: {ray_run.seconds / pool.seconds:.3f}")
    same = len({repr(run.found) for _, run in rows}) == 1
    print(f"  results identical in every run: {'yes' if same else 'NO'}")
    efficiency = serial / (workers * ray_run.seconds)
    return 0 if same and efficiency >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
