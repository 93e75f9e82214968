"""Writing a simulation's output file, one row per game (:mod:`sixtysix.sim.rows`), as JSON
Lines or Parquet.

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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sixtysix.sim.errors import OutputError
from sixtysix.sim.readers import copy_parquet
from sixtysix.sim.rows import FAULTS, Kind, RunInfo, options_text, parquet_schema

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sixtysix.sim.games import GameResult
    from sixtysix.sim.simulate import Summary

#: Rows buffered before a Parquet row group is written.
ROW_GROUP = 65_536


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
        import pyarrow as pa  # the parquet extra

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
        import pyarrow.parquet as pq  # the parquet extra

        try:
            writer = pq.ParquetWriter(self.partial, parquet_schema())
        except OSError as exc:
            raise OutputError(f"cannot write {self.partial}: {exc}") from None
        if self._keep:
            copy_parquet(self.path, writer, ROW_GROUP)
        self._writer = writer
        return writer

    def write(self, payload: object) -> None:
        import pyarrow as pa  # the parquet extra

        assert isinstance(payload, pa.RecordBatch)
        self._buffer.append(payload)
        self._buffered += payload.num_rows
        if self._buffered >= ROW_GROUP:
            self._flush(whole_groups=True)

    def _flush(self, whole_groups: bool = False) -> None:
        """Write the buffered rows; with ``whole_groups`` only full row groups, keeping the rest
        buffered, so that every row group but the last holds exactly :data:`ROW_GROUP` rows."""
        import pyarrow as pa  # the parquet extra

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


# --------------------------------------------------------------------------- resuming


@dataclass
class Resumed:
    """What an existing output file already holds, to continue it."""

    done: bytearray  # done[i] == 1 for every game already in the file
    count: int
    summary: Summary
    #: Bytes of an incomplete last line dropped from a JSON Lines file.
    dropped_bytes: int = 0


def open_sink(path: Path, kind: Kind, resumed: Resumed | None) -> Sink:
    if kind == "parquet":
        return ParquetSink(path, keep_existing=resumed is not None and resumed.count > 0)
    return JsonlSink(path, append=resumed is not None)
