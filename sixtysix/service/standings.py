"""Rated results and local standings, by the Portal's rules (RULES.md "Play on the Portal").

A finished rated match scores +1, 0 or -1 for the person: with two players win, draw, loss;
with three or four a sole first +1, a sole last -1, a shared first 0, a shared last -1, others
0. Leaving the table (quitting, Ctrl-C, the move timer running out) in the first deal is a
loss; later it scores nothing if the leaver is the sole leader on the completed deals, otherwise
it is a loss.

Results live in an SQLite database in the user's data directory (``platformdirs``), or under
``$SIXTYSIX_DATA_DIR`` when that is set (the tests use it). Each result is one row, so the
standings are a plain aggregate per variant and level.

A damaged database (not SQLite, truncated, a ``results`` table of another program) never
costs a finished result: writing a result moves the damaged file aside, says so in one line,
and starts a new database with the result in it. Reading the standings only reports the damage.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from sixtysix.core.errors import SixtySixError
from sixtysix.core.files import aside_name, locked_beside

DATA_DIR_ENV = "SIXTYSIX_DATA_DIR"
DB_NAME = "standings.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    played_at TEXT NOT NULL,
    variant TEXT NOT NULL,
    level TEXT NOT NULL,
    seats INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    ending TEXT NOT NULL,      -- finished | left
    score INTEGER,             -- +1 / 0 / -1; NULL: left the table without a score
    deals INTEGER NOT NULL,
    totals TEXT NOT NULL       -- the match's game points per seat, space separated
)
"""
#: The columns of ``results`` in order (a table of another program is damage, not ours).
_COLUMNS = (
    *("id", "played_at", "variant", "level", "seats"),
    *("seat", "ending", "score", "deals", "totals"),
)
#: How long a write waits for another process's write to the database (seconds).
_BUSY_TIMEOUT = 30.0


class StandingsError(SixtySixError):
    """The standings database cannot be read or written; the message says what and where."""


def data_dir() -> Path:
    """Where standings and saved games live: ``$SIXTYSIX_DATA_DIR`` or the platform's user
    data directory."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)

    return Path(platformdirs.user_data_dir("sixtysix"))


def match_score(totals: Sequence[int], seat: int) -> int:
    """The standings score of ``seat`` for a finished match with these totals."""
    best, worst = max(totals), min(totals)
    mine = totals[seat]
    if mine == best:
        return 1 if totals.count(best) == 1 else 0
    if mine == worst:
        return -1
    return 0


def leaving_score(completed_totals: Sequence[int], deals_completed: int, seat: int) -> int | None:
    """The score for leaving a rated match: -1 in the first deal; later None (no score) when
    ``seat`` is the sole leader on the completed deals, else -1."""
    if deals_completed == 0:
        return -1
    mine = completed_totals[seat]
    if all(mine > t for s, t in enumerate(completed_totals) if s != seat):
        return None
    return -1


@dataclass(frozen=True, slots=True)
class Standing:
    variant: str
    level: str
    games: int
    wins: int
    draws: int
    losses: int
    unscored: int
    score: int

    def as_json(self) -> dict[str, object]:
        """Every field, by its name, in order (the ``--json`` row)."""
        return asdict(self)


class Standings:
    """The results database. Opened per use; every write is its own transaction.

    ``warn`` receives the one line that says a damaged database was moved aside. A subclass
    with other columns (the table server's standings) sets ``_table``, ``_schema`` and
    ``_columns`` and keeps the damage handling, the lock and the moving aside.
    """

    #: The table of results, the statement creating it and its columns in order.
    _table = "results"
    _schema = _SCHEMA
    _columns: tuple[str, ...] = _COLUMNS

    def __init__(self, path: Path | None = None, warn: Callable[[str], None] | None = None) -> None:
        self.path = path if path is not None else data_dir() / DB_NAME
        self.warn = warn

    def damage(self) -> str | None:
        """What is wrong with the database file, or None when it is sound (or absent)."""
        if not self.path.exists():
            return None
        if not self.path.is_file():
            return "it is not a regular file"
        try:
            conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT)
        except sqlite3.Error as exc:
            return str(exc)
        try:
            check = conn.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                return "it fails SQLite's integrity check"
            info = conn.execute(f"PRAGMA table_info({self._table})")
            columns = tuple(row[1] for row in info)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StandingsError(f"the standings database {self.path} is busy: {exc}") from None
            return str(exc)
        except sqlite3.DatabaseError as exc:
            return str(exc)
        finally:
            conn.close()
        if columns and columns != self._columns:
            return "its results table is not one of sixtysix's standings"
        return None

    def _locked(self) -> AbstractContextManager[None]:
        """Only one process at a time checks, repairs and writes the database."""
        return locked_beside(
            self.path,
            lambda exc: StandingsError(
                f"cannot write the standings in {self.path.parent}: {exc.strerror}"
            ),
        )

    def _set_aside(self, reason: str) -> None:
        """Move the damaged database (and SQLite's files beside it) to a name of its own."""
        aside = aside_name(self.path)
        try:
            for suffix in ("-journal", "-wal", "-shm"):
                extra = self.path.with_name(self.path.name + suffix)
                if extra.exists():
                    extra.rename(aside.with_name(aside.name + suffix))
            self.path.rename(aside)
        except OSError as exc:
            raise StandingsError(
                f"the standings database {self.path} is damaged ({reason}) and cannot be moved"
                f" aside: {exc.strerror}"
            ) from None
        line = (
            f"The standings database {self.path} was damaged ({reason}); it is kept as {aside}"
            " and a new one is started."
        )
        if self.warn is not None:
            self.warn(line)

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT)
        conn.execute(self._schema)
        return conn

    def add(
        self,
        *,
        variant: str,
        level: str,
        seats: int,
        seat: int,
        ending: str,
        score: int | None,
        deals: int,
        totals: Sequence[int],
        when: datetime | None = None,
    ) -> None:
        """Record one result; a damaged database is set aside first, never the result lost."""
        row = (
            (when or datetime.now(UTC)).isoformat(timespec="seconds"),
            variant,
            level,
            seats,
            seat,
            ending,
            score,
            deals,
            " ".join(str(t) for t in totals),
        )
        self._insert(
            "INSERT INTO results (played_at, variant, level, seats, seat, ending,"
            " score, deals, totals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )

    def _insert(self, statement: str, row: Sequence[object]) -> None:
        """Write one row under the lock, a damaged database set aside first."""
        with self._locked():
            reason = self.damage()
            if reason is not None:
                self._set_aside(reason)
            try:
                conn = self._connect()
                try:
                    with conn:
                        conn.execute(statement, row)
                finally:
                    conn.close()
            except sqlite3.Error as exc:
                raise StandingsError(
                    f"cannot write the standings database {self.path}: {exc}"
                ) from None

    def table(self, variant: str | None = None) -> list[Standing]:
        """Standings per variant and level, best score first."""
        if not self._readable():
            return []
        try:
            return self._read(variant)
        except sqlite3.Error as exc:
            raise StandingsError(f"cannot read the standings database {self.path}: {exc}") from None

    def _readable(self) -> bool:
        """Whether there is a sound database to read: False when absent; damage raises."""
        if not self.path.exists():
            return False
        reason = self.damage()
        if reason is not None:
            raise StandingsError(
                f"the standings database {self.path} is damaged ({reason}); the next rated"
                " game keeps it aside and starts a new one"
            )
        return True

    def _read(self, variant: str | None) -> list[Standing]:
        conn = self._connect()
        try:
            query = (
                "SELECT variant, level, COUNT(*),"
                " SUM(CASE WHEN score = 1 THEN 1 ELSE 0 END),"
                " SUM(CASE WHEN score = 0 THEN 1 ELSE 0 END),"
                " SUM(CASE WHEN score = -1 THEN 1 ELSE 0 END),"
                " SUM(CASE WHEN score IS NULL THEN 1 ELSE 0 END),"
                " COALESCE(SUM(score), 0)"
                " FROM results {where} GROUP BY variant, level"
                " ORDER BY variant, COALESCE(SUM(score), 0) DESC, level"
            )
            if variant is None:
                rows = conn.execute(query.format(where="")).fetchall()
            else:
                rows = conn.execute(query.format(where="WHERE variant = ?"), (variant,)).fetchall()
        finally:
            conn.close()
        return [
            Standing(str(v), str(lvl), int(g), int(w), int(d), int(lo), int(u), int(s))
            for v, lvl, g, w, d, lo, u, s in rows
        ]
