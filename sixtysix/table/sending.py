"""Sending one frame on a WebSocket connection, at either end, whatever the socket is doing.

CPython's selector transport can lose its event loop between a ``close()`` that waited for its
write buffer to drain and the ``abort()`` the WebSocket library calls next, so that
``abort()`` raises ``AttributeError`` (CPython's ``_write_ready`` does not count the loss;
anyio issue 1250 describes the same race). By then the connection is closed, so the frame
fails as any frame on a closed connection does: with the connection's own
:class:`~websockets.exceptions.ConnectionClosed`.
"""

from __future__ import annotations

from websockets.asyncio.connection import Connection
from websockets.protocol import State


async def send_text(ws: Connection, frame: str | bytes) -> None:
    """Send ``frame``; :class:`~websockets.exceptions.ConnectionClosed` if the connection is
    closed, also when it closed under the send."""
    try:
        await ws.send(frame)
    except AttributeError:
        if ws.protocol.state is not State.CLOSED:
            raise
        raise ws.protocol.close_exc from None
