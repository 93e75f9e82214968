"""Rated results and local standings, by the Portal's rules (RULES.md "Play on the Portal").

A finished rated match scores +1, 0 or -1 for the person: with two players win, draw, loss;
with three or four a sole first +1, a sole last -1, a shared first 0, a shared last -1, others
0. Leaving the table (quitting, Ctrl-C, the move timer running out) in the first deal is a
loss; later it scores nothing if the leaver is the sole leader on the completed deals, otherwise
it is a loss.

Results live in an SQLite database in the user's data directory (``platformdirs``), or under
``$SIXTYSIX_DATA_DIR`` when that is set (the tests use it). Each result is one row, so the
standings are a plain aggregate per variant and level.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

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


def data_dir() -> Path:
    """Where standings and saved games live: ``$SIXTYSIX_DATA_DIR`` or the platform's user
    data directory."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

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
        return {
            "variant": self.variant,
            "level": self.level,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "unscored": self.unscored,
            "score": self.score,
        }


class Standings:
    """The results database. Opened per use; every write is its own transaction."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else data_dir() / DB_NAME

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path)
        conn.execute(_SCHEMA)
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
        stamp = (when or datetime.now(UTC)).isoformat(timespec="seconds")
        conn = self._connect()
        try:
            with conn:
                conn.execute(
                    "INSERT INTO results (played_at, variant, level, seats, seat, ending, score,"
                    " deals, totals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        stamp,
                        variant,
                        level,
                        seats,
                        seat,
                        ending,
                        score,
                        deals,
                        " ".join(str(t) for t in totals),
                    ),
                )
        finally:
            conn.close()

    def table(self, variant: str | None = None) -> list[Standing]:
        """Standings per variant and level, best score first."""
        if not self.path.exists():
            return []
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
