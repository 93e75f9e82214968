"""One client connection of a table server: the queue its messages go out through, the reason
it is closed with, and where it comes from.

Each connection writes through a queue of its own, so a client that stops reading only fills
its own queue, and is closed when that is full.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from sixtysix.protocol.messages import Message
from sixtysix.table import wire
from sixtysix.table.browser import BrowserSeat
from sixtysix.table.sending import send_text

log = logging.getLogger("sixtysix.server")

#: Bytes of a close frame's reason.
MAX_REASON = 123
#: Messages waiting for one slow client before it is closed.
MAX_QUEUE = 2000


class Client:
    """One connection and the queue its messages go out through."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.closing = False
        #: A browser page's seat: it follows every message and is sent ``board`` after each.
        self.browser: BrowserSeat | None = None
        #: A hint being computed for this connection (one at a time).
        self.hinting = False
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

    def send(self, message: Message, text: str | None = None) -> None:
        """Queue ``message`` (``text``: already encoded), and follow it for a page."""
        self.put(wire.encode(message) if text is None else text)
        if self.browser is not None:
            try:
                self.browser.take(message)
            except Exception:  # a bug in drawing: that page's board only, never the table
                log.exception("a page's board could not follow %s", message.get("type"))

    def show(self) -> None:
        """Send a page its ``board`` for what it has been sent."""
        if self.browser is None or self.closing:
            return
        try:
            board = self.browser.board()
        except Exception:  # a bug in drawing: that page's board only, never the table
            log.exception("a page's board could not be drawn")
            return
        self.put(wire.encode(board))

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                await self.ws.close(*item)
                return
            try:
                await send_text(self.ws, item)
            except ConnectionClosed:
                return

    def close_after_queue(self, code: int, reason: str) -> None:
        """Close with ``code`` and ``reason`` once what is queued is sent (without waiting)."""
        if not self.closing:
            self.closing = True
            self.queue.put_nowait((code, close_reason(reason)))

    async def flush_and_close(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code`` and ``reason``."""
        self.close_after_queue(code, reason)
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await self.writer

    def stop(self) -> None:
        self.writer.cancel()


def close_reason(text: str) -> str:
    """``text`` cut to what a close frame holds (123 bytes of UTF-8), on a character."""
    raw = " ".join(text.split()).encode("utf-8", "replace")
    if len(raw) <= MAX_REASON:
        return raw.decode("utf-8")
    return raw[: MAX_REASON - 3].decode("utf-8", "ignore") + "..."


def is_local(ws: ServerConnection) -> bool:
    """Whether the peer is on this machine (a loopback address)."""
    address = ws.remote_address
    host = address[0] if isinstance(address, tuple) and address else None
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def peer_address(ws: ServerConnection) -> str:
    """The peer's address as quotas count it (:func:`quota_key`)."""
    address = ws.remote_address
    if isinstance(address, tuple) and address:
        return quota_key(str(address[0]))
    return ""


def quota_key(host: str) -> str:
    """Who a quota counts: an IPv4 address, or an IPv6 address's /64 (one subscriber holds a
    whole /64, so counting single IPv6 addresses would let one client past every quota)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
