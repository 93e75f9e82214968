"""Which games an output file already holds, for ``simulate --resume``, in bounded memory.

The finished games are a bitmap of one byte per game of the run (10 MB for ten million games)
and the results a tally of (reason, game points) pairs, of which there are a handful; the file
is read a block of lines or a record batch at a time. A Parquet batch written by ``simulate``
(every value present and of this run) is checked and totalled column by column with pyarrow; a
block of JSON Lines whose every line has the exact layout ``simulate`` writes for this run is
checked by one regular expression, which picks out each line's index, reason and game points;
either way the indices are marked a contiguous run at a time. Any other batch or block goes
row by row through the checks of every row, so a broken or foreign row is reported as before.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sixtysix.sim.errors import OutputError
from sixtysix.sim.output import Resumed, RowEncoder
from sixtysix.sim.readers import (
    jsonl_blocks,
    open_parquet,
    parquet_batches,
    parquet_rows,
    parse_line,
    row_columns,
)
from sixtysix.sim.rows import FAULTS, FIELDS, RunInfo, options_text, output_kind, parquet_schema

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sixtysix.sim.simulate import Summary

#: The columns a row group is checked and totalled by (``path`` and ``duration`` need not be).
_COLUMNS = tuple(f for f in FIELDS if f not in ("path", "duration"))
#: String columns read as dictionaries: a handful of distinct values in millions of rows.
_DICTIONARY = ("variant", "options", "reason", "bots")
#: Columns that must hold a value in every row of a batch taken column by column.
_REQUIRED = ("index", "variant", "options", "seats", "bots", "dealer", "reason")
_LISTS = ("game_points", "points", "tricks")


class Finished:
    """The games of one run found in its file so far, and the tally of their results."""

    def __init__(self, path: Path, info: RunInfo, total: int) -> None:
        self.path = path
        self.info = info
        self.total = total
        self.done = bytearray(total)
        self.count = 0
        self.tally: Counter[tuple[str, tuple[int, ...]]] = Counter()
        #: ``(seat, kind)`` of the games' faults (rare: a game with one is read row by row).
        self.faults: Counter[tuple[int, str]] = Counter()

    def _refuse(self, why: str) -> OutputError:
        return OutputError(f"cannot resume {self.path}: {why}")

    def add_row(self, row: Mapping[str, Any]) -> None:
        """One checked row: of this run, within ``total`` and not seen before."""
        why = self.info.mismatch(row)
        if why is not None:
            raise self._refuse(f"it was written with {why}")
        i = row["index"]
        if i >= self.total:
            raise self._refuse(f"it already holds game {i}, beyond --games {self.total}")
        if self.done[i]:
            raise self._refuse(f"game {i} appears twice")
        self.done[i] = 1
        self.count += 1
        self.tally[(row["reason"], tuple(row["game_points"]))] += 1
        self.faults.update((f["seat"], f["kind"]) for f in row.get(FAULTS) or ())

    def add_range(self, lo: int, hi: int) -> bool:
        """Mark games ``lo..hi-1`` when all lie within the run and none is marked yet."""
        if lo < 0 or hi > self.total or self.done.find(1, lo, hi) != -1:
            return False
        self.done[lo:hi] = b"\x01" * (hi - lo)
        self.count += hi - lo
        return True

    def remove_range(self, lo: int, hi: int) -> None:
        """Undo :meth:`add_range`."""
        self.done[lo:hi] = bytes(hi - lo)
        self.count -= hi - lo

    def add_runs(self, runs: list[tuple[int, int]]) -> bool:
        """Mark every run, or none of them (False) if one is out of range or already marked."""
        marked: list[tuple[int, int]] = []
        for lo, hi in runs:
            if not self.add_range(lo, hi):
                for done in marked:
                    self.remove_range(*done)
                return False
            marked.append((lo, hi))
        return True


# --------------------------------------------------------------------------- Parquet


def _distinct(column: pa.Array) -> list[Any]:
    """The distinct values of a column (of a dictionary column, those its rows use)."""
    import pyarrow as pa  # the parquet extra
    import pyarrow.compute as pc  # the parquet extra

    if isinstance(column.type, pa.DictionaryType):
        return list(column.dictionary.take(pc.unique(column.indices)).to_pylist())
    return list(pc.unique(column).to_pylist())


def _all_equal(column: pa.Array, value: object) -> bool:
    """Whether every value of ``column`` is present and equals ``value``."""
    return column.null_count == 0 and _distinct(column) in ([], [value])


def _proven(group: pq.RowGroupMetaData, info: RunInfo) -> set[str]:
    """The run-wide columns whose statistics in this row group show this run's value in every
    row; they need not be read."""
    want: dict[str, object] = {
        "variant": info.variant,
        "options": options_text(info.options),
        "seats": info.seats,
        "seed": info.seed,
    }
    if info.seed is not None:
        want["key"] = None
    out = set()
    for j in range(group.num_columns):
        column = group.column(j)
        stats = column.statistics
        name = column.path_in_schema
        if name not in want or stats is None or not stats.has_null_count:
            continue
        value = want[name]
        if value is None:
            ok = stats.null_count == group.num_rows
        else:
            ok = stats.null_count == 0 and stats.has_min_max and stats.min == stats.max == value
        if ok:
            out.add(name)
    return out


def _bots_of_this_run(bots: pa.Array, info: RunInfo) -> bool:
    """Whether every row lists exactly this run's bots, seat by seat."""
    import pyarrow as pa  # the parquet extra
    import pyarrow.compute as pc  # the parquet extra

    seats = info.seats
    flat = pc.list_flatten(bots)
    if bots.null_count or flat.null_count or not _all_equal(pc.list_value_length(bots), seats):
        return False
    if len(set(info.bots)) == 1:
        return _all_equal(flat, info.bots[0])
    return all(
        _all_equal(flat.take(pa.array(range(s, len(flat), seats), pa.int64())), bot)
        for s, bot in enumerate(info.bots)
    )


def _plain_batch(batch: pa.RecordBatch, info: RunInfo) -> bool:
    """Whether every row of ``batch`` would pass the row checks and belongs to this run (the
    columns left out of the batch were proven by the statistics)."""
    import pyarrow.compute as pc  # the parquet extra

    present = set(batch.schema.names)
    if any(batch[c].null_count for c in _REQUIRED if c in present):
        return False
    same = {"variant": info.variant, "options": options_text(info.options), "seats": info.seats}
    if not all(_all_equal(batch[c], v) for c, v in same.items() if c in present):
        return False
    if not _bots_of_this_run(batch["bots"], info):
        return False
    for name in _LISTS:
        column = batch[name]
        if column.null_count or pc.list_flatten(column).null_count:
            return False
        if not _all_equal(pc.list_value_length(column), info.seats):
            return False
    if "seed" in present:
        seed = batch["seed"]
        if info.seed is None and seed.null_count != len(seed):
            return False
        if info.seed is not None and not _all_equal(seed, info.seed):
            return False
    if "key" in present:
        key = batch["key"]
        if info.seed is None and key.null_count:
            return False
        if key.null_count < len(key):
            lengths = pc.min_max(pc.utf8_length(key)).as_py()
            if lengths["min"] != 64 or lengths["max"] != 64:
                return False
    return int(pc.min(batch["index"]).as_py()) >= 0


def _runs(index: pa.Array) -> list[tuple[int, int]]:
    """The indices of a batch as half-open ranges of consecutive values, in batch order."""
    import pyarrow.compute as pc  # the parquet extra

    n = len(index)
    breaks = pc.indices_nonzero(pc.fill_null(pc.not_equal(pc.pairwise_diff(index), 1), False))
    starts = [0, *breaks.to_pylist()]
    ends = [*starts[1:], n]
    firsts = index.take(starts).to_pylist()
    return [(v, v + e - s) for v, s, e in zip(firsts, starts, ends, strict=True)]


def _take_batch(found: Finished, batch: pa.RecordBatch) -> bool:
    """Add a plain batch column by column; False (nothing added) if it needs the row checks."""
    import pyarrow as pa  # the parquet extra
    import pyarrow.compute as pc  # the parquet extra

    if not batch.num_rows:
        return True
    if FAULTS in batch.schema.names and pc.sum(pc.list_value_length(batch[FAULTS])).as_py():
        return False  # a game with a fault: its faults are counted row by row
    if not _plain_batch(batch, found.info) or not found.add_runs(_runs(batch["index"])):
        return False
    seats = found.info.seats
    reason = batch["reason"]
    if not isinstance(reason.type, pa.DictionaryType):
        reason = pc.dictionary_encode(reason)
    labels = reason.dictionary.to_pylist()
    # Each row's game points (seats int64 values, none missing) as one fixed-width key.
    flat = pc.list_flatten(batch["game_points"])
    data = flat.buffers()[1].slice(flat.offset * 8, len(flat) * 8)
    points = pa.Array.from_buffers(pa.binary(8 * seats), batch.num_rows, [None, data])
    keys = pa.table([reason.indices, points], names=["reason", "points"])
    for group in keys.group_by(["reason", "points"]).aggregate([([], "count_all")]).to_pylist():
        raw = group["points"]
        gps = tuple(
            int.from_bytes(raw[8 * s : 8 * s + 8], sys.byteorder, signed=True) for s in range(seats)
        )
        found.tally[(labels[group["reason"]], gps)] += group["count_all"]
    return True


def scan_parquet(path: Path, info: RunInfo, total: int) -> Finished:
    """The games of a Parquet file, a row group at a time.

    Of a file with this project's column types, each row group's columns that matter are read
    (the run-wide strings as dictionaries, without those its statistics prove) and checked
    as a whole; a row group where that fails goes on row by row, like any other file.
    """
    pf = open_parquet(path)
    found = Finished(path, info, total)
    expected = parquet_schema()
    md = pf.metadata
    if not all(pf.schema_arrow.field(f).type == expected.field(f).type for f in FIELDS):
        groups: list[int] = []
    else:
        leaves = [md.schema.column(j).path for j in range(len(md.schema))]
        dictionary = [p for p in leaves if p.split(".")[0] in _DICTIONARY]
        fast = open_parquet(path, read_dictionary=dictionary)
        groups = list(range(md.num_row_groups))
    number = 1
    for g in range(md.num_row_groups):
        taken = 0
        if g in groups:
            proven = _proven(md.row_group(g), info)
            columns = [c for c in _COLUMNS if c not in proven]
            if FAULTS in pf.schema_arrow.names:
                columns.append(FAULTS)
            for batch in parquet_batches(fast, path, columns, [g]):
                if not _take_batch(found, batch):
                    break
                taken += batch.num_rows
        if taken < md.row_group(g).num_rows:
            start = 0
            for batch in parquet_batches(pf, path, row_columns(pf), [g]):
                rest = batch.slice(max(0, taken - start))
                first = number + start + batch.num_rows - rest.num_rows
                for row in parquet_rows(rest, str(path), first):
                    found.add_row(row)
                start += batch.num_rows
        number += md.row_group(g).num_rows
    return found


# --------------------------------------------------------------------------- JSON Lines

_INT = rb"-?(?:0|[1-9][0-9]*)"
_NUMBER = _INT + rb"(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"


def line_pattern(info: RunInfo) -> re.Pattern[bytes]:
    """A line exactly as ``simulate`` writes it for this run; groups: the index, and the
    result (``reached_66","game_points":[3,0]``). A line it matches passes every check of a
    row and belongs to the run."""
    encoder = RowEncoder(info, "jsonl")
    seats = rb"\[" + _INT + (rb"," + _INT) * (info.seats - 1) + rb"\]"
    key = rb'"[0-9a-f]{64}"' if info.seed is None else rb'(?:null|"[0-9a-f]{64}")'
    return re.compile(
        rb'^\{"index":(0|[1-9][0-9]*)'
        + re.escape(encoder.jsonl_head.encode())
        + rb'"path":"game/[0-9]+","key":'
        + key
        + b","
        + re.escape(encoder.jsonl_tail.encode())
        + rb'"dealer":'
        + _INT
        + rb',"reason":"([A-Za-z0-9_]+","game_points":'
        + seats
        + rb'),"points":'
        + seats
        + rb',"tricks":'
        + seats
        + rb',"duration":'
        + _NUMBER
        + rb"\}$",
        re.MULTILINE,
    )


def _runs_of(indices: list[int]) -> list[tuple[int, int]]:
    """``indices`` as half-open ranges of consecutive values, in order."""
    runs = []
    start = previous = indices[0]
    for i in indices[1:]:
        if i != previous + 1:
            runs.append((start, previous + 1))
            start = i
        previous = i
    runs.append((start, previous + 1))
    return runs


def _take_block(found: Finished, block: bytes, pattern: re.Pattern[bytes]) -> bool:
    """Add a block of plain lines at once; False (nothing added) if it needs the row checks."""
    matches = pattern.findall(block)
    if len(matches) != block.count(b"\n"):
        return False
    if not matches:
        return True
    indices, results = zip(*matches, strict=True)
    if not found.add_runs(_runs_of(list(map(int, indices)))):
        return False
    for result, n in Counter(results).items():
        reason, gps = result.split(b'","game_points":')
        found.tally[(reason.decode(), tuple(int(x) for x in gps[1:-1].split(b",")))] += n
    return True


def scan_jsonl(path: Path, info: RunInfo, total: int) -> tuple[Finished, int]:
    """The games of a JSON Lines file and the length of a cut-off last line."""
    found = Finished(path, info, total)
    pattern = line_pattern(info)
    number = 0  # lines before the block
    cut = 0
    for block, tail in jsonl_blocks(path):
        cut = len(tail)
        if not _take_block(found, block, pattern):
            for k, line in enumerate(block.split(b"\n")[:-1], start=number + 1):
                if line.strip():
                    found.add_row(parse_line(line, f"{path}, line {k}"))
        number += block.count(b"\n")
    return found, cut


# --------------------------------------------------------------------------- either format


def load_for_resume(path: Path, info: RunInfo, total: int, summary: Summary) -> Resumed:
    """Check that ``path`` was written by this same run and total what it holds.

    The file's games go into ``summary``; a game index of ``total`` or more, a game that
    appears twice, or a row of another run (variant, options, seed or bots) is an error. A
    JSON Lines file loses a last line cut short by a hard stop.
    """
    dropped = 0
    if output_kind(path) == "parquet":
        found = scan_parquet(path, info, total)
    else:
        found, dropped = scan_jsonl(path, info, total)
    for (reason, gps), n in found.tally.items():
        summary.add_game(reason, gps, n)
    summary.add_faults(found.faults)
    if dropped:
        with path.open("r+b") as f:
            f.truncate(path.stat().st_size - dropped)
    return Resumed(found.done, found.count, summary, dropped)
