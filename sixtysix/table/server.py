"""The table server: many tables in one asyncio process, over WebSockets (``sixtysix-table/1``).

Each connection's first message says what it is for (``create``, ``list`` or ``join``); a
seated connection then sends actions, ``undo`` and ``leave``, and receives what its
:class:`~sixtysix.table.table.Table` tells its seat. Every table has its own lock: one request
of one table at a time, and a bot or an ``exec:`` program thinks in a thread
(:func:`asyncio.to_thread`), so a slow table never holds up another. After every change the
table file is written (in a thread, before anyone is told), so what a client has seen survives
a crash.

An ``exec:`` seat runs a program on the server's machine, so only a client on that machine
(a loopback address) may open a table with one.

A connection that breaks the rules (binary frames, no JSON, more than :data:`wire.BURST`
messages at once or :data:`wire.RATE` a second, a frame over :data:`wire.MAX_MESSAGE`, no first
message within :data:`wire.HELLO_TIMEOUT`) is closed with a reason and changes nothing; a
refused move is answered with an ``error`` and the connection goes on. Each connection's
messages go out through a queue of its own, so a client that stops reading only fills its own
queue, and is closed when that is full.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import secrets
import ssl
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from sixtysix.bots.external import ExecBot, check_exec
from sixtysix.core.errors import SixtySixError
from sixtysix.i18n import Translator
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.messages import Message
from sixtysix.table import wire
from sixtysix.table.store import Store, table_from_file
from sixtysix.table.table import Config, Out, StandingsBook, Table
from sixtysix.table.wire import WireError

log = logging.getLogger("sixtysix.server")

#: Seconds a peer has to answer a close before the connection is dropped (a client still
#: pushing a 10 MB frame never answers).
CLOSE_TIMEOUT = 3.0
#: Threads writing table files at once: a disk takes many fsyncs together about as fast as one.
WRITERS = 32
#: Bytes of a close frame's reason.
MAX_REASON = 123
#: Messages waiting for one slow client before it is closed.
MAX_QUEUE = 2000
#: Connections waiting to be accepted (many clients reconnect at once after a restart).
BACKLOG = 4096
#: Unfinished tables one server holds at most.
MAX_TABLES = 20_000
#: How long a finished table is still listed (seconds).
FINISHED_LISTED = 3600.0


class NameBook(Protocol):
    """Names and their tokens (:class:`sixtysix.table.names.Names`)."""

    def claim(self, name: str) -> str: ...
    def check(self, name: str, token: str) -> bool: ...
    def exists(self, name: str) -> bool: ...


class Client:
    """One connection and the queue its messages go out through."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.closing = False
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    def put(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closing = True
            self.queue.put_nowait((wire.CLOSE_POLICY, "too slow: messages not read"))
            return
        self.queue.put_nowait(text)

    def send(self, message: Message) -> None:
        self.put(wire.encode(message))

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                await self.ws.close(*item)
                return
            try:
                await self.ws.send(item)
            except ConnectionClosed:
                return

    async def flush_and_close(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code`` and ``reason``."""
        if not self.closing:
            self.closing = True
            self.queue.put_nowait((code, close_reason(reason)))
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await self.writer

    def stop(self) -> None:
        self.writer.cancel()


class TableServer:
    """Every table of one server, its connections and its files."""

    def __init__(
        self,
        data: Path,
        registry: Registry,
        names: NameBook,
        standings: StandingsBook | None = None,
        *,
        reconnect_time: float = 180.0,
        clock: Callable[[], float] = time.monotonic,
        tr: Translator | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.store = Store(data)
        self.tr = tr or Translator()
        self.say = say or (lambda line: None)
        self.registry = registry
        self.names = names
        self.standings = standings
        self.reconnect_time = reconnect_time
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.clients: dict[str, dict[int, Client]] = {}
        self.wakers: dict[str, asyncio.Event] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.problems: list[str] = []
        #: The threads that write table files, apart from the bots' threads.
        self.writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="sixtysix-table-file")

    # ------------------------------------------------------------------ tables

    def _table_kwargs(self) -> dict[str, Any]:
        return {
            "standings": self.standings,
            "clock": self.clock,
            "reconnect_time": self.reconnect_time,
        }

    async def resume_all(self) -> int:
        """Load every unfinished table file and go on with its match; the number resumed."""
        loaded = await asyncio.to_thread(
            self.store.load_all,
            lambda data: table_from_file(data, self.registry, **self._table_kwargs()),
        )
        count = 0
        for item in loaded:
            if item.table is None:
                self.problems.append(f"{item.path}: {item.problem}")
                continue
            self._add(item.table)
            async with self.locks[item.table.id]:
                await self._commit(item.table, item.table.resume())
                await self._advance(item.table)
            count += 1
        return count

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.clients[table.id] = {}
        self.wakers[table.id] = asyncio.Event()
        self._spawn(self._clock(table))

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self.tables and not self.store.exists(table_id):
                return table_id

    async def create(self, request: wire.Create) -> Table:
        """A new table (its ``exec:`` programs shaken hands with first); ``garbage`` when the
        variant, an option or a player is unknown."""
        config = Config(
            id=self._new_id(),
            variant=request.variant,
            options=request.options,
            seats=request.seats,
            rated=request.rated,
            move_time=request.move_time,
            on_leave=request.on_leave,
            seed=request.seed,
        )
        try:
            table = Table(config, self.registry, **self._table_kwargs())
            programs = [type(b) for b in table.bots if isinstance(b, ExecBot)]
            if programs:
                await asyncio.to_thread(check_exec, programs)
        except SixtySixError as exc:
            raise WireError("garbage", str(exc)) from None
        self._add(table)
        async with self.locks[table.id]:
            await self._commit(table, table.start_if_ready())
        self._spawn(self._advance_locked(table))
        return table

    async def _commit(self, table: Table, out: Out) -> None:
        """Write the table file, then tell every seat what it is to be told."""
        await self._save(table)
        self._deliver(table, out)
        self._log(table, out)
        self.wakers[table.id].set()
        if table.finished and any(p.running for p in table.programs):
            self._spawn(asyncio.to_thread(table.close_programs))

    async def _save(self, table: Table) -> None:
        """Write the table's file in a writer thread (fsyncs of many tables go on at once)."""
        table.version += 1
        text = self.store.text(table)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.writers, self.store.write, table.id, text, table.version)

    def _log(self, table: Table, out: Out) -> None:
        """The operator's lines for what ``out`` tells: who left, a match over."""
        seen: set[int] = set()
        for _, message in out:
            kind = message.get("type")
            if kind not in ("left", "match_over") or id(message) in seen:
                continue
            seen.add(id(message))
            if kind == "left":
                line = self.tr._("Table {table}: seat {seat} has left ({reason}).")
                self.say(
                    line.format(table=table.id, seat=message["seat"], reason=message["reason"])
                )
            else:
                line = self.tr._("Table {table}: the match is over (totals {totals}).")
                totals = " ".join(str(t) for t in message["totals"])
                self.say(line.format(table=table.id, totals=totals))

    def _deliver(self, table: Table, out: Out) -> None:
        clients = self.clients[table.id]
        encoded: dict[int, str] = {}
        for seat, message in out:
            client = clients.get(seat)
            if client is None:
                continue
            text = encoded.get(id(message))
            if text is None:
                text = encoded[id(message)] = wire.encode(message)
            client.put(text)

    async def _advance(self, table: Table) -> None:
        """Let the bots to act take their turns (the table's lock held)."""
        while table.bot_to_act():
            out = await asyncio.to_thread(table.bot_turn)
            await self._commit(table, out)

    async def _advance_locked(self, table: Table) -> None:
        async with self.locks[table.id]:
            await self._advance(table)

    async def _clock(self, table: Table) -> None:
        """The table's timers: reconnect limits and the rated move timer."""
        waker = self.wakers[table.id]
        while not table.finished:
            deadline = table.next_deadline()
            waker.clear()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waker.wait(), timeout)
                continue
            async with self.locks[table.id]:
                out = table.expire()
                if out:
                    await self._commit(table, out)
                    await self._advance(table)

    def listing(self) -> list[Message]:
        now = self.clock()
        for table_id in [
            t.id
            for t in self.tables.values()
            if t.finished_at is not None and now - t.finished_at > FINISHED_LISTED
        ]:
            self._forget(table_id)
        return [t.summary() for t in self.tables.values()]

    def _forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.locks.pop(table_id, None)
        self.wakers.pop(table_id, None)
        self.clients.pop(table_id, None)

    # ------------------------------------------------------------------ connections

    async def handle(self, ws: ServerConnection) -> None:
        """One connection, from its first message to its close."""
        client = Client(ws)
        try:
            await self._handle(client)
        except WireError as exc:
            client.send(wire.error(exc.code, exc.message))
            await client.flush_and_close(wire.CLOSE_POLICY, exc.message)
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug or a broken database: this connection only
            log.exception("connection failed")
            reason = "server error" if not isinstance(exc, SixtySixError) else str(exc)[:120]
            client.send(wire.error("server", reason))
            await client.flush_and_close(wire.CLOSE_ERROR, reason)
        finally:
            client.stop()

    async def _handle(self, client: Client) -> None:
        ws = client.ws
        bucket = wire.TokenBucket()
        try:
            frame = await asyncio.wait_for(ws.recv(), wire.HELLO_TIMEOUT)
        except TimeoutError:
            raise WireError("protocol", "no hello in time") from None
        bucket.take()
        request = wire.check_request(wire.decode(frame))
        if isinstance(request, wire.ListTables):
            client.send(wire.tables(self.listing()))
            await client.flush_and_close(wire.CLOSE_NORMAL, "listed")
        elif isinstance(request, wire.Create):
            if any(spec.startswith("exec:") for spec in request.seats) and not _local(ws):
                raise WireError(
                    "garbage", "exec: players are seated only from the server's own machine"
                )
            if sum(not t.finished for t in self.tables.values()) >= MAX_TABLES:
                raise WireError("table_full", "this server has as many tables as it can hold")
            table = await self.create(request)
            self.say(
                self.tr._("Table {table}: {variant} opened ({seats}).").format(
                    table=table.id, variant=table.variant.name, seats=", ".join(request.seats)
                )
            )
            client.send(wire.created(table.id))
            await client.flush_and_close(wire.CLOSE_NORMAL, "created")
        else:
            await self._seated(client, request, bucket)

    async def _seated(self, client: Client, request: wire.Join, bucket: wire.TokenBucket) -> None:
        table = self.tables.get(request.table)
        if table is None:
            raise WireError("no_table", f"no table {request.table[:40]} at this server")
        name = request.name
        async with self.locks[table.id]:
            exists = await asyncio.to_thread(self.names.exists, name)
            token: str | None = None
            if exists:
                good = request.token is not None and await asyncio.to_thread(
                    self.names.check, name, request.token
                )
                if not good:
                    raise WireError("token", f"the name {name} is taken: its token is wrong")
            elif table.find(name) is None and not table.free_seats():
                raise WireError("table_full", "every seat at this table is taken")
            seat, reconnected = table.join(name, request.seat)
            if not exists:
                try:
                    token = await asyncio.to_thread(self.names.claim, name)
                except SixtySixError as exc:
                    table.leave(seat, "quit")
                    raise WireError("name_taken", str(exc)) from None
            old = self.clients[table.id].get(seat)
            self.clients[table.id][seat] = client
            if old is not None:
                self._spawn(old.flush_and_close(wire.CLOSE_NORMAL, "replaced by a new connection"))
            client.send(
                wire.welcome(
                    table.id,
                    seat,
                    table.names[seat] or name,
                    token,
                    table.config.rated,
                    table.config.move_time,
                    table.players(),
                    reconnected,
                )
            )
            was_started = table.started
            out = table.connect(seat)
            if was_started or not table.started:
                for message in table.screen(seat):
                    client.send(message)
            await self._commit(table, out)
            await self._advance(table)
        self.say(
            self.tr._("Table {table}: {name} at seat {seat}.").format(
                table=table.id, name=name, seat=seat
            )
        )
        try:
            await self._listen(client, table, seat, bucket)
        finally:
            if self.clients.get(table.id, {}).get(seat) is client:
                del self.clients[table.id][seat]
                lock = self.locks.get(table.id)
                if lock is not None:
                    async with lock:
                        await self._commit(table, table.disconnect(seat))

    async def _listen(
        self, client: Client, table: Table, seat: int, bucket: wire.TokenBucket
    ) -> None:
        async for frame in client.ws:
            if not bucket.take():
                raise WireError("flooding", "flooding: too many messages")
            request = wire.check_seated(wire.decode(frame))
            if self.clients[table.id].get(seat) is not client:
                return
            async with self.locks[table.id]:
                try:
                    if request.kind == "action":
                        out = table.act(seat, request.action)
                    elif request.kind == "undo":
                        out = table.undo(seat)
                    else:
                        out = table.leave(seat, "quit")
                except WireError as exc:
                    if exc.closes:
                        raise
                    client.send(wire.error(exc.code, exc.message))
                    continue
                await self._commit(table, out)
                await self._advance(table)
            if request.kind == "leave":
                await client.flush_and_close(wire.CLOSE_NORMAL, "left the table")
                return

    # ------------------------------------------------------------------ running

    async def save_all(self) -> None:
        """Write every table file (at a clean stop)."""
        await asyncio.gather(*(self._save(t) for t in list(self.tables.values())))

    def start(
        self, host: str, port: int, ssl_context: ssl.SSLContext | None = None
    ) -> Awaitable[WsServer]:
        """Listen on ``host:port`` (the awaitable's result is the websockets server)."""
        return serve(
            self.handle,
            host,
            port,
            max_size=wire.MAX_MESSAGE,
            compression=None,
            ssl=ssl_context,
            backlog=BACKLOG,
            close_timeout=CLOSE_TIMEOUT,
            logger=logging.getLogger("sixtysix.server.websockets"),
        )

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.save_all()
        self.writers.shutdown(wait=True)


def close_reason(text: str) -> str:
    """``text`` cut to what a close frame holds (123 bytes of UTF-8), on a character."""
    raw = " ".join(text.split()).encode("utf-8")
    if len(raw) <= MAX_REASON:
        return raw.decode("utf-8")
    return raw[: MAX_REASON - 3].decode("utf-8", "ignore") + "..."


def _local(ws: ServerConnection) -> bool:
    """Whether the peer is on this machine (a loopback address)."""
    address = ws.remote_address
    host = address[0] if isinstance(address, tuple) and address else None
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tls_context(certfile: str, keyfile: str | None) -> ssl.SSLContext:
    """The server's TLS context; :class:`ssl.SSLError` or :class:`OSError` for a
    certificate or key it cannot use."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certfile, keyfile)
    return context
