"""Table files: each table written whole after every action, and read back on restart.

``DIR/tables/ID.json`` holds ``{"format": "sixtysix-table-file/1", "table": {...}, "record":
{...}}``: how the table was set up, who sits where, who has left, and the RECORDS.md game
record of the match so far (its ``seed`` is the test table's; rated tables deal from a secure
seed, so after a restart their later deals are shuffled afresh). A write goes to a temporary
file in the same folder, is flushed to the disk (``fsync``) and renamed over the table file,
so a server killed at any moment leaves either the old file or the new one, never half of one.
A deal that a player's fault ended carries its ``forfeit`` in the record itself (RECORDS.md);
an old file's ``forfeits`` map in the table part (deal index to seat; it kept no kind of
fault, so each is read as a ``crash``) is still read, never written. The table part's
``unrecorded`` (when present) lists the rated results the standings database could not take
yet (a full disk), written there when the server can. A write that fails (a full disk) leaves
the old file whole. A temporary file left by a server that was killed mid-write is removed
when the next server starts on the folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sixtysix.core import bounded_json
from sixtysix.core.errors import RecordError, SixtySixError
from sixtysix.core.records import parse_record
from sixtysix.plugins.manager import Registry
from sixtysix.table.table import Config, Table

TABLE_FORMAT = "sixtysix-table-file/1"
#: A table file is far smaller than this (a match is a few dozen KB).
MAX_TABLE_FILE = 64 << 20


class StoreError(SixtySixError):
    """The data directory cannot be used; the message says what and where."""


def write_atomic(path: Path, text: str, keep: Callable[[], bool] = lambda: True) -> None:
    """``text`` into ``path`` whole: a temporary file beside it, fsync, then a rename (unless
    ``keep()`` says by then that a newer text has been written)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if keep():
            os.replace(tmp, path)
        else:
            os.unlink(tmp)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass
class Loaded:
    """A table file read back: its table, or why it could not be."""

    path: Path
    table: Table | None
    problem: str = ""


class Store:
    """The table files of one data directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self.tables = root / "tables"
        try:
            self.tables.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot use {self.tables}: {exc.strerror or exc}") from None
        if not os.access(self.tables, os.W_OK):
            raise StoreError(f"cannot write to {self.tables}")
        self.removed_leftovers = self._remove_leftovers()

    def _remove_leftovers(self) -> int:
        """Remove the temporary files of writes a killed server never finished (only one
        server uses a data folder, and it has written nothing yet); how many there were."""
        count = 0
        for leftover in self.tables.glob(".*.json.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()
                count += 1
        return count

    def path(self, table_id: str) -> Path:
        return self.tables / f"{table_id}.json"

    def exists(self, table_id: str) -> bool:
        return self.path(table_id).exists()

    @staticmethod
    def text(table: Table, unrecorded: Sequence[Mapping[str, Any]] = ()) -> str:
        """The file text of ``table`` (built in the event loop, written in a thread), with the
        standings results the server could not write yet, so that none is lost."""
        data = table.file_data()
        if unrecorded:
            data["table"]["unrecorded"] = [dict(row) for row in unrecorded]
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def write(self, table_id: str, text: str, version: int = 0) -> None:
        """Write a table's file; of two writes of one table at once (a clean stop while a
        bot's turn is still saved), the one of the higher ``version`` stays."""

        def keep() -> bool:
            with self._lock:
                if version < self._versions.get(table_id, -1):
                    return False
                self._versions[table_id] = version
                return True

        write_atomic(self.path(table_id), text, keep)

    def remove(self, table_id: str) -> None:
        """Delete a table's file (an open table that expired: it holds no game)."""
        with self._lock:
            self._versions[table_id] = 1 << 62
        with contextlib.suppress(FileNotFoundError):
            self.path(table_id).unlink()

    def load_all(
        self, build: Callable[[dict[str, Any]], Table], listed_for: float = 0.0
    ) -> list[Loaded]:
        """Every unfinished table file, and every one finished less than ``listed_for``
        seconds ago (for the listing) or keeping results for the standings, built into a
        table by ``build`` (a broken file is reported and left where it is)."""
        out: list[Loaded] = []
        now = time.time()
        for path in sorted(self.tables.glob("*.json")):
            try:
                if path.stat().st_size > MAX_TABLE_FILE:
                    raise RecordError("the file is too large")
                text = path.read_text(encoding="utf-8")
                data = bounded_json.loads(text, max_bytes=MAX_TABLE_FILE)
                if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
                    raise RecordError(f"not a {TABLE_FORMAT} file")
                meta = data.get("table")
                if not isinstance(meta, dict):
                    raise RecordError("no table part")
                if meta.get("finished"):
                    ended = meta.get("finished_at")
                    if not isinstance(ended, int | float) or isinstance(ended, bool):
                        ended = path.stat().st_mtime
                    if now - ended >= listed_for and not meta.get("unrecorded"):
                        continue
                out.append(Loaded(path, build(data)))
            except (OSError, ValueError, SixtySixError) as exc:
                out.append(Loaded(path, None, str(exc) or type(exc).__name__))
        return out


def table_from_file(data: dict[str, Any], registry: Registry, **kwargs: Any) -> Table:
    """The table of a table file's contents, its match played again up to where it was."""
    meta = data["table"]
    try:
        seats = meta["seats"]
        config = Config(
            id=str(meta["id"]),
            variant=str(meta["variant"]),
            options=dict(meta.get("options") or {}),
            seats=tuple(str(s) for s in seats),
            rated=bool(meta.get("rated", False)),
            move_time=meta.get("move_time"),
            on_leave=str(meta.get("on_leave", "end")),
            seed=data["record"].get("seed"),
            created_at=str(meta.get("created_at", "")),
            programs={str(k): str(v) for k, v in (meta.get("programs") or {}).items()},
            operator=meta.get("operator") is True,
        )
        names = [None if n is None else str(n) for n in meta["names"]]
        left = [bool(x) for x in meta["left"]]
        # An old file's map beside the record, read, never written (see the module's doc).
        forfeits = {int(k): int(v) for k, v in (meta.get("forfeits") or {}).items()}
        ended = meta.get("finished_at")
        finished_wall = (
            float(ended) if isinstance(ended, int | float) and meta.get("finished") else None
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"a broken table part ({type(exc).__name__}: {exc})") from None
    raw = parse_record(data["record"])
    if len(names) != len(seats) or len(left) != len(seats):
        raise RecordError("names and left must have one entry per seat")
    table = Table(
        config,
        registry,
        record=raw,
        names=names,
        left=left,
        forfeits=forfeits,
        finished_wall=finished_wall,
        **kwargs,
    )
    if meta.get("finished"):
        table.finish_restored()
    return table
