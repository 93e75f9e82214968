"""The seats of a table: what a table is created with, who plays each seat, and where the
results go.

A seat is ``human`` (a person, or a program that connects like one), ``@NAME`` (a level, a
registered bot, or a program the operator named when starting the server) or
``exec:PROGRAM ARGS`` (an external program, on the operator's own request only). Which seat
may run a program is decided by what the seat *resolves to* (:func:`seat_bots` checks each
bot's class), never by how its spec is spelt. The ``exec:`` bots of the other drivers share
one process per seat and program in a process; at a server that would mix the matches of two
tables, so each table starts programs of its own (:func:`own_program`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sixtysix.bots.base import Bot, parse_bot_spec
from sixtysix.bots.external import Deadlines, ExecBot, exec_bot_class
from sixtysix.core.errors import SixtySixError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.messages import Message
from sixtysix.protocol.referee import ExternalPlayer, is_exec_spec
from sixtysix.service.players import build_bots, resolve

#: What the table tells its seats: (seat, message) pairs, in order.
Out = list[tuple[int, Message]]
#: The bot that plays a leaver's seat on to the end with ``on_leave="bot"``.
STAND_IN = "@hard"


#: Bot parameters any client may give a seat; every other parameter (a budget) is the
#: operator's choice.
CLIENT_PARAMS = frozenset({"seed"})


class SeatRefused(SixtySixError, ValueError):
    """A seat spec this table may not seat; the message says why, in one line."""


@dataclass
class Config:
    """What a table was created with (and is written to its file).

    ``programs`` maps the operator's program names seated here (``@NAME``) to their ``exec:``
    specs, and ``operator`` says the operator opened the table (so its ``exec:`` seats and bot
    parameters stand): both are kept in the table file, so a restarted server seats exactly
    what was allowed when the table was opened.
    """

    id: str
    variant: str
    options: dict[str, object]
    seats: tuple[str, ...]
    rated: bool = False
    move_time: int | None = None
    on_leave: str = "end"
    seed: int | None = None
    created_at: str = ""
    programs: dict[str, str] = field(default_factory=dict)
    operator: bool = False


def program_name(spec: str) -> str | None:
    """The name of ``@NAME`` (folded as bot names are), or None for another spec."""
    text = spec.strip()
    if not text.startswith("@"):
        return None
    name, _, rest = text[1:].partition(":")
    return None if rest else name.strip().lower()


def check_client_seat(spec: str, programs: Mapping[str, str]) -> None:
    """Refuse a seat a client other than the operator may not ask for: an ``exec:`` program
    (however spelt) or a bot parameter other than :data:`CLIENT_PARAMS`."""
    text = spec.strip()
    if text == "human":
        return
    bare = text.removeprefix("@").strip()
    if is_exec_spec(bare) or bare.partition(":")[0].strip().lower() == "exec":
        raise SeatRefused(
            "programs are the operator's choice: seat one the operator named"
            " (sixtysix serve --player NAME=COMMAND, seated as @NAME)"
        )
    try:
        _, params = parse_bot_spec(bare)
    except SixtySixError as exc:
        raise SeatRefused(str(exc)) from None
    if program_name(text) in programs:
        return
    extra = sorted(set(params) - CLIENT_PARAMS)
    if extra:
        raise SeatRefused(
            f"bot parameters ({', '.join(extra)}) are the operator's choice:"
            " seat a level (@easy, @medium, @hard, @expert)"
        )


def seat_bots(
    config: Config,
    registry: Registry,
    seed: Seed,
    variant: Variant,
    deadlines: Deadlines | None = None,
) -> list[Bot | None]:
    """The bot of each seat (None for a person). A program sits only where the operator put
    one: a named program (``config.programs``) or, at a table the operator opened, an
    ``exec:`` seat; any other seat that would resolve to a program is refused
    (:class:`SeatRefused`), whatever its spelling."""
    bots: list[Bot | None] = []
    seats = len(config.seats)
    for seat, spec in enumerate(config.seats):
        text = spec.strip()
        name = program_name(text)
        bot: Bot | None
        if text == "human":
            bot = None
        elif name is not None and name in config.programs:
            cls = exec_bot_class(config.programs[name], variant, deadlines)
            bot = cls(seat, seed, {})
        elif config.operator and is_exec_spec(text):
            bot = exec_bot_class(text, variant, deadlines)(seat, seed, {})
        else:
            bare = text.removeprefix("@")
            if is_exec_spec(bare) or is_exec_spec(text):
                raise SeatRefused(f"seat {seat} would run a program: that is the operator's choice")
            opp = resolve(bare, registry, seats)
            bot = opp.cls(seat, seed.child(("bot", seat)), opp.params)
        if isinstance(bot, ExecBot) and not (
            (name is not None and name in config.programs) or config.operator
        ):
            raise SeatRefused(f"seat {seat} would run a program: that is the operator's choice")
        bots.append(bot)
    return bots


def seat_kind(spec: str, bot: Bot | None) -> str:
    """``human``, ``bot`` or ``exec`` for a seat, by what it resolved to."""
    if bot is None:
        return "human"
    return "exec" if isinstance(bot, ExecBot) else "bot"


def stand_in(registry: Registry, seed: Seed, seat: int, seats: int) -> Bot:
    """The bot that plays a leaver's seat on to the end of the match."""
    bots = build_bots(
        ["" if s != seat else STAND_IN.removeprefix("@") for s in range(seats)],
        registry,
        seed.child(("stand-in", seat)),
    )
    bot = bots[seat]
    assert bot is not None
    return bot


def own_program(bot: ExecBot, variant: Variant, started: list[ExternalPlayer]) -> None:
    """Give ``bot`` an external program of its table's own, started and told the match
    (appended to ``started``; blocking: a table calls it in its bot's thread)."""
    if bot._player is not None:
        return
    cls = type(bot)
    d = cls.deadlines
    player = ExternalPlayer(cls.command, start_timeout=d.start, move_timeout=d.move, label=cls.name)
    player.seat = bot.seat
    started.append(player)
    player.start(variant)
    player.new_match(variant, bot.seat)
    bot._player = player
