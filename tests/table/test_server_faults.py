"""Over loopback: reconnecting in time, a drop past the limit, the rated move timer, and each
client told only its own seat's view (compared with the true deal)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sixtysix.core.actions import parse_action
from sixtysix.core.match_state import MatchState
from sixtysix.core.records import parse_record
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.protocol.messages import encode_view
from sixtysix.table import wire
from sixtysix.table.connection import close_reason
from sixtysix.table.standings_db import ServerStandings
from tests.table.server_helpers import Conn, create, join, play_out, running


async def act(conn: Conn) -> dict[str, Any]:
    """Wait for this seat's decide and answer with its first legal action."""
    decide = await conn.expect("decide")
    await conn.send({"type": "action", "action": decide["legal"][0]})
    return decide


def test_a_client_drops_and_reconnects_in_time(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66", ["human", "human"], seed=5, options={"target": 3})
            a, wa = await join(url, table, "ayse")
            b, wb = await join(url, table, "bora")
            conns = {0: a, 1: b}
            tokens = {0: wa["token"], 1: wb["token"]}
            state = server.tables[table].state
            assert state is not None
            first = conns[state.to_act]
            await act(first)
            # The seat to act next drops instead, and comes back.
            seat = (await first.expect("update"))["view"]["to_act"]
            await conns[seat].close()
            watcher = conns[1 - seat]
            seats = await watcher.expect("seats")
            while seats["connected"][seat]:
                seats = await watcher.expect("seats")
            again, welcome = await join(url, table, ["ayse", "bora"][seat], tokens[seat])
            assert welcome["reconnected"] and welcome["token"] is None and welcome["seat"] == seat
            screen = [await again.next() for _ in range(4)]
            assert [m["type"] for m in screen] == ["match", "deal", "update", "decide"]
            update = next(m for m in again.seen if m["type"] == "update")
            live = server.tables[table].state
            assert live is not None and update["view"] == encode_view(live.view(seat))
            seats = await watcher.expect("seats")
            assert seats["connected"] == [True, True]
            # A stranger cannot take the name without its token.
            thief = await Conn.open(url)
            await thief.send(
                {
                    "type": "join",
                    "protocol": wire.PROTOCOL,
                    "table": table,
                    "name": ["AYSE", "BORA"][seat],
                    "token": "guess",
                }
            )
            assert (await thief.next())["code"] == "token"
            assert (await thief.closed())[0] == wire.CLOSE_POLICY
            conns[seat] = again
            await again.send({"type": "action", "action": screen[3]["legal"][0]})
            overs = await asyncio.gather(play_out(conns[0]), play_out(conns[1]))
            assert overs[0] == overs[1]

    asyncio.run(main())


def test_a_drop_past_the_limit_leaves_the_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, reconnect_time=1) as (url, server):
            table = await create(url, "66-4", ["human"] * 4, rated=True, move_time=300)
            conns = [(await join(url, table, f"p{i}"))[0] for i in range(4)]
            for c in conns:
                await c.expect("deal")
            await conns[3].close()
            for c in conns[:3]:
                left = await c.expect("left")
                assert left == wire.left(3, "disconnected", -1)
                over = await c.expect("match_over")
                assert over["winners"] == []
            assert server.tables[table].finished

    asyncio.run(main())
    rows = ServerStandings(tmp_path / "server.sqlite3").rows()
    assert [(r.name, r.left, r.score) for r in rows] == [("p3", 1, -1)]


def test_a_rated_move_timer_runs_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "MOVE_TIME_RANGE", (1, 600))

    async def main() -> None:
        async with running(tmp_path) as (url, _):
            table = await create(url, "66", ["human", "human"], rated=True, move_time=1)
            a, _ = await join(url, table, "ayse")
            b, _ = await join(url, table, "bora")
            timer = await a.expect("timer")
            seat = timer["seat"]
            assert timer["seconds"] == 1
            for c in (a, b):
                left = await c.expect("left")
                assert left["seat"] == seat and left["reason"] == "timeout"
                assert left["score"] == -1
            mover = (a, b)[seat]
            standing = await mover.expect("standings")
            assert standing == wire.standings(("ayse", "bora")[seat], -1)

    asyncio.run(main())


def test_bad_tables_and_absurd_move_times_are_refused(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, server):
            for extra in (
                {"variant": "no-such-game"},
                {"options": {"target": 0}},
                {"options": {"bogus": True}},
                {"seats": ["human", "human", "human"]},
                {"seats": ["human", "@no-such-bot"]},
                {"seats": ["human", "robot"]},
                {"seats": ["human", "exec:./no-such-program"]},
                {"on_leave": "explode"},
                {"rated": True, "move_time": 1},
                {"rated": True, "move_time": 29},
                {"rated": True, "move_time": 301},
                {"rated": True, "move_time": 10**6},
                {"move_time": 60},
                {"rated": True, "seed": 3},
            ):
                conn = await Conn.open(url)
                await conn.send(
                    {
                        "type": "create",
                        "protocol": wire.PROTOCOL,
                        "variant": "66",
                        "seats": ["human", "human"],
                        **extra,
                    }
                )
                answer = await conn.next()
                assert answer["type"] == "error" and answer["code"] == "garbage", extra
                assert (await conn.closed())[0] == wire.CLOSE_POLICY
            assert server.tables == {} and not list(server.store.tables.iterdir())

    asyncio.run(main())


def true_views(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every view ``seat`` had in the match: at each deal's start and after each action."""
    raw = parse_record(record)
    variant = get_registry().variant(raw.variant).configure(overrides=raw.options)
    views: list[dict[str, Any]] = []
    match = MatchState(variant, Seed(raw.seed))  # each deal's views carry the match's state
    for deal in raw.deals:
        state = match.next_deal(deal.setup)
        views.append(encode_view(state.view(seat)))
        for _, text in deal.actions:
            state.apply(parse_action(text))
            views.append(encode_view(state.view(seat)))
        if state.is_over:
            match.settle()
    return views


def test_no_client_ever_receives_another_seats_cards(tmp_path: Path) -> None:
    """Every update and decide a seat receives is exactly its own true view, step by step."""

    async def main() -> dict[str, Any]:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66-4", ["human"] * 4, options={"target": 3}, seed=21)
            conns = [(await join(url, table, f"p{i}"))[0] for i in range(4)]
            await asyncio.gather(*(play_out(c, lambda d: d["legal"][-1]) for c in conns))
            record = json.loads(server.store.path(table).read_text())["record"]
            for seat, conn in enumerate(conns):
                expected = true_views(record, seat)
                got = [m["view"] for m in conn.seen if m["type"] == "update"]
                assert got == expected
                for m in conn.seen:
                    if m["type"] == "decide":
                        assert m["view"] in expected and m["view"]["to_act"] == seat
                    if m["type"] not in ("update", "decide", "result"):
                        assert "hand" not in json.dumps(m)
            return dict(record)

    record = asyncio.run(main())
    assert len(record["deals"]) >= 1


def test_close_reasons_fit_a_close_frame() -> None:
    assert close_reason("no hello in time") == "no hello in time"
    long = close_reason("ş" * 200)
    assert len(long.encode()) <= 123 and long.endswith("...")
