"""A scripted person at a table: an asyncio client of ``sixtysix-table/1`` for tests and benchmarks.

A :class:`ScriptedPerson` joins a table as a person would (keeping the token the server issues
for its name), and on every ``decide`` plays a legal action — a random one, or the first — after
a delay drawn from ``delay``. It records, for each of its actions, the time until it received
the resulting ``update``.

An action is identified by the table, the deal number (from the last ``deal`` message) and the
length of the deal's public history once the action is in it (the ``update`` after an action
carries the history with it). The scripted people of one table that run in one process share a
:class:`LatencyBook`, which also measures the table-wide latency: from the action being sent
until every person seated at the table has received its update. Bots' thinking is not in either
figure: the server sends the update of a person's action before any bot replies.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from sixtysix.core import bounded_json
from sixtysix.table.sending import send_text

#: The table protocol and its version.
TABLE_PROTOCOL = "sixtysix-table/1"
#: The largest frame the client accepts (as the server: 64 KiB).
MAX_FRAME = 64 * 1024

Message = dict[str, Any]
#: An action's identity at its table: (deal number, public history length with the action in).
ActionKey = tuple[int, int]


@dataclass(slots=True)
class _Pending:
    sent: float
    waiting: set[str]


@dataclass
class LatencyBook:
    """When each scripted person's action was sent and when every seat at its table got the
    update: the table-wide latency, shared by the clients of one process."""

    seated: dict[str, set[str]] = field(default_factory=dict)
    table_latency: list[float] = field(default_factory=list)
    #: When each of those actions was sent (``perf_counter``), in the same order.
    sent_at: list[float] = field(default_factory=list)
    #: Actions sent before this ``perf_counter`` time are not measured (a benchmark's warm-up).
    record_from: float = 0.0
    _pending: dict[tuple[str, ActionKey], _Pending] = field(default_factory=dict)

    def seat(self, table: str, name: str) -> None:
        """``name`` is seated at ``table`` and receives its updates."""
        self.seated.setdefault(table, set()).add(name)

    def unseat(self, table: str, name: str) -> None:
        """``name`` no longer receives updates: nothing waits for it."""
        self.seated.get(table, set()).discard(name)
        for (t, key), pending in list(self._pending.items()):
            if t == table:
                pending.waiting.discard(name)
                self._settle(table, key, pending, time.perf_counter())

    def sent(self, table: str, key: ActionKey, at: float) -> None:
        self._pending[(table, key)] = _Pending(at, set(self.seated.get(table, ())))

    def received(self, table: str, key: ActionKey, name: str, at: float) -> None:
        pending = self._pending.get((table, key))
        if pending is not None:
            pending.waiting.discard(name)
            self._settle(table, key, pending, at)

    def _settle(self, table: str, key: ActionKey, pending: _Pending, at: float) -> None:
        if not pending.waiting:
            del self._pending[(table, key)]
            if pending.sent >= self.record_from:
                self.table_latency.append(at - pending.sent)
                self.sent_at.append(pending.sent)

    @property
    def unanswered(self) -> int:
        """Actions sent whose update some seat has not received (yet)."""
        return len(self._pending)


def _message(raw: str | bytes) -> Message:
    data = bounded_json.loads(raw, max_bytes=MAX_FRAME)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError(f"not a message: {str(raw)[:60]!r}")
    return data


def _encode(message: Mapping[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


async def _request(url: str, message: Mapping[str, Any], open_timeout: float = 10.0) -> Message:
    """Send one first message on a new connection and return the server's reply."""
    async with connect(
        url, proxy=None, max_size=MAX_FRAME, open_timeout=open_timeout, compression=None
    ) as ws:
        await send_text(ws, _encode(message))
        reply = _message(await ws.recv())
    if reply["type"] == "error":
        raise RuntimeError(f"the server refused {message['type']}: {reply.get('message')}")
    return reply


async def create_table(
    url: str,
    variant: str,
    seats: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    rated: bool = False,
    move_time: int | None = None,
    on_leave: str = "end",
    seed: int | None = None,
    operator: str | None = None,
) -> str:
    """Open a table on the server and return its id (with the operator's token, unrationed)."""
    message: Message = {
        "type": "create",
        "protocol": TABLE_PROTOCOL,
        "variant": variant,
        "options": dict(options or {}),
        "seats": list(seats),
        "rated": rated,
        "on_leave": on_leave,
        "seed": seed,
    }
    if move_time is not None:
        message["move_time"] = move_time
    if operator is not None:
        message["operator"] = operator
    reply = await _request(url, message)
    return str(reply["table"])


async def list_tables(url: str) -> list[Message]:
    """The server's open, running and recently finished tables."""
    reply = await _request(url, {"type": "list", "protocol": TABLE_PROTOCOL})
    return list(reply["tables"])


class ScriptedPerson:
    """One person's client at one table, playing by script.

    ``policy`` is ``random`` (a legal action drawn with ``rng``) or ``first`` (the first legal
    action). ``stop_after`` drops the connection after that many own actions, so a test can
    reconnect by calling :meth:`run` again (with the token kept from the first join).
    """

    def __init__(
        self,
        url: str,
        table: str,
        name: str,
        *,
        delay: tuple[float, float] = (0.0, 0.0),
        rng: random.Random | None = None,
        policy: str = "random",
        book: LatencyBook | None = None,
        token: str | None = None,
        lang: str = "en",
        seat: int | None = None,
        compression: str | None = "deflate",
        open_timeout: float = 10.0,
        screen: bool = False,
    ) -> None:
        if policy not in ("random", "first"):
            raise ValueError(f"policy must be random or first, not {policy!r}")
        lo, hi = delay
        if not 0 <= lo <= hi:
            raise ValueError(f"a delay is 0 <= lo <= hi seconds, not {delay!r}")
        self.url, self.table, self.name = url, table, name
        self.delay, self.policy, self.lang, self.want_seat = delay, policy, lang, seat
        self.rng = rng if rng is not None else random.Random()
        self.book = book if book is not None else LatencyBook()
        self.token = token
        self.compression, self.open_timeout = compression, open_timeout
        #: Join as a browser page: an action has reached this seat when its ``board`` has.
        self.screen = screen
        self._drawn: ActionKey | None = None
        #: What happened, for the caller to check.
        self.seat: int | None = None
        self.welcomes: list[Message] = []
        self.received: list[Message] = []
        self.errors: list[str] = []
        self.own_latency: list[float] = []
        self.actions = 0
        self.updates = 0
        self.messages_in = 0
        self.messages_out = 0
        self.totals: list[int] | None = None
        self.close_code: int | None = None
        self.close_reason = ""
        self.keep: bool = False
        #: Set when the server has welcomed this person at the table.
        self.joined = asyncio.Event()
        self._deal = 0
        self._mine: dict[ActionKey, float] = {}
        self._acting: asyncio.Task[None] | None = None
        self._stop_after: int | None = None
        self._ws: ClientConnection | None = None

    @property
    def finished(self) -> bool:
        """Whether the match is over (``match_over`` received)."""
        return self.totals is not None

    def last(self, kind: str) -> Message | None:
        """The last message of this type received (kept only with ``keep=True``)."""
        return next((m for m in reversed(self.received) if m["type"] == kind), None)

    async def run(self, stop_after: int | None = None) -> None:
        """Join (or rejoin) and play until the match is over, the server closes the
        connection, or ``stop_after`` more own actions have been sent and answered."""
        self._stop_after = None if stop_after is None else self.actions + stop_after
        async with connect(
            self.url,
            proxy=None,
            max_size=MAX_FRAME,
            compression=self.compression,
            open_timeout=self.open_timeout,
        ) as ws:
            self._ws = ws
            await self._send(self._join())
            try:
                async for raw in ws:
                    self.messages_in += 1
                    at = time.perf_counter()
                    await self._handle(_message(raw), at)
                    if self.finished or self._stopped():
                        break
            except ConnectionClosed:
                pass
            finally:
                if self._acting is not None:
                    self._acting.cancel()
                    self._acting = None
                self.book.unseat(self.table, self.name)
                self._ws = None
        self.close_code, self.close_reason = ws.close_code, ws.close_reason or ""

    def _stopped(self) -> bool:
        return self._stop_after is not None and self.actions >= self._stop_after and not self._mine

    def _join(self) -> Message:
        return {
            "type": "join",
            "protocol": TABLE_PROTOCOL,
            "table": self.table,
            "name": self.name,
            "token": self.token,
            "lang": self.lang,
            "seat": self.want_seat,
            **({"screen": True} if self.screen else {}),
        }

    async def _send(self, message: Mapping[str, Any]) -> None:
        assert self._ws is not None
        await send_text(self._ws, _encode(message))
        self.messages_out += 1

    async def send_raw(self, message: Mapping[str, Any]) -> None:
        """Send any message on the open connection (a test's hostile or odd request)."""
        await self._send(message)

    async def _handle(self, message: Message, at: float) -> None:
        kind = message["type"]
        if self.keep:
            self.received.append(message)
        if kind == "update":
            self.updates += 1
            self._updated(message, at)
        elif kind == "board" and self._drawn is not None:
            self.book.received(self.table, self._drawn, self.name, at)
            self._drawn = None
        elif kind == "decide":
            if self._acting is None or self._acting.done():
                self._acting = asyncio.create_task(self._act(message))
        elif kind == "deal":
            self._deal = int(message["number"])
        elif kind == "welcome":
            self.welcomes.append(message)
            self.seat = int(message["seat"])
            if message.get("token"):
                self.token = str(message["token"])
            self.book.seat(self.table, self.name)
            self.joined.set()
        elif kind == "match_over":
            self.totals = [int(t) for t in message["totals"]]
        elif kind == "error":
            self.errors.append(str(message.get("code")))

    def _updated(self, message: Message, at: float) -> None:
        key = (self._deal, len(message["view"]["history"]))
        sent = self._mine.pop(key, None)
        if sent is not None and sent >= self.book.record_from:
            self.own_latency.append(at - sent)
        if self.screen:
            self._drawn = key  # reached this page with the board that follows
        else:
            self.book.received(self.table, key, self.name, at)

    def _choose(self, legal: Sequence[str]) -> str:
        return legal[0] if self.policy == "first" else self.rng.choice(list(legal))

    async def _act(self, decide: Message) -> None:
        legal = list(decide["legal"])
        action = self._choose(legal)
        lo, hi = self.delay
        if hi > 0:
            await asyncio.sleep(self.rng.uniform(lo, hi))
        key = (self._deal, len(decide["view"]["history"]) + 1)
        at = time.perf_counter()
        self._mine[key] = at
        self.book.sent(self.table, key, at)
        self.actions += 1
        try:
            await self._send({"type": "action", "action": action})
        except ConnectionClosed:
            self._mine.pop(key, None)
