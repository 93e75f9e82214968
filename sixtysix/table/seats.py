"""The seats of a table: what a table is created with, who plays each seat, and where the
results go.

A seat is ``human`` (a person, or a program that connects like one), ``@NAME`` (a registered
bot or level, run in the server's process) or ``exec:PROGRAM ARGS`` (an external program the
server runs). The ``exec:`` bots of the other drivers share one process per seat and program
in a process; at a server that would mix the matches of two tables, so each table starts
programs of its own (:func:`own_program`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sixtysix.bots.base import Bot
from sixtysix.bots.external import ExecBot
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.play.players import build_bots
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.messages import Message
from sixtysix.protocol.referee import ExternalPlayer

#: What the table tells its seats: (seat, message) pairs, in order.
Out = list[tuple[int, Message]]
#: The bot that plays a leaver's seat on to the end with ``on_leave="bot"``.
STAND_IN = "@hard"


class StandingsBook(Protocol):
    """Where results go (:class:`sixtysix.table.standings_db.ServerStandings`)."""

    def add(
        self,
        name: str,
        variant: str,
        level: str,
        seats: int,
        seat: int,
        ending: str,
        score: int | None,
        deals: int,
        totals: Sequence[int],
    ) -> None: ...


def seat_kind(spec: str) -> str:
    """``human``, ``bot`` or ``exec`` for a seat spec."""
    if spec == "human":
        return "human"
    return "exec" if spec.startswith("exec:") else "bot"


@dataclass
class Config:
    """What a table was created with (and is written to its file)."""

    id: str
    variant: str
    options: dict[str, object]
    seats: tuple[str, ...]
    rated: bool = False
    move_time: int | None = None
    on_leave: str = "end"
    seed: int | None = None
    created_at: str = ""


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
