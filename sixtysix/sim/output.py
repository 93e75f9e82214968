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
(:class:`JsonlSink`, :class:`ParquetSink`), so the main process only copies bytes. Reading a
file back, a row or all of it, is :mod:`sixtysix.sim.readers`; what a file holds for
``--resume`` is :mod:`sixtysix.sim.resume`. Neither loads the whole file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sixtysix.sim.errors import OutputError

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

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
#: Rows buffered before a Parquet row group is written.
ROW_GROUP = 65_536
#: The optional field that lists a game's faults (absent from older files).
FAULTS = "faults"


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
        variant_options = common[1:-1]  # '"variant":...,"options":{...}'
        seed = "null" if info.seed is None else str(info.seed)
        self._seats = info.seats
        #: What every JSON Lines row holds between its index and its path, and between its key
        #: and its dealer (also how ``--resume`` recognises this run's lines).
        self.jsonl_head = f',{variant_options},"seed":{seed},'
        self.jsonl_tail = f'"seats":{self._seats},"bots":{_compact(list(info.bots))},'

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
        head, tail = self.jsonl_head, self.jsonl_tail
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

    A resumed run (``keep_existing``) first copies the row groups already in FILE, one record
    batch at a time, so the result is one file; it does so only once it has a row to add, so
    resuming a finished file leaves it untouched.
    """

    def __init__(self, path: Path, keep_existing: bool = False) -> None:
        self.path = path
        self.partial = path.with_name(path.name + ".partial")
        self._keep = keep_existing
        self._writer: pq.ParquetWriter | None = None
        self._buffer: list[pa.RecordBatch] = []
        self._buffered = 0
        if not keep_existing:
            self._open()

    def _open(self) -> pq.ParquetWriter:
        import pyarrow.parquet as pq

        try:
            writer = pq.ParquetWriter(self.partial, parquet_schema())
        except OSError as exc:
            raise OutputError(f"cannot write {self.partial}: {exc}") from None
        if self._keep:
            from sixtysix.sim.readers import copy_parquet

            copy_parquet(self.path, writer, ROW_GROUP)
        self._writer = writer
        return writer

    def write(self, payload: object) -> None:
        import pyarrow as pa

        assert isinstance(payload, pa.RecordBatch)
        self._buffer.append(payload)
        self._buffered += payload.num_rows
        if self._buffered >= ROW_GROUP:
            self._flush(whole_groups=True)

    def _flush(self, whole_groups: bool = False) -> None:
        """Write the buffered rows; with ``whole_groups`` only full row groups, keeping the rest
        buffered, so that every row group but the last holds exactly :data:`ROW_GROUP` rows."""
        import pyarrow as pa

        if not self._buffer:
            return
        table = pa.Table.from_batches(self._buffer)
        cut = table.num_rows - table.num_rows % ROW_GROUP if whole_groups else table.num_rows
        if cut:
            writer = self._writer or self._open()
            writer.write_table(table.slice(0, cut), row_group_size=ROW_GROUP)
        rest = table.slice(cut)
        self._buffer = rest.combine_chunks().to_batches() if rest.num_rows else []
        self._buffered = rest.num_rows

    def close(self) -> None:
        self._flush()
        if self._writer is None:
            return  # resumed with nothing to add: FILE stays as it was
        self._writer.close()
        os.replace(self.partial, self.path)


Sink = JsonlSink | ParquetSink


# --------------------------------------------------------------------------- reading


def check_row(row: object, where: str) -> dict[str, Any]:
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


# --------------------------------------------------------------------------- resuming


@dataclass
class Resumed:
    """What an existing output file already holds, to continue it."""

    done: bytearray  # done[i] == 1 for every game already in the file
    count: int
    summary: Summary
    #: Bytes of an incomplete last line dropped from a JSON Lines file.
    dropped_bytes: int = 0


def load_for_resume(path: Path, info: RunInfo, total: int, summary: Summary) -> Resumed:
    """What ``path`` holds, checked to be of this run (see :mod:`sixtysix.sim.resume`)."""
    from sixtysix.sim.resume import load_for_resume as load

    return load(path, info, total, summary)


def open_sink(path: Path, kind: Kind, resumed: Resumed | None) -> Sink:
    if kind == "parquet":
        return ParquetSink(path, keep_existing=resumed is not None and resumed.count > 0)
    return JsonlSink(path, append=resumed is not None)
