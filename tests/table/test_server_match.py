"""Four people play a whole 66-4 match over loopback; each sees its own cards only."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.table.server_helpers import create, join, play_out, running


def test_four_clients_play_a_full_match(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66-4", ["human"] * 4, options={"target": 3}, seed=7)
            conns = []
            for i in range(4):
                conn, welcome = await join(url, table, f"p{i}")
                assert welcome["seat"] == i and welcome["token"]
                conns.append(conn)
            overs = await asyncio.gather(*(play_out(c) for c in conns))
            assert all(o == overs[0] for o in overs)
            assert max(overs[0]["totals"]) >= 3 and overs[0]["winners"]
            assert server.tables[table].finished

    asyncio.run(main())
