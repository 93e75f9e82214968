"""The lobby of ``sixtysix join`` without ``--table``, as logic: which tables fit a name, the
choice made without asking when one does, the lines shown and the lines read."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sixtysix.i18n import Translator
from sixtysix.play.lobby import NoTableChosen, choose_table, chosen, lobby_lines
from sixtysix.table.client import TableError, free_seats, joinable, pick_table
from sixtysix.table.incoming import check_message
from tests.play.scripted import RecordingScreen

URL = "ws://127.0.0.1:6666"


def seat(name: str | None = None, kind: str = "human", label: str = "human") -> dict[str, Any]:
    return {"kind": kind, "label": label, "name": name, "connected": name is not None}


def listed(
    table: str,
    *seats: dict[str, Any],
    status: str = "open",
    rated: bool = False,
    move_time: int | None = None,
) -> dict[str, Any]:
    return {
        "table": table, "variant": "sixtysix-4" if len(seats) == 4 else "sixtysix",
        "options": {}, "rated": rated, "move_time": move_time, "status": status,
        "free": [i for i, s in enumerate(seats) if s["kind"] == "human" and s["name"] is None],
        "seats": list(seats), "deal": 0, "totals": [0] * len(seats),
    }  # fmt: skip


BOT = seat(kind="bot", label="@hard")
ONE = listed("t1", seat(), BOT)
TWO = listed("t2", seat("mehmet"), seat(), BOT, BOT, rated=True, move_time=60)
FULL = listed("t3", seat("can"), BOT, status="running")
OVER = listed("t4", seat("ayse"), BOT, status="finished")


def test_one_table_that_fits_is_joined_without_asking() -> None:
    assert joinable([ONE, FULL, OVER], "ayse") == ("t1", [ONE])
    assert joinable([ONE, TWO, FULL], "CAN") == ("t3", [FULL])  # where the name sits
    assert pick_table([ONE, FULL], "ayse", URL, Translator()) == "t1"


def test_a_choice_lists_the_names_tables_then_the_open_ones() -> None:
    assert joinable([ONE, TWO, FULL], "ayse") == (None, [ONE, TWO])
    mine = listed("t5", seat("ayse"), BOT, status="running")
    again = listed("t6", seat("Ayse"), seat(), BOT, BOT)
    assert joinable([ONE, mine, again], "ayse") == (None, [mine, again, ONE])
    with pytest.raises(TableError, match=r"Several tables at .* \(t1, t2\)"):
        pick_table([ONE, TWO], "ayse", URL, Translator())


def test_nothing_to_join() -> None:
    assert joinable([FULL, OVER], "ayse") == (None, [])
    with pytest.raises(TableError, match="No table is open"):
        pick_table([FULL, OVER], "ayse", URL, Translator())


def test_free_seats_from_an_older_server() -> None:
    old = {k: v for k, v in TWO.items() if k not in ("free", "move_time")}
    checked = check_message({"type": "tables", "tables": [old]})
    assert checked is not None
    (entry,) = checked["tables"]
    assert entry["free"] is None and entry["move_time"] is None
    assert free_seats(entry) == [1]
    assert joinable([entry], "ayse") == ("t2", [entry])


def test_the_lobbys_lines_in_both_languages() -> None:
    away = listed("t7", seat("ayse"), seat(), BOT, BOT)
    away["seats"][0]["connected"] = False
    assert lobby_lines([ONE, TWO, away], "ayse", URL, Translator("en")) == [
        f"Tables at {URL} to choose from:",
        "1. t1 · sixtysix · test table · free seats: 1 of 2",
        "   (free), @hard",
        "2. t2 · sixtysix-4 · rated, 60 s a move · free seats: 1 of 4",
        "   mehmet, (free), @hard, @hard",
        "3. t7 · sixtysix-4 · test table · free seats: 1 of 4 · you sit here",
        "   ayse (away), (free), @hard, @hard",
    ]
    assert lobby_lines([ONE, TWO], "ayse", URL, Translator("tr"))[1:4] == [
        "1. t1 · sixtysix · deneme masası · boş yer: 2 yerden 1",
        "   (boş), @hard",
        "2. t2 · sixtysix-4 · puanlı, hamle başına 60 sn · boş yer: 4 yerden 1",
    ]
    many = lobby_lines([ONE] * 10, "ayse", URL, Translator())
    assert many[1].startswith(" 1. t1") and many[19].startswith("10. t1")
    assert many[2].startswith("    (free)")


@pytest.mark.parametrize(
    ("line", "table"),
    [("1", "t1"), (" 2 ", "t2"), ("t2", "t2"), ("0", None), ("3", None), ("", None),
     ("x", None), ("١", None), ("+1", None), ("1.", None)],
)  # fmt: skip
def test_a_line_chooses_by_number_or_id(line: str, table: str | None) -> None:
    assert chosen(line, [ONE, TWO]) == table


def test_the_lobby_asks_until_a_number_fits() -> None:
    screen = RecordingScreen()
    prompts: list[str] = []

    async def main(lines: list[str | None], tables: list[dict[str, Any]]) -> str:
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        for line in lines:
            queue.put_nowait(line)
        return await choose_table(tables, "ayse", URL, Translator(), screen, prompts.append, queue)

    assert asyncio.run(main(["9", "two", "2"], [ONE, TWO])) == "t2"
    assert prompts == ["Table number (1-2): "] * 3
    said = screen.said
    assert said.count("Give a number from 1 to 2.") == 2
    assert said[0] == f"Tables at {URL} to choose from:"

    prompts.clear()
    assert asyncio.run(main([], [ONE, FULL])) == "t1"  # no question at all
    assert prompts == []
    with pytest.raises(NoTableChosen):
        asyncio.run(main(["x", None], [ONE, TWO]))
    assert prompts[-1] == "\n"  # the line the end of input left is ended
    with pytest.raises(TableError, match="No table is open"):
        asyncio.run(main([], [FULL]))
