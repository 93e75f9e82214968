"""Hostile clients (the wrong seat, out of turn, bad JSON, a 10 MB message, a thousand
messages a second, binary frames, no hello) are refused or closed, and change nothing for the
others: another table's match plays exactly as it does with nobody hostile about."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from sixtysix.table import wire
from sixtysix.table.server import TableServer
from tests.table.server_helpers import Conn, create, join, play_out, running

SEATS = ["human"] * 4


async def full_match(url: str, names: str) -> str:
    table = await create(url, "66-4", SEATS, options={"target": 3}, seed=99)
    conns = [(await join(url, table, f"{names}{i}"))[0] for i in range(4)]
    await asyncio.gather(*(play_out(c) for c in conns))
    return table


def deals(server: TableServer, table: str) -> list[Any]:
    data = json.loads(server.store.path(table).read_text())
    return list(data["record"]["deals"])


async def closed_with(conn: Conn, code: int) -> str:
    got, reason = await conn.closed()
    assert got == code, (got, reason)
    return reason or ""


async def hostile(url: str, table: str) -> None:
    """Every kind of bad client, against a table of its own and the server."""
    # Seated at the hostile table: acts for the wrong seat and out of turn.
    a, _ = await join(url, table, "mallory")
    b, _ = await join(url, table, "trudy")
    actor = (await a.expect("update"))["view"]["to_act"]
    mover, other = (a, b) if actor == 0 else (b, a)
    decide = await mover.expect("decide")
    await other.send({"type": "action", "action": decide["legal"][0]})
    assert (await other.expect("error"))["code"] == "not_your_turn"
    await mover.send({"type": "action", "action": "play XX"})
    assert (await mover.expect("error"))["code"] == "illegal"
    await mover.send({"type": "action", "seat": 1 - actor, "action": decide["legal"][0]})
    update = await other.expect("update")
    assert update["view"]["seat"] == 1 - actor  # told its own view only
    assert update["view"]["history"] == [[actor, decide["legal"][0]]]  # the mover's action
    # Bad JSON, binary frames, an unknown message: closed with a reason.
    await a.send("{not json")
    assert "JSON" in await closed_with(a, wire.CLOSE_POLICY)
    await b.send(b"\x00\x01binary")
    assert "binary" in await closed_with(b, wire.CLOSE_POLICY)
    # A 10 MB message: 1009, nothing read.
    big = await Conn.open(url)
    with contextlib.suppress(ConnectionClosed):
        await big.send("x" * (10 << 20))
    await closed_with(big, wire.CLOSE_TOO_BIG)
    # A thousand messages a second, from a person waiting at an open table.
    c, _ = await join(url, await create(url, "66", ["human", "human"]), "eve")
    with contextlib.suppress(ConnectionClosed):
        for _ in range(1000):
            await c.send({"type": "action", "action": "play AS"})
    assert "flooding" in await closed_with(c, wire.CLOSE_POLICY)
    # No hello at all, a wrong protocol, a stranger's first message.
    mute = await Conn.open(url)
    assert "hello" in await closed_with(mute, wire.CLOSE_POLICY)
    for first in (
        {"type": "join", "protocol": "other/9"},
        {"type": "hello", "protocol": wire.PROTOCOL},
        {"type": "join", "protocol": wire.PROTOCOL, "table": "nope", "name": "x"},
        {"type": "join", "protocol": wire.PROTOCOL, "table": table, "name": "bad name!"},
    ):
        conn = await Conn.open(url)
        await conn.send(first)
        assert (await conn.next())["type"] == "error"
        await closed_with(conn, wire.CLOSE_POLICY)


def test_hostile_clients_change_nothing_for_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "HELLO_TIMEOUT", 0.5)

    async def main() -> None:
        async with running(tmp_path) as (url, server):
            reference = await full_match(url, "r")
            bad_table = await create(url, "66", ["human", "human"], seed=1)
            good, _ = await asyncio.gather(full_match(url, "g"), hostile(url, bad_table))
            assert deals(server, good) == deals(server, reference)
            assert server.tables[good].finished

    asyncio.run(main())
