"""A person's seat at a remote table, played from the terminal (``sixtysix join``).

:func:`sit` takes a seat and plays it: the connection runs in asyncio while the person's lines
come from a reader thread (:class:`LineReader`), so the server's messages keep arriving and
showing while the person types. When the connection drops, the client joins again with its
token, trying again after a quarter of a second and then every :data:`MAX_BACKOFF` at most
(back within a second or so of a restarted server listening), for as long as the server keeps
a dropped seat (``reconnect_time``, the server's default unless told); the server then sends the
match, the deal, the view and the pending decision, and the screen is drawn again.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, Protocol

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from sixtysix.play.lobby import choose_table
from sixtysix.play.remote import RemoteTable
from sixtysix.service.review import call_analyser, load_analyser
from sixtysix.table import tokens
from sixtysix.table.client import (
    REFUSED,
    Lost,
    TableError,
    first_message,
    open_connection,
    run_client,
    tables_reply,
)
from sixtysix.table.defaults import DEFAULT_RECONNECT_TIME
from sixtysix.table.incoming import ServerProtocolError, check_message, parse_frame, visible
from sixtysix.table.sending import send_text
from sixtysix.table.wire import encode

#: The first and the longest pause between two reconnection attempts: a failed attempt costs a
#: refused connection, and the person is waiting.
FIRST_BACKOFF = 0.25
MAX_BACKOFF = 1.0
#: How long a turn of another seat lasts before the screen says whom the table waits for.
WAITING_DELAY = 0.8
TICK_SECONDS = 0.2


# ---------------------------------------------------------------------- the person's lines


class LineSource(Protocol):
    """Where the person's lines come from: put each on ``queue`` (None at the end of input)."""

    def start(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None: ...

    def stop(self) -> None: ...


class LineReader:
    """Reads the person's lines in a thread and hands them to the event loop (None: the end
    of input).

    On a real file descriptor it reads with ``os.read`` between short ``select`` waits, so it
    holds no lock of ``sys.stdin`` and stops when told; otherwise (a test's stream) it reads
    lines.
    """

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            self._fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None

    def start(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
        def put(item: str | None) -> bool:
            if self._stop.is_set():
                return False
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop is closed
                return False
            return True

        target = self._read_fd if self._fd is not None else self._read_lines
        self._thread = threading.Thread(target=target, args=(put,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _read_lines(self, put: Callable[[str | None], bool]) -> None:
        for line in iter(self.stream.readline, ""):
            if not put(line.rstrip("\r\n")):
                return
        put(None)

    def _read_fd(self, put: Callable[[str | None], bool]) -> None:
        assert self._fd is not None
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        pending = ""
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], TICK_SECONDS)
            if not ready:
                continue
            chunk = os.read(self._fd, 4096)
            if not chunk:
                break
            pending += decoder.decode(chunk)
            *lines, pending = pending.split("\n")
            for line in lines:
                if not put(line.rstrip("\r")):
                    return
        if pending:
            put(pending)
        put(None)


# ---------------------------------------------------------------------- a seat


@dataclass
class SeatRequest:
    url: str
    name: str
    table: str | None = None
    seat: int | None = None
    lang: str = "en"
    reconnect_time: float = float(DEFAULT_RECONNECT_TIME)


@dataclass
class SeatResult:
    #: "over": the match ended; "left": this seat left the table; "eof": the input ended.
    ending: str


def sit(request: SeatRequest, table: RemoteTable, reader: LineSource) -> SeatResult:
    """Join a table and play the seat to the end (of the match, or of this seat's stay)."""
    return run_client(_Seat(request, table, reader).run(), request.url, table.tr)  # type: ignore[no-any-return]


class _Seat:
    def __init__(self, request: SeatRequest, table: RemoteTable, reader: LineSource) -> None:
        self.request = request
        self.table = table
        self.tr = table.tr
        self.reader = reader
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.table_id = request.table
        self._waiting: asyncio.TimerHandle | None = None

    async def run(self) -> SeatResult:
        url, tr = self.request.url, self.tr
        listing = await tables_reply(url, tr)
        self.reader.start(asyncio.get_running_loop(), self.lines)
        try:
            if self.table_id is None:
                table = self.table
                self.table_id = await choose_table(
                    listing, self.request.name, url, tr, table.screen, table.prompt, self.lines
                )
            self.table.table = self.table_id
            self.table.name = self.request.name
            self._totals(listing)
            return await self._sessions()
        finally:
            self.reader.stop()
            if self._waiting is not None:
                self._waiting.cancel()

    def _totals(self, listing: list[dict[str, Any]]) -> None:
        for entry in listing:
            if entry["table"] == self.table_id and entry["status"] == "running":
                self.table.set_totals(entry["totals"])

    async def _sessions(self) -> SeatResult:
        tr, url = self.tr, self.request.url
        deadline: float | None = None
        delay = FIRST_BACKOFF
        while True:
            try:
                ws = await open_connection(url, tr)
            except TableError:
                if deadline is None:
                    raise
                if time.monotonic() >= deadline:
                    raise TableError(
                        tr._("Could not reach the server at {url} again in time.").format(url=url)
                    ) from None
                await asyncio.sleep(min(delay, max(0.0, deadline - time.monotonic())))
                delay = min(delay * 2, MAX_BACKOFF)
                continue
            try:
                async with ws:
                    return await self._session(ws)
            except Lost:
                if deadline is None:
                    deadline = time.monotonic() + self.request.reconnect_time
                    self.table.screen.say(
                        tr._("The connection is lost: reconnecting..."), "bold yellow"
                    )
                delay = FIRST_BACKOFF
                with contextlib.suppress(TableError):
                    self._totals(await tables_reply(url, tr))

    async def _session(self, ws: ClientConnection) -> SeatResult:
        r = self.request
        join = first_message(
            "join",
            table=self.table_id,
            name=r.name,
            token=tokens.load(r.url, r.name),
            lang=r.lang,
            seat=r.seat,
        )
        try:
            await send_text(ws, encode(join))
        except ConnectionClosed:
            raise Lost from None
        welcomed = asyncio.Event()
        receiving = asyncio.create_task(self._receive(ws, welcomed))
        typing = asyncio.create_task(self._type(ws, welcomed))
        ticking = asyncio.create_task(self._tick())
        try:
            done, _ = await asyncio.wait({receiving, typing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (receiving, typing, ticking):
                task.cancel()
            await asyncio.gather(receiving, typing, ticking, return_exceptions=True)
        result: SeatResult = next(iter(done)).result()
        return result

    async def _receive(self, ws: ClientConnection, welcomed: asyncio.Event) -> SeatResult:
        table = self.table
        try:
            async for frame in ws:
                message = check_message(parse_frame(frame))
                if message is None:
                    continue
                if message["type"] == "welcome":
                    if message["token"]:
                        tokens.save(self.request.url, self.request.name, message["token"])
                    welcomed.set()
                table.on_message(message)
                while table.outbox:
                    await send_text(ws, encode(table.outbox.pop(0)))
                self._schedule_waiting()
                if table.done:
                    return SeatResult("left" if table.has_left else "over")
        except ConnectionClosed as exc:
            if (
                exc.sent is not None
                and exc.sent.code in REFUSED
                and not exc.rcvd_then_sent  # this side closed first: it refused a frame
            ):
                raise ServerProtocolError(
                    f"the server sent a message this client refuses ({exc.sent.reason})"
                ) from None
            self._closed(exc.rcvd.code if exc.rcvd is not None else None, exc)
        else:
            if self.table.has_left:  # closed after this seat left: nothing to join again
                return SeatResult("left")
            self._closed(ws.close_code, None)
        raise Lost

    def _closed(self, code: int | None, exc: ConnectionClosed | None) -> None:
        """Raise the failure a close means, or return when joining again may help."""
        table, tr = self.table, self.tr
        if table.fatal is not None:
            raise TableError(table.fatal)
        reason = ws_reason(exc)
        if code in REFUSED or code == CloseCode.NORMAL_CLOSURE:
            raise TableError(
                tr._("The server closed the connection: {message}").format(
                    message=reason or tr._("no reason given")
                )
            )

    async def _type(self, ws: ClientConnection, welcomed: asyncio.Event) -> SeatResult:
        """The person's lines, once the seat is taken (lines typed before wait their turn)."""
        table = self.table
        await welcomed.wait()
        while True:
            line = await self.lines.get()
            if line is None:
                return SeatResult("eof")
            reply = table.on_line(line)
            try:
                for message in reply.send:
                    await send_text(ws, encode(message))
            except ConnectionClosed:
                await asyncio.Future()  # the receiving side reports the close
            if reply.hint is not None:
                table.screen.say(self.tr._("Thinking..."), "dim")
                table.show_hint(await asyncio.to_thread(_hint_values, reply.hint, table))

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            self.table.tick()

    def _schedule_waiting(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
        if self.table.waiting_for() is not None:
            loop = asyncio.get_running_loop()
            self._waiting = loop.call_later(WAITING_DELAY, self.table.show_waiting)


def ws_reason(exc: ConnectionClosed | None) -> str:
    if exc is None or exc.rcvd is None:
        return ""
    return visible(exc.rcvd.reason)[:200]


def _hint_values(view: Any, table: RemoteTable) -> list[tuple[int, float]] | None:
    analyser = load_analyser()
    if analyser is None:
        return None
    return call_analyser(analyser, view, variant=table.variant)
