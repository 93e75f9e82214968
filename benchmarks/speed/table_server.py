"""One table server, N concurrent tables of scripted people: messages/s, latency, memory.

The script starts ``sixtysix serve`` as a subprocess on a free loopback port with a data
directory of its own, opens N tables — two-player 66 tables of two scripted people, and a share
of 66-4 tables of two people and two ``@random`` bots — all played to a target of 1000 so no
match ends during the run, and seats the people from a few client processes
(:class:`sixtysix.table.scripted.ScriptedPerson`, a legal action after a random delay). After a
warm-up it measures, for ``--seconds``:

- messages per second: every frame the clients sent and received;
- latency from a person's action being sent to every person at the table having its
  ``update`` (p50/p95/p99; bots' thinking is not in it: the update of a person's action comes
  before any bot replies), and to the actor's own update;
- the server's memory per table: the growth of its resident set (``/proc``) from before the
  tables were opened to its peak, divided by N; and its CPU use.

    python -m benchmarks.speed.table_server                        # N = 100 and 1,000
    python -m benchmarks.speed.table_server --tables 1000 --seconds 60 --delay 0.5 1.5

A scripted person thinks 2 to 6 seconds a move by default (a brisk person; ``--delay`` for a
stress test). The machine's CPU pressure (``/proc/pressure/cpu``) is printed beside the
figures: on a shared machine, other programs' load is in them.

With ``--screen`` every person is a browser page's client (it joins with ``"screen": true``),
and an action has reached a seat when the ``board`` that follows its update has: the page's
latency from a click to every seat's page having the card to draw.

    python -m benchmarks.speed.table_server --screen --tables 100 --delay 0.5 1.5

Exit status 1 when the largest N misses the target: p95 under 100 ms at 1,000 tables (at 100
tables with ``--screen``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sixtysix.table.scripted import LatencyBook, ScriptedPerson, create_table, list_tables

TARGET_TABLES = 1000
#: With browser pages (``--screen``): a played card on every page under 100 ms p95 at 100.
SCREEN_TABLES = 100
TARGET_P95_MS = 100.0
#: Match target: high enough that no match ends during a run.
LONG_MATCH = {"target": 1000}
TWO = ("66", ["human", "human"])
FOUR = ("66-4", ["human", "@random", "human", "@random"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def pressure_seconds() -> float:
    """The machine's CPU pressure so far (``/proc/pressure/cpu``, "some"): how long some
    runnable program waited for a CPU. On a shared machine, it says how loaded it was."""
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()
    except OSError:
        return float("nan")
    return int(some[-1].split("=")[1]) / 1e6


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """``sixtysix serve`` in a subprocess, its log in its data directory."""

    def __init__(self, data: Path, extra: list[str], prefix: list[str]) -> None:
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.data = data / "server"
        self.log = open(data / "server.log", "wb")  # noqa: SIM115 - closed in stop()
        command = [*prefix, "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--data", str(data / "server"), *extra]
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self.peak = 0
        #: (wall-clock time, the server's CPU seconds, the machine's CPU pressure seconds),
        #: sampled with the server's memory.
        self.cpu: list[tuple[float, float, float]] = []
        self._watching = True
        self._watch = threading.Thread(target=self._sample, daemon=True)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                asyncio.run(list_tables(self.url))
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not answer in time")

    def _sample(self) -> None:
        while self._watching:
            try:
                self.peak = max(self.peak, rss_bytes(self.proc.pid))
                pid = self.proc.pid
                self.cpu.append((time.time(), cpu_seconds(pid), pressure_seconds()))
            except (OSError, RuntimeError):
                return
            time.sleep(0.25)

    def watch(self) -> None:
        self._watch.start()

    def cpu_share(self, start: float, end: float) -> tuple[float, float]:
        """The server's share of a core between two wall-clock times, and the share of that
        time some program on the machine waited for a CPU (from the samples)."""
        inside = [s for s in self.cpu if start <= s[0] <= end]
        if len(inside) < 2:
            return float("nan"), float("nan")
        (t0, c0, w0), (t1, c1, w1) = inside[0], inside[-1]
        return (c1 - c0) / (t1 - t0), (w1 - w0) / (t1 - t0)

    def stop(self) -> None:
        self._watching = False
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


async def open_tables(
    url: str, n: int, four_share: float, operator: str | None = None
) -> list[tuple[str, int, str]]:
    """N tables (id, number of person seats, variant); every k-th a 66-4 table. Opened with
    the operator's token: a client's tables are rationed, the operator's are not."""
    every = round(1 / four_share) if four_share > 0 else 0
    kinds = [FOUR if every and i % every == every - 1 else TWO for i in range(n)]
    gate = asyncio.Semaphore(50)

    async def one(i: int, variant: str, seats: list[str]) -> tuple[str, int, str]:
        async with gate:
            table = await create_table(
                url, variant, seats, options=LONG_MATCH, seed=i, operator=operator
            )
        return table, seats.count("human"), variant

    return list(await asyncio.gather(*(one(i, v, s) for i, (v, s) in enumerate(kinds))))


@dataclass
class WorkerResult:
    people: int = 0
    joined: int = 0
    join_seconds: float = 0.0
    window: float = 0.0
    actions: int = 0
    #: Actions at the tables, bots' included (updates seen by each table's first person).
    table_actions: int = 0
    messages: int = 0
    table_latency: list[float] = field(default_factory=list)
    #: The worst table-wide latency of the actions sent in each second of the window.
    worst_by_second: list[float] = field(default_factory=list)
    own_latency: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    closed: dict[str, int] = field(default_factory=dict)
    #: This client process's CPU seconds in the window, and how late its event loop woke.
    cpu: float = 0.0
    lag: list[float] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0


async def loop_lag(samples: list[float], every: float = 0.05) -> None:
    """How late the event loop runs a timer: the clients' own share of the latency."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + every
        await asyncio.sleep(every)
        samples.append(loop.time() - due)


async def play(
    url: str, tables: list[tuple[str, int, str]], args: dict[str, Any], worker: int
) -> WorkerResult:
    rng = random.Random(args["seed"] * 1000 + worker)
    book = LatencyBook()
    people = [
        ScriptedPerson(
            url,
            table,
            f"w{worker}t{i}s{k}",
            delay=(args["delay"][0], args["delay"][1]),
            rng=random.Random(rng.random()),
            book=book,
            compression=args["compression"],
            open_timeout=60,
            screen=args.get("screen", False),
        )
        for i, (table, persons, _variant) in enumerate(tables)
        for k in range(persons)
    ]
    seat_index = [k for _table, persons, _variant in tables for k in range(persons)]
    result = WorkerResult(people=len(people))
    gate = asyncio.Semaphore(100)
    tasks: list[asyncio.Task[None]] = []
    start = time.perf_counter()

    async def seat(p: ScriptedPerson) -> None:
        async with gate:
            task = asyncio.create_task(p.run())
            tasks.append(task)
            joined = asyncio.create_task(p.joined.wait())
            await asyncio.wait([task, joined], timeout=60, return_when=asyncio.FIRST_COMPLETED)
            joined.cancel()

    await asyncio.gather(*(seat(p) for p in people))
    result.join_seconds = time.perf_counter() - start
    result.joined = sum(p.joined.is_set() for p in people)
    book.record_from = time.perf_counter() + args["warmup"]
    await asyncio.sleep(args["warmup"])
    # What was timed while seating and warming up goes; later actions sent before
    # record_from are not timed.
    book.table_latency.clear()
    book.sent_at.clear()
    for p in people:
        p.own_latency.clear()
    actions0 = sum(p.actions for p in people)
    firsts = [p for p, k in zip(people, seat_index, strict=True) if k == 0]
    updates0 = sum(p.updates for p in firsts)
    messages0 = sum(p.messages_in + p.messages_out for p in people)
    t0, cpu0, result.started = time.perf_counter(), time.process_time(), time.time()
    ticker = asyncio.create_task(loop_lag(result.lag))
    await asyncio.sleep(args["seconds"])
    ticker.cancel()
    result.window = time.perf_counter() - t0
    result.cpu = time.process_time() - cpu0
    result.ended = time.time()
    result.actions = sum(p.actions for p in people) - actions0
    result.table_actions = sum(p.updates for p in firsts) - updates0
    result.messages = sum(p.messages_in + p.messages_out for p in people) - messages0
    result.table_latency = list(book.table_latency)
    worst = [0.0] * (int(result.window) + 1)
    for sent, latency in zip(book.sent_at, book.table_latency, strict=True):
        second = int(sent - t0)
        if 0 <= second < len(worst):
            worst[second] = max(worst[second], latency)
    result.worst_by_second = worst
    result.own_latency = [x for p in people for x in p.own_latency]
    for p in people:
        for code in p.errors:
            result.errors[code] = result.errors.get(code, 0) + 1
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for p in people:
        if p.close_code not in (None, 1000):
            key = f"{p.close_code} {p.close_reason}"
            result.closed[key] = result.closed.get(key, 0) + 1
    return result


def worker_main(url: str, tables: list[tuple[str, int, str]], args: dict[str, Any], worker: int,
                out: Any) -> None:  # fmt: skip
    try:
        result = asyncio.run(play(url, tables, args, worker))
        out.put(json.dumps(result.__dict__))
    except BaseException as exc:  # reported by the parent, which must not wait forever
        out.put(json.dumps({"failed": f"{type(exc).__name__}: {exc}"}))


def quantile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(n: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sixtysix-bench-", dir=args.data_root) as tmp:
        server = Server(Path(tmp), args.server_arg, shlex.split(args.server_command))
        try:
            server.wait_ready()
            base_rss = rss_bytes(server.proc.pid)
            server.watch()
            t = time.perf_counter()
            token = (server.data / "operator.token").read_text().strip()
            tables = asyncio.run(open_tables(server.url, n, args.four_share, token))
            open_seconds = time.perf_counter() - t
            ctx = mp.get_context("spawn")
            out = ctx.Queue()
            shares = [tables[w :: args.workers] for w in range(args.workers)]
            conf = {
                "delay": args.delay,
                "seconds": args.seconds,
                "warmup": args.warmup,
                "seed": args.seed,
                "compression": None if args.compression == "none" else args.compression,
                "screen": args.screen,
            }
            procs = [
                ctx.Process(target=worker_main, args=(server.url, share, conf, w, out))
                for w, share in enumerate(shares)
            ]
            for p in procs:
                p.start()
            raw = [json.loads(out.get(timeout=args.seconds + args.warmup + 600)) for _ in procs]
            for p in procs:
                p.join()
            peak = max(server.peak, rss_bytes(server.proc.pid))
            done = [r for r in raw if "failed" not in r]
            cpu, waited = server.cpu_share(
                max((r["started"] for r in done), default=0.0),
                min((r["ended"] for r in done), default=0.0),
            )
        finally:
            server.stop()
    failed = [r["failed"] for r in raw if "failed" in r]
    if failed:
        raise RuntimeError("a client process failed: " + "; ".join(failed))
    results = [WorkerResult(**r) for r in raw]
    window = statistics.mean(r.window for r in results)
    table_lat = [x for r in results for x in r.table_latency]
    own_lat = [x for r in results for x in r.own_latency]
    lag = [x for r in results for x in r.lag]
    errors: dict[str, int] = {}
    closed: dict[str, int] = {}
    for r in results:
        for k, v in r.errors.items():
            errors[k] = errors.get(k, 0) + v
        for k, v in r.closed.items():
            closed[k] = closed.get(k, 0) + v
    return {
        "screen": args.screen,
        "tables": n,
        "four_player_tables": sum(1 for *_, variant in tables if variant == FOUR[0]),
        "people": sum(r.people for r in results),
        "joined": sum(r.joined for r in results),
        "open_seconds": open_seconds,
        "join_seconds": max(r.join_seconds for r in results),
        "window": window,
        "actions_per_second": sum(r.actions for r in results) / window,
        "table_actions_per_second": sum(r.table_actions for r in results) / window,
        "messages_per_second": sum(r.messages for r in results) / window,
        "table_ms": {q: 1000 * quantile(table_lat, p) for q, p in QUANTILES},
        "own_ms": {q: 1000 * quantile(own_lat, p) for q, p in QUANTILES},
        "samples": len(table_lat),
        "window_start": max(r.started for r in results),
        "window_end": min(r.ended for r in results),
        "server_cpu": cpu,
        "server_waited": waited,
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
        "server_ms_per_action": 1000 * cpu * window / max(1, sum(r.table_actions for r in results)),
        "client_cpu": [r.cpu / r.window for r in results],
        "client_lag_ms": {q: 1000 * quantile(lag, p) for q, p in QUANTILES},
        "rss_base_mb": base_rss / 2**20,
        "rss_peak_mb": peak / 2**20,
        "kib_per_table": (peak - base_rss) / n / 1024,
        "errors": errors,
        "closed": closed,
        "worst_ms_by_second": [
            round(1000 * max(ws), 1)
            for ws in zip(*(r.worst_by_second for r in results), strict=False)
        ],
    }


QUANTILES = (("p50", 0.50), ("p95", 0.95), ("p99", 0.99))


def report(r: dict[str, Any]) -> None:
    t, o = r["table_ms"], r["own_ms"]
    print(
        f"{r['tables']} tables ({r['four_player_tables']} of 66-4),"
        f" {r['joined']}/{r['people']} people seated"
        f" (tables opened in {r['open_seconds']:.1f} s, seated in {r['join_seconds']:.1f} s)"
    )
    print(
        f"  {r['window']:.0f} s measured: {r['actions_per_second']:.0f} people's actions/s"
        f" ({r['table_actions_per_second']:.0f} with the bots'),"
        f" {r['messages_per_second']:.0f} messages/s, {r['samples']} actions timed"
    )
    reached = "board" if r.get("screen") else "update"
    print(
        f"  action -> every seat's {reached}: p50 {t['p50']:.1f} ms, p95 {t['p95']:.1f} ms,"
        f" p99 {t['p99']:.1f} ms (to the actor's own: p50 {o['p50']:.1f}, p95 {o['p95']:.1f})"
    )
    print(
        f"  server: {100 * r['server_cpu']:.0f}% of a core, RSS {r['rss_base_mb']:.0f} MB ->"
        f" {r['rss_peak_mb']:.0f} MB, {r['kib_per_table']:.0f} KiB per table,"
        f" {r['server_ms_per_action']:.2f} ms of CPU per action"
    )
    print(
        f"  machine: CPU pressure {100 * r['server_waited']:.0f}% (some program waited for a"
        f" CPU that share of the time), load average {r['load']}"
    )
    lag = r["client_lag_ms"]
    print(
        "  clients: " + ", ".join(f"{100 * c:.0f}%" for c in r["client_cpu"]) + " of a core;"
        f" their event loops late by p50 {lag['p50']:.1f} ms, p95 {lag['p95']:.1f} ms"
    )
    if r["errors"] or r["closed"]:
        print(f"  errors {r['errors']}, abnormal closes {r['closed']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, action="append", help="N (repeatable)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="after seating, not measured")
    parser.add_argument(
        "--delay", type=float, nargs=2, default=[2.0, 6.0], metavar=("LO", "HI"),
        help="a scripted person's thinking time, uniform in seconds (a brisk person)",
    )  # fmt: skip
    parser.add_argument("--four-share", type=float, default=0.2, help="share of 66-4 tables")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument(
        "--compression", choices=("deflate", "none"), default="deflate",
        help="what the clients offer (the server decides)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--data-root", help="where the server's data directory goes (default: the temp dir;"
        " /dev/shm takes the disk's fsync out of the figures)",
    )  # fmt: skip
    parser.add_argument(
        "--server-arg", action="append", default=[], help="an extra option for sixtysix serve"
    )
    parser.add_argument(
        "--server-command", default=f"{shlex.quote(sys.executable)} -m sixtysix",
        help="how to run sixtysix for the server (a profiler in front, say)",
    )  # fmt: skip
    parser.add_argument(
        "--screen", action="store_true",
        help="seat browser pages (join with screen): an action reaches a seat with its board;"
        " the target is then 100 tables",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    target_tables = SCREEN_TABLES if args.screen else TARGET_TABLES
    sizes = args.tables or ([target_tables] if args.screen else [100, TARGET_TABLES])
    results = []
    for n in sizes:
        r = run(n, args)
        results.append(r)
        report(r)
    if args.json:
        print(json.dumps(results, indent=2))
    last = results[-1]
    ok = last["tables"] >= target_tables and last["table_ms"]["p95"] < TARGET_P95_MS
    verdict = "met" if ok else "MISSED"
    if last["tables"] < target_tables:
        verdict = f"not measured (largest run: {last['tables']} tables)"
    print(f"target: {target_tables} tables with p95 under {TARGET_P95_MS:.0f} ms:", verdict)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
