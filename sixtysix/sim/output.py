"""Simulation output: one row per game, as JSON Lines or Parquet.

A row (format ``sixtysix-sim/1``) holds everything needed to play its game again:

- ``index``: the game's index in the run (its randomness is ``seed.child(("game", index))``);
- ``variant`` and ``options``: the variant's name and the options that differ from its
  defaults (an object in JSON Lines, the same object as a JSON string in Parquet);
- ``seed``: the master seed, or null when the run drew a secure random key;
- ``path``: the game's path under the master seed, ``game/<index>``;
- ``key``: the game's own 32-byte key in hex when ``seed`` is null (else null), so that an
  unseeded game can still be regenerated and replayed;
- ``seats`` and ``bots``: the number of seats and each seat's bot as ``name`` or
  ``name:key=value,...``;
- ``dealer``: the dealer's seat;
- ``reason``, ``game_points``, ``points``, ``tricks``: the result, as in a replay's ``result``;
- ``duration``: seconds spent on the game; on the vectorised path, which plays whole batches
  at once, the batch's time divided by its games;
- ``faults``: only when a player faulted (the game then ended by forfeit), the list of
  ``{"seat": S, "kind": K}`` (``kind`` one of :class:`~sixtysix.core.faults.FaultKind`). In
  JSON Lines the field is absent when there is none, so rows without faults are exactly those
  of earlier versions; in Parquet it is a column of lists, empty when there is none (read back
  as a row without the field), and files without the column (written before it existed) are
  still read and resumed.

Rows are written as soon as a chunk of games finishes, so an interrupted run keeps every
finished game. Within a chunk rows are in index order; with several workers chunks may
interleave, so sort by ``index`` when order matters. JSON Lines survive even a hard kill (at
worst a last line is cut short, and ``--resume`` drops it); a Parquet file is written to
``FILE.partial`` and renamed into place when the run ends or is stopped with Ctrl-C.

Encoding happens in the workers (:class:`RowEncoder`), writing in the main process
(:class:`JsonlSink`, :class:`ParquetSink`), so the main process only copies bytes.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sixtysix.sim.errors import OutputError

if TYPE_CHECKING:
    import pyarrow as pa

    from sixtysix.sim.simulate import GameResult, Summary

FORMAT = "sixtysix-sim/1"
FIELDS: tuple[str, ...] = (
    "index",
    "variant",
    "options",
    "seed",
    "path",
    "key",
    "seats",
    "bots",
    "dealer",
    "reason",
    "game_points",
    "points",
    "tricks",
    "duration",
)
Kind = Literal["jsonl", "parquet"]
_SUFFIXES: dict[str, Kind] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
#: The optional field that lists a game's faults (absent from older files).
FAULTS = "faults"
#: Rows buffered before a Parquet row group is written.
ROW_GROUP = 65_536


def output_kind(path: str | Path) -> Kind:
    """JSON Lines or Parquet, by the file's suffix."""
    kind = _SUFFIXES.get(Path(path).suffix.lower())
    if kind is None:
        raise OutputError(
            f"cannot tell the output format of {str(path)!r}: name it *.jsonl or *.parquet"
        )
    return kind


def require_pyarrow() -> None:
    """Fail in one line when Parquet is asked for without pyarrow."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise OutputError(
            "Parquet output needs pyarrow: pip install 'sixtysix[parquet]' (or use *.jsonl)"
        ) from None


def bot_label(name: str, params: Mapping[str, str]) -> str:
    """A bot as ``--bots`` names it: ``random`` or ``random:seed=3``."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in sorted(params.items()))


def options_text(options: Mapping[str, object]) -> str:
    """The canonical JSON text of a row's options (Parquet's ``options`` column)."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class RunInfo:
    """What every row of one run repeats; checked when a file is resumed."""

    variant: str
    options: Mapping[str, object]
    seed: int | None
    bots: tuple[str, ...]

    @property
    def seats(self) -> int:
        return len(self.bots)

    def mismatch(self, row: Mapping[str, Any]) -> str | None:
        """Why ``row`` belongs to another run (None when it belongs to this one)."""
        if row["variant"] != self.variant:
            return f"variant {row['variant']!r}, not {self.variant!r}"
        if dict(row["options"]) != dict(self.options):
            return f"options {options_text(row['options'])}, not {options_text(self.options)}"
        if row["seed"] != self.seed:
            theirs = "no seed" if row["seed"] is None else f"--seed {row['seed']}"
            ours = "no seed" if self.seed is None else f"--seed {self.seed}"
            return f"{theirs}, not {ours}"
        if tuple(row["bots"]) != self.bots:
            return f"bots {','.join(row['bots'])}, not {','.join(self.bots)}"
        return None


# --------------------------------------------------------------------------- encoding (workers)


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class RowEncoder:
    """Turns a chunk's games into the bytes (JSON Lines) or record batch (Parquet) to write.

    Runs in the workers. The fields shared by every row are encoded once.
    """

    def __init__(self, info: RunInfo, kind: Kind) -> None:
        self.info = info
        self.kind = kind
        common = _compact({"variant": info.variant, "options": dict(info.options)})
        self._variant_options = common[1:-1]  # '"variant":...,"options":{...}'
        self._seed = "null" if info.seed is None else str(info.seed)
        self._seats = info.seats
        self._bots = _compact(list(info.bots))

    def encode(
        self,
        results: Sequence[GameResult],
        durations: Sequence[float],
        keys: Sequence[str | None],
    ) -> bytes | pa.RecordBatch:
        if self.kind == "jsonl":
            return self._jsonl(results, durations, keys)
        return self._parquet(results, durations, keys)

    def _jsonl(
        self,
        results: Sequence[GameResult],
        durations: Sequence[float],
        keys: Sequence[str | None],
    ) -> bytes:
        head = f',{self._variant_options},"seed":{self._seed},'
        tail = f'"seats":{self._seats},"bots":{self._bots},'
        lines = []
        for r, d, k in zip(results, durations, keys, strict=True):
            o = r.outcome
            key = "null" if k is None else f'"{k}"'
            lines.append(
                f'{{"index":{r.index}{head}"path":"game/{r.index}","key":{key},{tail}'
                f'"dealer":{r.dealer},"reason":"{o.reason}",'
                f'"game_points":[{",".join(map(str, o.game_points))}],'
                f'"points":[{",".join(map(str, o.points))}],'
                f'"tricks":[{",".join(map(str, o.tricks))}],'
                f'"duration":{d:.6f}{_jsonl_faults(r.faults)}}}\n'
            )
        return "".join(lines).encode()

    def _parquet(
        self,
        results: Sequence[GameResult],
        durations: Sequence[float],
        keys: Sequence[str | None],
    ) -> pa.RecordBatch:
        import pyarrow as pa

        n = len(results)
        columns: dict[str, Any] = {
            "index": [r.index for r in results],
            "variant": [self.info.variant] * n,
            "options": [options_text(self.info.options)] * n,
            "seed": [self.info.seed] * n,
            "path": [f"game/{r.index}" for r in results],
            "key": list(keys),
            "seats": [self._seats] * n,
            "bots": [list(self.info.bots)] * n,
            "dealer": [r.dealer for r in results],
            "reason": [str(r.outcome.reason) for r in results],
            "game_points": [list(r.outcome.game_points) for r in results],
            "points": [list(r.outcome.points) for r in results],
            "tricks": [list(r.outcome.tricks) for r in results],
            "duration": list(durations),
            FAULTS: [[{"seat": s, "kind": k} for s, k in r.faults] for r in results],
        }
        return pa.RecordBatch.from_pydict(columns, schema=parquet_schema())


def _jsonl_faults(faults: Sequence[tuple[int, str]]) -> str:
    """The ``faults`` field of a JSON Lines row, with its leading comma; none: nothing."""
    if not faults:
        return ""
    return ',"faults":' + _compact([{"seat": s, "kind": k} for s, k in faults])


def faults_type() -> pa.DataType:
    import pyarrow as pa

    return pa.list_(pa.struct([("seat", pa.int64()), ("kind", pa.string())]))


def with_faults(table: pa.Table) -> pa.Table:
    """``table`` with a ``faults`` column (empty lists for a file written before it existed)."""
    import pyarrow as pa

    if FAULTS in table.column_names:
        return table
    return table.append_column(FAULTS, pa.array([[]] * table.num_rows, type=faults_type()))


def parquet_schema() -> pa.Schema:
    import pyarrow as pa

    ints = pa.list_(pa.int64())
    return pa.schema(
        [
            ("index", pa.int64()),
            ("variant", pa.string()),
            ("options", pa.string()),
            ("seed", pa.int64()),
            ("path", pa.string()),
            ("key", pa.string()),
            ("seats", pa.int64()),
            ("bots", pa.list_(pa.string())),
            ("dealer", pa.int64()),
            ("reason", pa.string()),
            ("game_points", ints),
            ("points", ints),
            ("tricks", ints),
            ("duration", pa.float64()),
            (FAULTS, faults_type()),
        ],
        metadata={"format": FORMAT},
    )


# --------------------------------------------------------------------------- writing (main)


class JsonlSink:
    """Appends encoded rows to a JSON Lines file, flushed after every chunk."""

    def __init__(self, path: Path, append: bool) -> None:
        try:
            self._file = path.open("ab" if append else "xb")
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        self.path = path

    def write(self, payload: object) -> None:
        assert isinstance(payload, bytes)
        self._file.write(payload)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class ParquetSink:
    """Writes record batches to ``FILE.partial`` and renames it to FILE on close.

    A resumed run first copies the rows already in FILE, so the result is one file.
    """

    def __init__(self, path: Path, existing: pa.Table | None = None) -> None:
        import pyarrow.parquet as pq

        self.path = path
        self.partial = path.with_name(path.name + ".partial")
        try:
            self._writer = pq.ParquetWriter(self.partial, parquet_schema())
        except OSError as exc:
            raise OutputError(f"cannot write {self.partial}: {exc}") from None
        self._buffer: list[pa.RecordBatch] = []
        self._buffered = 0
        if existing is not None and existing.num_rows:
            existing = with_faults(existing).cast(parquet_schema())
            self._writer.write_table(existing, row_group_size=ROW_GROUP)

    def write(self, payload: object) -> None:
        import pyarrow as pa

        assert isinstance(payload, pa.RecordBatch)
        self._buffer.append(payload)
        self._buffered += payload.num_rows
        if self._buffered >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self._buffer:
            self._writer.write_table(pa.Table.from_batches(self._buffer), row_group_size=ROW_GROUP)
        self._buffer = []
        self._buffered = 0

    def close(self) -> None:
        self._flush()
        self._writer.close()
        os.replace(self.partial, self.path)


Sink = JsonlSink | ParquetSink


# --------------------------------------------------------------------------- reading


def _check_row(row: object, where: str) -> dict[str, Any]:
    """A row with every field of the right type, else an :class:`OutputError` naming it."""
    if not isinstance(row, dict):
        raise OutputError(f"{where}: a row must be a JSON object")
    missing = [f for f in FIELDS if f not in row]
    if missing:
        raise OutputError(f"{where}: not a sixtysix simulation row (no {', '.join(missing)})")

    def is_int(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    seats = row["seats"]
    if not is_int(seats) or seats < 1:
        raise OutputError(f"{where}: 'seats' must be a positive integer")
    if not is_int(row["index"]) or row["index"] < 0:
        raise OutputError(f"{where}: 'index' must be a game index (0 or more)")
    for name in ("game_points", "points", "tricks"):
        value = row[name]
        if not isinstance(value, list) or len(value) != seats or not all(map(is_int, value)):
            raise OutputError(f"{where}: '{name}' must list {seats} integers")
    bots = row["bots"]
    if (
        not isinstance(bots, list)
        or len(bots) != seats
        or not all(isinstance(b, str) for b in bots)
    ):
        raise OutputError(f"{where}: 'bots' must list {seats} bot names")
    if not isinstance(row["options"], dict):
        raise OutputError(f"{where}: 'options' must be an object")
    if row["seed"] is not None and not is_int(row["seed"]):
        raise OutputError(f"{where}: 'seed' must be an integer or null")
    key = row["key"]
    if key is not None and (not isinstance(key, str) or len(key) != 64):
        raise OutputError(f"{where}: 'key' must be 64 hex digits or null")
    if row["seed"] is None and key is None:
        raise OutputError(f"{where}: a row without a seed needs its 'key'")
    for name in ("variant", "reason"):
        if not isinstance(row[name], str):
            raise OutputError(f"{where}: '{name}' must be a string")
    if not is_int(row["dealer"]):
        raise OutputError(f"{where}: 'dealer' must be a seat number")
    faults = row.get(FAULTS, [])
    if not isinstance(faults, list) or not all(
        isinstance(f, dict)
        and is_int(f.get("seat"))
        and 0 <= f["seat"] < seats
        and isinstance(f.get("kind"), str)
        for f in faults
    ):
        raise OutputError(f"{where}: 'faults' must list {{seat, kind}} objects")
    return row


@dataclass
class JsonlScan:
    """The complete rows of a JSON Lines file and where its last complete line ends."""

    rows: list[dict[str, Any]]
    good_bytes: int
    cut_bytes: int


def scan_jsonl(path: Path) -> JsonlScan:
    """Read every complete row; a last line without its newline was cut by a hard stop."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None
    end = data.rfind(b"\n") + 1
    rows = []
    for number, line in enumerate(data[:end].splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise OutputError(f"{where}: not valid JSON") from None
        rows.append(_check_row(row, where))
    return JsonlScan(rows, end, len(data) - end)


def read_parquet(path: Path) -> pa.Table:
    require_pyarrow()
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as exc:
        raise OutputError(f"cannot read {path} as Parquet: {exc}") from None
    missing = [f for f in FIELDS if f not in table.column_names]
    if missing:
        raise OutputError(f"{path}: not a sixtysix simulation file (no {', '.join(missing)})")
    return table.select([*FIELDS, *([FAULTS] if FAULTS in table.column_names else [])])


def parquet_rows(table: pa.Table, where: str) -> Iterator[dict[str, Any]]:
    """Rows of a Parquet table in the JSON Lines shape (``options`` decoded)."""
    for number, row in enumerate(table.to_pylist(), start=1):
        try:
            row["options"] = json.loads(row["options"])
        except (TypeError, json.JSONDecodeError):
            raise OutputError(f"{where}, row {number}: 'options' is not a JSON object") from None
        if not row.get(FAULTS, True):
            del row[FAULTS]  # no fault: the row is what a JSON Lines file holds
        yield _check_row(row, f"{where}, row {number}")


def read_rows(path: str | Path) -> Iterator[dict[str, Any]]:
    """Every row of a simulation file, JSON Lines or Parquet, in file order."""
    p = Path(path)
    if not p.exists():
        raise OutputError(f"{p} does not exist")
    if output_kind(p) == "parquet":
        yield from parquet_rows(read_parquet(p), str(p))
    else:
        yield from scan_jsonl(p).rows


def find_row(path: str | Path, index: int) -> dict[str, Any]:
    """The row of game ``index``.

    In a JSON Lines file written by ``simulate`` every line starts with its index, so the line
    is found without parsing the others; any other layout is read in full.
    """
    p = Path(path)
    if p.exists() and output_kind(p) == "jsonl":
        prefix = b'{"index":%d,' % index
        try:
            with p.open("rb") as f:
                for number, line in enumerate(f, start=1):
                    if line.startswith(prefix) and line.endswith(b"\n"):
                        try:
                            row = json.loads(line)
                        except (json.JSONDecodeError, UnicodeDecodeError):
                            raise OutputError(f"{p}, line {number}: not valid JSON") from None
                        return _check_row(row, f"{p}, line {number}")
        except OSError as exc:
            raise OutputError(f"cannot read {p}: {exc.strerror or exc}") from None
    for row in read_rows(path):
        if row["index"] == index:
            return row
    raise OutputError(f"{path} has no game {index}")


# --------------------------------------------------------------------------- resuming


@dataclass
class Resumed:
    """What an existing output file already holds, to continue it."""

    done: bytearray  # done[i] == 1 for every game already in the file
    count: int
    summary: Summary
    #: Bytes of an incomplete last line dropped from a JSON Lines file.
    dropped_bytes: int = 0
    existing: pa.Table | None = None


def load_for_resume(path: Path, info: RunInfo, total: int, summary: Summary) -> Resumed:
    """Check that ``path`` was written by this same run and total what it holds.

    The file's games go into ``summary``; a game index of ``total`` or more, a game that
    appears twice, or a row of another run (variant, options, seed or bots) is an error.
    """
    kind = output_kind(path)
    done = bytearray(total)
    existing = None
    dropped = 0
    tally: Counter[tuple[str, tuple[int, ...]]] = Counter()
    faults: Counter[tuple[int, str]] = Counter()
    if kind == "parquet":
        existing = read_parquet(path)
        rows: Iterator[dict[str, Any]] = parquet_rows(existing, str(path))
    else:
        scan = scan_jsonl(path)
        rows = iter(scan.rows)
        dropped = scan.cut_bytes
    count = 0
    for row in rows:
        why = info.mismatch(row)
        if why is not None:
            raise OutputError(f"cannot resume {path}: it was written with {why}")
        i = row["index"]
        if i >= total:
            raise OutputError(
                f"cannot resume {path}: it already holds game {i}, beyond --games {total}"
            )
        if done[i]:
            raise OutputError(f"cannot resume {path}: game {i} appears twice")
        done[i] = 1
        count += 1
        tally[(row["reason"], tuple(row["game_points"]))] += 1
        faults.update((f["seat"], f["kind"]) for f in row.get(FAULTS) or ())
    for (reason, gps), n in tally.items():
        summary.add_game(reason, gps, n)
    summary.add_faults(faults)
    if dropped:
        with path.open("r+b") as f:
            f.truncate(path.stat().st_size - dropped)
    return Resumed(done, count, summary, dropped, existing)


def open_sink(path: Path, kind: Kind, resumed: Resumed | None) -> Sink:
    if kind == "parquet":
        return ParquetSink(path, resumed.existing if resumed else None)
    return JsonlSink(path, append=resumed is not None)
