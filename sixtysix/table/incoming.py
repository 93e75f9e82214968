"""What a client accepts from a table server: every message checked before it is used.

A server is another program on another machine, so the client trusts nothing it sends: each
frame must be a text frame holding one JSON object of a known shape, with numbers in range and
strings bounded; anything else raises :class:`ServerProtocolError`, which the command turns
into one line and exit status 2. A message of a type this client does not know is ignored (a
later server may add some; a change an old client could misread bumps the protocol version).
Strings meant for the screen (names, labels, reasons) are stripped of control characters, so a
hostile server cannot write terminal escape sequences.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from sixtysix.core.actions import parse_action
from sixtysix.core.cards import parse_card
from sixtysix.core.errors import NotationError, SixtySixError
from sixtysix.core.records import MAX_SEATS
from sixtysix.protocol.messages import Message, ProtocolError, parse_line
from sixtysix.table.wire import (
    MAX_CHAT,
    MAX_LEVEL,
    MAX_MESSAGE,
    MAX_STANDINGS_LIMIT,
    ON_LEAVE,
    chat_text,
)

#: Longest frame a client reads (the protocol's limit for a frame).
MAX_INCOMING = MAX_MESSAGE
#: Bounds on what a message may hold: a short string, a long one, a list of tables.
MAX_SHORT = 100
MAX_TEXT = 1000
MAX_TABLES = 10_000
MAX_INT = 10**9

#: The statuses a table can have in a listing.
STATUSES = ("open", "running", "finished")


class ServerProtocolError(SixtySixError, ValueError):
    """A server sent something the protocol does not allow."""


def visible(text: str) -> str:
    """``text`` without control characters (escape sequences, line breaks), for the screen."""
    return "".join(c for c in text if unicodedata.category(c)[0] != "C")


def parse_frame(frame: str | bytes) -> Message:
    """The message of one frame from the server: a text frame with one JSON object."""
    if not isinstance(frame, str):
        raise ServerProtocolError("the server sent a binary frame")
    try:
        return parse_line(frame, MAX_INCOMING)
    except ProtocolError as exc:
        raise ServerProtocolError(f"the server sent {exc}") from None


# ---------------------------------------------------------------------- field checkers

Check = Callable[[Any], Any]


def _fail(what: str) -> ServerProtocolError:
    return ServerProtocolError(what)


def integer(lo: int = -MAX_INT, hi: int = MAX_INT) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _fail(f"expected an integer from {lo} to {hi}, got {_shown(value)}")
        return value

    return check


def string(limit: int = MAX_SHORT, *, screen: bool = True) -> Check:
    def check(value: Any) -> str:
        if not isinstance(value, str) or len(value) > limit:
            raise _fail(f"expected a string of at most {limit} characters, got {_shown(value)}")
        return visible(value) if screen else value

    return check


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(f"expected true or false, got {_shown(value)}")
    return value


def optional(check: Check) -> Check:
    def maybe(value: Any) -> Any:
        return None if value is None else check(value)

    return maybe


def one_of(*choices: str) -> Check:
    def check(value: Any) -> str:
        if value not in choices:
            raise _fail(f"expected one of {', '.join(choices)}, got {_shown(value)}")
        return str(value)

    return check


def listing(item: Check, limit: int = MAX_SEATS) -> Check:
    def check(value: Any) -> list[Any]:
        if not isinstance(value, list) or len(value) > limit:
            raise _fail(f"expected a list of at most {limit} items, got {_shown(value)}")
        return [item(v) for v in value]

    return check


def obj(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(f"expected an object, got {_shown(value)}")
    return value


def options(value: Any) -> dict[str, Any]:
    """Rule options: an object of short names to scalars."""
    checked = obj(value)
    if len(checked) > MAX_SHORT:
        raise _fail("too many options")
    for key, item in checked.items():
        if len(key) > MAX_SHORT or not isinstance(item, str | int | float | bool | None):
            raise _fail(f"a bad option {_shown(key)}")
        if isinstance(item, str) and len(item) > MAX_SHORT:
            raise _fail(f"a bad option {_shown(key)}")
    return checked


def card_name(value: Any) -> str:
    text: str = string(4, screen=False)(value)
    try:
        parse_card(text)
    except NotationError:
        raise _fail(f"not a card: {_shown(value)}") from None
    return text


def action_name(value: Any) -> str:
    text: str = string(MAX_SHORT, screen=False)(value)
    try:
        parse_action(text)
    except NotationError:
        raise _fail(f"not an action: {_shown(value)}") from None
    return text


SEAT = integer(0, MAX_SEATS - 1)
COUNT = integer(0, MAX_INT)
POINTS = listing(integer())

_SEAT_ENTRY = {
    "kind": string(),
    "label": string(),
    "name": optional(string()),
    "connected": boolean,
}


def _shape(fields: Mapping[str, Check], later: Mapping[str, Check] | None = None) -> Check:
    """An object with ``fields``, and ``later``: fields a later server added, None when absent
    (an older server does not send them)."""

    def check(value: Any) -> dict[str, Any]:
        value = obj(value)
        checked = {key: _field(value, key, fn) for key, fn in fields.items()}
        for key, fn in (later or {}).items():
            checked[key] = _field(value, key, fn) if value.get(key) is not None else None
        return checked

    return check


def _field(message: Mapping[str, Any], key: str, check: Check) -> Any:
    if key not in message:
        raise _fail(f"no {key!r}")
    try:
        return check(message[key])
    except ServerProtocolError as exc:
        raise _fail(f"{key!r}: {exc}") from None


_TABLE_ENTRY = _shape(
    {
        "table": string(),
        "variant": string(),
        "options": options,
        "rated": boolean,
        "status": one_of(*STATUSES),
        "seats": listing(_shape(_SEAT_ENTRY)),
        "deal": COUNT,
        "totals": POINTS,
    },
    {"move_time": integer(1, 3600), "free": listing(SEAT)},
)

_CLUB_ROW = _shape(
    {
        "name": string(),
        "variant": string(),
        "level": string(MAX_LEVEL),
        "played": COUNT,
        "won": COUNT,
        "drawn": COUNT,
        "lost": COUNT,
        "left": COUNT,
        "score": integer(),
    }
)

#: How a person's match ended in the standings.
ENDINGS = ("finished", "left")

_MATCH_ROW = _shape(
    {
        "played_at": string(),
        "variant": string(),
        "level": string(MAX_LEVEL),
        "seats": integer(1, MAX_SEATS),
        "seat": SEAT,
        "ending": one_of(*ENDINGS),
        "score": optional(integer(-1, 1)),
        "deals": COUNT,
        "totals": POINTS,
    }
)

_RESULT = _shape(
    {
        "reason": string(),
        "game_points": POINTS,
        "points": POINTS,
        "tricks": POINTS,
    }
)

#: The fields of each message type the client reads, and how each is checked.
SHAPES: dict[str, dict[str, Check]] = {
    "created": {"table": string()},
    "tables": {"tables": listing(_TABLE_ENTRY, MAX_TABLES)},
    "welcome": {
        "table": string(),
        "seat": SEAT,
        "name": string(),
        "token": optional(string(MAX_TEXT, screen=False)),
        "rated": boolean,
        "move_time": optional(integer(1, 3600)),
        "players": listing(string()),
        "reconnected": boolean,
    },
    "match": {
        "variant": string(),
        "options": options,
        "seats": integer(1, MAX_SEATS),
        "seat": SEAT,
        "target": COUNT,
        "deals": optional(COUNT),
    },
    "deal": {"number": integer(1, MAX_INT), "dealer": SEAT},
    "event": {"seat": SEAT, "action": action_name},
    "decide": {"view": obj, "legal": listing(action_name, 100)},
    "update": {"view": obj},
    "result": {
        "number": integer(1, MAX_INT),
        "result": _RESULT,
        "hands": listing(listing(card_name, 24)),
    },
    "match_over": {"totals": POINTS, "winners": listing(SEAT)},
    "seats": {
        "players": listing(string()),
        "connected": listing(boolean),
        "left": listing(boolean),
    },
    "waiting": {"for": listing(SEAT)},
    "timer": {"seat": SEAT, "seconds": integer(0, 3600)},
    "chat": {"seat": SEAT, "name": string()},  # and a text or a phrase: OPTIONAL
    "error": {"code": string(), "message": string(MAX_TEXT)},
    "left": {
        "seat": SEAT,
        "reason": string(),
        "score": optional(integer(-10, 10)),
    },
    "standings": {"name": string(), "score": optional(integer(-10, 10))},
    "club_standings": {
        "variant": optional(string()),
        "level": optional(string(MAX_LEVEL)),
        "name": optional(string()),
        "limit": integer(1, MAX_STANDINGS_LIMIT),
        "rows": listing(_CLUB_ROW, MAX_STANDINGS_LIMIT),
        "total": COUNT,
        "history": optional(listing(_MATCH_ROW, MAX_STANDINGS_LIMIT)),
        "history_total": optional(COUNT),
    },
    "paused": {"reason": string(MAX_TEXT)},
    "resumed": {},
}


def chat_string(value: Any) -> str:
    """A chat text from the server: a string of at most :data:`MAX_CHAT` characters, cleaned
    again as the server cleans it (:func:`~sixtysix.table.wire.chat_text`)."""
    text: str = string(MAX_CHAT, screen=False)(value)
    return chat_text(text)


def phrase_id(value: Any) -> str:
    """A quick phrase's id: a short string of letters and ``_`` (a client words only those it
    knows)."""
    text: str = string(40, screen=False)(value)
    if not text.replace("_", "").isascii() or not text.replace("_", "").isalpha():
        raise _fail(f"not a phrase: {_shown(value)}")
    return text


#: Fields a message may lack, how each is checked, and what stands for a missing one: a
#: server older than chat sends no ``chat`` in ``welcome`` (None: it has no chat).
OPTIONAL: dict[str, dict[str, tuple[Check, Any]]] = {
    "welcome": {
        "chat": (optional(boolean), None),
        "on_leave": (optional(one_of(*ON_LEAVE)), None),
        "ready": (optional(boolean), False),
    },
    "chat": {"text": (optional(chat_string), None), "phrase": (optional(phrase_id), None)},
}


def _optional_fields(message: Message, checked: Message) -> None:
    kind = checked["type"]
    for key, (check, default) in OPTIONAL.get(kind, {}).items():
        checked[key] = _field(message, key, check) if key in message else default
    if kind == "chat" and (checked["text"] is None) == (checked["phrase"] is None):
        raise _fail("a chat message has a text or a phrase, one of them")


def check_message(message: Message) -> Message | None:
    """The message with its fields checked (screen strings made safe), or None for a type this
    client does not read; :class:`ServerProtocolError` for a malformed one."""
    kind = message["type"]
    shape = SHAPES.get(kind)
    if shape is None:
        return None
    checked: Message = {"type": kind}
    try:
        for key, check in shape.items():
            checked[key] = _field(message, key, check)
        _optional_fields(message, checked)
    except ServerProtocolError as exc:
        raise ServerProtocolError(f"the server sent a bad {kind!r} message: {exc}") from None
    return checked


def _shown(value: Any) -> str:
    text = repr(value)
    return visible(text if len(text) <= 40 else text[:37] + "...")


__all__ = ["MAX_INCOMING", "ServerProtocolError", "check_message", "parse_frame", "visible"]
