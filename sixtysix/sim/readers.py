"""Reading simulation files without loading them: JSON Lines by lines or blocks, Parquet by
row groups.

A run of ten million games makes a file of hundreds of megabytes (Parquet) or gigabytes (JSON
Lines); turned into Python rows all at once it would take many gigabytes. Every reader here
holds one line, one block of lines or one record batch at a time:

- :func:`jsonl_rows` streams a JSON Lines file, skipping a last line cut short by a hard stop,
  and :func:`jsonl_blocks` reads it in blocks of whole lines;
- :func:`parquet_batches` streams the record batches of some columns of a Parquet file, a row
  group at a time, and :func:`parquet_rows` turns one batch into rows of the JSON Lines shape;
- :func:`find_row` finds one game: in JSON Lines by a byte search for the start of its line
  (``{"index":I,``), parsing only that line; in Parquet it reads only the row groups whose
  statistics of the ``index`` column can hold the game, and of those first the ``index``
  column alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from sixtysix.sim.errors import OutputError
from sixtysix.sim.rows import FAULTS, FIELDS, check_row, output_kind, require_pyarrow, with_faults

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

#: Rows per record batch when a Parquet file is streamed (the writer's row group size).
BATCH = 65_536
#: Bytes of JSON Lines read at a time by the readers that take whole blocks.
BLOCK = 1 << 22
#: One JSON Lines row is first looked for this many bytes either side of where a bisection
#: puts it, the bisection stopping at ranges of :data:`GUESS` bytes.
WINDOW = 1 << 24
GUESS = 1 << 16
_INDEX_PREFIX = b'{"index":'


def _exists(path: Path) -> None:
    if not path.exists():
        raise OutputError(f"{path} does not exist")


# --------------------------------------------------------------------------- JSON Lines


def jsonl_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` for every complete line (not a last one cut off by a hard
    stop)."""
    try:
        with path.open("rb") as f:
            for number, line in enumerate(f, start=1):
                if not line.endswith(b"\n"):
                    return
                yield number, line
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None


def parse_line(line: bytes, where: str) -> dict[str, Any]:
    """One JSON Lines row, checked."""
    try:
        row = json.loads(line)
    except (ValueError, RecursionError):  # also too deep, or a number past int()'s limit
        raise OutputError(f"{where}: not valid JSON") from None
    return check_row(row, where)


def jsonl_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Every complete row of a JSON Lines file, in file order, one line in memory at a time."""
    for number, line in jsonl_lines(path):
        if line.strip():
            yield parse_line(line, f"{path}, line {number}")


def leading_index(line: bytes) -> int | None:
    """The index a line written by ``simulate`` starts with (``{"index":123,``), or None
    when the line has another layout (and must be parsed to know)."""
    if not line.startswith(_INDEX_PREFIX):
        return None
    comma = line.find(b",", len(_INDEX_PREFIX), len(_INDEX_PREFIX) + 24)
    digits = line[len(_INDEX_PREFIX) : comma]
    if comma == -1 or not digits.isdigit() or (len(digits) > 1 and digits[0] == ord("0")):
        return None
    return int(digits)


def jsonl_blocks(path: Path) -> Iterator[tuple[bytes, bytes]]:
    """``(block, b"")`` for blocks of whole lines, then ``(b"", tail)`` with the bytes of a
    last line cut short by a hard stop (``tail`` empty when the file ends cleanly)."""
    carry = b""
    try:
        with path.open("rb") as f:
            while chunk := f.read(BLOCK):
                data = carry + chunk
                end = data.rfind(b"\n") + 1
                carry = data[end:]
                if end:
                    yield data[:end], b""
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None
    yield b"", carry


def _line_at(f: BinaryIO, offset: int) -> bytes:
    """The first complete line that starts at or after ``offset`` (b"" if none)."""
    f.seek(offset)
    if offset:
        f.readline()
    line = f.readline()
    return line if line.endswith(b"\n") else b""


def _guess(f: BinaryIO, size: int, index: int) -> int | None:
    """About where game ``index``'s line starts if the lines are about in index order (as
    ``simulate`` writes them): a bisection on the lines' leading indices. None when a line it
    looks at has another layout."""
    lo, hi = 0, size
    while hi - lo > GUESS:
        mid = (lo + hi) // 2
        found = leading_index(_line_at(f, mid))
        if found is None:
            return None
        lo, hi = (mid, hi) if found < index else (lo, mid)
    return lo


def _near_guess(path: Path, index: int) -> dict[str, Any] | None:
    """Game ``index``'s row if its line lies within :data:`WINDOW` bytes of the guess."""
    needle = b"\n" + _INDEX_PREFIX + b"%d," % index
    try:
        with path.open("rb") as f:
            size = path.stat().st_size
            guess = _guess(f, size, index)
            if guess is None:
                return None
            low = max(0, guess - WINDOW)
            f.seek(low)
            window = f.read(min(size, guess + WINDOW) - low)
            if low == 0 and window.startswith(needle[1:]):
                start = 0
            else:
                at = window.find(needle)
                if at == -1:
                    return None
                start = at + 1
            f.seek(low + start)
            line = f.readline()
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not line.endswith(b"\n"):
        return None
    try:
        return parse_line(line, str(path))
    except OutputError:
        number = 1 + sum(block.count(b"\n") for block in _blocks_before(path, low + start))
        return parse_line(line, f"{path}, line {number}")


def _blocks_before(path: Path, stop: int) -> Iterator[bytes]:
    """The bytes of a file before offset ``stop``, a block at a time."""
    with path.open("rb") as f:
        while stop > 0 and (block := f.read(min(BLOCK, stop))):
            stop -= len(block)
            yield block


def find_jsonl_row(path: Path, index: int) -> dict[str, Any]:
    """Game ``index`` of a JSON Lines file.

    The lines of ``simulate`` are about in index order (chunks interleave a little), so the
    line is first looked for near where a bisection on the lines' leading indices puts it.
    Failing that, the file is read a block at a time: in a block whose every line starts with
    its index the line is found by a byte search, and only it is parsed; a block of other
    lines is read line by line, parsing those that do not start with their index.
    """
    _exists(path)
    near = _near_guess(path, index)
    if near is not None and near["index"] == index:
        return near
    starts = b"\n" + _INDEX_PREFIX
    needle = starts + b"%d," % index
    number = 0  # lines before the block
    for block, _ in jsonl_blocks(path):
        lines = block.count(b"\n")
        if block.startswith(_INDEX_PREFIX) and block.count(starts) == lines - 1:
            if block.startswith(needle[1:]):
                start = 0
            else:
                at = block.find(needle)
                start = -1 if at == -1 else at + 1
            if start >= 0:
                end = block.index(b"\n", start) + 1
                at_line = number + block.count(b"\n", 0, start) + 1
                return parse_line(block[start:end], f"{path}, line {at_line}")
        else:
            for k, line in enumerate(block.split(b"\n")[:-1], start=number + 1):
                found = leading_index(line)
                if found is None and line.strip():
                    row = parse_line(line, f"{path}, line {k}")
                    if row["index"] == index:
                        return row
                elif found == index:
                    return parse_line(line, f"{path}, line {k}")
        number += lines
    raise OutputError(f"{path} has no game {index}")


# --------------------------------------------------------------------------- Parquet


def _arrow_errors() -> tuple[type[BaseException], ...]:
    import pyarrow as pa  # the parquet extra

    return (OSError, ValueError, pa.ArrowException)


def _unreadable(path: Path, exc: BaseException) -> OutputError:
    lines = str(exc).strip().splitlines()
    why = lines[0] if lines else type(exc).__name__
    return OutputError(f"cannot read {path} as Parquet: {why}")


def open_parquet(path: Path, read_dictionary: Sequence[str] | None = None) -> pq.ParquetFile:
    """The file's footer (schema, row groups, statistics), checked to hold every field;
    ``read_dictionary`` names leaf columns to read as dictionaries."""
    _exists(path)
    require_pyarrow()
    import pyarrow.parquet as pq  # the parquet extra

    try:
        pf = pq.ParquetFile(path, read_dictionary=read_dictionary)
    except _arrow_errors() as exc:
        raise _unreadable(path, exc) from None
    names = pf.schema_arrow.names
    missing = [f for f in FIELDS if f not in names]
    if missing:
        raise OutputError(f"{path}: not a sixtysix simulation file (no {', '.join(missing)})")
    return pf


def row_columns(pf: pq.ParquetFile) -> tuple[str, ...]:
    """The columns a row is read from: every field, and ``faults`` where the file has it."""
    return (*FIELDS, FAULTS) if FAULTS in pf.schema_arrow.names else FIELDS


def parquet_batches(
    pf: pq.ParquetFile,
    path: Path,
    columns: Sequence[str],
    row_groups: Sequence[int] | None = None,
) -> Iterator[pa.RecordBatch]:
    """Record batches of ``columns`` (in that order), of at most :data:`BATCH` rows.

    One row group is read at a time: a reader over the whole file reads ahead and holds
    several row groups at once.
    """
    groups = range(pf.metadata.num_row_groups) if row_groups is None else row_groups
    errors = _arrow_errors()
    for group in groups:
        try:
            batches = pf.iter_batches(
                batch_size=BATCH, columns=list(columns), row_groups=[group], use_threads=False
            )
            while True:
                try:
                    batch = next(batches)
                except StopIteration:
                    break
                yield batch
        except errors as exc:
            raise _unreadable(path, exc) from None


def parquet_rows(batch: pa.RecordBatch, where: str, first: int = 1) -> Iterator[dict[str, Any]]:
    """The rows of a batch in the JSON Lines shape (``options`` decoded), numbered from
    ``first`` in error messages."""
    names = [*FIELDS, *([FAULTS] if FAULTS in batch.schema.names else [])]
    for number, row in enumerate(batch.select(names).to_pylist(), start=first):
        try:
            row["options"] = json.loads(row["options"])
        except (TypeError, ValueError, RecursionError):
            raise OutputError(f"{where}, row {number}: 'options' is not a JSON object") from None
        if not row.get(FAULTS, True):
            del row[FAULTS]  # no fault: the row is what a JSON Lines file holds
        yield check_row(row, f"{where}, row {number}")


def iter_parquet_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Every row of a Parquet file in file order, a batch at a time."""
    pf = open_parquet(path)
    number = 1
    for batch in parquet_batches(pf, path, row_columns(pf)):
        yield from parquet_rows(batch, str(path), number)
        number += batch.num_rows


def index_leaf(pf: pq.ParquetFile) -> int:
    """The position of the ``index`` column among the file's leaf columns (for statistics)."""
    schema = pf.metadata.schema
    for j in range(len(schema)):
        if schema.column(j).path == "index":
            return j
    raise AssertionError("open_parquet checked that the file has an index column")


def groups_that_may_hold(pf: pq.ParquetFile, index: int) -> list[int]:
    """The row groups whose ``index`` statistics admit ``index`` (all of those without)."""
    md = pf.metadata
    leaf = index_leaf(pf)
    out = []
    for g in range(md.num_row_groups):
        group = md.row_group(g)
        stats = group.column(leaf).statistics
        if stats is not None and stats.has_min_max:
            low, high = stats.min, stats.max
            if isinstance(low, int) and isinstance(high, int) and not low <= index <= high:
                continue
        elif stats is not None and stats.null_count == group.num_rows:
            continue  # every index in the group is null
        out.append(g)
    return out


def find_parquet_row(path: Path, index: int) -> dict[str, Any]:
    """Game ``index`` of a Parquet file, reading only the row groups that may hold it."""
    import pyarrow.compute as pc  # the parquet extra

    pf = open_parquet(path)
    md = pf.metadata
    for g in groups_that_may_hold(pf, index):
        offset = sum(md.row_group(k).num_rows for k in range(g))
        position = 0
        for batch in parquet_batches(pf, path, ["index"], [g]):
            hits = pc.indices_nonzero(pc.fill_null(pc.equal(batch.column(0), index), False))
            if len(hits):
                position += hits[0].as_py()
                return _parquet_row_at(pf, path, g, position, offset)
            position += batch.num_rows
    raise OutputError(f"{path} has no game {index}")


def _parquet_row_at(
    pf: pq.ParquetFile, path: Path, group: int, position: int, offset: int
) -> dict[str, Any]:
    """Row ``position`` of row group ``group`` (``offset`` rows precede the group)."""
    start = 0
    for batch in parquet_batches(pf, path, row_columns(pf), [group]):
        if position < start + batch.num_rows:
            one = batch.slice(position - start, 1)
            return next(parquet_rows(one, str(path), offset + position + 1))
        start += batch.num_rows
    raise OutputError(f"cannot read {path} as Parquet: row group {group} ended early")


def copy_parquet(path: Path, writer: pq.ParquetWriter, row_group: int) -> None:
    """Append every row of ``path`` to ``writer`` a batch at a time (a resumed run's rows)."""
    import pyarrow as pa  # the parquet extra

    schema = writer.schema
    pf = open_parquet(path)
    for batch in parquet_batches(pf, path, row_columns(pf)):
        try:
            table = with_faults(pa.Table.from_batches([batch])).cast(schema)
        except _arrow_errors() as exc:
            raise _unreadable(path, exc) from None
        writer.write_table(table, row_group_size=row_group)


# --------------------------------------------------------------------------- either format


def read_rows(path: str | Path) -> Iterator[dict[str, Any]]:
    """Every row of a simulation file, JSON Lines or Parquet, in file order, streamed."""
    p = Path(path)
    _exists(p)
    if output_kind(p) == "parquet":
        yield from iter_parquet_rows(p)
    else:
        yield from jsonl_rows(p)


def find_row(path: str | Path, index: int) -> dict[str, Any]:
    """The row of game ``index``, without reading the rest of the file into memory."""
    p = Path(path)
    _exists(p)
    if output_kind(p) == "parquet":
        return find_parquet_row(p, index)
    return find_jsonl_row(p, index)
