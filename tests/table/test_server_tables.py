"""Listing tables, a second connection of one name, and refusals that keep the connection."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sixtysix.table import wire
from tests.table.server_helpers import create, join, play_out, request, running


def test_tables_are_listed_with_public_facts_only(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _):
            empty = await request(url, {"type": "list"})
            assert empty == {"type": "tables", "tables": []}
            table = await create(url, "66", ["human", "@random"], seed=8, options={"target": 1})
            listed = (await request(url, {"type": "list"}))["tables"]
            assert listed == [
                {
                    "table": table,
                    "variant": "sixtysix",
                    "options": {"target": 1},
                    "rated": False,
                    "move_time": None,
                    "status": "open",
                    "free": [0],
                    "seats": [
                        {"kind": "human", "label": "human", "name": None, "connected": False},
                        {"kind": "bot", "label": "@random", "name": None, "connected": True},
                    ],
                    "deal": 0,
                    "totals": [0, 0],
                }
            ]
            conn, _ = await join(url, table, "ayse")
            running_ = (await request(url, {"type": "list"}))["tables"][0]
            assert running_["status"] == "running" and running_["deal"] == 1
            assert running_["free"] == []
            assert running_["seats"][0] == {
                "kind": "human",
                "label": "human",
                "name": "ayse",
                "connected": True,
            }
            await play_out(conn)
            finished = (await request(url, {"type": "list"}))["tables"][0]
            assert finished["status"] == "finished" and max(finished["totals"]) >= 1

    asyncio.run(main())


def test_a_second_connection_of_a_name_replaces_the_first(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66", ["human", "human"], seed=3)
            first, welcome = await join(url, table, "ayse")
            await join(url, table, "bora")
            await first.expect("deal")
            second, again = await join(url, table, "Ayse", welcome["token"])
            assert again["reconnected"] and again["seat"] == 0
            code, reason = await first.closed()
            assert code == wire.CLOSE_NORMAL and "replaced" in (reason or "")
            assert (await second.expect("update"))["view"]["seat"] == 0
            assert server.tables[table].connected == [True, True]

    asyncio.run(main())


def test_refusals_keep_the_connection(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _):
            table = await create(url, "66", ["human", "human"], seed=3)
            conn, _ = await join(url, table, "ayse")
            await conn.expect("waiting")
            await conn.send({"type": "action", "action": "play AS"})
            assert (await conn.expect("error"))["code"] == "not_started"
            await conn.send({"type": "undo"})
            assert (await conn.expect("error"))["code"] == "no_undo"
            other, _ = await join(url, table, "bora")
            assert (await conn.expect("deal"))["number"] == 1
            await conn.send({"type": "leave"})
            left = await other.expect("left")
            assert left == wire.left(0, "quit", None)  # a test table scores nothing
            assert (await other.expect("match_over"))["winners"] == []
            assert (await conn.closed())[0] == wire.CLOSE_NORMAL

    asyncio.run(main())
