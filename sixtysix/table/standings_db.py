"""The server's standings: every person's rated results, per name, variant and opponents' level.

The scoring is the Portal's, as for ``play`` (:func:`sixtysix.service.standings.match_score` and
:func:`~sixtysix.service.standings.leaving_score`): the server computes a result's score with
those and records it here. The level is what the person played against: the labels of the
other seats, e.g. ``@hard,human``. The database handling is ``play``'s too (subclassing
:class:`~sixtysix.service.standings.Standings`): one row per result, one transaction per write, a
lock around it, the same damage checks.

The rows live in the table ``server_results`` of the server's SQLite database, which the names
(:mod:`sixtysix.table.names`) share. So unlike ``play``, a damaged database is not moved aside
and started afresh: that would free every name for anyone to claim. Writing to it raises
:class:`StandingsError` saying so (the table's record file still holds the match, so nothing
is lost), and the operator moves the file aside. Names are grouped without regard to case,
shown as most recently recorded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sixtysix.service.standings import Standings, StandingsError, leaving_score, match_score
from sixtysix.table.names import name_key, normalize_name

__all__ = [
    "Club",
    "MatchRow",
    "ServerStandings",
    "StandingRow",
    "StandingsError",
    "leaving_score",
    "level_of",
    "match_score",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS server_results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    played_at TEXT NOT NULL,
    name_key TEXT NOT NULL,    -- the name in NFC, case-folded (names.name_key)
    name TEXT NOT NULL,        -- the name as the server knows it
    variant TEXT NOT NULL,
    level TEXT NOT NULL,       -- the other seats' labels, comma separated
    seats INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    ending TEXT NOT NULL,      -- finished | left
    score INTEGER,             -- +1 / 0 / -1; NULL: left the table without a score
    deals INTEGER NOT NULL,
    totals TEXT NOT NULL       -- the match's game points per seat, space separated
)
"""
_COLUMNS = (
    *("id", "played_at", "name_key", "name", "variant", "level"),
    *("seats", "seat", "ending", "score", "deals", "totals"),
)
ENDINGS = ("finished", "left")
#: A person's matches are read by name, newest first: without this index every read of one
#: person's matches, and every name a standings row shows, would read the whole table.
_INDEX = "CREATE INDEX IF NOT EXISTS server_results_by_name ON server_results (name_key, id)"


def level_of(labels: Sequence[str], seat: int) -> str:
    """The opponents' level of ``seat``: the other seats' labels (``human`` for a person)."""
    return ",".join(label for s, label in enumerate(labels) if s != seat)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One person's results against one level of one variant."""

    name: str
    variant: str
    level: str
    played: int
    won: int
    drawn: int
    lost: int
    left: int
    score: int

    def as_json(self) -> dict[str, object]:
        """Every field, by its name, in order (the ``--json`` row)."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One rated match of one person, as the standings keep it."""

    played_at: str
    variant: str
    level: str
    seats: int
    seat: int
    ending: str
    score: int | None
    deals: int
    totals: tuple[int, ...]

    def as_json(self) -> dict[str, object]:
        """Every field, by its name, in order (``totals`` a list)."""
        data = asdict(self)
        data["totals"] = list(self.totals)
        return data


@dataclass(frozen=True, slots=True)
class Club:
    """A club's standings as one request reads them: the first rows and how many there are,
    and a person's newest matches and how many (None: no person asked for)."""

    rows: list[StandingRow]
    total: int
    history: list[MatchRow] | None = None
    history_total: int | None = None


class ServerStandings(Standings):
    """The server's results database."""

    _table = "server_results"
    _schema = _SCHEMA
    _columns = _COLUMNS

    def __init__(self, path: Path) -> None:
        super().__init__(Path(path))

    def _set_aside(self, reason: str) -> None:
        """Never: the names in the same file would be lost with it."""
        raise StandingsError(
            f"the server database {self.path} is damaged ({reason}); stop the server and move"
            " it aside to start a new one (names and standings start afresh)"
        )

    def add(  # type: ignore[override]
        self,
        name: str,
        variant: str,
        level: str,
        seats: int,
        seat: int,
        ending: str,
        score: int | None,
        deals: int,
        totals: Sequence[int],
        *,
        when: datetime | None = None,
    ) -> None:
        """Record one person's result of a rated match (``ending``: finished or left)."""
        if ending not in ENDINGS:
            raise ValueError(f"ending must be one of {', '.join(ENDINGS)}, not {ending!r}")
        if score not in (1, 0, -1, None):
            raise ValueError(f"a standings score is +1, 0, -1 or None, not {score!r}")
        if not 0 <= seat < seats or len(totals) != seats:
            raise ValueError(f"seat {seat} and totals {list(totals)} do not fit {seats} seats")
        text = normalize_name(name)
        row = (
            (when or datetime.now(UTC)).isoformat(timespec="seconds"),
            name_key(text),
            text,
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
            "INSERT INTO server_results (played_at, name_key, name, variant, level, seats, seat,"
            " ending, score, deals, totals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )

    def _connect(self) -> sqlite3.Connection:
        """A connection in write-ahead mode: a reader (anyone's ``standings`` request) never
        holds up the write of a table's result, which the table's next save waits for."""
        conn = super()._connect()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(_INDEX)
        return conn

    def rows(
        self,
        variant: str | None = None,
        name: str | None = None,
        *,
        level: str | None = None,
        limit: int | None = None,
    ) -> list[StandingRow]:
        """Standings per name, variant and level: per variant, best score first (the first
        ``limit`` of them)."""
        if not self._readable():
            return []
        return self._rows(variant, name, level, limit)

    def club(
        self,
        variant: str | None = None,
        level: str | None = None,
        name: str | None = None,
        limit: int = 50,
    ) -> Club:
        """What a ``standings`` request asks: the club's first ``limit`` rows of ``variant``
        and ``level`` (each None: all), and with ``name`` that person's newest ``limit``
        matches. Read without the whole file's integrity check, which a request from anyone
        must not cost; a file SQLite cannot read is a :class:`StandingsError`."""
        if not self.path.is_file():
            return Club([], 0, None if name is None else [], None if name is None else 0)
        rows = self._rows(variant, None, level, limit)
        total = self._count(
            "SELECT COUNT(*) FROM (SELECT 1 FROM server_results {where}"
            " GROUP BY name_key, variant, level)",
            variant,
            None,
            level,
        )
        if name is None:
            return Club(rows, total)
        history = self._history(name, variant, level, limit)
        matches = self._count("SELECT COUNT(*) FROM server_results {where}", variant, name, level)
        return Club(rows, total, history, matches)

    @staticmethod
    def _where(
        variant: str | None, name: str | None, level: str | None
    ) -> tuple[str, list[object]]:
        where: list[str] = []
        args: list[object] = []
        if variant is not None:
            where.append("variant = ?")
            args.append(variant)
        if name is not None:
            where.append("name_key = ?")
            args.append(name_key(name))
        if level is not None:
            where.append("level = ?")
            args.append(level)
        return ("WHERE " + " AND ".join(where) if where else ""), args

    def _fetch(self, query: str, args: Sequence[object]) -> list[tuple[Any, ...]]:
        try:
            conn = self._connect()
            try:
                return list(conn.execute(query, args).fetchall())
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise StandingsError(f"cannot read the standings database {self.path}: {exc}") from None

    def _count(self, query: str, variant: str | None, name: str | None, level: str | None) -> int:
        where, args = self._where(variant, name, level)
        return int(self._fetch(query.format(where=where), args)[0][0])

    def _history(
        self, name: str, variant: str | None, level: str | None, limit: int
    ) -> list[MatchRow]:
        """``name``'s newest ``limit`` matches of ``variant`` and ``level``, newest first."""
        where, args = self._where(variant, name, level)
        found = self._fetch(
            "SELECT played_at, variant, level, seats, seat, ending, score, deals, totals"
            f" FROM server_results {where} ORDER BY id DESC LIMIT ?",
            [*args, limit],
        )
        return [
            MatchRow(
                str(at),
                str(v),
                str(lvl),
                int(n),
                int(seat),
                str(end),
                None if score is None else int(score),
                int(deals),
                tuple(int(t) for t in str(totals).split()),
            )
            for at, v, lvl, n, seat, end, score, deals, totals in found
        ]

    def _rows(
        self, variant: str | None, name: str | None, level: str | None, limit: int | None
    ) -> list[StandingRow]:
        where_text, args = self._where(variant, name, level)
        if limit is not None:
            args.append(limit)
        query = (
            "SELECT (SELECT r2.name FROM server_results r2 WHERE r2.name_key = r.name_key"
            "  ORDER BY r2.id DESC LIMIT 1),"
            " variant, level, COUNT(*),"
            " SUM(CASE WHEN score = 1 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN score = 0 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN score = -1 THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN ending = 'left' THEN 1 ELSE 0 END),"
            " COALESCE(SUM(score), 0)"
            f" FROM server_results r {where_text}"
            " GROUP BY name_key, variant, level"
            " ORDER BY variant, COALESCE(SUM(score), 0) DESC, name_key, level"
            f"{'' if limit is None else ' LIMIT ?'}"
        )
        return [
            StandingRow(str(n), str(v), str(lvl), *(int(x) for x in counts))
            for n, v, lvl, *counts in self._fetch(query, args)
        ]
