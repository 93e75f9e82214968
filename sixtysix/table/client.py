"""The network side of a client of a table server (``sixtysix-table/1`` over WebSockets).

:func:`create_table`, :func:`list_tables` and :func:`club_standings` are one request and one
reply each; a person's seat (:mod:`sixtysix.play.join`) opens its connection here. Every
failure is a :class:`TableError` with one line in the person's language.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import urllib.parse
from typing import Any

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
from sixtysix.protocol.messages import Message
from sixtysix.table.defaults import DEFAULT_SERVER
from sixtysix.table.incoming import (
    MAX_INCOMING,
    ServerProtocolError,
    check_message,
    parse_frame,
)
from sixtysix.table.sending import send_text
from sixtysix.table.wire import PROTOCOL, encode

#: Seconds to open a connection, and to wait for the reply to a request.
OPEN_TIMEOUT = 10.0
REPLY_TIMEOUT = 30.0

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
REFUSED = {
    CloseCode.POLICY_VIOLATION,
    CloseCode.MESSAGE_TOO_BIG,
    CloseCode.PROTOCOL_ERROR,
    CloseCode.UNSUPPORTED_DATA,
    CloseCode.INVALID_DATA,
}


class TableError(SixtySixError):
    """A failure to tell the person in one line (already in the person's language)."""


class Lost(Exception):
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
        await send_text(ws, encode(message))
        reply = await _receive(ws, url, tr)
    if reply["type"] == "error":
        raise TableError(
            tr._("The server refused: {message}").format(message=reply["message"] or reply["code"])
        )
    if reply["type"] != expect:
        raise ServerProtocolError(f"the server answered a {expect} request with {reply['type']!r}")
    return reply


def run_client(coro: Any, url: str, tr: Translator) -> Any:
    try:
        return asyncio.run(coro)
    except ServerProtocolError as exc:
        raise TableError(
            tr._("The server at {url} broke the protocol: {reason}").format(url=url, reason=exc)
        ) from None


def create_table(url: str, request: dict[str, Any], tr: Translator) -> str:
    """Open a table (``request``: the ``create`` message's fields); its id."""
    reply = run_client(_request(url, first_message("create", **request), "created", tr), url, tr)
    return str(reply["table"])


def list_tables(url: str, tr: Translator) -> list[dict[str, Any]]:
    """The server's tables, as its ``tables`` message lists them."""
    return list(run_client(tables_reply(url, tr), url, tr))


async def tables_reply(url: str, tr: Translator) -> list[dict[str, Any]]:
    reply = await _request(url, first_message("list"), "tables", tr)
    return list(reply["tables"])


def club_standings(
    url: str,
    tr: Translator,
    *,
    variant: str | None = None,
    level: str | None = None,
    name: str | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    """The club's standings at the server (its ``club_standings`` reply, checked): the rows of
    ``variant`` and ``level`` (None: all), and with ``name`` that person's matches."""
    fields = {"variant": variant, "level": level, "name": name, "limit": limit}
    request = first_message("standings", **{k: v for k, v in fields.items() if v is not None})
    return dict(run_client(_request(url, request, "club_standings", tr), url, tr))


def free_seats(table: dict[str, Any]) -> list[int]:
    """A listed table's free person seats (from a server older than ``free``: by its seats)."""
    if table.get("free") is not None:
        return list(table["free"])
    return [i for i, s in enumerate(table["seats"]) if s["kind"] == "human" and s["name"] is None]


def sits_at(table: dict[str, Any], name: str) -> bool:
    """Whether ``name`` sits at a listed table that is not finished."""
    return table["status"] != "finished" and any(
        (s["name"] or "").lower() == name.lower() for s in table["seats"]
    )


def joinable(tables: list[dict[str, Any]], name: str) -> tuple[str | None, list[dict[str, Any]]]:
    """Where ``name`` may sit when no table is named: the table to join without asking (the
    one where ``name`` sits, else the only open one with a free seat) or None, and the tables
    there are: those where ``name`` sits, then the open ones (none: nothing to join)."""
    mine = [t for t in tables if sits_at(t, name)]
    if len(mine) == 1:
        return str(mine[0]["table"]), mine
    open_ = [t for t in tables if t["status"] == "open" and free_seats(t) and t not in mine]
    if len(open_) == 1 and not mine:
        return str(open_[0]["table"]), open_
    return None, mine + open_


def no_table(url: str, tr: Translator) -> TableError:
    """There is no table to join at ``url``."""
    return TableError(
        tr._("No table is open at {url}: open one with `sixtysix table new`.").format(url=url)
    )


def pick_table(tables: list[dict[str, Any]], name: str, url: str, tr: Translator) -> str:
    """The table to join when none is named and nobody is asked: the one where ``name`` sits,
    else the only open one."""
    chosen, choices = joinable(tables, name)
    if chosen is not None:
        return chosen
    if not choices:
        raise no_table(url, tr)
    ids = ", ".join(str(t["table"]) for t in choices)
    raise TableError(
        tr._("Several tables at {url} ({ids}): choose one with --table.").format(url=url, ids=ids)
    )
