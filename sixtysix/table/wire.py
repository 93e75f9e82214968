"""The messages of ``sixtysix-table/1``: names, limits, builders and checkers, no I/O.

One JSON object per WebSocket text frame, encoded exactly as a ``sixtysix-player/1`` line
(:mod:`sixtysix.protocol.messages`) without its newline; the referee messages a seated client
receives are that protocol's own. Everything a client sends is checked here before the
server looks at it: a message that is not what the protocol allows raises :class:`WireError`
with the code and the one-line reason the connection is closed (or answered) with.
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sixtysix.core.rng import MAX_SEED_DIGITS
from sixtysix.core.view import View
from sixtysix.protocol.messages import MAX_ACTION, Message, ProtocolError, encode_view, parse_line
from sixtysix.table.defaults import MOVE_TIME, MOVE_TIME_RANGE
from sixtysix.table.names import BadName, normalize_name

PROTOCOL = "sixtysix-table/1"
#: Largest frame either side sends (bytes): the websockets ``max_size`` of the server.
MAX_MESSAGE = 64 * 1024
#: Messages per second a connection may send on average, and in one burst.
RATE = 20.0
BURST = 40
#: Seconds a new connection has to send its first message.
HELLO_TIMEOUT = 10.0

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_ERROR = 1011
#: The table cannot take the join now (its file cannot be saved): joining again later may.
CLOSE_AGAIN = 1013

#: Refusals of a chat message (chat is off, too fast, not a text to show): the connection stays.
CHAT_ERRORS = ("chat_off", "chat_rate", "bad_chat", "chat_phrases")
#: Refusals that leave the connection open.
SOFT_ERRORS = (
    "not_your_turn",
    "illegal",
    "no_undo",
    "no_hint",
    "not_started",
    "paused",
    *CHAT_ERRORS,
)
#: Refusals that end the connection (close 1008).
HARD_ERRORS = (
    "garbage",
    "protocol",
    "token",
    "name_taken",
    "no_table",
    "table_full",
    "flooding",
    "quota",
)

MAX_SEATS = 8
MAX_OPTIONS = 50
MAX_SPEC = 200
MAX_TOKEN = 200
ON_LEAVE = ("end", "bot")
LANGS = ("en", "tr")
#: A club's standings: rows (and a person's matches) one reply holds by default, and at most.
STANDINGS_LIMIT = 50
MAX_STANDINGS_LIMIT = 500
#: The longest opponents' level: the other seats' labels, comma separated.
MAX_LEVEL = MAX_SEATS * (MAX_SPEC + 1)

#: Characters of a chat text once cleaned (:func:`chat_text`), and as sent at most.
MAX_CHAT = 200
MAX_CHAT_SENT = 1000
#: Combining marks kept after one character (a longer run is piled-up "Zalgo" text).
MAX_MARKS = 4
#: The quick phrases a seat may send by id: each client shows them in its person's language.
CHAT_PHRASES = ("hello", "good_luck", "well_played", "good_game", "thanks", "one_moment")
#: Chat messages one seat may send at once, and then one every so many seconds.
CHAT_BURST = 5
CHAT_EVERY = 2.0


class WireError(Exception):
    """A request the server refuses: ``code`` (one of the protocol's) and one English line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def closes(self) -> bool:
        """Whether the refusal ends the connection."""
        return self.code not in SOFT_ERRORS


# ---------------------------------------------------------------------- framing


def encode(message: Mapping[str, Any]) -> str:
    """One message as the text of one frame (compact JSON, as the player protocol writes)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def decode(frame: str | bytes) -> Message:
    """The message of a frame; binary frames, non-JSON and non-objects are ``garbage``."""
    if not isinstance(frame, str):
        raise WireError("garbage", "binary frames are not part of the protocol")
    try:
        return parse_line(frame, MAX_MESSAGE)
    except ProtocolError as exc:
        raise WireError("garbage", str(exc)) from None


class TokenBucket:
    """At most ``rate`` messages a second on average and ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Any = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def take(self) -> bool:
        """Spend one message; False when the connection is over its limit."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def refund(self) -> None:
        """Give back the message just spent: a legal move at one's turn is paced by the game
        itself, so a program that answers at once is never taken for a flood."""
        self.tokens = min(self.burst, self.tokens + 1.0)


# ---------------------------------------------------------------------- client requests


@dataclass(frozen=True, slots=True)
class Create:
    variant: str
    options: dict[str, object]
    seats: tuple[str, ...]
    rated: bool = False
    move_time: int | None = None
    on_leave: str = "end"
    seed: int | None = None
    #: The operator's token (``sixtysix table new`` on the server's machine sends it).
    operator: str | None = None


@dataclass(frozen=True, slots=True)
class Join:
    table: str
    name: str
    token: str | None = None
    lang: str = "en"
    seat: int | None = None
    #: The client draws the server's ``board`` messages (a browser page): the table
    #: worded in ``lang`` by the server, after the protocol's own messages.
    screen: bool = False


@dataclass(frozen=True, slots=True)
class ListTables:
    pass


@dataclass(frozen=True, slots=True)
class StandingsQuery:
    """A club's standings: per name, variant and level, and with ``name`` that person's
    matches, newest first; at most ``limit`` of each."""

    variant: str | None = None
    level: str | None = None
    name: str | None = None
    limit: int = STANDINGS_LIMIT


@dataclass(frozen=True, slots=True)
class Seated:
    """A message of a seated client: ``action`` (its text), ``undo``, ``leave`` or ``chat``
    (its cleaned ``text``, or a quick ``phrase``'s id)."""

    kind: str
    action: str = field(default="")
    text: str = field(default="")
    phrase: str = field(default="")


def _bad(text: str) -> WireError:
    return WireError("garbage", text)


def _bool(message: Mapping[str, Any], key: str, default: bool) -> bool:
    value = message.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"{key} must be true or false")
    return value


def _opt_int(message: Mapping[str, Any], key: str) -> int | None:
    value = message.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{key} must be an integer or null")
    return value


def _text(message: Mapping[str, Any], key: str, limit: int) -> str:
    """A text field of 1 to ``limit`` characters that is Unicode text (a lone surrogate,
    which JSON can carry, is not, and no database or file takes it)."""
    value = message.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise _bad(f"{key} must be a string of 1 to {limit} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad(f"{key} is not Unicode text (a lone surrogate)") from None
    return value


def check_name(name: object) -> str:
    """A person's name (1-32 letters, digits, ``_-.``) in Unicode NFC, else ``garbage``."""
    try:
        return normalize_name(name)
    except BadName as exc:
        raise _bad(str(exc)) from None


def check_request(message: Mapping[str, Any]) -> Create | Join | ListTables | StandingsQuery:
    """The first message of a connection, checked: what the connection is for."""
    if message.get("protocol") != PROTOCOL:
        raise WireError("protocol", f"speaks {str(message.get('protocol'))[:60]!r}, not {PROTOCOL}")
    kind = message.get("type")
    if kind == "list":
        return ListTables()
    if kind == "create":
        return _check_create(message)
    if kind == "join":
        return _check_join(message)
    if kind == "standings":
        return _check_standings(message)
    raise _bad(f"a connection begins with create, list, join or standings, not {str(kind)[:40]!r}")


def _check_create(message: Mapping[str, Any]) -> Create:
    variant = _text(message, "variant", 100)
    options = message.get("options", {})
    if (
        not isinstance(options, dict)
        or len(options) > MAX_OPTIONS
        or not all(isinstance(k, str) and len(k) <= 100 for k in options)
        or not all(isinstance(v, (str, int, bool)) for v in options.values())
    ):
        raise _bad("options must be an object of names and plain values")
    seats = message.get("seats")
    if (
        not isinstance(seats, list)
        or not 1 <= len(seats) <= MAX_SEATS
        or not all(isinstance(s, str) and 0 < len(s) <= MAX_SPEC for s in seats)
    ):
        raise _bad("seats must list one player per seat: human, @BOT or exec:PROGRAM")
    for spec in seats:
        if spec != "human" and not spec.startswith("@") and not spec.startswith("exec:"):
            raise _bad(f"a seat is human, @BOT or exec:PROGRAM, not {spec[:40]!r}")
    rated = _bool(message, "rated", False)
    move_time = _opt_int(message, "move_time")
    seed = _opt_int(message, "seed")
    if seed is not None and len(str(abs(seed))) > MAX_SEED_DIGITS:
        raise _bad(f"seed has at most {MAX_SEED_DIGITS} digits")
    if rated:
        if seed is not None:
            raise _bad("rated tables are always shuffled securely: seed is for test tables")
        move_time = MOVE_TIME if move_time is None else move_time
        low, high = MOVE_TIME_RANGE
        if not low <= move_time <= high:
            raise _bad(f"a rated table's move_time is {low} to {high} seconds")
    elif move_time is not None:
        raise _bad("move_time is for rated tables; test tables have no timer")
    on_leave = message.get("on_leave", "end")
    if on_leave not in ON_LEAVE:
        raise _bad("on_leave must be end or bot")
    operator = message.get("operator")
    if operator is not None and (not isinstance(operator, str) or len(operator) > MAX_TOKEN):
        raise _bad("operator must be the operator's token")
    return Create(variant, dict(options), tuple(seats), rated, move_time, on_leave, seed, operator)


def _check_join(message: Mapping[str, Any]) -> Join:
    table = _text(message, "table", 64)
    name = check_name(message.get("name"))
    token = message.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN):
        raise _bad("a token is a string")
    lang = message.get("lang", "en")
    if lang not in LANGS:
        raise _bad("lang must be en or tr")
    seat = _opt_int(message, "seat")
    screen = message.get("screen", False)
    if not isinstance(screen, bool):
        raise _bad("screen is true or false")
    return Join(table, name, token, lang, seat, screen)


def _check_standings(message: Mapping[str, Any]) -> StandingsQuery:
    variant = None if message.get("variant") is None else _text(message, "variant", 100)
    level = None if message.get("level") is None else _text(message, "level", MAX_LEVEL)
    name = None if message.get("name") is None else check_name(message.get("name"))
    limit = _opt_int(message, "limit")
    if limit is None:
        limit = STANDINGS_LIMIT
    elif not 1 <= limit <= MAX_STANDINGS_LIMIT:
        raise _bad(f"limit must be 1 to {MAX_STANDINGS_LIMIT}")
    return StandingsQuery(variant, level, name, limit)


def check_seated(message: Mapping[str, Any]) -> Seated:
    """A message of a seated client."""
    kind = message.get("type")
    if kind == "action":
        text = message.get("action")
        if not isinstance(text, str) or len(text) > MAX_ACTION:
            raise _bad(f"an action must be a string of at most {MAX_ACTION} characters")
        return Seated("action", text)
    if kind in ("undo", "leave", "ready", "hint"):
        return Seated(str(kind))
    if kind == "chat":
        return check_chat(message)
    raise _bad(
        f"a seated client sends action, undo, leave, ready, hint or chat, not {str(kind)[:40]!r}"
    )


def chat_text(text: str) -> str:
    """Chat text as every screen may show it: no control or format characters (terminal
    escapes, bidirectional overrides, lone surrogates), every run of white space (line breaks
    too) one space, none around it, at most :data:`MAX_MARKS` combining marks on a character,
    in Unicode NFC."""
    kept: list[str] = []
    marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        if ch.isspace():
            ch, marks = " ", 0
        elif category[0] == "C":
            continue
        elif category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(ch)
    return unicodedata.normalize("NFC", " ".join("".join(kept).split()))


def check_chat(message: Mapping[str, Any]) -> Seated:
    """A chat message: ``text`` (cleaned by :func:`chat_text`) or a quick ``phrase`` of
    :data:`CHAT_PHRASES`. A text empty once cleaned, a longer one or an unknown phrase is
    ``bad_chat`` (the connection stays); a message that is no chat at all is ``garbage``."""
    text, phrase = message.get("text"), message.get("phrase")
    if (text is None) == (phrase is None):
        raise _bad("a chat message has a text or a phrase, one of them")
    if phrase is not None:
        if not isinstance(phrase, str):
            raise _bad("a phrase is the id of a quick phrase")
        if phrase not in CHAT_PHRASES:
            raise WireError(
                "bad_chat",
                f"no quick phrase {phrase[:40]!r}: the phrases are {', '.join(CHAT_PHRASES)}",
            )
        return Seated("chat", phrase=phrase)
    if not isinstance(text, str):
        raise _bad("a chat text is a string")
    if len(text) > MAX_CHAT_SENT:
        raise WireError("bad_chat", f"a chat message has at most {MAX_CHAT} characters")
    clean = chat_text(text)
    if not clean:
        raise WireError("bad_chat", "a chat message has no text to show")
    if len(clean) > MAX_CHAT:
        raise WireError("bad_chat", f"a chat message has at most {MAX_CHAT} characters")
    return Seated("chat", text=clean)


# ---------------------------------------------------------------------- server messages


def created(table: str) -> Message:
    return {"type": "created", "table": table}


def tables(entries: Sequence[Mapping[str, Any]]) -> Message:
    return {"type": "tables", "tables": list(entries)}


#: Why ``undo`` is refused (``no_undo``): the table's own words, which a client words again in
#: its person's language.
NO_UNDO_RATED = "rated tables have no take-backs"
NO_UNDO_SHARED = "take-backs are only for a person alone with built-in bots"
NO_UNDO_NOTHING = "nothing to take back in this deal"
NO_UNDO_UNSEEN = "that move cannot be taken back without giving away unseen cards"


#: Seconds a person has to read a deal's end before a rated table's timer of the next deal
#: runs without the person's ``ready`` (the Portal's end-of-deal window).
END_OF_DEAL_WINDOW = 60


def welcome(
    table: str,
    seat: int,
    name: str,
    token: str | None,
    rated: bool,
    move_time: int | None,
    players: Sequence[str],
    reconnected: bool,
    chat: bool = True,
    on_leave: str = "end",
) -> Message:
    """The seat taken; ``ready``: the server takes a client's ``ready`` (the end of a deal
    read, the next deal's timer may start)."""
    return {
        "type": "welcome",
        "table": table,
        "seat": seat,
        "name": name,
        "token": token,
        "rated": rated,
        "move_time": move_time,
        "players": list(players),
        "reconnected": reconnected,
        "chat": chat,
        "on_leave": on_leave,
        "ready": True,
    }


def update(view: View) -> Message:
    """A seat's view after an action: that seat's view and nothing else."""
    return {"type": "update", "view": encode_view(view)}


def seats(players: Sequence[str], connected: Sequence[bool], left: Sequence[bool]) -> Message:
    return {
        "type": "seats",
        "players": list(players),
        "connected": list(connected),
        "left": list(left),
    }


def waiting(free: Sequence[int]) -> Message:
    return {"type": "waiting", "for": list(free)}


def timer(seat: int, seconds: int) -> Message:
    return {"type": "timer", "seat": seat, "seconds": seconds}


def error(code: str, message: str) -> Message:
    """A refusal; its line may quote what the client sent, so a lone surrogate there (valid
    JSON, not UTF-8) becomes ``?`` rather than a frame that cannot be sent."""
    text = message.encode("utf-8", "replace").decode("utf-8")
    return {"type": "error", "code": code, "message": text}


def chat(seat: int, name: str, *, text: str = "", phrase: str = "") -> Message:
    """What ``seat`` (held by ``name``) said, to every person at the table: a cleaned
    ``text``, or a quick ``phrase``'s id (each client words it in its person's language)."""
    if phrase:
        return {"type": "chat", "seat": seat, "name": name, "phrase": phrase}
    return {"type": "chat", "seat": seat, "name": name, "text": text}


def left(seat: int, reason: str, score: int | None) -> Message:
    return {"type": "left", "seat": seat, "reason": reason, "score": score}


def standings(name: str, score: int | None) -> Message:
    return {"type": "standings", "name": name, "score": score}


def club_standings(
    query: StandingsQuery,
    rows: Sequence[Mapping[str, Any]],
    total: int,
    history: Sequence[Mapping[str, Any]] | None,
    history_total: int | None,
) -> Message:
    """The answer to a ``standings`` request: the club's rows (``total``: how many the club
    has), and with a name that person's matches (``history_total``: how many in all). Rows at
    the end of either list are left out when the frame would be over :data:`MAX_MESSAGE`
    (``total`` still counts them)."""
    message: Message = {
        "type": "club_standings",
        "variant": query.variant,
        "level": query.level,
        "name": query.name,
        "limit": query.limit,
        "rows": [],
        "total": total,
        "history": None if history is None else [],
        "history_total": history_total,
    }
    # What the lists may take: the frame's room less the rest, and a margin for the commas.
    room = MAX_MESSAGE - len(encode(message).encode()) - 64
    sizes = [[len(encode(r).encode()) + 1 for r in part] for part in (rows, history or ())]
    half = room // 2
    # Each list has half the room, and what one leaves over is the other's.
    shares = [half + max(0, half - sum(sizes[1])), half + max(0, half - sum(sizes[0]))]
    kept = [_fitting(size, share) for size, share in zip(sizes, shares, strict=True)]
    message["rows"] = [dict(r) for r in rows[: kept[0]]]
    if history is not None:
        message["history"] = [dict(r) for r in history[: kept[1]]]
    return message


def _fitting(sizes: Sequence[int], room: int) -> int:
    """How many of the first entries of these sizes fit in ``room``."""
    used = 0
    for count, size in enumerate(sizes):
        used += size
        if used > room:
            return count
    return len(sizes)


#: Why a table is paused: its file cannot be written (a full disk), so it must not change.
PAUSED_SAVE = "the server cannot save: the table waits"


def paused(reason: str = PAUSED_SAVE) -> Message:
    """The table stops changing until its file is saved again (``resumed`` follows)."""
    return {"type": "paused", "reason": reason}


def resumed() -> Message:
    return {"type": "resumed"}


def close_code(code: str) -> int:
    """The close code of a refusal that ends the connection: ``paused`` is to be tried again
    later, ``server`` is the server's fault, the others are the client's."""
    if code == "paused":
        return CLOSE_AGAIN
    if code == "server":
        return CLOSE_ERROR
    return CLOSE_POLICY


__all__ = [
    "MAX_MESSAGE",
    "PROTOCOL",
    "Create",
    "Join",
    "ListTables",
    "Seated",
    "StandingsQuery",
    "TokenBucket",
    "WireError",
    "chat_text",
    "check_chat",
    "check_request",
    "check_seated",
    "decode",
    "encode",
]
