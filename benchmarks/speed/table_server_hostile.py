"""One table server under every attack at once, and N tables of people playing beside them:
the people's latency, and whether their games are the ones they play with nobody hostile.

``sixtysix serve`` runs as a subprocess (as in ``table_server.py``), its data directory on a
tmpfs of its own when the script may mount one (root: ``unshare --mount``), so that the
full-disk attack fills that tmpfs and nothing else. N two-seat 66 tables (``human,@random``,
table i dealt from seed ``S*1000+i``) are opened with the operator's token (the quotas are
for clients), and a person sits at each: a client that answers each ``decide`` after a think
time with a move drawn from a generator of the table's seed. Each person's latency is the time
from sending an action to receiving the next ``update`` or ``decide``.

Meanwhile another process runs every attack at once, each from a loopback address of its own
(127.0.0.2, 127.0.0.3, ...: quotas count per address), each loop bounded in count and by the
window (the silent and slow sockets wait 15 s at least, past the server's 10-s limits):

1. ``exec:``/``@exec:`` seats (five spellings) naming a harmless program that only notes it
   ran, each from an address of its own so that no quota answers in the server's place;
2. a foreign ``Origin``;
3. bot budgets from the wire (``@expert:samples=10000000,...``: two tables at most, so a
   server that accepts them is stalled no longer than the run) and 14 all-bot tables (a client's
   table must seat a person: refused);
4. a table flood: one client opening up to 1,500 tables;
5. JSON nested 30,000 deep (under the 64 KiB limit), ``NaN``, binary, oversized and broken
   frames;
6. a full disk: the server's tmpfs filled for ``--full-disk-seconds``, then emptied (not run
   without a tmpfs of the server's own);
7. an operator-named program (``--player``; ``exec:`` from loopback for a server without the
   option) whose children escape: a double fork into a session of its own, ignoring SIGTERM
   (they only sleep, 120 s at most; any left are ended by the script, by pid);
8. look-alike names (``аlice0``, a Cyrillic а);
9. stolen, wrong and missing tokens, and a second connection for a name;
10. seated clients acting out of turn, for the other seat, illegally, and flooding;
11. slow handshakes (a byte every half second) and silent sockets (TCP and WebSocket).

At the end each person stops at a quiet point (its turn, or the match over), and each table's
record is compared with the same table (seed, moves) played on a fresh server with nobody
hostile. The targets: the people's p95 under 100 ms (outside the full-disk hold, when no
server can save a move and none is told before it is saved) and every record identical.

    python -m benchmarks.speed.table_server_hostile --tables 100 --seconds 30
    python -m benchmarks.speed.table_server_hostile --tables 20 --seconds 10 --json

Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin

from benchmarks.speed.table_server import Server, quantile, rss_bytes

P = "sixtysix-table/1"
MAX_FRAME = 64 * 1024
TARGET_P95_MS = 100.0
#: The people's tables: a person and the random bot, 66, to the variant's own target.
SEATS = ["human", "@random"]
#: The budget of attack 3.
BUDGET = "@expert:samples=10000000,nodes=10000000,time=3600000"
#: Size of the server's own tmpfs (MiB).
TMPFS_MB = 64
#: Seconds any one answer may take before a client gives up on it.
ANSWER = 30.0
#: Seconds between two messages of a paced reference person (the server allows 20 a second).
PACE = 0.08

Message = dict[str, Any]


def encode(message: Message) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def wall() -> float:
    return time.time()


# ---------------------------------------------------------------------- people


@dataclass
class PersonResult:
    table: str
    seed: int
    name: str
    actions: int = 0
    #: (wall-clock time sent, seconds to the next update or decide), per timed action.
    latency: list[tuple[float, float]] = field(default_factory=list)
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)
    finished: bool = False
    quiet: bool = False


class Person:
    """A person at one table: joins, and answers each decide after a think time with a move
    drawn from a generator of the table's seed (one draw per decision, so a reconnection's
    repeated decide draws nothing)."""

    def __init__(
        self,
        url: str,
        table: str,
        name: str,
        seed: int,
        *,
        delay: tuple[float, float],
        window: tuple[float, float],
        limit: int | None = None,
    ) -> None:
        self.url, self.table = url, table
        self.delay, self.window, self.limit = delay, window, limit
        self.result = PersonResult(table, seed, name)
        self.choices = random.Random(seed)
        self.thinking = random.Random(seed + 1)
        self.chosen: dict[tuple[int, int], str] = {}
        self.token: str | None = None
        self.deal = 0
        self.sent_at: float | None = None
        self.sent_wall = 0.0
        self.act: asyncio.Task[None] | None = None

    @property
    def stopping(self) -> bool:
        if self.limit is not None:
            return self.result.actions >= self.limit
        return wall() >= self.window[1]

    async def run(self) -> PersonResult:
        r = self.result
        for _attempt in range(30):
            try:
                async with connect(
                    self.url, max_size=MAX_FRAME, compression=None, open_timeout=ANSWER,
                    proxy=None,
                ) as ws:  # fmt: skip
                    await ws.send(encode(self._join()))
                    if await self._play(ws):
                        return r
                    r.closes.append(f"{ws.close_code} {ws.close_reason}")
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError) as exc:
                r.closes.append(type(exc).__name__)
            finally:
                if self.act is not None:
                    self.act.cancel()
                    self.act = None
            self.sent_at = None
            r.reconnects += 1
            await asyncio.sleep(0.5)  # a client's back-off before it joins again
        return r

    def _join(self) -> Message:
        return {"type": "join", "protocol": P, "table": self.table, "name": self.result.name,
                "token": self.token, "lang": "en", "seat": None}  # fmt: skip

    async def _play(self, ws: ClientConnection) -> bool:
        """Play on this connection; True once quiet (its turn after stopping, or the match
        over), False when the connection ended first."""
        r = self.result
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                at = time.perf_counter()
                message = json.loads(raw)
                kind = message.get("type")
                if self.sent_at is not None and kind in ("update", "decide"):
                    start, self.sent_at = self.sent_at, None
                    if self.window[0] <= self.sent_wall <= self.window[1]:
                        r.latency.append((self.sent_wall, at - start))
                if kind == "welcome":
                    self.token = message.get("token") or self.token
                elif kind == "deal":
                    self.deal = int(message["number"])
                elif kind == "error":
                    r.errors.append(str(message.get("code")))
                elif kind == "match_over":
                    r.finished = r.quiet = True
                    return True
                elif kind == "decide":
                    if self.stopping and self.sent_at is None:
                        r.quiet = True
                        return True
                    key = (self.deal, len(message["view"]["history"]))
                    if self.act is None or self.act.done():
                        self.act = asyncio.create_task(self._act(ws, key, message["legal"]))
        return r.quiet

    async def _act(self, ws: ClientConnection, key: tuple[int, int], legal: list[str]) -> None:
        action = self.chosen.get(key)
        if action is None:
            action = self.chosen[key] = legal[self.choices.randrange(len(legal))]
        lo, hi = self.delay
        await asyncio.sleep(self.thinking.uniform(lo, hi) if hi > 0 else PACE)
        if self.stopping:  # the window ended while thinking: quiet at its turn
            self.result.quiet = True
            await ws.close()
            return
        self.sent_wall, self.sent_at = wall(), time.perf_counter()
        self.result.actions += 1
        await ws.send(encode({"type": "action", "action": action}))


async def play_people(
    url: str, tables: list[tuple[str, int]], conf: dict[str, Any]
) -> list[PersonResult]:
    limits: dict[str, int] = conf.get("limits") or {}
    lo, hi = conf["delay"]
    people = [
        Person(
            url, table, f"alice{i}", seed, delay=(float(lo), float(hi)),
            window=(conf["start"], conf["end"]), limit=limits.get(table),
        )
        for i, (table, seed) in enumerate(tables)
    ]  # fmt: skip
    # However the server fares, each person has a bounded time to be quiet after the window.
    deadline = min(conf["end"], wall() + 1200.0) + 120.0

    async def bounded(p: Person) -> PersonResult:
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(p.run(), max(1.0, deadline - wall()))
        p.result.closes.append("not quiet in time")
        return p.result

    return list(await asyncio.gather(*(bounded(p) for p in people)))


def people_main(url: str, tables: list[tuple[str, int]], conf: dict[str, Any], out: Any) -> None:
    """A client process of people (spawned, so the hostile clients' work is not in their
    latency)."""
    try:
        results = asyncio.run(play_people(url, tables, conf))
        out.put(json.dumps({"people": [asdict(r) for r in results]}))
    except BaseException as exc:  # reported by the parent, which must not wait forever
        out.put(json.dumps({"failed": f"{type(exc).__name__}: {exc}"}))


# ---------------------------------------------------------------------- hostile clients


def fill(f: Any, piece: int) -> int:
    """Write ``piece`` bytes at a time to ``f`` (unbuffered) until the disk is full, then
    smaller pieces down to a page: the bytes written."""
    written = 0
    while piece >= 4096:
        try:
            while True:
                n = f.write(b"\0" * piece)
                written += n or 0
                if not n:
                    break
        except OSError:
            pass
        piece //= 16
    return written


def ending(ws: ClientConnection) -> str:
    """How the server ended a connection: its close frame, or none (the client closed it)."""
    frame = ws.protocol.close_rcvd
    if frame is None:
        return "open until the client closed it"
    return f"closed {frame.code} {frame.reason}"


class Attack:
    """Common ground of the attacks: the server, the window, one loopback address each."""

    def __init__(self, url: str, port: int, conf: dict[str, Any]) -> None:
        self.url, self.port, self.conf = url, port, conf
        self.end: float = conf["end"]
        #: The silent and slow sockets wait this long at least (the server's own limits are
        #: 10 s: a short window would end before it could show them).
        self.patience = max(self.end, conf["start"] + 15.0)
        self.outcomes: dict[str, Counter[str]] = {}

    def over(self) -> bool:
        return wall() >= self.end

    def note(self, attack: str, outcome: str) -> None:
        self.outcomes.setdefault(attack, Counter())[outcome[:90]] += 1

    async def open(self, source: str, origin: str | None = None) -> ClientConnection:
        return await connect(
            self.url, max_size=None, compression=None, open_timeout=ANSWER, proxy=None,
            origin=None if origin is None else Origin(origin), local_addr=(source, 0),
        )  # fmt: skip

    async def once(
        self, attack: str, source: str, frame: str | bytes | Message, origin: str | None = None
    ) -> Message | None:
        """One connection, one first frame: the outcome noted; the reply if any."""
        try:
            ws = await self.open(source, origin)
        except InvalidStatus as exc:
            self.note(attack, f"refused at the handshake: HTTP {exc.response.status_code}")
            return None
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            self.note(attack, f"no connection: {type(exc).__name__}")
            return None
        reply: Message | None = None
        async with ws:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(frame if isinstance(frame, (str, bytes)) else encode(frame))
            try:
                reply = json.loads(await asyncio.wait_for(ws.recv(), ANSWER))
            except ConnectionClosed:
                pass
            except TimeoutError:
                self.note(attack, "no answer")
                return None
        if reply is None:
            self.note(attack, ending(ws))
        elif reply.get("type") == "error":
            self.note(attack, f"refused: {reply.get('code')}")
        else:
            self.note(attack, f"answered: {reply.get('type')}")
        return reply

    def create(self, seats: list[str], variant: str = "66", **extra: Any) -> Message:
        return {"type": "create", "protocol": P, "variant": variant, "options": {},
                "seats": seats, "seed": None, **extra}  # fmt: skip

    def join(self, table: str, name: str, token: str | None = None) -> Message:
        return {"type": "join", "protocol": P, "table": table, "name": name, "token": token,
                "lang": "en", "seat": None}  # fmt: skip

    async def pause(self, seconds: float) -> None:
        """Pacing of an attack's loop (not synchronisation)."""
        await asyncio.sleep(min(seconds, max(0.0, self.end - wall())))

    # ------------------------------------------------------------------ the attacks

    async def exec_seats(self) -> None:
        marker = self.conf["marker"]
        specs = [f"exec:{marker}", f"@exec:{marker}", f"@ exec:{marker}", f"exec: {marker}",
                 f"@EXEC:{marker}"]  # fmt: skip
        for i in range(20):
            if self.over():
                return
            # An address each (127.0.1.x), so that the quota does not answer in its place.
            source = f"127.0.1.{i + 1}"
            await self.once("1 exec seats", source, self.create([specs[i % 5], "human"]))
            await self.pause(0.2)

    async def origins(self) -> None:
        first = [{"type": "list", "protocol": P}, self.create(["human", "human"])]
        for i in range(40):
            if self.over():
                return
            origin = ["http://evil.example", "null", "https://club.example.evil.test"][i % 3]
            await self.once("2 foreign Origin", "127.0.0.3", first[i % 2], origin)
            await self.pause(0.1)

    async def budgets(self) -> None:
        tries: list[tuple[str, list[str]]] = [
            ("66", [BUDGET, "@random"]), ("66", ["human", BUDGET]),
            *[("66", ["@random", "@random"])] * 10, *[("66-4", ["@random"] * 4)] * 4,
        ]  # fmt: skip
        for i, (variant, seats) in enumerate(tries):
            if self.over():
                return
            # Five from an address (127.0.2.x), under its quota: each is answered on its merits.
            source = f"127.0.2.{i // 5 + 1}"
            await self.once("3 budgets and all-bot tables", source, self.create(seats, variant))
            await self.pause(0.2)

    async def table_flood(self) -> None:
        for _ in range(1500):
            if self.over():
                return
            await self.once("4 table flood", "127.0.0.5", self.create(["human", "human"]))

    async def garbage(self) -> None:
        deep_lists = "[" * 30_000 + "]" * 30_000
        deep_objects = '{"a":' * 10_000 + "0" + "}" * 10_000
        head = '{"protocol":"' + P + '",'
        frames: list[str | bytes] = [
            deep_lists,
            head + '"type":"join","table":' + deep_lists[:60_000] + "}",
            deep_objects,
            head + '"type":"create","variant":"66","seats":["human","human"],"seed":NaN}',
            head + '"type":"list","x":[NaN,Infinity,-Infinity]}',
            b"\x00\x01binary",
            "x" * 100_000,
            "{not json",
            head + '"type":"join","table":"\\ud800","name":"x"}',
        ]
        for i in range(200):
            if self.over():
                return
            await self.once("5 deep, NaN, binary, oversized frames", "127.0.0.6", frames[i % 9])
            await self.pause(0.02)

    async def full_disk(self) -> None:
        """Fill the server's own tmpfs and keep it full for a while (every page the server
        frees is taken again at once), then empty it; a create and a new name's join are tried
        while it is full."""
        root = self.conf.get("disk")
        if not root:
            self.note("6 full disk", "not run: no tmpfs of the server's own")
            return
        await self.pause(0.4 * (self.end - self.conf["start"]))
        filler = Path(root) / "filler"
        self.conf["hold"] = [wall(), wall()]
        try:
            with open(filler, "wb", buffering=0) as f:
                size = fill(f, 1 << 20)
                self.conf["hold"][0] = wall()
                self.note("6 full disk", f"filled with {size >> 20} MiB")
                keep = asyncio.create_task(self._keep_full(f))
                try:
                    new = self.create(["human", "human"])
                    reply = await self.once("6 full disk: a create", "127.0.0.13", new)
                    if reply is not None and reply.get("type") == "created":
                        nora = self.join(reply["table"], "nora")
                        await self.once("6 full disk: a new name", "127.0.0.13", nora)
                    await self.pause(self.conf["full_disk_seconds"])
                finally:
                    keep.cancel()
                    taken = await asyncio.gather(keep, return_exceptions=True)
                    if isinstance(taken[0], int):
                        self.note(
                            "6 full disk", f"pages freed and taken again: {taken[0] >> 10} KiB"
                        )
        finally:
            with contextlib.suppress(OSError):
                filler.unlink()
            self.conf["hold"][1] = wall()

    async def _keep_full(self, f: Any) -> int:
        """Take every page the server frees (a replaced table file, a temporary file it
        removed), every few milliseconds, until cancelled: the bytes taken."""
        taken = 0
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                taken += fill(f, 4096)
                await asyncio.sleep(0.002)
        return taken

    async def escaping_children(self) -> None:
        seat = self.conf["escaper_seat"]
        reply = await self.once("7 program children", "127.0.0.7", self.create(["human", seat]))
        if reply is None or reply.get("type") != "created":
            return
        ws = await self.open("127.0.0.7")
        async with ws:
            await ws.send(encode(self.join(reply["table"], "esc")))
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                while json.loads(await asyncio.wait_for(ws.recv(), ANSWER))["type"] != "decide":
                    pass
                self.note("7 program children", "the match started")
                await ws.send(encode({"type": "leave"}))
                while True:
                    await asyncio.wait_for(ws.recv(), ANSWER)

    async def lookalikes(self) -> None:
        reply = await self.once("8 look-alike names", "127.0.0.8", self.create(["human", "human"]))
        tables = [t for t, _ in self.conf["tables"][:5]]
        for i in range(5):
            if self.over():
                return
            name = f"аlice{i}"  # a Cyrillic а
            if reply is not None and reply.get("type") == "created":
                join = self.join(reply["table"], name)
                answer = await self.once("8 look-alike names", "127.0.0.8", join)
                if answer is not None and answer.get("type") == "welcome":
                    await self._leave_after(reply["table"], name, answer.get("token"))
            if i < len(tables):
                await self.once("8 look-alike names", "127.0.0.8", self.join(tables[i], name))

    async def _leave_after(self, table: str, name: str, token: str | None) -> None:
        with contextlib.suppress(ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
            ws = await self.open("127.0.0.8")
            async with ws:
                await ws.send(encode(self.join(table, name, token)))
                await ws.send(encode({"type": "leave"}))
                with contextlib.suppress(TimeoutError):
                    while True:
                        await asyncio.wait_for(ws.recv(), ANSWER)

    async def tokens(self) -> None:
        own = await self.once("9 tokens", "127.0.0.9", self.create(["human", "human"]))
        stolen = None
        if own is not None and own.get("type") == "created":
            welcome = await self.once("9 tokens", "127.0.0.9", self.join(own["table"], "mallet"))
            stolen = None if welcome is None else welcome.get("token")
        for i, (table, _seed) in enumerate(self.conf["tables"][:20]):
            if self.over():
                return
            token = [None, "x" * 43, stolen][i % 3]
            await self.once("9 tokens", "127.0.0.9", self.join(table, f"alice{i}", token))
            await self.pause(0.05)

    async def seated(self) -> None:
        for round_ in range(5):
            if self.over():
                return
            with contextlib.suppress(ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                await self._seated_round(round_)
            await self.pause(0.5)

    async def _seated_round(self, n: int) -> None:
        what = "10 seated: out of turn, other seat, illegal, second connection, flood"
        reply = await self.once(what, "127.0.0.10", self.create(["human", "human"]))
        if reply is None or reply.get("type") != "created":
            return
        table = reply["table"]
        conns: list[ClientConnection] = []
        tokens: list[str | None] = []
        for name in (f"mallory{n}", f"trudy{n}"):
            ws = await self.open("127.0.0.10")
            await ws.send(encode(self.join(table, name)))
            welcome = await self._until(ws, "welcome")
            tokens.append(welcome.get("token"))
            conns.append(ws)
        decide = await self._until(conns[0], "decide", "update")
        mover = decide["view"].get("to_act", 0) if decide["type"] == "update" else 0
        other = conns[1 - mover]
        for frame in (
            {"type": "action", "action": "play AS"},  # out of turn
            {"type": "action", "action": "play AS", "seat": mover},  # for the other seat
            {"type": "undo"},
        ):
            await other.send(encode(frame))
        await conns[mover].send(encode({"type": "action", "action": "play XX"}))
        # A second connection for a name: the first is replaced.
        again = await self.open("127.0.0.10")
        conns.append(again)
        await again.send(encode(self.join(table, f"trudy{n}", tokens[1])))
        await self._until(again, "welcome")
        await again.send('{"type":"action","action":NaN}')
        flood = conns[0]
        with contextlib.suppress(ConnectionClosed):
            for _ in range(1000):
                await flood.send(encode({"type": "action", "action": "play AS"}))
        for ws in conns:
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 2)
            await ws.close()
            self.note(what, ending(ws))

    async def _until(self, ws: ClientConnection, *kinds: str) -> Message:
        while True:
            message: Message = json.loads(await asyncio.wait_for(ws.recv(), ANSWER))
            if message.get("type") in kinds:
                return message

    async def slow_and_silent(self) -> None:
        async def slow(i: int) -> None:
            request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
            await self._raw("11 slow handshakes", request.encode(), "127.0.0.11", 0.5)

        async def silent_tcp(i: int) -> None:
            await self._raw("11 silent TCP sockets", b"", "127.0.0.12", 0.0)

        async def silent_ws(i: int) -> None:
            start = time.monotonic()
            try:
                ws = await self.open("127.0.0.12")
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                self.note("11 silent WebSockets", f"no connection: {type(exc).__name__}")
                return
            seconds: float | None = None
            async with ws:
                try:
                    while True:  # the server's error first, then its close
                        await asyncio.wait_for(ws.recv(), max(0.1, self.patience - wall()))
                except ConnectionClosed:
                    seconds = time.monotonic() - start
                except TimeoutError:
                    pass
            if seconds is None:
                self.note("11 silent WebSockets", "open at the end")
            else:
                self.note("11 silent WebSockets", f"{ending(ws)} after {seconds:.0f} s")

        await asyncio.gather(
            *(slow(i) for i in range(30)),
            *(silent_tcp(i) for i in range(30)),
            *(silent_ws(i) for i in range(30)),
        )

    async def _raw(self, attack: str, data: bytes, source: str, every: float) -> None:
        """A TCP connection that sends ``data`` a byte every ``every`` seconds (or nothing)
        until the server closes it or the window ends."""
        start = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(source, 0)
            )
        except OSError as exc:
            self.note(attack, f"no connection: {type(exc).__name__}")
            return
        closed = False
        try:
            for i in range(10_000):
                if wall() >= self.patience:
                    break
                if every > 0 and i < len(data):
                    writer.write(data[i : i + 1])
                    await writer.drain()
                with contextlib.suppress(TimeoutError):
                    got = await asyncio.wait_for(reader.read(4096), every or 1.0)
                    if not got:
                        closed = True
                        break
        except OSError:
            closed = True
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        seconds = time.monotonic() - start
        ended = f"closed by the server after {seconds:.0f} s" if closed else "open at the end"
        self.note(attack, ended)

    async def run(self) -> dict[str, Any]:
        await asyncio.sleep(max(0.0, self.conf["start"] - wall()))
        attacks = [
            self.exec_seats(), self.origins(), self.budgets(), self.table_flood(),
            self.garbage(), self.full_disk(), self.escaping_children(), self.lookalikes(),
            self.tokens(), self.seated(), self.slow_and_silent(),
        ]  # fmt: skip
        tasks = [asyncio.ensure_future(a) for a in attacks]
        await asyncio.wait(tasks, timeout=max(1.0, self.end - wall()) + 120.0)
        for task in tasks:
            task.cancel()
        failures = await asyncio.gather(*tasks, return_exceptions=True)
        problems = [
            f"{type(e).__name__}: {e}"
            for e in failures
            if isinstance(e, BaseException) and not isinstance(e, asyncio.CancelledError)
        ]
        problems += ["an attack still ran 120 s after the window" for e in failures
                     if isinstance(e, asyncio.CancelledError)]  # fmt: skip
        return {
            "outcomes": {k: dict(v) for k, v in sorted(self.outcomes.items())},
            "problems": problems,
            "hold": self.conf.get("hold"),
        }


def hostile_main(url: str, port: int, conf: dict[str, Any], out: Any) -> None:
    """The hostile clients' process."""
    try:
        out.put(json.dumps({"hostile": asyncio.run(Attack(url, port, conf).run())}))
    except BaseException as exc:
        out.put(json.dumps({"failed": f"{type(exc).__name__}: {exc}"}))


# ---------------------------------------------------------------------- the run


def sixtysix_command() -> list[str]:
    return [sys.executable, "-m", "sixtysix"]


def can_mount_tmpfs() -> bool:
    """Whether this process may mount a tmpfs in a mount namespace of its own."""
    if shutil.which("unshare") is None:
        return False
    with tempfile.TemporaryDirectory() as d:
        probe = ["unshare", "--mount", "mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", d]
        return subprocess.run(probe, capture_output=True).returncode == 0


def helpers(folder: Path) -> tuple[Path, Path, Path, Path]:
    """The harmless programs: the marker (notes it ran, fails the handshake) and the escaper
    (a real player whose children escape, sleeping 120 s at most)."""
    ran, pids = folder / "marker-ran.log", folder / "escaper-pids.log"
    marker, escaper = folder / "marker.sh", folder / "escaper.sh"
    marker.write_text(f"#!/bin/sh\necho ran >> '{ran}'\nexit 3\n")
    python = shlex.quote(sys.executable)
    escaper.write_text(
        "#!/bin/sh\n"
        f"echo \"player $$\" >> '{pids}'\n"
        '( setsid sh -c \'trap "" TERM HUP; sleep 120 & echo "child $!" >> "$0";'
        f' echo "child $$" >> "$0"; wait\' \'{pids}\' </dev/null >/dev/null 2>&1 & )\n'
        f"exec {python} -m sixtysix player random\n"
    )
    for program in (marker, escaper):
        program.chmod(0o755)
    return marker, ran, escaper, pids


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def escaped(pids: Path) -> list[int]:
    """The escaper's children still running (a pid whose command is not the escaper's
    ``sleep`` or ``sh`` any more is another process now, and not counted)."""
    if not pids.exists():
        return []
    out = []
    for line in pids.read_text().splitlines():
        kind, _, pid = line.partition(" ")
        if kind != "child" or not pid.isdigit() or not alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
            if command.endswith((b"sleep", b"sh")):
                out.append(int(pid))
    return out


async def open_tables(url: str, n: int, seed: int, operator: str | None) -> list[tuple[str, int]]:
    """N tables of a person and ``@random``, table i dealt from seed ``seed*1000+i``."""
    gate = asyncio.Semaphore(20)

    async def one(i: int) -> tuple[str, int]:
        table_seed = seed * 1000 + i
        message: Message = {"type": "create", "protocol": P, "variant": "66", "options": {},
                            "seats": SEATS, "seed": table_seed}  # fmt: skip
        if operator:
            message["operator"] = operator
        async with gate, connect(url, compression=None, proxy=None) as ws:
            await ws.send(encode(message))
            reply = json.loads(await ws.recv())
        if reply.get("type") != "created":
            raise RuntimeError(f"the server refused a table: {reply}")
        return str(reply["table"]), table_seed

    return list(await asyncio.gather(*(one(i) for i in range(n))))


def read_records(root: Path, tables: list[tuple[str, int]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for table, _ in tables:
        try:
            data = json.loads((root / "tables" / f"{table}.json").read_text(encoding="utf-8"))
            out[table] = data["record"]
        except (OSError, ValueError, KeyError) as exc:
            out[table] = f"unreadable: {exc}"
    return out


def operator_token(root: Path) -> str | None:
    try:
        return (root / "operator.token").read_text().strip() or None
    except OSError:
        return None


def server_help() -> str:
    done = subprocess.run([*sixtysix_command(), "serve", "--help"], capture_output=True, text=True)
    return done.stdout


def log_problems(log: Path) -> dict[str, int]:
    text = log.read_text(errors="replace") if log.exists() else ""
    return {"tracebacks": text.count("Traceback"), "error_lines": text.count("ERROR")}


def hostile_run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    marker, ran, escaper, pids = helpers(tmp)
    has_players = "--player" in server_help()
    extra: list[str] = []
    if has_players:
        extra += ["--player", f"escaper={shlex.quote(str(escaper))}"]
        escaper_seat = "@escaper"
    else:
        escaper_seat = f"exec:{escaper}"
    mount = args.full_disk and can_mount_tmpfs()
    data = tmp / "hostile"
    data.mkdir()
    prefix = sixtysix_command()
    if mount:
        (data / "server").mkdir()
        wrap = f'mount -t tmpfs -o size={TMPFS_MB}m tmpfs "$0" && exec "$@"'
        prefix = ["unshare", "--mount", "sh", "-c", wrap, str(data / "server"), *prefix]
    server = Server(data, extra, prefix)
    try:
        server.wait_ready()
        # The server's own view of its data directory (its tmpfs is in its mount namespace).
        root = Path(f"/proc/{server.proc.pid}/root") / str(data / "server").lstrip("/")
        base_rss = rss_bytes(server.proc.pid)
        server.watch()
        tables = asyncio.run(open_tables(server.url, args.tables, args.seed, operator_token(root)))
        start = wall() + args.warmup + 0.02 * args.tables
        conf: dict[str, Any] = {
            "delay": args.delay, "start": start, "end": start + args.seconds, "tables": tables,
            "marker": str(marker), "escaper_seat": escaper_seat,
            "disk": str(root) if mount else None, "full_disk_seconds": args.full_disk_seconds,
        }  # fmt: skip
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        procs = [
            ctx.Process(target=people_main, args=(server.url, tables, conf, out), daemon=True),
            ctx.Process(
                target=hostile_main, args=(server.url, server.port, conf, out), daemon=True
            ),
        ]
        for p in procs:
            p.start()
        raw = [json.loads(out.get(timeout=args.seconds + args.warmup + 600)) for _ in procs]
        for p in procs:
            p.join()
        failed = [r["failed"] for r in raw if "failed" in r]
        if failed:
            raise RuntimeError("a client process failed: " + "; ".join(failed))
        people = [PersonResult(**r) for r in next(r["people"] for r in raw if "people" in r)]
        hostile = next(r["hostile"] for r in raw if "hostile" in r)
        records = read_records(root, tables)
        peak = max(server.peak, rss_bytes(server.proc.pid))
        cpu, waited = server.cpu_share(start, start + args.seconds)
        children_at_end = escaped(pids)
        still_running = server.proc.poll() is None
    finally:
        server.stop()
    left_after_stop = escaped(pids)
    for pid in left_after_stop:  # the escaper's own sleepers, by pid (started by this run)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    marker_runs = len(ran.read_text().splitlines()) if ran.exists() else 0
    lines = [line.split()[0] for line in pids.read_text().splitlines()] if pids.exists() else []
    return {
        "tables": tables,
        "people": people,
        "hostile": hostile,
        "records": records,
        "server_cpu": cpu,
        "server_waited": waited,
        "rss_base_mb": base_rss / 2**20,
        "rss_peak_mb": peak / 2**20,
        "server_alive": still_running,
        "log": log_problems(data / "server.log"),
        "tmpfs": mount,
        "exec_marker_runs": marker_runs,
        "escaper_seat": escaper_seat,
        "children_left_at_end": len(children_at_end),
        "children_left_after_stop": len(left_after_stop),
        "escaper_launches": lines.count("player"),
        "children_started": lines.count("child"),
    }


def reference_run(args: argparse.Namespace, tmp: Path, limits: dict[int, int]) -> dict[int, Any]:
    """The same tables (by seed) on a fresh server with nobody hostile, each person making
    as many moves as in the hostile run: the records, by seed."""
    shm = Path("/dev/shm")
    where = args.reference_root or (shm if shm.is_dir() and os.access(shm, os.W_OK) else tmp)
    data = Path(tempfile.mkdtemp(prefix="sixtysix-reference-", dir=where))
    server = Server(data, [], sixtysix_command())
    try:
        server.wait_ready()
        root = data / "server"
        tables = asyncio.run(open_tables(server.url, args.tables, args.seed, operator_token(root)))
        by_table = {t: limits.get(seed, 0) for t, seed in tables}
        conf = {"delay": [0.0, 0.0], "start": 0.0, "end": float("inf"), "limits": by_table}
        asyncio.run(play_people(server.url, tables, conf))
        records = read_records(root, tables)
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
    return {seed: records[t] for t, seed in tables}


def compare(hostile: dict[str, Any], reference: dict[int, Any], tables: list[tuple[str, int]]
            ) -> tuple[int, list[str]]:  # fmt: skip
    same, different = 0, []
    for table, seed in tables:
        if hostile[table] == reference[seed]:
            same += 1
        else:
            different.append(table)
    return same, different


def summarize(run: dict[str, Any], reference: dict[int, Any], args: argparse.Namespace
              ) -> dict[str, Any]:  # fmt: skip
    people: list[PersonResult] = run["people"]
    hold = run["hostile"].get("hold") or [0.0, 0.0]
    samples = [lat for p in people for _, lat in p.latency]
    outside = [lat for p in people for at, lat in p.latency if not hold[0] <= at <= hold[1] + 1]
    during = [lat for p in people for at, lat in p.latency if hold[0] <= at <= hold[1] + 1]
    same, different = compare(run["records"], reference, run["tables"])

    def ms(xs: list[float]) -> dict[str, float | None]:
        """Quantiles in ms (None without samples: the JSON stays JSON)."""
        if not xs:
            return {"p50": None, "p95": None, "p99": None, "max": None, "n": 0}
        figures = {
            q: 1000 * quantile(xs, p) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        }
        return {**figures, "max": 1000 * max(xs), "n": len(xs)}

    return {
        "tables": args.tables,
        "seconds": args.seconds,
        "latency_ms": ms(samples),
        "latency_outside_full_disk_ms": ms(outside),
        "latency_during_full_disk_ms": ms(during),
        "full_disk_hold_s": hold[1] - hold[0],
        "actions": sum(p.actions for p in people),
        "matches_finished": sum(p.finished for p in people),
        "quiet_at_end": sum(p.quiet for p in people),
        "reconnects": sum(p.reconnects for p in people),
        "people_errors": dict(Counter(e for p in people for e in p.errors)),
        "people_closes": dict(Counter(c for p in people for c in p.closes)),
        "records_identical": same,
        "records_different": different,
        "attacks": run["hostile"]["outcomes"],
        "attack_problems": run["hostile"]["problems"],
        "exec_marker_runs": run["exec_marker_runs"],
        "escaper_seat": run["escaper_seat"],
        "escaper_launches": run["escaper_launches"],
        "children_started": run["children_started"],
        "children_left_at_end": run["children_left_at_end"],
        "children_left_after_stop": run["children_left_after_stop"],
        "server_alive": run["server_alive"],
        "server_log": run["log"],
        "server_cpu": run["server_cpu"],
        "server_waited": run["server_waited"],
        "rss_mb": [run["rss_base_mb"], run["rss_peak_mb"]],
        "tmpfs": run["tmpfs"],
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
    }


def report(s: dict[str, Any]) -> None:
    def line(label: str, f: dict[str, Any]) -> str:
        if not f["n"]:
            return f"{label}: no actions"
        return (f"{label}: p50 {f['p50']:.1f} ms, p95 {f['p95']:.1f} ms, p99 {f['p99']:.1f} ms,"
                f" max {f['max']:.1f} ms ({f['n']} actions)")  # fmt: skip

    print(f"{s['tables']} tables of a person and @random, {s['seconds']:.0f} s under attack"
          f" (server data on {'its own tmpfs' if s['tmpfs'] else 'the temp dir'})")  # fmt: skip
    print("  " + line("person's action -> next update/decide", s["latency_ms"]))
    print("  " + line("  outside the full-disk hold", s["latency_outside_full_disk_ms"]))
    if s["full_disk_hold_s"] > 0:
        print("  " + line(f"  during the hold ({s['full_disk_hold_s']:.1f} s)",
                          s["latency_during_full_disk_ms"]))  # fmt: skip
    print(f"  people: {s['actions']} actions, {s['matches_finished']} matches finished,"
          f" {s['quiet_at_end']}/{s['tables']} quiet at the end, {s['reconnects']} reconnections,"
          f" errors {s['people_errors']}, closes {s['people_closes']}")  # fmt: skip
    print(f"  records: {s['records_identical']}/{s['tables']} identical to the fresh server's"
          + (f"; different: {', '.join(s['records_different'][:10])}" if s["records_different"]
             else ""))  # fmt: skip
    print(f"  server: alive at the end {s['server_alive']}, {100 * s['server_cpu']:.0f}% of a"
          f" core, RSS {s['rss_mb'][0]:.0f} -> {s['rss_mb'][1]:.0f} MB, its log"
          f" {s['server_log']}; machine CPU pressure {100 * s['server_waited']:.0f}%,"
          f" load {s['load']}")  # fmt: skip
    print(f"  exec marker ran {s['exec_marker_runs']} times; {s['escaper_seat']} launched"
          f" {s['escaper_launches']} times, {s['children_started']} children started, left at"
          " the end of the window"
          f" {s['children_left_at_end']}, after the server stopped"
          f" {s['children_left_after_stop']}")  # fmt: skip
    for attack, outcomes in s["attacks"].items():
        shown = ", ".join(f"{k} x{v}" for k, v in sorted(outcomes.items(), key=lambda kv: -kv[1]))
        print(f"  {attack}: {shown}")
    if s["attack_problems"]:
        print(f"  attacks that failed on the client side: {s['attack_problems']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of people")
    parser.add_argument("--seconds", type=float, default=30.0, help="the window under attack")
    parser.add_argument("--warmup", type=float, default=3.0, help="seating, before the window")
    parser.add_argument("--seed", type=int, default=1, help="table i is dealt from S*1000+i")
    parser.add_argument(
        "--delay", type=float, nargs=2, default=[0.3, 1.2], metavar=("LO", "HI"),
        help="a person's think time, uniform in seconds",
    )  # fmt: skip
    parser.add_argument(
        "--full-disk", action=argparse.BooleanOptionalAction, default=True,
        help="fill the server's own tmpfs for a while (needs root for unshare --mount)",
    )  # fmt: skip
    parser.add_argument("--full-disk-seconds", type=float, default=2.0)
    parser.add_argument(
        "--reference-root", help="where the reference server's data goes (default /dev/shm)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sixtysix-hostile-") as name:
        tmp = Path(name)
        run = hostile_run(args, tmp)
        limits = {p.seed: p.actions for p in run["people"]}
        reference = reference_run(args, tmp, limits)
    summary = summarize(run, reference, args)
    report(summary)
    if args.json:
        print(json.dumps(summary, indent=2))
    p95 = summary["latency_outside_full_disk_ms"]["p95"]
    ok = p95 is not None and p95 < TARGET_P95_MS and summary["records_identical"] == args.tables
    shown = "no actions" if p95 is None else f"{p95:.1f} ms"
    print(
        f"targets: people's p95 under {TARGET_P95_MS:.0f} ms ({shown}) and every record"
        f" identical ({summary['records_identical']}/{args.tables}):",
        "met" if ok else "MISSED",
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
