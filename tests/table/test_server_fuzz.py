"""A Hypothesis fuzzer of ``sixtysix-table/1`` against one live server.

Every example seats two people at a table of its own, then sends what a hostile client would:
real first messages (all four kinds) and seated messages (action, undo, leave) with their
fields mutated (wrong types, huge ints, unknown and missing keys, odd Unicode, lone surrogates,
deep nesting and ``NaN`` as raw text, binary, truncated and oversized frames, bursts), and
well-formed but hostile ones (acting for the other seat or out of turn, illegal moves, joins
with stolen, missing or wrong tokens, look-alike names, repeated joins, ``exec:`` and all-bot
seats, a foreign ``Origin``, silence). The server must answer each frame or close the
connection with 1000, 1008 or 1009 and a reason, log no traceback and no ERROR, run no program
a client names, and a person at a separate table must play exactly the game they play on a
fresh server with nobody about (one move between examples, the rest after them, and a second
game after them).

One server serves every example (a server per example would be most of the run): it runs in an
event loop of its own thread, and each step of an example is a coroutine sent there.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import re
import threading
import traceback
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.table import server as server_module
from sixtysix.table import wire
from sixtysix.table.sending import send_text
from sixtysix.table.server import TableServer
from tests.table.server_helpers import Conn, create, join, play_out, running

P = wire.PROTOCOL
#: Seconds the server has to answer one frame (or close), generous on a shared machine.
ANSWER = 15.0
#: Seconds one example's step may take as a whole before the test gives up on it.
STEP = 120.0
#: The close codes a hostile client may get: normal, policy, too big (1011 is a server bug).
CLOSES = frozenset({wire.CLOSE_NORMAL, wire.CLOSE_POLICY, wire.CLOSE_TOO_BIG})
#: The loggers watched for tracebacks and errors (the server's websockets logger is under
#: ``sixtysix.server``; ``asyncio`` reports a task that died unseen).
WATCHED = ("sixtysix", "websockets", "asyncio")
#: The reference game: a person (first legal move) against ``@random``, a fixed seed.
REF_SEATS = ["human", "@random"]
REF_SEED = 7
REF_NAME = "ref"
#: Examples per run: about 20 s on two shared cores.
EXAMPLES = 120

T = TypeVar("T")


# ---------------------------------------------------------------------- the server's thread


class ServerThread:
    """A table server in an event loop of its own thread, so Hypothesis can drive examples
    from the test's thread against one server."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fuzz-server")
        self.stack = contextlib.AsyncExitStack()
        self.url = ""
        self.server: TableServer | None = None

    def __enter__(self) -> ServerThread:
        self.thread.start()
        # A short reconnect limit, so dropped seats expire (and their tables end) mid-run.
        context = running(self.data, reconnect_time=3.0)
        self.url, self.server = self.run(self.stack.enter_async_context(context))
        return self

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = STEP) -> T:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise AssertionError(f"a step took more than {timeout:.0f} s") from None

    def __exit__(self, *exc: object) -> None:
        try:
            self.run(self.stack.aclose(), 60)
            self.run(_cancel_the_rest(), 30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(30)
            self.loop.run_until_complete(self.loop.shutdown_default_executor())
            self.loop.close()


async def _cancel_the_rest() -> None:
    """Cancel the tasks still running (client connections of the fuzzer)."""
    me = asyncio.current_task()
    rest = [t for t in asyncio.all_tasks() if t is not me]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


# ---------------------------------------------------------------------- the logs


class Alarm(logging.Handler):
    """Every record with a traceback or at ERROR and above, from any thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.bad.append(record)

    def since(self, start: int) -> str:
        """The bad records from index ``start`` on, with their tracebacks ("" if none)."""
        lines = []
        for record in self.bad[start:]:
            lines.append(f"{record.name} {record.levelname}: {record.getMessage()}")
            if record.exc_info:
                lines.append("".join(traceback.format_exception(*record.exc_info)))
        return "\n".join(lines)


@contextlib.contextmanager
def alarmed() -> Iterator[Alarm]:
    """The :class:`Alarm` on the watched loggers, each at INFO at least (not DEBUG:
    websockets would log every frame)."""
    alarm = Alarm()
    saved = []
    for name in WATCHED:
        logger = logging.getLogger(name)
        saved.append((logger, logger.level))
        logger.addHandler(alarm)
        if logger.getEffectiveLevel() > logging.INFO:
            logger.setLevel(logging.INFO)
    try:
        yield alarm
    finally:
        for logger, level in saved:
            logger.removeHandler(alarm)
            logger.setLevel(level)


# ---------------------------------------------------------------------- frames


@dataclass(frozen=True)
class Raw:
    """A value written into a frame as raw JSON text: ``NaN``, deep nesting, a lone
    surrogate's escape, an integer longer than Python reads."""

    text: str


def render(message: Any) -> str:
    """``message`` as JSON text, each :class:`Raw` value spliced in as written."""
    raws: list[str] = []

    def hole(value: object) -> str:
        if not isinstance(value, Raw):
            raise TypeError(type(value).__name__)
        raws.append(value.text)
        return f"\x00raw{len(raws) - 1}\x00"

    text = json.dumps(message, default=hole, ensure_ascii=False)
    for i, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\x00raw{i}\x00"), raw, 1)
    return text


def long_int(digits: int) -> Raw:
    """An integer of about as many digits as Python reads from text (4,300), or more."""
    return Raw("-" + "9" * digits)


def deep(depth: int, kind: str) -> Raw:
    if kind == "list":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * depth + "0" + "}" * depth)


ODD_TEXT = [
    "", " ", "\x00", "\t\n", "human", "@random", "@", "play AS", "PLAY   as", "play 10H",
    "play XX", "marry H", "close", "trump S", "partner AD", "exchange", "pass", "a" * 201,
    "ｐｌａｙ ＡＳ", "\u202eplay AS", "Ⅻ", "🂡", "аlice", "null", "NaN", "../../etc/passwd",
    "66", "66-4", "list", "join", "create", "action", "undo", "leave", P, "sixtysix-table/2",
    "\ufeff", "e\u0301", "ß" * 40, "ǅ",
]  # fmt: skip
#: Strings JSON can carry and Python reads, but UTF-8 cannot encode: lone surrogates.
SURROGATES = ['"\\ud800"', '"a\\udfff\\ud800b"', '"play \\ud83c"', '"alice\\udc00"']
RAWS = [
    "NaN", "Infinity", "-Infinity", "[NaN]", '{"x": NaN}', "1e999", "-0", '"\\u0000"',
    '"\\u202e"', "[[[]]]", "{}", "[]", "true", "null",
    *SURROGATES,
]  # fmt: skip
#: Odd text for any string field: the list above, or a lone surrogate.
odd_text = st.sampled_from(ODD_TEXT) | st.sampled_from(SURROGATES).map(Raw)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.integers(-(2**80), 2**80),
    st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**100]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(ODD_TEXT),
    st.builds(lambda c, n: c * n, st.characters(), st.integers(100, 30_000)),
    st.sampled_from(RAWS).map(Raw)
    | st.builds(long_int, st.integers(4000, 5000))
    | st.builds(deep, st.integers(100, 40_000), st.sampled_from(["list", "object"])),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
EXTRA_KEYS = [
    "seat", "table", "name", "token", "type", "protocol", "operator", "extra", "", "Type",
    "__proto__",
]  # fmt: skip


def mutate(data: st.DataObject, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` with a few fields set to odd values, dropped or added."""
    message = dict(base)
    for _ in range(data.draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3]), label="mutations")):
        key = data.draw(st.sampled_from(sorted(message) + EXTRA_KEYS), label="key")
        if data.draw(st.booleans(), label="drop") and key in message:
            del message[key]
        else:
            message[key] = data.draw(values, label=f"value of {key!r}")
    return message


def frame_of(data: st.DataObject, message: dict[str, Any]) -> str | bytes:
    """The message as a frame, sometimes broken on the way: binary, truncated, padded past
    (or just under) the 64 KiB limit, duplicated keys, wrapped, a whole frame of nesting."""
    text = render(message)
    how = data.draw(
        st.sampled_from(["plain"] * 12 + ["binary", "bytes", "cut", "pad", "dup", "wrap", "deep"]),
        label="frame",
    )
    if how == "plain":
        return text
    if how == "binary":
        return text.encode("utf-8", "surrogatepass")
    if how == "bytes":
        return data.draw(st.binary(max_size=64), label="bytes")
    if how == "cut":
        return text[: data.draw(st.integers(0, 10**6), label="cut") % max(1, len(text))]
    if how == "pad":
        size = data.draw(st.integers(wire.MAX_MESSAGE - 200, wire.MAX_MESSAGE + 4096), label="pad")
        return '{"pad":"' + "x" * size + '",' + text.lstrip("{") if text.startswith("{") else text
    if how == "dup":
        key = data.draw(st.sampled_from(['"type":"list"', '"type":"undo"', '"protocol":"x/1"']))
        return "{" + key + "," + text[1:] if text.startswith("{") and len(text) > 2 else text
    if how == "wrap":
        form = data.draw(st.sampled_from(["\ufeff{}", " {} ", "[{}]", "{}{}", "{} x", "{}\n{}"]))
        return form.replace("{}", text, 1)
    depth = data.draw(st.integers(100, 33_000), label="depth")
    return "[" * depth + "]" * depth


def safe(frame: str | bytes, marker: str) -> str | bytes:
    """No program but the marker is ever named in an ``exec:`` seat, whatever was drawn."""
    if isinstance(frame, str) and "exec" in frame.lower() and marker not in frame:
        return re.sub("exec", "exex", frame, flags=re.IGNORECASE)
    return frame


# ---------------------------------------------------------------------- one example's table


@dataclass
class Person:
    name: str
    token: str
    seat: int
    conn: Conn | None


@dataclass
class Snapshot:
    """What a step may be drawn from: the tables, the people and the move to make."""

    table: str
    open_table: str
    ref_table: str
    people: list[Person]
    mover: int | None
    legal: list[str]
    marker: str


def closed_properly(conn: Conn, what: str) -> None:
    """The server closed ``conn`` with an allowed code and a reason."""
    code, reason = conn.ws.close_code, conn.ws.close_reason
    assert code in CLOSES and reason, f"{what}: closed with {code} {reason!r}"


def answers(message: dict[str, Any], seat: int | None) -> bool:
    """Whether ``message`` answers a frame of ``seat``'s connection (an update of another
    seat's action, a new deal's view or a broadcast answers nothing)."""
    kind = message.get("type")
    if kind in ("error", "welcome", "created", "tables"):
        return True
    if kind == "left":
        return message.get("seat") == seat
    if kind == "update":
        history = message["view"]["history"]
        return bool(history) and history[-1][0] == seat
    return False


async def exchange(conn: Conn, frames: list[str | bytes], seat: int | None, what: str) -> bool:
    """Send ``frames`` at once, then read an answer to each, or the close; False when the
    connection is closed (properly: checked)."""
    for frame in frames:
        try:
            await send_text(conn.ws, frame)
        except ConnectionClosed:
            break
    got = 0
    while got < len(frames):
        try:
            message = await conn.next(ANSWER)
        except ConnectionClosed:
            closed_properly(conn, what)
            return False
        except TimeoutError:
            raise AssertionError(f"{what}: no answer and no close in {ANSWER:.0f} s") from None
        got += answers(message, seat)
    return True


async def drain_to_seats(conn: Conn) -> None:
    """Read a welcomed connection's screen, up to the ``seats`` message its join sends: what
    comes before it answers nothing sent later."""
    await conn.expect("seats", timeout=ANSWER)


async def to_the_close(conn: Conn, what: str) -> None:
    try:
        await conn.closed(ANSWER)
    except TimeoutError:
        raise AssertionError(f"{what}: not closed in {ANSWER:.0f} s") from None
    closed_properly(conn, what)


@dataclass
class World:
    """The test's server, its reference person and what the examples have seen."""

    url: str
    server: TableServer
    marker: Path
    ref_table: str
    ref_conn: Conn
    after_table: str
    examples: int = 0
    ref_moves: int = 0
    ref_done: bool = False
    refused_handshakes: int = 0
    closes: dict[str, int] = field(default_factory=dict)

    async def ref_step(self) -> None:
        """The reference person makes one move between examples: it plays on while the
        hostile clients do their worst."""
        if self.ref_done:
            return
        message = await self.ref_conn.expect("decide", "match_over", timeout=ANSWER)
        if message["type"] == "match_over":
            self.ref_done = True
            return
        await self.ref_conn.send({"type": "action", "action": message["legal"][0]})
        self.ref_moves += 1

    def noted(self, conn: Conn) -> None:
        key = f"{conn.ws.close_code} {conn.ws.close_reason}"[:60]
        self.closes[key] = self.closes.get(key, 0) + 1


class Lab:
    """One example: a table of two seated people, an open table, and the steps against them."""

    def __init__(self, world: World, table: str, open_table: str, people: list[Person]) -> None:
        self.world = world
        self.table = table
        self.open_table = open_table
        self.people = people

    @staticmethod
    async def open(world: World, n: int, seed: int) -> Lab:
        # Opened through the server itself: the fuzzer's own creates meet its quotas.
        made = [
            await world.server.create(wire.Create("66", {}, ("human", "human"), seed=seed))
            for _ in range(2)
        ]
        people = []
        for name in (f"alice{n}", f"bob{n}"):
            conn, welcome = await join(world.url, made[0].id, name)
            await drain_to_seats(conn)
            people.append(Person(name, str(welcome["token"]), int(welcome["seat"]), conn))
        return Lab(world, made[0].id, made[1].id, people)

    async def snapshot(self) -> Snapshot:
        table = self.world.server.tables.get(self.table)
        mover = table.to_act() if table is not None else None
        legal: list[str] = []
        if table is not None and mover is not None and table.state is not None:
            legal = [ACTION_NAMES[a] for a in table.state.legal_actions()]
        return Snapshot(
            self.table,
            self.open_table,
            self.world.ref_table,
            self.people,
            mover,
            legal,
            str(self.world.marker),
        )

    async def seated(self, who: int, frames: list[str | bytes]) -> None:
        person = self.people[who]
        if person.conn is None and not await self._rejoin(person):
            return
        assert person.conn is not None
        if not await exchange(person.conn, frames, person.seat, f"{person.name}'s frames"):
            self.world.noted(person.conn)
            person.conn = None

    async def _rejoin(self, person: Person) -> bool:
        """Take a dropped person's seat back with the token (False: the seat is gone)."""
        conn = await Conn.open(self.world.url)
        await conn.send(
            {"type": "join", "protocol": P, "table": self.table, "name": person.name,
             "token": person.token, "lang": "en"}
        )  # fmt: skip
        try:
            reply = await conn.expect("welcome", "error", timeout=ANSWER)
        except ConnectionClosed:
            closed_properly(conn, f"{person.name}'s rejoin")
            return False
        if reply["type"] == "error":
            await to_the_close(conn, f"{person.name}'s refused rejoin")
            return False
        await drain_to_seats(conn)
        person.conn = conn
        return True

    async def fresh(self, frames: list[str | bytes], origin: str | None) -> None:
        """A new connection's first frames: answered and closed, or a welcome (then a
        replaced person's old connection must be closed, or the newcomer leaves)."""
        try:
            conn = await Conn.open(self.world.url, origin=origin)
        except InvalidHandshake:
            self.world.refused_handshakes += 1
            return
        what = f"a new connection sending {str(frames[0])[:80]!r}"
        if not await exchange(conn, frames[:1], None, what):
            self.world.noted(conn)
            return
        welcome = next((m for m in reversed(conn.seen) if m["type"] == "welcome"), None)
        if welcome is None:
            for frame in frames[1:]:  # after the answer: the server is closing
                with contextlib.suppress(ConnectionClosed):
                    await send_text(conn.ws, frame)
            await to_the_close(conn, what)
            self.world.noted(conn)
            return
        mine = [p for p in self.people if p.seat == welcome["seat"]]
        if welcome["table"] == self.table and welcome["reconnected"] and mine:
            # A repeated join with the right token: the new connection is the person's now.
            person = mine[0]
            await drain_to_seats(conn)
            if person.conn is not None:
                await to_the_close(person.conn, f"{person.name}'s replaced connection")
                self.world.noted(person.conn)
            person.conn = conn
            return
        await conn.send({"type": "leave"})
        await to_the_close(conn, f"{what}, welcomed, then leaving")
        self.world.noted(conn)

    async def silent(self) -> None:
        conn = await Conn.open(self.world.url)
        await to_the_close(conn, "a silent connection")
        assert conn.ws.close_code == wire.CLOSE_POLICY
        self.world.noted(conn)

    async def close(self) -> None:
        """Both people leave (the table's match ends); every close is checked."""
        for person in self.people:
            if person.conn is not None:
                with contextlib.suppress(ConnectionClosed):
                    await person.conn.send({"type": "leave"})
                await to_the_close(person.conn, f"{person.name} leaving")
                self.world.noted(person.conn)
                person.conn = None


# ---------------------------------------------------------------------- drawing a step


SEAT_SPECS = [
    ["human", "human"], ["human", "@random"], ["@random", "@random"], ["@random"] * 4,
    ["human", "@random:seed=5"], ["@random", "human", "@random", "human"], ["human"],
    ["human"] * 9, ["@exec:{m}", "human"], ["exec:{m}", "human"], ["@ exec:{m}", "human"],
    ["@EXEC:{m}", "human"], ["human", " exec:{m}"], ["@nobody", "human"],
    # A budget from the wire (with a person seat nobody takes: were it accepted, the bot
    # would never think here).
    ["human", "@expert:samples=10000000,nodes=10000000,time=3600000"],
]  # fmt: skip


def first_message(data: st.DataObject, snap: Snapshot) -> dict[str, Any]:
    """A real first message (list, standings, create or join), well formed or hostile."""
    kind = data.draw(
        st.sampled_from(["list", "standings", "create", "join", "join", "join"]), label="first"
    )
    if kind == "list":
        return {"type": "list", "protocol": P}
    if kind == "standings":
        return {
            "type": "standings", "protocol": P,
            "variant": data.draw(st.sampled_from([None, "66", "x"]) | odd_text),
            "level": data.draw(st.sampled_from([None, "@random", "human,@hard"]) | odd_text),
            "name": data.draw(st.sampled_from([None, REF_NAME, "zed"]) | odd_text),
            "limit": data.draw(st.sampled_from([None, 1, 500, 0, 501, -1])),
        }  # fmt: skip
    if kind == "create":
        seats = [s.format(m=snap.marker) for s in data.draw(st.sampled_from(SEAT_SPECS))]
        return {
            "type": "create", "protocol": P,
            "variant": data.draw(st.sampled_from(["66", "66-4", "schnapsen", "66-3", "x"])),
            "options": data.draw(st.sampled_from([{}, {"target": 1}, {"target": 0}])),
            "seats": seats, "rated": data.draw(st.booleans()), "move_time": None,
            "on_leave": data.draw(st.sampled_from(["end", "bot"])),
            "seed": data.draw(st.none() | st.integers(-(2**70), 2**70)),
        }  # fmt: skip
    people = snap.people
    names = [p.name for p in people]
    looks = [n.replace("a", "а", 1).replace("o", "о", 1) for n in names]  # Cyrillic а, о
    name = data.draw(
        st.sampled_from([*names, *looks, *(n.upper() for n in names), REF_NAME, "rеf"])
        | st.integers(0, 10**6).map(lambda k: f"zed{k}"),
        label="name",
    )
    tokens = [p.token for p in people]
    return {
        "type": "join",
        "protocol": P,
        "table": data.draw(
            st.sampled_from([snap.table, snap.open_table, snap.ref_table, "00000000"]) | odd_text,
            label="table",
        ),
        "name": name,
        "token": data.draw(st.sampled_from([None, "x" * 64, *tokens]) | odd_text, label="token"),
        "lang": data.draw(st.sampled_from(["en", "tr", "xx"])),
        "seat": data.draw(st.sampled_from([None, 0, 1, 2, -1])),
    }


def seated_message(data: st.DataObject, snap: Snapshot) -> dict[str, Any]:
    """A seated client's message: a move of the seat to act (sent by either seat), a wrong
    one, a take-back or leaving."""
    kind = data.draw(
        st.sampled_from(["legal"] * 6 + ["illegal", "undo", "undo", "leave", "other"]),
        label="seated",
    )
    if kind == "legal":
        # An index, not a choice among the moves: the draws keep one shape whatever the deal.
        index = data.draw(st.integers(0, 63), label="move")
        action = snap.legal[index % len(snap.legal)] if snap.legal else "play AS"
        return {"type": "action", "action": action}
    if kind == "illegal":
        return {"type": "action", "action": data.draw(odd_text, label="action")}
    if kind == "other":
        return {"type": data.draw(st.sampled_from(["hello", "join", "list", "Action", ""]))}
    return {"type": kind}


def burst(data: st.DataObject) -> int:
    return data.draw(st.sampled_from([1] * 16 + [2, 3, 10, 45, 60]), label="burst")


def run_step(data: st.DataObject, lab: Lab, snap: Snapshot, thread: ServerThread) -> None:
    kind = data.draw(st.sampled_from(["seated"] * 20 + ["silent"] + ["fresh"] * 12), label="step")
    if kind == "silent":
        thread.run(lab.silent())
        return
    base = seated_message(data, snap) if kind == "seated" else first_message(data, snap)
    frame = safe(frame_of(data, mutate(data, base)), snap.marker)
    frames = [frame] * burst(data)
    if kind == "seated":
        thread.run(lab.seated(data.draw(st.sampled_from([0, 1]), label="who"), frames))
    else:
        origin = data.draw(
            st.sampled_from([None] * 4 + ["http://evil.example", "null", "http://127.0.0.1"]),
            label="origin",
        )
        thread.run(lab.fresh(frames, origin))


# ---------------------------------------------------------------------- the test


def record_of(server: TableServer, table: str) -> Any:
    return json.loads(server.store.path(table).read_text(encoding="utf-8"))["record"]


async def reference_record(data: Path) -> Any:
    """The reference game on a fresh server with nobody hostile about."""
    async with running(data) as (url, server):
        table = await create(url, "66", REF_SEATS, seed=REF_SEED)
        conn, _ = await join(url, table, REF_NAME)
        await asyncio.wait_for(play_out(conn), 120)
        return record_of(server, table)


async def setting_up(url: str, server: TableServer, marker: Path) -> World:
    """Both reference tables, opened before any fuzzing (so no quota of the fuzzer's own
    creates can refuse them); the first one's person is seated at once."""
    ref_table = await create(url, "66", REF_SEATS, seed=REF_SEED)
    after_table = await create(url, "66", REF_SEATS, seed=REF_SEED)
    conn, _ = await join(url, ref_table, REF_NAME)
    return World(url, server, marker, ref_table, conn, after_table)


async def finishing(world: World) -> tuple[Any, Any]:
    """The reference person plays the first game out, then the second one from its start:
    the records of both."""
    if not world.ref_done:
        await asyncio.wait_for(play_out(world.ref_conn), 120)
    token = next(m["token"] for m in world.ref_conn.seen if m["type"] == "welcome")
    conn, _ = await join(world.url, world.after_table, REF_NAME, token)
    await asyncio.wait_for(play_out(conn), 120)
    return record_of(world.server, world.ref_table), record_of(world.server, world.after_table)


def harmless_marker(folder: Path) -> tuple[Path, Path]:
    """A program that only notes it ran (and fails the handshake): what an ``exec:`` seat of
    the fuzzer names."""
    folder.mkdir()
    ran = folder / "ran.log"
    marker = folder / "marker.sh"
    marker.write_text(f"#!/bin/sh\necho ran >> '{ran}'\nexit 3\n")
    marker.chmod(0o755)
    return marker, ran


# The server's thread (websockets' pings) uses the random module while Hypothesis draws.
@pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")
def test_fuzzed_clients_are_answered_or_closed_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "HELLO_TIMEOUT", 0.3)
    # A flood leaves frames unread, so the server never reads the client's answer to its
    # close and waits this long for it: the default 3 s would be most of the run.
    monkeypatch.setattr(server_module, "CLOSE_TIMEOUT", 0.3)
    expected = asyncio.run(reference_record(tmp_path / "fresh"))
    marker, ran = harmless_marker(tmp_path / "exec")
    with alarmed() as alarm, ServerThread(tmp_path / "fuzzed") as thread:
        assert thread.server is not None
        world = thread.run(setting_up(thread.url, thread.server, marker))

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def fuzz(data: st.DataObject) -> None:
            start = len(alarm.bad)
            world.examples += 1
            seed = data.draw(st.integers(0, 2**16), label="seed")
            lab = thread.run(Lab.open(world, world.examples, seed))
            try:
                for _ in range(data.draw(st.integers(1, 5), label="steps")):
                    run_step(data, lab, thread.run(lab.snapshot()), thread)
                thread.run(lab.close())
            finally:
                thread.run(world.ref_step())
            assert not alarm.since(start), "the server logged:\n" + alarm.since(start)

        fuzz()
        first, second = thread.run(finishing(world), 300)
        assert not alarm.since(0), "the server logged:\n" + alarm.since(0)
    assert first == expected, "the game played beside the fuzzing is not the fresh server's"
    assert second == expected, "the game played after the fuzzing is not the fresh server's"
    runs = len(ran.read_text().splitlines()) if ran.exists() else 0
    assert runs == 0, f"a client's exec: seat ran a program ({runs} times)"
    print(
        f"{world.examples} examples; reference moves during them: {world.ref_moves};"
        f" handshakes refused: {world.refused_handshakes}; exec: marker ran {runs} times;"
        f" closes: {world.closes}"
    )
