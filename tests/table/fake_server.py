"""A small stand-in table server for the client's tests: one 66 table, a person at seat 0 and
a random bot at seat 1, speaking sixtysix-table/1 as TABLE-SPEC.md writes it.

It is no referee to trust (it plays one table, keeps nothing, checks little); it lets the
client be tested against the protocol itself, and it can misbehave on request (``script``: a
list of raw frames to send instead of the game) to show that a hostile server cannot crash the
client. Run it in a thread with :func:`running`; ``python -m tests.table.fake_server PORT``
runs it as a process (for the pseudo-terminal test).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
from collections.abc import Iterator
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import cards_of
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry
from sixtysix.protocol import messages

TABLE = "t0000001"
TOKEN = "secret-token"


class FakeServer:
    def __init__(self, script: list[str | bytes] | None = None, seed: int = 5) -> None:
        self.script = script
        self.variant = build_registry().variant("66").configure()
        self.seed = Seed(seed)
        self.received: list[dict[str, Any]] = []
        self.joins = 0
        self.drop_after: int | None = None  # close abruptly after this many actions, once
        self.actions = 0
        self.state: Any = None
        self.totals = [0, 0]
        self.deal_number = 0
        self.name: str | None = None

    async def handler(self, ws: ServerConnection) -> None:
        try:
            first = json.loads(await ws.recv())
            self.received.append(first)
            if self.script is not None:
                for frame in self.script:
                    await ws.send(frame)
                await asyncio.sleep(0.2)
                return
            if first["type"] == "list":
                await self._send(ws, {"type": "tables", "tables": [self._entry()]})
                return
            if first["type"] == "create":
                await self._send(ws, {"type": "created", "table": TABLE})
                return
            await self._seat(ws, first)
        except ConnectionClosed:
            pass

    def _entry(self) -> dict[str, Any]:
        return {
            "table": TABLE,
            "variant": "66",
            "options": {},
            "rated": False,
            "status": "open" if self.name is None else "running",
            "seats": [
                {"kind": "human", "label": "human", "name": self.name, "connected": False},
                {"kind": "bot", "label": "@random", "name": None, "connected": True},
            ],
            "deal": self.deal_number,
            "totals": self.totals,
        }

    async def _send(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        await ws.send(json.dumps(message, separators=(",", ":")))

    async def _seat(self, ws: ServerConnection, join: dict[str, Any]) -> None:
        if join.get("table") != TABLE:
            await self._send(ws, {"type": "error", "code": "no_table", "message": "no such table"})
            await ws.close(1008, "no such table")
            return
        first = self.name is None
        if not first and join.get("token") != TOKEN:
            await self._send(ws, {"type": "error", "code": "token", "message": "bad token"})
            await ws.close(1008, "bad token")
            return
        self.name = join["name"]
        self.joins += 1
        await self._send(
            ws,
            {
                "type": "welcome",
                "table": TABLE,
                "seat": 0,
                "name": self.name,
                "token": TOKEN if first else None,
                "rated": False,
                "move_time": None,
                "players": [self.name, "@random"],
                "reconnected": not first,
            },
        )
        await self._send(ws, messages.match_message(self.variant, 0))
        if self.state is None:
            self._new_deal()
        await self._send(ws, messages.deal_message(self.deal_number, self.state.dealer))
        await self._send(ws, {"type": "update", "view": messages.encode_view(self.state.view(0))})
        await self._play(ws)

    def _new_deal(self) -> None:
        self.deal_number += 1
        dealer = (self.deal_number + 1) % 2
        setup = self.variant.deal(self.seed, ("deal", self.deal_number), dealer)
        self.state = self.variant.new_deal(setup)

    async def _play(self, ws: ServerConnection) -> None:
        while True:
            state = self.state
            if state.is_over:
                outcome = state.outcome
                for s in range(2):
                    self.totals[s] += outcome.game_points[s]
                hands = [cards_of(state.hands[s]) for s in range(2)]
                await self._send(ws, messages.result_message(self.deal_number, outcome, hands))
                winners = self.variant.match_winners(self.totals, self.deal_number)
                if winners:
                    await self._send(ws, messages.match_over_message(self.totals, winners))
                    await ws.close(1000, "match over")
                    return
                self._new_deal()
                await self._send(ws, messages.deal_message(self.deal_number, self.state.dealer))
                await self._send(
                    ws, {"type": "update", "view": messages.encode_view(state.view(0))}
                )
                continue
            if state.to_act == 1:
                bot = RandomBot(1, self.seed.child(("bot", len(state.history))))
                action = bot.choose(state.view(1))
            else:
                await self._send(ws, messages.decide_message(state.view(0), 60000))
                action = await self._person(ws)
                if action is None:
                    return
            state.apply(action)
            await self._send(ws, messages.event_message(state.history[-1][0], action))
            await self._send(ws, {"type": "update", "view": messages.encode_view(state.view(0))})

    async def _person(self, ws: ServerConnection) -> int | None:
        while True:
            message = json.loads(await ws.recv())
            self.received.append(message)
            if message["type"] == "leave":
                await self._send(ws, {"type": "left", "seat": 0, "reason": "quit", "score": None})
                await ws.close(1000, "left")
                return None
            if message["type"] != "action":
                await self._send(ws, {"type": "error", "code": "no_undo", "message": "no undo"})
                continue
            self.actions += 1
            if self.drop_after is not None and self.actions >= self.drop_after:
                self.drop_after = None
                ws.transport.abort()  # a dropped connection, no close frame
                raise ConnectionClosed(None, None)
            return int(ACTION_NAMES.index(message["action"]))


@contextlib.contextmanager
def running(server: FakeServer) -> Iterator[str]:
    """Serve ``server`` on a free loopback port in a thread; yields its URL."""
    ready = threading.Event()
    stop: dict[str, Any] = {}

    async def main() -> None:
        async with serve(server.handler, "127.0.0.1", 0) as ws_server:
            stop["loop"] = asyncio.get_running_loop()
            stop["event"] = asyncio.Event()
            stop["port"] = ws_server.sockets[0].getsockname()[1]
            ready.set()
            await stop["event"].wait()

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield f"ws://127.0.0.1:{stop['port']}"
    finally:
        stop["loop"].call_soon_threadsafe(stop["event"].set)
        thread.join(10)


async def _serve_forever(port: int) -> None:
    server = FakeServer()
    async with serve(server.handler, "127.0.0.1", port):
        print("ready", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(_serve_forever(int(sys.argv[1])))
