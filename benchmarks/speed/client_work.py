"""What a table server's client can make it do: the cost of the requests a stranger may send.

- ``standings``: one club standings read (``ServerStandings.club``) over a database of N
  results, and the write of a table's result (which that table's next save waits for) while two
  threads read the standings without pause, against the same write with nobody reading;
- ``undo``: a test table's take-back (``service.undo.take_back``, run on the server's event
  loop), at every decision of random play in every built-in variant: mean and worst.

    python -m benchmarks.speed.client_work                       # 200,000 results
    python -m benchmarks.speed.client_work --results 1000000 --deals 50

Exit status 1 when a result's write beside the readers waits more than 250 ms at the median
(the readers must not hold up a table), or a take-back's worst passes 50 ms.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.service.undo import last_action, take_back
from sixtysix.table.standings_db import ServerStandings

WRITE_TARGET = 0.25
TAKE_BACK_TARGET = 0.05


def filled(path: Path, results: int) -> ServerStandings:
    """A server's standings holding ``results`` rows of 5,000 names."""
    book = ServerStandings(path)
    book.add("seed", "sixtysix", "@hard", 2, 0, "finished", 1, 3, [7, 2])
    conn = sqlite3.connect(path)
    width = len(list(conn.execute("PRAGMA table_info(server_results)")))
    row = conn.execute("SELECT * FROM server_results").fetchone()
    rows = [(None, *row[1:2], f"k{i % 5000}", f"p{i % 5000}", *row[4:]) for i in range(results)]
    conn.executemany(f"INSERT INTO server_results VALUES ({','.join('?' * width)})", rows)
    conn.commit()
    conn.close()
    return book


def timed(work: Callable[[], object], times: int) -> list[float]:
    out = []
    for _ in range(times):
        start = time.perf_counter()
        work()
        out.append(time.perf_counter() - start)
    return out


def standings(results: int) -> tuple[float, float, float]:
    """(one club read, a write beside two readers at the median, a write alone at the
    median), in seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        book = filled(Path(tmp) / "server.sqlite3", results)

        def write() -> None:
            book.add("ayse", "sixtysix", "@hard", 2, 0, "finished", 1, 3, [7, 2])

        read = min(timed(lambda: book.club(None, None, "p7", 500), 3))
        stop = threading.Event()

        def reader() -> None:
            while not stop.is_set():
                book.club(None, None, None, 500)

        readers = [threading.Thread(target=reader) for _ in range(2)]
        for thread in readers:
            thread.start()
        time.sleep(0.3)
        beside = statistics.median(timed(write, 10))
        stop.set()
        for thread in readers:
            thread.join()
        alone = statistics.median(timed(write, 10))
    return read, beside, alone


def take_backs(deals: int) -> list[float]:
    """Seconds of every take-back at every decision of ``deals`` random deals per variant."""
    registry = get_registry()
    out: list[float] = []
    for name in ("66", "schnapsen", "66-3", "66-4"):
        variant = registry.variant(name)()
        for number in range(deals):
            state = variant.new_deal(variant.deal(Seed(number), ("deal", 0), 0))
            rnd = random.Random(number)
            while not state.is_over:
                if last_action(state, state.to_act) is not None:
                    stream = Seed(number).stream(("take-back",))
                    start = time.perf_counter()
                    take_back(state, state.to_act, stream)
                    out.append(time.perf_counter() - start)
                state.apply(rnd.choice(state.legal_actions()))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=200_000, help="rows in the standings")
    parser.add_argument("--deals", type=int, default=30, help="random deals per variant")
    args = parser.parse_args(argv)
    read, beside, alone = standings(args.results)
    print(f"standings of {args.results:,} results: one club read {read * 1000:.0f} ms;")
    print(
        f"  a result's write beside two readers {beside * 1000:.0f} ms at the median,"
        f" alone {alone * 1000:.0f} ms"
    )
    backs = take_backs(args.deals)
    worst = max(backs)
    print(
        f"take-backs: {len(backs):,} at every decision of {args.deals} deals a variant:"
        f" mean {statistics.mean(backs) * 1000:.2f} ms, worst {worst * 1000:.1f} ms"
    )
    met = beside <= WRITE_TARGET and worst <= TAKE_BACK_TARGET
    print(
        f"targets: a write beside readers under {WRITE_TARGET * 1000:.0f} ms, a take-back under"
        f" {TAKE_BACK_TARGET * 1000:.0f} ms: {'met' if met else 'missed'}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
