"""Big runs stay small: one row and ``--resume`` of a ten-million-game file, and simulate's memory.

Builds (or reuses, by path) the output of ``sixtysix simulate 66 --games N --seed S --out FILE``
as Parquet and as JSON Lines, then measures, each in its own process, the wall time and the
peak memory (the largest resident set of the process and its workers, from ``wait4``) of

- ``sixtysix replay --from FILE --game 123 --json`` and of a game near the end of the file;
- ``sixtysix simulate ... --resume`` on the finished file (nothing left to play), and on a copy
  of the Parquet file with 1,000 games more to play (its rows are copied into the new file);
- ``sixtysix simulate 66 --games G --seed S --out FILE.parquet`` at two sizes (memory must not
  grow with the number of games).

Targets (issue 20), on the Parquet file of ten million games: one row back in under 2 s, the
resume of the finished file in under 10 s, peak memory under 500 MB for both. The script exits
with status 1 if one is missed. Figures are wall-clock and depend on other load on the machine.

    python -m benchmarks.speed.big_runs --dir /tmp/bigruns
    python -m benchmarks.speed.big_runs --games 1000000 --jsonl-games 200000 \
        --sim-sizes 50000 200000
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROW_SECONDS = 2.0
RESUME_SECONDS = 10.0
PEAK_MB = 500.0
#: Games added to a copy of the finished Parquet file.
ADDED = 1000
#: The larger simulate run may use at most this much more memory than the smaller.
FLAT_RATIO = 1.25


@dataclass
class Measure:
    what: str
    command: list[str]
    seconds: float
    peak_mb: float
    target: str = ""
    ok: bool | None = None


def measured(what: str, args: list[str]) -> Measure:
    """Run ``sixtysix ARGS`` in a child process; its wall time and peak resident memory."""
    command = [sys.executable, "-m", "sixtysix", *args]
    start = time.perf_counter()
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(command, stdout=devnull, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        _, status, usage = os.wait4(proc.pid, 0)
        errors = proc.stderr.read().decode(errors="replace")
    seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(args)} failed with status {code}: {errors.strip()}")
    return Measure(what, ["sixtysix", *args], seconds, usage.ru_maxrss / 1024)


def check(m: Measure, seconds: float) -> Measure:
    m.target = f"< {seconds:g} s, < {PEAK_MB:g} MB"
    m.ok = m.seconds < seconds and m.peak_mb < PEAK_MB
    return m


def build(path: Path, games: int, seed: int) -> Measure | None:
    """Write the file unless it is there already (then reused as it is)."""
    if path.exists():
        print(f"reusing {path}", file=sys.stderr)
        return None
    print(f"building {path} ({games:,} games)...", file=sys.stderr)
    args = ["simulate", "66", "--games", str(games), "--seed", str(seed), "--out", str(path)]
    return measured(f"build {path.suffix[1:]}", [*args, "--no-progress"])


def file_measures(path: Path, games: int, seed: int, targets: bool) -> list[Measure]:
    out = [m for m in [build(path, games, seed)] if m is not None]
    kind = path.suffix[1:]
    for game in (123, games - 7):
        m = measured(
            f"one row ({kind}, game {game:,})",
            ["replay", "--from", str(path), "--game", str(game), "--json"],
        )
        out.append(check(m, ROW_SECONDS) if targets else m)
    args = ["simulate", "66", "--games", str(games), "--seed", str(seed), "--out", str(path)]
    m = measured(f"resume finished ({kind})", [*args, "--resume", "--no-progress"])
    out.append(check(m, RESUME_SECONDS) if targets else m)
    if kind == "parquet":
        # Adding games to a Parquet file copies the rows already there (no target).
        copy = path.with_name("resume-copy.parquet")
        shutil.copyfile(path, copy)
        more = str(games + ADDED)
        args = ["simulate", "66", "--games", more, "--seed", str(seed), "--out", str(copy)]
        out.append(
            measured(
                f"resume adding {ADDED:,} games (parquet)", [*args, "--resume", "--no-progress"]
            )
        )
        copy.unlink()
    return out


def simulate_measures(directory: Path, sizes: list[int], seed: int) -> list[Measure]:
    out = []
    for games in sizes:
        path = directory / f"sim-{games}.parquet"
        path.unlink(missing_ok=True)
        args = ["simulate", "66", "--games", str(games), "--seed", str(seed), "--out", str(path)]
        out.append(measured(f"simulate {games:,} games", [*args, "--no-progress"]))
        path.unlink()
    small, large = out[0], out[-1]
    large.target = f"peak <= {FLAT_RATIO:g} x {small.peak_mb:.0f} MB"
    large.ok = large.peak_mb <= FLAT_RATIO * small.peak_mb
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000, help="games in the Parquet file")
    parser.add_argument("--jsonl-games", type=int, default=None, help="in the JSON Lines file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/sixtysix-big-runs"))
    parser.add_argument("--parquet", type=Path, help="reuse this file (default: DIR/games-N)")
    parser.add_argument("--jsonl", type=Path, help="reuse this file (default: DIR/games-N)")
    parser.add_argument("--no-jsonl", action="store_true", help="skip the JSON Lines file")
    parser.add_argument("--sim-sizes", type=int, nargs=2, default=[100_000, 1_000_000])
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    jsonl_games = args.jsonl_games or args.games
    parquet = args.parquet or args.dir / f"games-{args.games}.parquet"
    measures = file_measures(parquet, args.games, args.seed, targets=True)
    if not args.no_jsonl:
        jsonl = args.jsonl or args.dir / f"games-{jsonl_games}.jsonl"
        measures += file_measures(jsonl, jsonl_games, args.seed, targets=False)
    measures += simulate_measures(args.dir, args.sim_sizes, args.seed)
    print("| measure | wall time | peak memory | target | met | command |")
    print("|---|---|---|---|---|---|")
    for m in measures:
        met = "" if m.ok is None else ("yes" if m.ok else "**no**")
        print(
            f"| {m.what} | {m.seconds:.2f} s | {m.peak_mb:.0f} MB | {m.target} | {met} "
            f"| `{' '.join(m.command)}` |"
        )
    return 0 if all(m.ok is not False for m in measures) else 1


if __name__ == "__main__":
    sys.exit(main())
