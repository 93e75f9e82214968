"""The table server: many tables in one asyncio process, over WebSockets (``sixtysix-table/1``).

Each connection's first message says what it is for (``create``, ``list``, ``join`` or
``standings``, the club's standings, read in threads of their own); a seated connection then
sends actions, ``undo`` and ``leave``, and receives what its
:class:`~sixtysix.table.table.Table` tells its seat; its ``chat`` goes to every person at the
table as it comes, and is never saved. Every table has its own lock: one request
of one table at a time. Bots think in a bounded pool of their own (:mod:`sixtysix.table.pool`),
apart from the threads that write table files and look up names, with the tables where a
person is connected served first. After every change the table file is written (in a thread,
before anyone is told), so what a client has seen survives a crash; a file that cannot be
written (a full disk) pauses its table, which goes on by itself once it can be saved.

Who may do what (``docs/together.md``, "Who can reach the server"): programs are the
operator's choice alone. A client seats people, levels and bots by name (no budgets), and the
programs the operator named at start (``@NAME``); only a request carrying the operator's token
(a file in the data folder that only the operator's user can read) from this machine may seat
an ``exec:`` program or give bot parameters. Browser connections from an Origin the operator
did not allow are refused by the WebSocket handshake. Tables are rationed per address and per
name (:class:`Limits`), and an open table nobody comes to expires.

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
import hmac
import logging
import secrets
import sqlite3
import ssl
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from sixtysix.bots.external import ExecBot, check_exec
from sixtysix.core.errors import SixtySixError
from sixtysix.i18n import Translator
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.messages import Message
from sixtysix.service.review import call_analyser, load_analyser
from sixtysix.table import wire
from sixtysix.table.browser import BrowserSeat, hint_board
from sixtysix.table.connection import Client, is_local, peer_address
from sixtysix.table.names import NamesError, name_key
from sixtysix.table.page_setup import setup
from sixtysix.table.pool import IDLE, WATCHED, BotPool
from sixtysix.table.saving import (
    PAUSE_JOIN_WAIT,
    SAVE_RETRY_FIRST,
    SAVE_RETRY_LAST,
    Pause,
    Results,
    kept_results,
    os_reason,
)
from sixtysix.table.seats import SeatRefused, check_client_seat, program_name
from sixtysix.table.settings import (
    Settings,
)
from sixtysix.table.standings_db import Club, ServerStandings, StandingsError
from sixtysix.table.store import Store, table_from_file
from sixtysix.table.table import Config, Out, Table
from sixtysix.table.web import Policy, Site
from sixtysix.table.wire import WireError

#: Hints the server computes at once, all pages together: the bots' threads stay the
#: tables'.
HINTS_AT_ONCE = 1
#: Messages that change nothing a page draws: no ``board`` follows them.
QUIET = ("chat", "error", "hints")
log = logging.getLogger("sixtysix.server")

#: Seconds a peer has to answer a close before the connection is dropped (a client still
#: pushing a 10 MB frame never answers).
CLOSE_TIMEOUT = 3.0
#: Seconds a stop waits for the connections to close before it cuts those still open.
STOP_CONNECTIONS = CLOSE_TIMEOUT + 1.0
#: Threads writing table files at once: a disk takes many fsyncs together about as fast as one.
WRITERS = 32
#: Connections waiting to be accepted (many clients reconnect at once after a restart).
BACKLOG = 4096
#: Unfinished tables one server holds at most.
MAX_TABLES = 20_000
#: How long a finished table is still listed (seconds).
FINISHED_LISTED = 3600.0
#: Threads that look up and claim names (SQLite), apart from the bots' and the writers'.
NAME_THREADS = 8
#: Threads that wait on ``exec:`` programs' answers at once.
PROGRAM_THREADS = 64
#: Addresses whose create rate is remembered at most (the oldest are forgotten first).
MAX_ADDRESSES = 10_000
#: How long a join waits for a restarting server to have read its tables back (seconds).
RESUME_WAIT = 30.0
#: Threads that read the standings for ``standings`` requests (apart from the names', so a
#: crowd asking for standings never holds up a join), and the requests that may wait for them.
STANDINGS_THREADS = 2
STANDINGS_WAITING = 64


class NameBook(Protocol):
    """Names and their tokens (:class:`sixtysix.table.names.Names`)."""

    def claim(self, name: str) -> str: ...
    def check(self, name: str, token: str) -> bool: ...
    def exists(self, name: str) -> bool: ...


class TableServer:
    """Every table of one server, its connections and its files."""

    def __init__(
        self,
        data: Path,
        registry: Registry,
        names: NameBook,
        standings: ServerStandings | None = None,
        *,
        reconnect_time: float = 180.0,
        clock: Callable[[], float] = time.monotonic,
        tr: Translator | None = None,
        say: Callable[[str], None] | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.limits = self.settings.limits
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
        #: Every connection past its opening handshake, until its handler returns.
        self.live: set[Client] = set()
        self.problems: list[str] = []
        #: The threads that write table files, apart from the bots' threads.
        self.writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="sixtysix-table-file")
        #: The threads that look up names, apart from the bots' threads.
        self.lookups = ThreadPoolExecutor(NAME_THREADS, thread_name_prefix="sixtysix-names")
        #: The threads that read the standings, and the requests waiting for them.
        self.readers = ThreadPoolExecutor(
            STANDINGS_THREADS, thread_name_prefix="sixtysix-standings"
        )
        self.reading = 0
        self.bots = BotPool(self.settings.bot_threads)
        #: The threads that wait on ``exec:`` programs (waiting takes no core of the bots').
        self.program_waits = BotPool(PROGRAM_THREADS, name="sixtysix-program")
        #: Set once every table file has been read back (a join waits for it).
        self.ready = asyncio.Event()
        #: Who opened each table (its address), while this server runs.
        self.opened_by: dict[str, str] = {}
        #: Since when (clock time) an open table has had nobody at it.
        self.idle_since: dict[str, float] = {}
        self.creates: dict[str, wire.TokenBucket] = {}
        #: The tables whose last change could not be saved (a full disk), by id.
        self.paused: dict[str, Pause] = {}
        #: Each table's results on their way to the standings, by id.
        self.results: dict[str, Results] = {}
        #: The version of each table that its file holds (what a stop need not write again).
        self.saved: dict[str, int] = {}
        #: The tables a stop could not save (their files hold what their clients were told).
        self.unsaved: list[str] = []
        #: Hints being computed now (at most :data:`HINTS_AT_ONCE`).
        self.hints = 0
        #: Each table's chat limits, per seat (kept across a seat's reconnections).
        self.chatters: dict[str, dict[int, wire.TokenBucket]] = {}

    # ------------------------------------------------------------------ tables

    def _table_kwargs(self) -> dict[str, Any]:
        return {
            "clock": self.clock,
            "reconnect_time": self.reconnect_time,
        }

    async def resume_all(self) -> int:
        """Read every table file back (unfinished tables go on, finished ones within the
        hour are listed); the number resumed. The bots' turns are left to tasks, so a
        server that listens already answers while resumed tables play on."""
        try:
            loaded = await asyncio.to_thread(
                self.store.load_all,
                self._build,
                FINISHED_LISTED,
            )
            count = 0
            for item in loaded:
                if item.table is None:
                    self.problems.append(f"{item.path}: {item.problem}")
                    continue
                table = item.table
                self._add(table)
                if table.finished:
                    continue
                if not table.started:
                    self.idle_since[table.id] = self.clock() - _age(table.config.created_at)
                async with self.locks[table.id]:
                    await self._commit(table, table.resume())
                self._spawn(self._advance_locked(table))
                count += 1
            return count
        finally:
            self.ready.set()

    def _build(self, data: dict[str, Any]) -> Table:
        """A table read back from its file (in a thread), with the results its file kept for
        the standings."""
        table = table_from_file(data, self.registry, **self._table_kwargs())
        rows = kept_results(data["table"].get("unrecorded"))
        if rows:
            self.results[table.id] = Results(rows)
        return table

    def _add(self, table: Table) -> None:
        """Hold ``table``: its lock, its clients, its clock, and its results go through the
        server's :class:`Results` (so a full disk never loses one nor stops the table)."""
        if self.standings is not None:
            kept = self.results.setdefault(table.id, Results())
            table.standings = kept
            if kept.rows and not kept.retrying:  # kept by its file: written when they can be
                kept.retrying = True
                self._spawn(self._retry_results(table, kept))
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.clients[table.id] = {}
        self.wakers[table.id] = asyncio.Event()
        if not table.finished:
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

    async def create(self, request: wire.Create, *, operator: bool = False) -> Table:
        """A new table (its ``exec:`` programs shaken hands with first); ``garbage`` when the
        variant, an option or a player is unknown, or a seat is not the client's to ask for
        (:func:`~sixtysix.table.seats.check_client_seat`; the operator may ask for any)."""
        programs = self.settings.programs
        try:
            if not operator:
                for spec in request.seats:
                    check_client_seat(spec, programs)
        except SeatRefused as exc:
            raise WireError("garbage", str(exc)) from None
        named = {
            name: programs[name]
            for name in (program_name(spec) for spec in request.seats)
            if name is not None and name in programs
        }
        config = Config(
            id=self._new_id(),
            variant=request.variant,
            options=request.options,
            seats=request.seats,
            rated=request.rated,
            move_time=request.move_time,
            on_leave=request.on_leave,
            seed=request.seed,
            programs=named,
            operator=operator,
        )
        try:
            table = Table(config, self.registry, **self._table_kwargs())
            if not operator and not table.humans():
                raise WireError(
                    "garbage", "a table seats at least one person: bots alone are the operator's"
                )
            programs_seated = [type(b) for b in table.bots if isinstance(b, ExecBot)]
            if programs_seated:
                await asyncio.to_thread(check_exec, programs_seated)
        except SixtySixError as exc:
            raise WireError("garbage", str(exc)) from None
        out = table.start_if_ready()
        try:
            await self._save(table)  # before the server holds it: a refused table leaves nothing
        except OSError as exc:
            self.say(
                self.tr._("A new table could not be saved ({reason}): it was refused.").format(
                    reason=os_reason(exc)
                )
            )
            raise WireError(
                "server", "the server cannot save a new table now (is its disk full?); try later"
            ) from None
        self._add(table)
        self.idle_since[table.id] = self.clock()
        self._told(table, out)
        self._spawn(self._advance_locked(table))
        return table

    async def _commit(self, table: Table, out: Out) -> None:
        """Write the table file, then tell every seat what it is to be told. A file that
        cannot be written (a full disk) pauses the table instead (:meth:`_pause`): a client is
        never told what its file does not hold."""
        pause = self.paused.get(table.id)
        if pause is not None:  # a drop while paused: told with the rest once saved
            pause.pending.extend(out)
            return
        await self._record_results(table)
        try:
            await self._save(table)
        except OSError as exc:
            self._pause(table, out, exc)
            return
        self._told(table, out)

    def _told(self, table: Table, out: Out) -> None:
        """Tell what a saved change tells: the seats, the operator, the table's clock."""
        self._deliver(table, out)
        self._log(table, out)
        self.wakers[table.id].set()
        if table.finished and any(p.running for p in table.programs):
            self._spawn(asyncio.to_thread(table.close_programs))

    async def _save(self, table: Table) -> None:
        """Write the table's file in a writer thread (fsyncs of many tables go on at once);
        :class:`OSError` when it cannot be written (the old file stays whole)."""
        table.version += 1
        version = table.version
        kept = self.results.get(table.id)
        text = self.store.text(table, kept.rows if kept is not None else ())
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.writers, self.store.write, table.id, text, version)
        self.saved[table.id] = max(version, self.saved.get(table.id, 0))

    def _pause(self, table: Table, out: Out, exc: OSError) -> None:
        """The table's file cannot be written: hold ``out``, tell every seat the table waits,
        and try to save it again until it can be (:meth:`_retry_save`). Meanwhile the table
        takes no action, its bots and timers wait, and its file holds what was last told."""
        pause = Pause(self.clock(), list(out))
        self.paused[table.id] = pause
        for client in list(self.clients.get(table.id, {}).values()):
            client.send(wire.paused())
        self.say(
            self.tr._(
                "Table {table}: cannot be saved ({reason}); it waits, and goes on by itself"
                " once the disk has room."
            ).format(table=table.id, reason=os_reason(exc))
        )
        self._spawn(self._retry_save(table, pause))

    async def _retry_save(self, table: Table, pause: Pause) -> None:
        """Try to save a paused table again, each try later than the last (up to
        :data:`SAVE_RETRY_LAST`), until it is saved; then it goes on."""
        delay = SAVE_RETRY_FIRST
        while True:
            await asyncio.sleep(delay)
            delay = min(delay * 2, SAVE_RETRY_LAST)
            lock = self.locks.get(table.id)
            if lock is None or self.tables.get(table.id) is not table:  # removed meanwhile
                if self.paused.get(table.id) is pause:
                    del self.paused[table.id]
                pause.over.set()
                return
            async with lock:
                await self._record_results(table)
                try:
                    await self._save(table)
                except OSError:
                    continue
                self._go_on(table, pause)
            self._spawn(self._advance_locked(table))
            return

    def _go_on(self, table: Table, pause: Pause) -> None:
        """A paused table is saved: its timers move on by the pause (nobody's reconnect limit
        or move timer ran out while it waited), its seats are told ``resumed``, then what
        waited, and a fresh ``timer`` on a rated table whose move timer runs."""
        del self.paused[table.id]
        now = self.clock()
        if table.move_deadline is not None:
            table.move_deadline += now - pause.since
        for dropped, at in list(table.drops.items()):
            began = max(pause.since, at - table.reconnect_time)
            table.drops[dropped] = at + max(0.0, now - began)
        resumed = wire.resumed()
        for client in list(self.clients.get(table.id, {}).values()):
            client.send(resumed)
        out = list(pause.pending)
        seat = table.to_act()
        if table.config.rated and table.move_deadline is not None and seat is not None:
            timer = wire.timer(seat, max(0, round(table.move_deadline - now)))
            out += [(s, timer) for s in table.humans()]
        self._told(table, out)
        pause.over.set()
        self.say(
            self.tr._("Table {table}: saved again after {seconds} s; it goes on.").format(
                table=table.id, seconds=round(now - pause.since)
            )
        )

    async def _record_results(self, table: Table, *, retry: bool = True) -> None:
        """Write the table's waiting results to the standings (in the names' threads). One
        that cannot be written stays, saved in the table's file, and is tried again with the
        table's next save or by a task (``retry``); the operator is told once."""
        kept = self.results.get(table.id)
        if kept is None or not kept.rows or self.standings is None:
            return
        written, problem = await self._lookup(self._write_results, list(kept.rows))
        del kept.rows[:written]
        if problem is None:
            if kept.failing:
                kept.failing = False
                line = self.tr._("Table {table}: its kept results are in the standings now.")
                self.say(line.format(table=table.id))
            return
        if not kept.failing:
            kept.failing = True
            line = self.tr._(
                "Table {table}: a result cannot be written to the standings ({reason}); it is"
                " kept in the table's file and written once the database can take it."
            )
            self.say(line.format(table=table.id, reason=problem))
        if retry and not kept.retrying:
            kept.retrying = True
            self._spawn(self._retry_results(table, kept))

    def _write_results(self, rows: list[dict[str, Any]]) -> tuple[int, str | None]:
        """Add ``rows`` to the standings in order (in a thread): how many were written, and
        why the next could not be (None: all were)."""
        assert self.standings is not None
        for done, row in enumerate(rows):
            try:
                self.standings.add(**row)
            except (SixtySixError, sqlite3.Error, OSError) as exc:
                return done, str(exc) or type(exc).__name__
        return len(rows), None

    async def _retry_results(self, table: Table, kept: Results) -> None:
        """Try a table's kept results again until they are written (a finished table has no
        next save to try them with), then save its file without them."""
        delay = SAVE_RETRY_FIRST
        try:
            while kept.rows:
                await asyncio.sleep(delay)
                delay = min(delay * 2, SAVE_RETRY_LAST)
                lock = self.locks.get(table.id)
                if lock is None:  # no longer held: its file keeps them for a restart
                    return
                async with lock:
                    if table.id in self.paused:  # the pause's tries write them
                        continue
                    await self._record_results(table, retry=False)
                    if not kept.rows:
                        with contextlib.suppress(OSError):  # a stop writes it again
                            await self._save(table)
        finally:
            kept.retrying = False

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
        clients = self.clients.get(table.id, {})  # none at a table already forgotten
        encoded: dict[int, str] = {}
        pages: dict[int, Client] = {}
        for seat, message in out:
            client = clients.get(seat)
            if client is None:
                continue
            text = encoded.get(id(message))
            if text is None:
                text = encoded[id(message)] = wire.encode(message)
            client.send(message, text)
            if client.browser is not None and message.get("type") not in QUIET:
                pages[seat] = client
        for client in pages.values():
            client.show()

    async def _advance(self, table: Table) -> None:
        """Let the bots to act take their turns (the table's lock held): each thinks in the
        bots' pool, and its answer is applied here, so a table is only changed in this
        thread. A paused table's bots wait for it to go on."""
        while table.id not in self.paused:
            question = table.bot_question()
            if question is None:
                return
            pool = self.program_waits if isinstance(question.bot, ExecBot) else self.bots
            watched = any(table.connected)
            answer = await pool.run(question.think, WATCHED if watched else IDLE)
            out = table.bot_answer(question, answer)
            if out is not None:
                await self._commit(table, out)

    async def _advance_locked(self, table: Table) -> None:
        async with self.locks[table.id]:
            await self._advance(table)

    async def _clock(self, table: Table) -> None:
        """The table's timers: reconnect limits and the rated move timer (held while the
        table is paused, and moved on by the pause when it goes on)."""
        waker = self.wakers[table.id]
        while not table.finished and self.tables.get(table.id) is table:
            deadline = None if table.id in self.paused else table.next_deadline()
            waker.clear()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waker.wait(), timeout)
                continue
            async with self.locks[table.id]:
                if table.id in self.paused:
                    continue
                out = table.expire()
                if out:
                    await self._commit(table, out)
                    await self._advance(table)

    async def _sweep(self) -> None:
        """Remove the open tables nobody has been at for :attr:`Limits.open_expiry`."""
        expiry = self.limits.open_expiry
        while True:
            await asyncio.sleep(min(60.0, max(0.05, expiry / 4)))
            now = self.clock()
            for table_id, since in list(self.idle_since.items()):
                table = self.tables.get(table_id)
                if table is None or table.started or table.finished:
                    self.idle_since.pop(table_id, None)
                    continue
                if any(table.connected) or now - since < expiry:
                    continue
                async with self.locks[table_id]:
                    if table.started or any(table.connected):
                        continue
                    self._forget(table_id)
                    self.idle_since.pop(table_id, None)
                    self.opened_by.pop(table_id, None)
                    await asyncio.to_thread(self.store.remove, table_id)
                self.say(
                    self.tr._("Table {table}: removed, nobody came to it.").format(table=table_id)
                )

    def listing(self) -> list[Message]:
        now = self.clock()
        for table_id in [
            t.id
            for t in self.tables.values()
            if t.finished_at is not None
            and now - t.finished_at > FINISHED_LISTED
            and t.id not in self.paused
        ]:
            self._forget(table_id)
        return [t.summary() for t in self.tables.values()]

    def _forget(self, table_id: str) -> None:
        """Drop a table from memory; the connections still seated there are closed, so none
        goes on at a table the server no longer holds."""
        self.tables.pop(table_id, None)
        self.locks.pop(table_id, None)
        waker = self.wakers.pop(table_id, None)
        if waker is not None:
            waker.set()
        for client in self.clients.pop(table_id, {}).values():
            client.close_after_queue(wire.CLOSE_NORMAL, "the table is closed")
        self.results.pop(table_id, None)
        self.chatters.pop(table_id, None)
        self.saved.pop(table_id, None)

    # ------------------------------------------------------------------ connections

    async def handle(self, ws: ServerConnection) -> None:
        """One connection, from its first message to its close."""
        client = Client(ws)
        self.live.add(client)
        try:
            await self._handle(client)
        except WireError as exc:
            client.send(wire.error(exc.code, exc.message))
            await client.flush_and_close(wire.close_code(exc.code), exc.message)
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug or a broken database: this connection only
            log.exception("connection failed")
            reason = "server error" if not isinstance(exc, SixtySixError) else str(exc)[:120]
            client.send(wire.error("server", reason))
            await client.flush_and_close(wire.CLOSE_ERROR, reason)
        finally:
            client.stop()
            self.live.discard(client)

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
            await self._resumed()
            client.send(wire.tables(self.listing()))
            await client.flush_and_close(wire.CLOSE_NORMAL, "listed")
        elif isinstance(request, wire.StandingsQuery):
            client.send(await self.club_standings(request))
            await client.flush_and_close(wire.CLOSE_NORMAL, "standings")
        elif isinstance(request, wire.Create):
            operator = self._operator(ws, request.operator)
            address = peer_address(ws)
            if not operator:
                self._ration(address)
            if sum(not t.finished for t in self.tables.values()) >= MAX_TABLES:
                raise WireError("table_full", "this server has as many tables as it can hold")
            table = await self.create(request, operator=operator)
            self.opened_by[table.id] = "" if operator else address
            self.say(
                self.tr._("Table {table}: {variant} opened ({seats}).").format(
                    table=table.id, variant=table.variant.name, seats=", ".join(request.seats)
                )
            )
            client.send(wire.created(table.id))
            await client.flush_and_close(wire.CLOSE_NORMAL, "created")
        else:
            await self._resumed()
            await self._seated(client, request, bucket)

    async def club_standings(self, query: wire.StandingsQuery) -> Message:
        """The ``club_standings`` answer to ``query``, read in the standings' own threads; a
        variant is named by its name or an alias (one this server does not know is looked up
        as it is written). ``quota`` when too many requests wait already, ``server`` when the
        database cannot be read."""
        if query.variant is not None:
            with contextlib.suppress(SixtySixError):
                query = replace(query, variant=self.registry.variant(query.variant).name)
        book = self.standings
        if book is None:
            club = Club(
                [], 0, None if query.name is None else [], None if query.name is None else 0
            )
        else:
            if self.reading >= STANDINGS_WAITING:
                raise WireError(
                    "quota", "the server is answering many standings requests; ask again soon"
                )
            self.reading += 1
            try:
                loop = asyncio.get_running_loop()
                club = await loop.run_in_executor(
                    self.readers, book.club, query.variant, query.level, query.name, query.limit
                )
            except (StandingsError, sqlite3.Error, OSError) as exc:
                line = self.tr._("The standings cannot be read: {reason}")
                self.say(line.format(reason=str(exc) or type(exc).__name__))
                raise WireError("server", "the server cannot read its standings now") from None
            finally:
                self.reading -= 1
        history = None if club.history is None else [r.as_json() for r in club.history]
        return wire.club_standings(
            query, [r.as_json() for r in club.rows], club.total, history, club.history_total
        )

    async def _resumed(self) -> None:
        """Wait until a restarting server has read its tables back (bounded)."""
        if not self.ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), RESUME_WAIT)

    def _operator(self, ws: ServerConnection, token: str | None) -> bool:
        """Whether a ``create`` is the operator's: its token is the server's, and it comes
        from this machine. A token that is wrong, or sent from elsewhere, is refused."""
        if token is None:
            return False
        expected = self.settings.operator_token
        if expected is None or not hmac.compare_digest(token.encode(), expected.encode()):
            raise WireError("token", "the operator's token is wrong")
        if not is_local(ws):
            raise WireError("token", "the operator's requests come from the server's own machine")
        return True

    def _ration(self, address: str) -> None:
        """Refuse a ``create`` over this address's limits (``quota``, with the reason)."""
        limits = self.limits
        bucket = self.creates.get(address)
        if bucket is None:
            if len(self.creates) >= MAX_ADDRESSES:
                del self.creates[next(iter(self.creates))]
            rate = limits.creates_per_minute / 60.0
            bucket = self.creates[address] = wire.TokenBucket(
                rate, limits.creates_per_minute, self.clock
            )
        open_here = sum(
            1
            for table_id, by in self.opened_by.items()
            if by == address and table_id in self.tables and not self.tables[table_id].finished
        )
        if open_here >= limits.tables_per_address:
            raise WireError(
                "quota",
                f"this address has {open_here} unfinished tables, the most it may open;"
                " finish or leave one first",
            )
        if not bucket.take():
            raise WireError(
                "quota",
                f"this address may open {limits.creates_per_minute} tables a minute; wait a little",
            )

    def _name_quota(self, name: str, table: Table) -> None:
        """Refuse a new seat to a name already at :attr:`Limits.tables_per_name` tables."""
        key = name_key(name)
        held = sum(
            1
            for other in self.tables.values()
            if other is not table and not other.finished and key in other.name_keys
        )
        if held >= self.limits.tables_per_name:
            raise WireError(
                "quota",
                f"{name} sits at {held} unfinished tables, the most one name may;"
                " finish or leave one first",
            )

    async def _lookup(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A names call in the names' own threads (never behind the bots or the writers)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.lookups, fn, *args)

    async def _seated(self, client: Client, request: wire.Join, bucket: wire.TokenBucket) -> None:
        table = self.tables.get(request.table)
        if table is None:
            raise WireError("no_table", f"no table {request.table[:40]} at this server")
        name = request.name
        await self._unpaused(client, table)
        async with self.locks[table.id]:
            self._still_held(table)  # it may have expired while this join waited
            if table.id in self.paused:  # paused again meanwhile
                raise WireError("paused", wire.PAUSED_SAVE + "; join again later")
            exists = await self._lookup(self.names.exists, name)
            token: str | None = None
            if exists:
                good = request.token is not None and await self._lookup(
                    self.names.check, name, request.token
                )
                if not good:
                    raise WireError("token", f"the name {name} is taken: its token is wrong")
            elif table.find(name) is None and not table.free_seats():
                raise WireError("table_full", "every seat at this table is taken")
            if table.find(name) is None:
                self._name_quota(name, table)
            seat, reconnected = table.join(name, request.seat)
            if not exists:
                try:
                    token = await self._lookup(self.names.claim, name)
                except NamesError as exc:  # the database cannot be written (a full disk)
                    table.leave(seat, "quit")
                    self.say(
                        self.tr._("Table {table}: {name} could not be seated: {reason}").format(
                            table=table.id, name=name, reason=exc
                        )
                    )
                    raise WireError(
                        "server", "the server cannot save a new name now (is its disk full?)"
                    ) from None
                except SixtySixError as exc:
                    table.leave(seat, "quit")
                    raise WireError("name_taken", str(exc)) from None
            old = self.clients[table.id].get(seat)
            self.clients[table.id][seat] = client
            if request.screen:
                client.browser = BrowserSeat(
                    Translator(request.lang),
                    self.registry,
                    totals=table.totals,
                    sheet=table.sheet(),
                    undo=table.undo_open(seat),
                )
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
                    chat=self.settings.chat,
                    on_leave=table.config.on_leave,
                )
            )
            was_started = table.started
            out = table.connect(seat)
            if was_started or not table.started:
                for message in table.screen(seat):
                    client.send(message)
            client.show()
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
                        if not table.started and not any(table.connected):
                            self.idle_since[table.id] = self.clock()

    async def _unpaused(self, client: Client, table: Table) -> None:
        """Hold a join to a paused table until it goes on (the connection is told ``paused``,
        then ``resumed``, then it is welcome): nothing of a table whose last change is unsaved
        is shown. After :data:`PAUSE_JOIN_WAIT` the join is refused (``paused``, close 1013)."""
        pause = self.paused.get(table.id)
        if pause is None:
            return
        client.send(wire.paused())
        loop = asyncio.get_running_loop()
        end = loop.time() + PAUSE_JOIN_WAIT
        while pause is not None:
            try:
                await asyncio.wait_for(pause.over.wait(), max(0.0, end - loop.time()))
            except TimeoutError:
                raise WireError("paused", wire.PAUSED_SAVE + "; join again later") from None
            pause = self.paused.get(table.id)
        self._still_held(table)
        client.send(wire.resumed())

    def _still_held(self, table: Table) -> None:
        """``no_table`` if the server has forgotten ``table`` while a join waited for it."""
        if self.tables.get(table.id) is not table:
            raise WireError("no_table", f"no table {table.id} at this server")

    async def _listen(
        self, client: Client, table: Table, seat: int, bucket: wire.TokenBucket
    ) -> None:
        async for frame in client.ws:
            if not bucket.take():
                raise WireError("flooding", "flooding: too many messages")
            try:
                request = wire.check_seated(wire.decode(frame))
            except WireError as exc:
                if exc.closes:
                    raise
                client.send(wire.error(exc.code, exc.message))  # a chat it cannot pass on
                continue
            if self.clients.get(table.id, {}).get(seat) is not client:  # replaced or forgotten
                return
            if request.kind == "chat":
                self._chat(client, table, seat, request, bucket)
                continue
            if request.kind == "hint":
                self._hint(client, table, seat)
                continue
            if request.kind == "ready":  # changes no saved state: no lock, no file written
                told = table.mark_ready(seat)
                if told:
                    self._deliver(table, told)
                    self.wakers[table.id].set()  # the move's deadline moved
                continue
            async with self.locks[table.id]:
                if table.id in self.paused:  # its last change is not saved: it must not change
                    client.send(wire.error("paused", wire.PAUSED_SAVE))
                    continue
                try:
                    if request.kind == "action":
                        out = table.act(seat, request.action)
                        bucket.refund()  # a move the table took: the game paces those
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

    def _chat(
        self,
        client: Client,
        table: Table,
        seat: int,
        request: wire.Seated,
        bucket: wire.TokenBucket,
    ) -> None:
        """Pass what ``seat`` says on to every person connected at the table, its speaker
        too, at once: chat waits for no lock (a bot thinking holds the table's), is never
        saved, and goes on while the table is paused (it changes nothing there). Refused:
        ``chat_off`` (the operator's ``--no-chat``), ``chat_phrases`` (free text at a rated
        table of more than two seats, where partners would tell each other their cards: the
        quick phrases only), ``chat_rate`` (over the seat's limit)."""
        if not self.settings.chat:
            client.send(wire.error("chat_off", "chat is off at this server"))
            return
        if request.text and table.config.rated and table.variant.seats > 2:
            client.send(
                wire.error("chat_phrases", "a rated table of partners has the quick phrases only")
            )
            return
        seats = self.chatters.setdefault(table.id, {})
        limit = seats.get(seat)
        if limit is None:
            rate = 1.0 / self.settings.chat_every
            limit = seats[seat] = wire.TokenBucket(rate, self.settings.chat_burst, self.clock)
        if not limit.take():
            every = self.settings.chat_every
            client.send(
                wire.error("chat_rate", f"too many chat messages: one every {every:g} s, wait")
            )
            return
        bucket.refund()  # a chat its own limit let through: no step towards flooding
        self._deliver(table, table.chat(seat, request.text, request.phrase))

    def _hint(self, client: Client, table: Table, seat: int) -> None:
        """The expert's value of each of ``seat``'s moves, from its own view, for a page at a
        test table (a terminal computes its hints itself); one at a time per connection, in
        the bots' pool, behind the bots of tables people watch."""
        state = table.state
        if (
            client.browser is None
            or table.config.rated
            or client.hinting
            or state is None
            or state.is_over
            or state.to_act != seat
            or table.left[seat]
        ):
            client.send(
                wire.error("no_hint", "hints are for pages at test tables, at their own move")
            )
            return
        if self.hints >= HINTS_AT_ONCE:
            client.send(wire.error("no_hint", "the server is busy with other hints: ask again"))
            return
        analyser = load_analyser()
        if analyser is None:
            client.send(wire.error("no_hint", "this server has no analyser installed"))
            return
        view = state.view(seat)
        browser = client.browser
        client.hinting = True
        self.hints += 1

        def think() -> list[tuple[int, float]]:
            return call_analyser(analyser, view, None, table.variant)

        async def answer() -> None:
            try:
                values = await self.bots.run(think, IDLE)
            finally:
                client.hinting = False
                self.hints -= 1
            client.send(hint_board(browser.tr, values))

        self._spawn(answer())

    # ------------------------------------------------------------------ running

    async def save_all(self) -> list[str]:
        """Write every table whose file is behind it (at a clean stop); the ids of those that
        could not be written (a full disk), each reported in one line. Never raises: such a
        file still holds what the table's clients were last told, which is all that must
        survive."""

        async def save(table: Table) -> str | None:
            kept = self.results.get(table.id)
            had_results = kept is not None and bool(kept.rows)
            with contextlib.suppress(Exception):  # kept in the file if not written
                await self._record_results(table, retry=False)
            if self.saved.get(table.id) == table.version and not had_results:
                return None
            try:
                await self._save(table)
            except Exception as exc:  # reported, and the stop goes on
                reason = os_reason(exc) if isinstance(exc, OSError) else str(exc) or repr(exc)
                self.say(
                    self.tr._(
                        "Table {table}: not saved at the stop ({reason}); its file holds what"
                        " its players were last told."
                    ).format(table=table.id, reason=reason)
                )
                return table.id
            return None

        done = await asyncio.gather(*(save(t) for t in list(self.tables.values())))
        return [table_id for table_id in done if table_id is not None]

    def start(
        self, host: str, port: int, ssl_context: ssl.SSLContext | None = None
    ) -> Awaitable[WsServer]:
        """Listen on ``host:port`` (the awaitable's result is the websockets server); the
        expiry of open tables starts with it."""
        self._spawn(self._sweep())
        policy = Policy(self.settings.origins, host, ssl_context is not None)
        self.site = Site(policy, lambda lang: setup(lang, self.registry))

        def answer(connection: ServerConnection, request: Request) -> Response | None:
            return self.site.answer(request)

        return serve(
            self.handle,
            host,
            port,
            origins=None,  # the Origin is checked with the Host (web.Policy), in answer()
            process_request=answer,
            max_size=wire.MAX_MESSAGE,
            compression=None,
            ssl=ssl_context,
            backlog=BACKLOG,
            close_timeout=CLOSE_TIMEOUT,
            logger=logging.getLogger("sixtysix.server.websockets"),
        )

    async def close_connections(self, ws: WsServer) -> None:
        """Stop listening and close every connection. A close waits behind whatever its peer
        has not read, so a peer that stops reading would hold the stop for ever: connections
        still open after :data:`STOP_CONNECTIONS` are cut, and the stop goes on (the tables are
        saved by :meth:`stop` whatever their connections do)."""
        ws.close()
        if await _ended_within(ws.wait_closed(), STOP_CONNECTIONS):
            return
        for client in list(self.live):
            client.ws.transport.abort()
        if not await _ended_within(ws.wait_closed(), STOP_CONNECTIONS):
            log.warning("%d connections had not ended when the server stopped", len(self.live))

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.unsaved = await self.save_all()
        self.writers.shutdown(wait=True)
        self.lookups.shutdown(wait=False, cancel_futures=True)
        self.readers.shutdown(wait=False, cancel_futures=True)
        self.bots.close()
        self.program_waits.close()


async def _ended_within(waiting: Awaitable[None], seconds: float) -> bool:
    """Whether ``waiting`` ended within ``seconds`` (it is cancelled if not)."""
    try:
        await asyncio.wait_for(waiting, seconds)
    except TimeoutError:
        return False
    return True


def _age(created_at: str) -> float:
    """Seconds since an ISO time stamp (0 for one that cannot be read)."""
    try:
        then = datetime.fromisoformat(created_at).timestamp()
    except (TypeError, ValueError):
        return 0.0
    return max(0.0, time.time() - then)
