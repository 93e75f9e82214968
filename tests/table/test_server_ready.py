"""``ready`` (the end of a deal read) changes no saved state: however often a client sends it,
the table's file is not written, and nothing is told but a moved move timer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.table.server_helpers import create, join, running


def test_ready_writes_no_file_however_often_it_comes(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, server):
            table = await create(url, "66", ["human", "human"], rated=True, move_time=60)
            ayse, _ = await join(url, table, "ayse")
            mehmet, _ = await join(url, table, "mehmet")
            for conn in (ayse, mehmet):
                await conn.expect("timer")  # the deal, its views and the first move's timer
            version = server.tables[table].version
            seen = len(ayse.seen)
            for _ in range(10):
                await ayse.send({"type": "ready"})
            await ayse.send({"type": "undo"})  # answered in order: all ten were taken
            assert (await ayse.expect("error"))["code"] == "no_undo"
            assert server.tables[table].version == version
            assert [m["type"] for m in ayse.seen[seen:]] == ["error"]

    asyncio.run(main())
