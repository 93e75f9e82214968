"""A frame sent as the connection closes under it fails as on any closed connection."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close
from websockets.protocol import State

from sixtysix.table.sending import send_text


class _Lost:
    """A connection whose transport lost its loop while the send aborted it (the CPython race)."""

    def __init__(self, state: State) -> None:
        closed = ConnectionClosed(Close(1000, "bye"), None)
        self.protocol = SimpleNamespace(state=state, close_exc=closed)

    async def send(self, frame: Any) -> None:
        raise AttributeError("'NoneType' object has no attribute 'call_soon'")


def test_a_send_the_closing_socket_aborts_is_connection_closed() -> None:
    with pytest.raises(ConnectionClosed) as raised:
        asyncio.run(send_text(_Lost(State.CLOSED), "{}"))  # type: ignore[arg-type]
    assert raised.value.rcvd is not None and raised.value.rcvd.reason == "bye"


def test_any_other_attribute_error_is_a_bug_and_stays_one() -> None:
    with pytest.raises(AttributeError):
        asyncio.run(send_text(_Lost(State.OPEN), "{}"))  # type: ignore[arg-type]
