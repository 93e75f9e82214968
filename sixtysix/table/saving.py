"""What a table server keeps while its disk is full: a paused table's undelivered messages,
and rated results on their way to the standings.

A table whose file cannot be written is paused rather than told anything its file does not
hold (:class:`Pause`); a result the standings database cannot take yet stays in the table's
file (``unrecorded``) until it can (:class:`Results`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TypedDict, cast

from sixtysix.table.seats import Out

#: Seconds before the first new try to save a table that could not be saved (a full disk),
#: doubling up to the last: a table goes on soon after the disk has room again.
SAVE_RETRY_FIRST = 0.5
SAVE_RETRY_LAST = 2.0
#: How long a join to a paused table waits for it to go on before it is refused (seconds).
PAUSE_JOIN_WAIT = 60.0


@dataclass(eq=False)
class Pause:
    """A table whose last change could not be saved: it changes no more, and what that change
    tells waits here, until a new try saves it."""

    #: When the pause began (the server's clock): the table's timers are moved on by its length.
    since: float
    #: What the unsaved changes tell, in order, delivered once the file is written.
    pending: Out
    #: Set when the table goes on (a join waits for it).
    over: asyncio.Event = field(default_factory=asyncio.Event)


class Result(TypedDict):
    """One person's rated result, as a table gives it, its file keeps it and the standings
    database takes it (:meth:`~sixtysix.table.standings_db.ServerStandings.add`)."""

    name: str
    variant: str
    level: str
    seats: int
    seat: int
    ending: str
    score: int | None
    deals: int
    totals: list[int]


RESULT_FIELDS = tuple(Result.__annotations__)


class Results:
    """One table's rated results on their way to the standings database: the table adds them
    as it changes, its next commit writes them (in a thread, before anyone is told), and one
    the database cannot take yet (a full disk) stays, kept in the table's file, until it can."""

    def __init__(self, rows: list[Result] | None = None) -> None:
        self.rows: list[Result] = rows or []
        #: A failure to write them has been reported (one line until they are written).
        self.failing = False
        #: A task tries them again (a finished table has no next commit).
        self.retrying = False

    def add(self, result: Result) -> None:
        self.rows.append(result)


def os_reason(exc: OSError) -> str:
    """The operating system's words for ``exc`` (e.g. "No space left on device")."""
    return exc.strerror or str(exc) or type(exc).__name__


def kept_results(value: object) -> list[Result]:
    """The standings results a table file kept (``unrecorded``), each checked to be one a
    table gives; anything else in the list is left out."""
    rows: list[Result] = []
    if not isinstance(value, list):
        return rows
    for row in value:
        if not isinstance(row, dict) or set(row) != set(RESULT_FIELDS):
            continue
        ints = (row["seats"], row["seat"], row["deals"])
        texts = (row["name"], row["variant"], row["level"], row["ending"])
        totals = row["totals"]
        if (
            all(isinstance(v, int) and not isinstance(v, bool) for v in ints)
            and all(isinstance(v, str) for v in texts)
            and (row["score"] is None or type(row["score"]) is int)
            and isinstance(totals, list)
            and all(type(t) is int for t in totals)
        ):
            rows.append(cast(Result, {key: row[key] for key in RESULT_FIELDS}))
    return rows
