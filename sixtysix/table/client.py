"""The network side of a client of a table server (``sixtysix-table/1`` over WebSockets).

:func:`create_table` and :func:`list_tables` are one request and one reply each.
:func:`sit` takes a seat and plays it: the connection runs in asyncio while the person's lines
come from a reader thread (:class:`LineReader`), so the server's messages keep arriving and
showing while the person types. When the connection drops, the client joins again with its
token, backing off from half a second to :data:`MAX_BACKOFF`, for as long as the server keeps
a dropped seat (``reconnect_time``, the server's default unless told); the server then sends the
match, the deal, the view and the pending decision, and the screen is drawn again. Every
failure is a :class:`TableError` with one line in the person's language.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import ipaddress
import os
import re
import select
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidProxy,
    InvalidURI,
    WebSocketException,
)
from websockets.frames import CloseCode
from websockets.uri import parse_uri

from sixtysix.core.errors import SixtySixError
from sixtysix.i18n import Translator
from sixtysix.play.review import call_analyser, load_analyser
from sixtysix.protocol.messages import Message
from sixtysix.table import tokens
from sixtysix.table.defaults import DEFAULT_RECONNECT_TIME, DEFAULT_SERVER
from sixtysix.table.incoming import (
    MAX_INCOMING,
    ServerProtocolError,
    check_message,
    parse_frame,
    visible,
)
from sixtysix.table.remote import RemoteTable
from sixtysix.table.wire import PROTOCOL, encode

#: Seconds to open a connection, and to wait for the reply to a request.
OPEN_TIMEOUT = 10.0
REPLY_TIMEOUT = 30.0
#: The longest pause between two reconnection attempts.
MAX_BACKOFF = 8.0
#: How long a turn of another seat lasts before the screen says whom the table waits for.
WAITING_DELAY = 0.8
TICK_SECONDS = 0.2

#: The longest host name DNS takes (RFC 1035), and the longest label (between two dots).
MAX_HOST = 253
MAX_LABEL = 63
#: The most of a URL an error line repeats.
_URL_SHOWN = 100
#: A URL's scheme, and a host name's label once IDNA-encoded (``_`` too: some networks' hosts).
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_LABEL = re.compile(r"[A-Za-z0-9_-]+")
#: A host and port in brackets: ``[IPv6]`` or ``[IPv6]:port``.
_BRACKETED = re.compile(r"\[([^\[\]]*)\](?::[^\[\]]*)?")

#: Close codes after which joining again cannot help (the server refused this client).
_REFUSED = {
    CloseCode.POLICY_VIOLATION,
    CloseCode.MESSAGE_TOO_BIG,
    CloseCode.PROTOCOL_ERROR,
    CloseCode.UNSUPPORTED_DATA,
    CloseCode.INVALID_DATA,
}


class TableError(SixtySixError):
    """A failure to tell the person in one line (already in the person's language)."""


class _Lost(Exception):
    """The connection dropped: join again."""


def check_url(url: str, tr: Translator) -> str:
    """``url`` if it is a WebSocket URL (``ws://`` or ``wss://``) with a host and port one can
    connect to; else a :class:`TableError` saying what is wrong, before any connection (Python
    and websockets would fail on it with a traceback, or quietly take port 0 for 80)."""
    reason = _url_fault(url, tr)
    if reason is not None:
        raise TableError(
            tr._("{url} is not a table server's address ({reason}); e.g. {example}").format(
                url=shown_url(url), reason=reason, example=DEFAULT_SERVER
            )
        )
    return url


def shown_url(url: str) -> str:
    """``url`` as an error line repeats it: cut short when long."""
    return url if len(url) <= _URL_SHOWN else url[: _URL_SHOWN - 3] + "..."


def _url_fault(url: str, tr: Translator) -> str | None:
    """What keeps ``url`` from being a server's address, or None."""
    scheme = _SCHEME.match(url)
    if scheme is None or scheme[1].lower() not in ("ws", "wss"):
        return tr._("it does not begin with ws:// or wss://")
    netloc = re.split(r"[/?#]", url[scheme.end() :], maxsplit=1)[0]
    host_port = netloc.rpartition("@")[2]
    if "[" in host_port or "]" in host_port:
        bracketed = _BRACKETED.fullmatch(host_port)
        if bracketed is None:
            return tr._("a [ or ] out of place: an IPv6 address is written as in ws://[::1]:6666")
        try:
            ipaddress.IPv6Address(bracketed[1])
        except ValueError:
            return tr._("[{host}] is not an IPv6 address").format(host=bracketed[1][:60])
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:  # the brackets are sound: a character it cannot take in the host
        return tr._("its host cannot be read")
    try:
        port = parts.port
    except ValueError:  # not a number, or above 65535
        port = 0
    if port == 0:  # websockets would take port 0 for the default port
        return tr._("the port must be a number from 1 to 65535")
    host = parts.hostname
    if not host:
        return tr._("it names no host")
    if "[" not in host_port:
        fault = _host_fault(host, tr)
        if fault is not None:
            return fault
    try:
        parse_uri(url)
    except InvalidURI as exc:  # a fragment, a user without a password...
        return exc.msg
    except ValueError:
        return tr._("its host cannot be read")
    return None


def _host_fault(host: str, tr: Translator) -> str | None:
    """What is wrong with a host name, IDNA-encoded as it will be to look it up, or None."""
    too_long = tr._(
        "the host name is too long: at most {most} characters, {label} between two dots"
    ).format(most=MAX_HOST, label=MAX_LABEL)
    if len(host) > MAX_HOST or any(len(label) > MAX_LABEL for label in host.split(".")):
        return too_long
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        ascii_host = ""
    if len(ascii_host) > MAX_HOST:
        return too_long
    if not all(_LABEL.fullmatch(label) for label in ascii_host.removesuffix(".").split(".")):
        return tr._("{host} is not a host name").format(host=host[:60])
    return None


async def open_connection(url: str, tr: Translator) -> ClientConnection:
    """A connection to the server at ``url``, or a :class:`TableError` saying why not: every
    failure to connect is one line, whatever Python or websockets raised."""
    check_url(url, tr)
    try:
        return await connect(url, max_size=MAX_INCOMING, open_timeout=OPEN_TIMEOUT)
    except InvalidHandshake as exc:
        reason = str(exc)
        text = tr._("{url} does not answer as a table server ({reason}).")
    except TimeoutError:
        reason = ""
        text = tr._("The server at {url} did not answer in time.")
    except OSError as exc:  # socket.gaierror too: no such host
        reason = exc.strerror or type(exc).__name__
        text = tr._("No table server answers at {url} ({reason}); is `sixtysix serve` running?")
    except (InvalidURI, InvalidProxy, WebSocketException, ValueError) as exc:  # UnicodeError too
        reason = str(exc) or type(exc).__name__
        text = tr._("Cannot connect to {url} ({reason}).")
    raise TableError(text.format(url=shown_url(url), reason=reason))


def first_message(kind: str, **fields: Any) -> Message:
    return {"type": kind, "protocol": PROTOCOL, **fields}


async def _receive(ws: ClientConnection, url: str, tr: Translator) -> Message:
    """The next message of a known type from the server."""
    while True:
        try:
            async with asyncio.timeout(REPLY_TIMEOUT):
                frame = await ws.recv()
        except TimeoutError:
            text = tr._("The server at {url} did not answer in time.")
            raise TableError(text.format(url=url)) from None
        except ConnectionClosed as exc:
            reason = exc.rcvd.reason if exc.rcvd is not None else ""
            raise TableError(
                tr._("The server closed the connection: {message}").format(
                    message=reason or tr._("no reason given")
                )
            ) from None
        message = check_message(parse_frame(frame))
        if message is not None:
            return message


async def _request(url: str, message: Message, expect: str, tr: Translator) -> Message:
    ws = await open_connection(url, tr)
    async with ws:
        await ws.send(encode(message))
        reply = await _receive(ws, url, tr)
    if reply["type"] == "error":
        raise TableError(
            tr._("The server refused: {message}").format(message=reply["message"] or reply["code"])
        )
    if reply["type"] != expect:
        raise ServerProtocolError(f"the server answered a {expect} request with {reply['type']!r}")
    return reply


def _run(coro: Any, url: str, tr: Translator) -> Any:
    try:
        return asyncio.run(coro)
    except ServerProtocolError as exc:
        raise TableError(
            tr._("The server at {url} broke the protocol: {reason}").format(url=url, reason=exc)
        ) from None


def create_table(url: str, request: dict[str, Any], tr: Translator) -> str:
    """Open a table (``request``: the ``create`` message's fields); its id."""
    reply = _run(_request(url, first_message("create", **request), "created", tr), url, tr)
    return str(reply["table"])


def list_tables(url: str, tr: Translator) -> list[dict[str, Any]]:
    """The server's tables, as its ``tables`` message lists them."""
    return list(_run(_tables(url, tr), url, tr))


async def _tables(url: str, tr: Translator) -> list[dict[str, Any]]:
    reply = await _request(url, first_message("list"), "tables", tr)
    return list(reply["tables"])


def pick_table(tables: list[dict[str, Any]], name: str, url: str, tr: Translator) -> str:
    """The table to join when none is named: the one where ``name`` sits, else the only open
    one."""
    mine = [
        t["table"]
        for t in tables
        if t["status"] != "finished"
        and any((s["name"] or "").lower() == name.lower() for s in t["seats"])
    ]
    if len(mine) == 1:
        return str(mine[0])
    open_ = [t["table"] for t in tables if t["status"] == "open"]
    if len(open_) == 1 and not mine:
        return str(open_[0])
    if not open_ and not mine:
        raise TableError(
            tr._("No table is open at {url}: open one with `sixtysix table new`.").format(url=url)
        )
    ids = ", ".join(mine or open_)
    raise TableError(
        tr._("Several tables at {url} ({ids}): choose one with --table.").format(url=url, ids=ids)
    )


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
    return _run(_Seat(request, table, reader).run(), request.url, table.tr)  # type: ignore[no-any-return]


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
        listing = await _tables(url, tr)
        if self.table_id is None:
            self.table_id = pick_table(listing, self.request.name, url, tr)
        self.table.table = self.table_id
        self.table.name = self.request.name
        self._totals(listing)
        self.reader.start(asyncio.get_running_loop(), self.lines)
        try:
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
        delay = 0.5
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
            except _Lost:
                if deadline is None:
                    deadline = time.monotonic() + self.request.reconnect_time
                    self.table.screen.say(
                        tr._("The connection is lost: reconnecting..."), "bold yellow"
                    )
                delay = 0.5
                with contextlib.suppress(TableError):
                    self._totals(await _tables(url, tr))

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
            await ws.send(encode(join))
        except ConnectionClosed:
            raise _Lost from None
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
                self._schedule_waiting()
                if table.done:
                    return SeatResult("left" if table.has_left else "over")
        except ConnectionClosed as exc:
            if (
                exc.sent is not None
                and exc.sent.code in _REFUSED
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
        raise _Lost

    def _closed(self, code: int | None, exc: ConnectionClosed | None) -> None:
        """Raise the failure a close means, or return when joining again may help."""
        table, tr = self.table, self.tr
        if table.fatal is not None:
            raise TableError(table.fatal)
        reason = ws_reason(exc)
        if code in _REFUSED or code == CloseCode.NORMAL_CLOSURE:
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
                    await ws.send(encode(message))
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
