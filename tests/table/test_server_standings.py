"""A club's standings over the wire: the ``standings`` request, checked field by field, answered
with ``club_standings`` from the server's database (read in threads of its own), bounded to one
frame; and the tables' listing with its free seats and move time."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sixtysix.table import server as server_module
from sixtysix.table import wire
from sixtysix.table.incoming import check_message
from sixtysix.table.standings_db import Club, ServerStandings, level_of, match_score
from tests.table.server_helpers import Conn, P, create, join, play_out, request, running

LEVEL = "human,human,@hard"


def fill(path: Path) -> None:
    """Three 66-4 matches of ayse, mehmet and Çağrı against a bot, and one 66 ayse left."""
    book = ServerStandings(path)
    labels = ["human", "human", "human", "@hard"]
    for day, totals in enumerate(([7, 3, 0, 3], [2, 7, 1, 3], [7, 7, 1, 2]), 1):
        for seat, name in enumerate(["ayse", "mehmet", "Çağrı"]):
            book.add(
                name, "sixtysix-4", level_of(labels, seat), 4, seat, "finished",
                match_score(totals, seat), 5, totals, when=datetime(2025, 3, day, tzinfo=UTC),
            )  # fmt: skip
    when = datetime(2025, 3, 9, tzinfo=UTC)
    book.add("Ayse", "sixtysix", "@hard", 2, 0, "left", -1, 1, [0, 3], when=when)


async def ask(url: str, **fields: Any) -> tuple[dict[str, Any], tuple[int | None, str | None]]:
    """A standings request: the answer, and the close that follows it."""
    conn = await Conn.open(url)
    await conn.send({"type": "standings", "protocol": P, **fields})
    answer = await conn.next()
    return answer, await conn.closed()


def test_the_club_and_a_persons_matches(tmp_path: Path) -> None:
    fill(tmp_path / "server.sqlite3")

    async def main() -> None:
        async with running(tmp_path) as (url, _):
            club, close = await ask(url)
            assert close == (wire.CLOSE_NORMAL, "standings")
            assert club["type"] == "club_standings"
            assert (club["variant"], club["level"], club["name"], club["limit"]) == (
                None, None, None, 50,
            )  # fmt: skip
            assert [(r["name"], r["variant"], r["score"]) for r in club["rows"]] == [
                ("Ayse", "sixtysix", -1),
                ("Ayse", "sixtysix-4", 1),  # a name as most recently recorded
                ("mehmet", "sixtysix-4", 1),
                ("Çağrı", "sixtysix-4", -3),
            ]
            assert club["rows"][3] == {
                "name": "Çağrı", "variant": "sixtysix-4", "level": LEVEL, "played": 3,
                "won": 0, "drawn": 0, "lost": 3, "left": 0, "score": -3,
            }  # fmt: skip
            assert club["total"] == 4 and club["history"] is None
            assert club["history_total"] is None
            assert check_message(club) == club  # what the client accepts

            mine, _ = await ask(url, variant="66-4", name="AYSE", limit=2)
            assert mine["variant"] == "sixtysix-4"  # an alias read as its variant
            assert [r["name"] for r in mine["rows"]] == ["Ayse", "mehmet"]
            assert mine["total"] == 3 and mine["history_total"] == 3
            assert mine["history"] == [
                {
                    "played_at": "2025-03-03T00:00:00+00:00", "variant": "sixtysix-4",
                    "level": LEVEL, "seats": 4, "seat": 0, "ending": "finished", "score": 0,
                    "deals": 5, "totals": [7, 7, 1, 2],
                },
                {
                    "played_at": "2025-03-02T00:00:00+00:00", "variant": "sixtysix-4",
                    "level": LEVEL, "seats": 4, "seat": 0, "ending": "finished", "score": 0,
                    "deals": 5, "totals": [2, 7, 1, 3],
                },
            ]  # fmt: skip
            level, _ = await ask(url, level="@hard", name="nobody")
            assert [r["variant"] for r in level["rows"]] == ["sixtysix"]
            assert (level["history"], level["history_total"]) == ([], 0)
            unknown, _ = await ask(url, variant="no-such-game")
            assert (unknown["variant"], unknown["rows"], unknown["total"]) == (
                "no-such-game", [], 0,
            )  # fmt: skip

    asyncio.run(main())


def test_a_rated_match_played_at_the_server_is_in_its_standings(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _):
            table = await create(url, "66", ["human", "@random"], rated=True, move_time=300)
            conn, _ = await join(url, table, "ayse")
            over = await play_out(conn)
            club, _ = await ask(url, name="ayse")
            (row,) = club["rows"]
            score = 1 if over["winners"] == [0] else -1
            assert (row["name"], row["variant"], row["level"], row["played"]) == (
                "ayse", "sixtysix", "@random", 1,
            )  # fmt: skip
            assert row["score"] == score
            (match,) = club["history"]
            assert match["totals"] == over["totals"] and match["ending"] == "finished"

    asyncio.run(main())


@pytest.mark.parametrize(
    "fields",
    [
        {"limit": 0},
        {"limit": 501},
        {"limit": "5"},
        {"limit": True},
        {"limit": 2.5},
        {"variant": ""},
        {"variant": 66},
        {"variant": "x" * 101},
        {"level": ""},
        {"level": ["@hard"]},
        {"level": "\ud800"},  # JSON carries a lone surrogate; no database takes it
        {"variant": "66\udfff"},
        {"level": "x" * (wire.MAX_LEVEL + 1)},
        {"name": "two words"},
        {"name": ""},
        {"name": 7},
        {"name": "x" * 33},
    ],
)
def test_every_field_is_checked(fields: dict[str, Any]) -> None:
    message = {"type": "standings", "protocol": P, **fields}
    with pytest.raises(wire.WireError) as refused:
        wire.check_request(message)
    assert refused.value.code == "garbage" and refused.value.closes


def test_a_request_as_read() -> None:
    base = {"type": "standings", "protocol": P}
    assert wire.check_request(base) == wire.StandingsQuery(None, None, None, 50)
    read = wire.check_request(
        {**base, "variant": "66", "level": "@hard", "name": "Ayşe", "limit": 500, "other": 1}
    )
    assert read == wire.StandingsQuery("66", "@hard", "Ayşe", 500)
    nulls = {**base, "variant": None, "level": None, "name": None, "limit": None}
    assert wire.check_request(nulls) == wire.StandingsQuery()
    with pytest.raises(wire.WireError) as wrong:
        wire.check_request({**base, "protocol": "sixtysix-table/2"})
    assert wrong.value.code == "protocol"


def test_bad_requests_are_refused_over_the_wire(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _):
            for fields in ({"limit": 0}, {"name": "a b"}, {"variant": 3}):
                answer, (code, reason) = await ask(url, **fields)
                assert answer["type"] == "error" and answer["code"] == "garbage"
                assert code == wire.CLOSE_POLICY and reason == answer["message"]

    asyncio.run(main())


def test_a_reply_fits_one_frame_and_still_counts_every_row() -> None:
    row = {
        "name": "x" * 32, "variant": "sixtysix-4", "level": "@expert," * 6 + "@expert",
        "played": 999, "won": 333, "drawn": 333, "lost": 333, "left": 0, "score": 0,
    }  # fmt: skip
    match = {
        "played_at": "2025-03-01T12:00:00+00:00", "variant": "sixtysix-4", "level": "human",
        "seats": 4, "seat": 0, "ending": "finished", "score": 1, "deals": 9,
        "totals": [7, 3, 0, 3],
    }  # fmt: skip
    query = wire.StandingsQuery(name="x", limit=500)
    reply = wire.club_standings(query, [row] * 500, 1234, [match] * 500, 500)
    assert len(wire.encode(reply).encode()) <= wire.MAX_MESSAGE
    assert 0 < len(reply["rows"]) < 500 and 0 < len(reply["history"]) < 500
    assert reply["total"] == 1234 and reply["history_total"] == 500
    # What one list leaves over is the other's.
    alone = wire.club_standings(query, [row] * 500, 500, [], 0)
    assert len(alone["rows"]) > len(reply["rows"])
    assert len(wire.encode(alone).encode()) <= wire.MAX_MESSAGE
    small = wire.club_standings(query, [row] * 3, 3, None, None)
    assert small["rows"] == [row] * 3 and small["history"] is None
    assert json.loads(wire.encode(small)) == small


def test_reads_are_in_the_standings_threads_and_rationed(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, server):
            book = server.standings
            assert isinstance(book, ServerStandings)
            threads: list[str] = []

            def club(*args: Any) -> Club:
                threads.append(threading.current_thread().name)
                return book.club(*args)

            server.standings = type("Book", (), {"club": staticmethod(club), "add": book.add})()
            answer, _ = await ask(url)
            assert answer["type"] == "club_standings"
            assert threads and threads[0].startswith("sixtysix-standings")

            server.reading = server_module.STANDINGS_WAITING
            busy, (code, _) = await ask(url)
            assert (busy["type"], busy["code"], code) == ("error", "quota", wire.CLOSE_POLICY)
            server.reading = 0

            server.standings = None  # a server that keeps none answers with none
            none, _ = await ask(url, name="ayse")
            assert (none["rows"], none["total"], none["history"]) == ([], 0, [])

    asyncio.run(main())


def test_a_database_that_cannot_be_read_is_a_server_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"garbage, not a database" * 200)

    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            lines: list[str] = []
            server.say = lines.append
            server.standings = ServerStandings(bad)
            answer, (code, _) = await ask(url)
            assert (answer["type"], answer["code"], code) == ("error", "server", wire.CLOSE_ERROR)
            assert len(lines) == 1 and "cannot be read" in lines[0]
            listed = await request(url, {"type": "list"})  # the server goes on
            assert listed["type"] == "tables"

    asyncio.run(main())


def test_the_listing_tells_free_seats_and_move_time(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _):
            rated = await create(
                url, "66-4", ["human", "human", "@hard", "@hard"], rated=True, move_time=30
            )
            test = await create(url, "66", ["human", "@random"])
            conn, _ = await join(url, rated, "ayse")
            listed = {t["table"]: t for t in (await request(url, {"type": "list"}))["tables"]}
            assert (listed[rated]["move_time"], listed[rated]["free"]) == (30, [1])
            assert (listed[test]["move_time"], listed[test]["free"]) == (None, [0])
            assert check_message({"type": "tables", "tables": list(listed.values())})
            await conn.close()

    asyncio.run(main())
