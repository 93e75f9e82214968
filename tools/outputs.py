"""Record the command line's outputs for a fixed set of commands, or compare them to a record.

A refactor that must not change behaviour proves it with this: ``record DIR`` once before the
change (the committed baseline is ``tools/outputs/baseline``), ``compare DIR`` after it.
Every command runs as a user runs it, ``python -m sixtysix ...`` in a subprocess of the
interpreter running this script (and the drivers of ``tools/outputs_drivers.py``: a match at a
table server, environment episodes), in a scratch directory, with a fixed environment (English, C
locale, 100 columns, no colour). Its stdout is written to ``DIR/<case>.json`` or ``.txt``, a
file it writes with ``--out`` to ``DIR/<case>.out.jsonl``, and a non-zero exit status or any
stderr to ``DIR/<case>.status``. Timing fields are blanked (:data:`TIMING_KEYS`); nothing else
is touched, so the files are otherwise byte for byte what the commands printed.

    python tools/outputs.py record tools/outputs/baseline
    python tools/outputs.py compare tools/outputs/baseline [--workers 2 [--any-row-order]]

``compare`` exits 0 when every file is identical, 1 otherwise (printing the first difference
of each file that differs). ``--workers N`` passes ``--workers N`` to ``simulate`` and
``tournament`` and ``--jobs N`` to ``duel``: their outputs must not depend on it (the echoed
``workers`` field is then blanked on both sides). With several workers ``simulate`` writes its
``--out`` rows as chunks finish, so their order may differ: such a file is reported as "the
same rows in another order", and ``--any-row-order`` counts it as identical. A developer
tool: nothing in ``sixtysix`` or the tests imports it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "data" / "golden"

#: Keys whose values are measured times or rates, found in every JSON output recorded here:
#: ``seconds`` and ``games_per_second`` (simulate, duel, tournament summaries), ``duration``
#: (each ``--out`` row), ``mean_ms``, ``median_ms`` and ``p95_ms`` (duel's time per move).
TIMING_KEYS = ("seconds", "games_per_second", "duration", "mean_ms", "median_ms", "p95_ms")
#: Echoes of the number of worker processes, blanked only under ``--workers``.
WORKER_KEYS = ("workers",)
BLANK = '"<blank>"'

#: The locale, terminal and data directory every command sees.
ENVIRONMENT = {
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "COLUMNS": "100",
    "LINES": "50",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "PYTHONIOENCODING": "utf-8",
    # Only the built-in variants and bots: an installed plugin (the Santase example) would
    # change the listings and the error messages that name what is installed.
    "SIXTYSIX_DISABLE_PLUGIN_AUTOLOAD": "1",
}
#: Variables removed from the environment: they change the language or the expert's path.
UNSET = ("LANGUAGE", "LC_MESSAGES", "FORCE_COLOR", "SIXTYSIX_NO_NUMBA")

VARIANTS = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")
JSON = ("--json", "--no-progress")
BOTS_HR = ("--bots", "heuristic,random")
THREE_ENTRANTS_RUN = ("--deals", "40", "--seed", "2", "--bootstrap", "50")


@dataclass(frozen=True)
class Case:
    """One command: ``name`` names its files, ``out`` the file it writes with ``--out``."""

    name: str
    args: tuple[str, ...]
    out: str | None = None
    parallel: str | None = None  # "--workers" or "--jobs": the option that takes --workers N
    text: bool = False  # stdout is text, not JSON
    driver: bool = False  # args name a driver of tools/outputs_drivers.py, not a command

    def command(self, workers: int | None) -> list[str]:
        """The whole command line: ``python -m sixtysix`` and the arguments, with the worker
        option when one is asked, or ``python tools/outputs_drivers.py DRIVER``."""
        if self.driver:
            return [sys.executable, str(REPO / "tools" / "outputs_drivers.py"), *self.args]
        args = list(self.args)
        if workers is not None and self.parallel is not None:
            args += [self.parallel, str(workers)]
        return [sys.executable, "-m", "sixtysix", *args]


def _simulate(name: str, variant: str, *extra: str, games: int = 300) -> Case:
    out = f"{name}.jsonl"
    args = ("simulate", variant, "--games", str(games), *extra, "--out", out, *JSON)
    return Case(name, args, out=out, parallel="--workers")


def cases() -> list[Case]:
    """The fixed set of commands, in the order they run (the ``replay --from`` cases read
    files written by earlier ``simulate`` cases)."""
    found: list[Case] = []
    for record in sorted(GOLDEN.glob("*.record.json")):
        stem = record.name.removesuffix(".record.json")
        found.append(Case(f"replay-{stem}", ("replay", "--json", str(record))))
    for stem in ("66-default", "schnapsen-manual", "66-4-options"):
        record = GOLDEN / f"{stem}.record.json"
        found.append(Case(f"replay-text-{stem}", ("replay", str(record)), text=True))
    for seed, variant in enumerate(VARIANTS, start=1):
        found.append(_simulate(f"simulate-{variant}", variant, "--seed", str(seed)))
    found += [
        _simulate("simulate-66-heuristic", "66", "--seed", "11", *BOTS_HR),
        _simulate(
            "simulate-schnapsen-heuristic",
            "schnapsen",
            *("--seed", "12", "--bots", "random,heuristic", "-o", "claim=manual"),
            games=200,
        ),
        _simulate(
            "simulate-66-3-heuristic",
            "66-3",
            *("--seed", "13", "--bots", "heuristic,random,heuristic:noise=0.2"),
            games=150,
        ),
        _simulate(
            "simulate-66-4-heuristic",
            "66-4",
            *("--seed", "14", "--bots", "heuristic,random,heuristic,random"),
            games=150,
        ),
        _simulate("simulate-66-classic", "66", "--seed", "15", "--preset", "classic"),
        Case(
            "simulate-66-matches",
            ("simulate", "66", "--matches", "40", "--seed", "16", *JSON),
            parallel="--workers",
        ),
        Case(
            "simulate-schnapsen-matches",
            ("simulate", "schnapsen", "--matches", "20", "--seed", "17", *BOTS_HR, *JSON),
            parallel="--workers",
        ),
        Case(
            "replay-from-66-heuristic",
            ("replay", "--json", "--from", "simulate-66-heuristic.jsonl", "--game", "7"),
        ),
        Case(
            "replay-from-66-4-heuristic",
            ("replay", "--json", "--from", "simulate-66-4-heuristic.jsonl", "--game", "3"),
        ),
        _duel("duel-66", "66", "heuristic", "random", deals=100),
        _duel("duel-schnapsen-levels", "schnapsen", "@easy", "@medium", deals=60),
        _duel("duel-66-3", "66-3", "heuristic", "random", deals=30),
        _duel("duel-66-4", "66-4", "heuristic", "random", deals=15),
        _duel("duel-schnapsen-expert", "schnapsen", "expert", "random", deals=2),
        _duel("duel-66-expert", "66", "expert", "heuristic", deals=2),
        Case(
            "tournament-66",
            ("tournament", "66", *BOTS_HR, "--deals", "100", "--seed", "1", *JSON),
            parallel="--workers",
        ),
        Case(
            "tournament-schnapsen-three",
            (
                "tournament",
                "schnapsen",
                "--bots",
                "heuristic,random,random:seed=7",
                *THREE_ENTRANTS_RUN,
                *JSON,
            ),
            parallel="--workers",
        ),
    ]
    for variant in VARIANTS:
        found.append(Case(f"rules-{variant}", ("rules", variant, "--json")))
    found += [
        Case("rules-66-classic", ("rules", "66", "--preset", "classic", "--json")),
        Case("rules-schnapsen-manual", ("rules", "schnapsen", "-o", "claim=manual", "--json")),
        Case("rules-text-66-en", ("rules", "66", "--lang", "en"), text=True),
        Case("rules-text-66-4-tr", ("rules", "66-4", "--lang", "tr"), text=True),
        Case("variants", ("variants",), text=True),
        Case("bots", ("bots",), text=True),
        # Bad input: one line on stderr and exit status 2 (kept in the .status file).
        Case("error-replay-illegal", ("replay", "--json", "illegal.record.json")),
        Case("error-matches-out", ("simulate", "66", "--matches", "5", "--out", "x.jsonl")),
        Case("error-unknown-variant", ("rules", "nosuch")),
        Case("error-unknown-bot", ("duel", "66", "nosuch", "random", "--deals", "1")),
        Case("error-unknown-option", ("simulate", "66", "--games", "1", "-o", "nosuch=1")),
        # What no single command prints: a match at a table server, environment episodes.
        Case("table-match-66-4", ("table-match",), driver=True),
        Case("env-episodes", ("env-episodes",), driver=True),
    ]
    return found


def _duel(name: str, variant: str, a: str, b: str, deals: int) -> Case:
    args = ("duel", variant, a, b, "--deals", str(deals), "--seed", "1", *JSON)
    return Case(name, args, parallel="--jobs")


def _illegal_record(work: Path) -> None:
    """A golden record whose second move plays a card its seat does not hold."""
    record = json.loads((GOLDEN / "66-default.record.json").read_text(encoding="utf-8"))
    record["deals"][0]["actions"][1]["action"] = "play QD"
    (work / "illegal.record.json").write_text(json.dumps(record), encoding="utf-8")


def blank(text: str, keys: Sequence[str]) -> str:
    """``text`` with the value of every ``"key": number`` (or null) for ``keys`` blanked."""
    names = "|".join(re.escape(k) for k in keys)
    pattern = rf'("(?:{names})"\s*:\s*)(-?[0-9][0-9.eE+-]*|null)'
    return re.sub(pattern, lambda m: m.group(1) + BLANK, text)


def _keys(value: object) -> Iterator[tuple[str, object]]:
    """Every (key, value) pair of a parsed JSON value, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def _check_blanked(text: str, keys: Sequence[str], where: str) -> None:
    """Fail loudly if a timing key kept a value (a format the pattern does not know)."""
    documents = [text] if where.endswith(".json") else text.splitlines()
    for document in documents:
        if not document.strip():
            continue
        try:
            parsed = json.loads(document)
        except json.JSONDecodeError:
            return  # not JSON: the .status file will show why
        for k, v in _keys(parsed):
            if k in keys and v != BLANK.strip('"'):
                raise SystemExit(f"{where}: the timing key {k!r} was not blanked ({v!r})")


def environment(data: Path) -> dict[str, str]:
    """The environment of every command (see :data:`ENVIRONMENT`)."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(ENVIRONMENT)
    env["SIXTYSIX_DATA_DIR"] = str(data)
    return env


def record(target: Path, workers: int | None = None, verbose: bool = True) -> None:
    """Run every case and write its outputs to ``target`` (created; must hold no other files)."""
    target.mkdir(parents=True, exist_ok=True)
    keys = TIMING_KEYS + (WORKER_KEYS if workers is not None else ())
    with tempfile.TemporaryDirectory(prefix="sixtysix-outputs-") as scratch:
        work = Path(scratch) / "work"
        work.mkdir()
        _illegal_record(work)
        env = environment(Path(scratch) / "data")
        start = time.perf_counter()
        for case in cases():
            began = time.perf_counter()
            done = subprocess.run(
                case.command(workers),
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                encoding="utf-8",
                check=False,
            )
            suffix = ".txt" if case.text else ".json"
            _write(target / f"{case.name}{suffix}", blank(done.stdout, keys), keys)
            status = target / f"{case.name}.status"
            if done.returncode or done.stderr:
                status.write_text(f"exit {done.returncode}\n{done.stderr}", encoding="utf-8")
            if case.out is not None and (work / case.out).exists():
                rows = (work / case.out).read_text(encoding="utf-8")
                _write(target / f"{case.name}.out.jsonl", blank(rows, keys), keys)
            if verbose:
                took = time.perf_counter() - began
                print(f"{took:6.1f} s  {case.name}", file=sys.stderr)
        if verbose:
            print(f"{time.perf_counter() - start:6.1f} s  in all", file=sys.stderr)


def _write(path: Path, text: str, keys: Sequence[str]) -> None:
    _check_blanked(text, keys, path.name)
    path.write_text(text, encoding="utf-8")


def first_difference(expected: str, actual: str, width: int = 70) -> str:
    """The line, column and surroundings of the first character where the two texts differ."""
    at = next(
        (i for i, (x, y) in enumerate(zip(expected, actual, strict=False)) if x != y),
        min(len(expected), len(actual)),
    )
    line = expected.count("\n", 0, at) + 1
    column = at - (expected.rfind("\n", 0, at) + 1) + 1
    lo = max(0, at - width)

    def around(text: str) -> str:
        piece = text[lo : at + width]
        return repr(piece) if piece else "(end of file)"

    return (
        f"line {line}, column {column}:\n"
        f"    expected: {around(expected)}\n"
        f"    actual:   {around(actual)}"
    )


def _same_rows(expected: str, actual: str) -> bool:
    """Whether two ``--out`` files hold the same rows, in whatever order."""
    return sorted(expected.splitlines()) == sorted(actual.splitlines())


def compare(
    baseline: Path,
    workers: int | None = None,
    keep: Path | None = None,
    any_row_order: bool = False,
) -> int:
    """Record afresh and compare with ``baseline`` file by file; 0 if identical, else 1.

    Under ``workers`` the baseline's echo of its worker count is blanked as the fresh one is.
    ``any_row_order``: ``--out`` files with the same rows in another order count as identical
    (with several workers rows are written as chunks finish, docs/simulation.md).
    """
    if not baseline.is_dir():
        print(f"error: {baseline} is not a directory", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="sixtysix-compare-") as scratch:
        fresh = keep if keep is not None else Path(scratch)
        record(fresh, workers)
        old = {p.name for p in baseline.iterdir() if p.is_file()}
        new = {p.name for p in fresh.iterdir() if p.is_file()}
        differing = 0
        for name in sorted(old | new):
            if name not in new:
                print(f"{name}: in the baseline only")
            elif name not in old:
                print(f"{name}: not in the baseline")
            else:
                a = (baseline / name).read_text(encoding="utf-8")
                b = (fresh / name).read_text(encoding="utf-8")
                if workers is not None:
                    a = blank(a, WORKER_KEYS)
                if a == b:
                    continue
                rows = name.endswith(".out.jsonl") and _same_rows(a, b)
                if rows and any_row_order:
                    print(f"{name}: the same rows in another order")
                    continue
                print(f"{name}: differs at {first_difference(a, b)}")
                if rows:
                    print("    (the same rows in another order)")
            differing += 1
        total = len(old | new)
        if differing:
            print(f"{differing} of {total} files differ")
            return 1
        print(f"all {total} files identical")
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``record DIR`` or ``compare DIR`` (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("record", "run the fixed commands and write their outputs to DIR"),
        ("compare", "record afresh and compare with DIR; exit 1 if any file differs"),
    ):
        command = sub.add_parser(name, help=help_text)
        command.add_argument("dir", type=Path, metavar="DIR")
        command.add_argument(
            "--workers",
            type=int,
            default=None,
            metavar="N",
            help="pass --workers N (simulate, tournament) and --jobs N (duel)",
        )
        if name == "compare":
            command.add_argument(
                "--keep", type=Path, default=None, metavar="DIR", help="keep the fresh outputs"
            )
            command.add_argument(
                "--any-row-order",
                action="store_true",
                help="--out files with the same rows in another order count as identical",
            )
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.command == "record":
        if args.dir.exists() and any(args.dir.iterdir()):
            parser.error(f"{args.dir} is not empty: record into a new or empty directory")
        record(args.dir, args.workers)
        return 0
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        parser.error(f"{args.keep} is not empty")
    return compare(args.dir, args.workers, args.keep, args.any_row_order)


if __name__ == "__main__":
    sys.exit(main())
