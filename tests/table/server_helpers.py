"""A table server on a free loopback port and plain websockets clients for the server tests.

Nothing here waits by sleeping: a client waits for the message it expects, with a timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from sixtysix.plugins.manager import get_registry
from sixtysix.table import wire
from sixtysix.table.names import Names
from sixtysix.table.sending import send_text
from sixtysix.table.server import TableServer
from sixtysix.table.settings import Settings
from sixtysix.table.standings_db import ServerStandings

P = wire.PROTOCOL
#: The operator's token of every test server (a create that carries it may seat programs).
OPERATOR = "the-operators-test-token"
#: Seconds any one expected message may take (generous: the machine is shared).
WAIT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def running(
    data: Path,
    *,
    reconnect_time: float = 60.0,
    settings: Settings | None = None,
) -> AsyncIterator[tuple[str, TableServer]]:
    """A server in this event loop, its names and standings in ``data``; yields its URL and
    itself. Its operator's token is :data:`OPERATOR` unless ``settings`` say otherwise."""
    database = data / "server.sqlite3"
    server = TableServer(
        data,
        get_registry(),
        Names(database),
        ServerStandings(database),
        reconnect_time=reconnect_time,
        settings=settings or Settings(operator_token=OPERATOR),
    )
    await server.resume_all()
    port = free_port()
    ws = await server.start("127.0.0.1", port)
    try:
        yield f"ws://127.0.0.1:{port}", server
    finally:
        await server.close_connections(ws)
        await server.stop()


class Conn:
    """A client connection that keeps every message it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self._buffer: list[dict[str, Any]] = []

    @staticmethod
    async def open(url: str, **kwargs: Any) -> Conn:
        return Conn(await connect(url, max_size=None, **kwargs))

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await send_text(
            self.ws, message if isinstance(message, (str, bytes)) else json.dumps(message)
        )

    async def next(self, timeout: float = WAIT) -> dict[str, Any]:
        if self._buffer:
            return self._buffer.pop(0)
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        message = json.loads(frame)
        self.seen.append(message)
        return dict(message)

    async def expect(self, *types: str, timeout: float = WAIT) -> dict[str, Any]:
        """The next message of one of ``types`` (the others before it are skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.next(max(0.01, end - loop.time()))
            if message["type"] in types:
                return message

    async def closed(self, timeout: float = WAIT) -> tuple[int | None, str | None]:
        """Read to the close; its code and reason."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                await self.next(timeout)
        return self.ws.close_code, self.ws.close_reason

    async def close(self) -> None:
        await self.ws.close()


async def request(url: str, message: dict[str, Any]) -> dict[str, Any]:
    """A one-shot request (create, list): the answer."""
    conn = await Conn.open(url)
    try:
        await conn.send({"protocol": P, **message})
        return await conn.next()
    finally:
        await conn.close()


async def create(url: str, variant: str, seats: Sequence[str], **extra: Any) -> str:
    answer = await request(
        url, {"type": "create", "variant": variant, "seats": list(seats), **extra}
    )
    assert answer["type"] == "created", answer
    return str(answer["table"])


async def join(
    url: str, table: str, name: str, token: str | None = None
) -> tuple[Conn, dict[str, Any]]:
    conn = await Conn.open(url)
    await conn.send(
        {"type": "join", "protocol": P, "table": table, "name": name, "token": token, "lang": "en"}
    )
    welcome = await conn.expect("welcome", "error")
    assert welcome["type"] == "welcome", welcome
    return conn, welcome


async def play_out(conn: Conn, choose: Any = None, until: str = "match_over") -> dict[str, Any]:
    """Answer every decide with the first legal action (or ``choose(decide)``) until ``until``."""
    while True:
        message = await conn.expect("decide", until)
        if message["type"] == until:
            return message
        action = message["legal"][0] if choose is None else choose(message)
        await conn.send({"type": "action", "action": action})
