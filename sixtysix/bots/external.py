"""External programs wherever a bot is accepted: ``exec:PROGRAM [ARGS...]`` as a :class:`Bot`.

An ``exec:`` spec becomes a bot class of its own (:func:`exec_bot_class`), so every driver
(``duel``, ``tournament``, ``simulate --bots``, ``play --vs``) seats it as any bot and sends it
to worker processes by pickle (a class is rebuilt there from its spec, see :func:`_rebuild`).
Each instance asks an :class:`~sixtysix.protocol.referee.ExternalPlayer` that stays open in
this process for its ``(spec, seat)``: one process per seat and per worker, reused from game to
game, never shared between seats. The instance tells the program what the protocol promises
(a new match, each deal, every public action, each result) from the views it is asked with and
from :func:`deal_over`, which the game loop's end-of-deal hook calls
(:func:`sixtysix.bots.seating.deal_notice`); a fault (timeout, crash, garbage, illegal
answer ...) is raised from :meth:`ExecBot.choose` as a
:class:`~sixtysix.core.faults.PlayerFault`, which the loop turns into a forfeit, and the next
deal gets a fresh process.

Bad specs are found before any game: :func:`check_exec` starts each distinct spec once for the
handshake and closes it again (missing program, not executable, wrong protocol, a variant it
does not play: :class:`~sixtysix.protocol.referee.PlayerStartError`, one line, exit status 2).
"""

from __future__ import annotations

import contextlib
import copyreg
import multiprocessing.util
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from sixtysix.bots.base import Bot
from sixtysix.core.actions import Action
from sixtysix.core.cards import cards_of
from sixtysix.core.faults import PlayerFault
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.protocol.referee import (
    DEFAULT_MOVE_TIMEOUT,
    DEFAULT_START_TIMEOUT,
    QUIT_GRACE,
    ExternalPlayer,
    PlayerStartError,
    close_all,
    is_exec_spec,
    parse_exec_spec,
    resolve_argv,
)


@dataclass(frozen=True, slots=True)
class Deadlines:
    """Seconds an external player has to start (and shake hands) and to answer a decision."""

    start: float = DEFAULT_START_TIMEOUT
    move: float = DEFAULT_MOVE_TIMEOUT


class _ExecMeta(type):
    """The metaclass of ``exec:`` bot classes, so that pickle rebuilds them from their spec."""


class ExecBot(Bot, metaclass=_ExecMeta):
    """A seat played by an external program through ``sixtysix-player/1``."""

    name = "exec"
    description = "an external program: exec:PROGRAM [ARGS...] (see docs/protocol.md)"
    #: The program and its arguments, the program found and file arguments made absolute.
    command: ClassVar[tuple[str, ...]] = ()
    deadlines: ClassVar[Deadlines] = Deadlines()
    variant: ClassVar[Variant | None] = None

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self._player: ExternalPlayer | None = None
        self._deals = 0
        self._in_deal = False
        self._sent = 0

    # ------------------------------------------------------------------ the Bot interface

    def choose(self, view: View) -> Action:
        player = self._open()
        if self._in_deal and len(view.history) < self._sent:
            self._in_deal = False  # a new deal the driver did not announce
        self._begin(player, view.dealer)
        self._catch_up(player, view.history)
        return player.choose(view)

    # ------------------------------------------------------------------ driver notices

    def deal_over(self, state: DealState) -> None:
        """The deal ended: its last public actions and the result (a seat that was never
        asked in it is told the whole deal). A fault while listening only ends this process."""
        player = self._player
        if player is None or state.outcome is None:
            return
        with contextlib.suppress(PlayerFault):
            self._begin(player, state.dealer)
            self._catch_up(player, state.history)
            hands = [cards_of(h) for h in state.hands]
            player.deal_over(self._deals, state.outcome, hands)
        self._in_deal = False

    def match_over(self, totals: Sequence[int], winners: Sequence[int]) -> None:
        if self._player is not None:
            with contextlib.suppress(PlayerFault):
                self._player.match_over(totals, winners)

    # ------------------------------------------------------------------ helpers

    def _open(self) -> ExternalPlayer:
        """This seat's program in this process, told that a new match begins."""
        if self._player is None:
            cls = type(self)
            assert cls.variant is not None, "an exec: bot class is made by exec_bot_class"
            player = _player_for(cls, self.seat)
            player.new_match(cls.variant, self.seat)
            self._player = player
        return self._player

    def _begin(self, player: ExternalPlayer, dealer: int) -> None:
        if not self._in_deal:
            self._deals += 1
            self._sent = 0
            self._in_deal = True
            player.new_deal(self._deals, dealer)

    def _catch_up(self, player: ExternalPlayer, history: Sequence[tuple[int, int]]) -> None:
        for seat, action in history[self._sent :]:
            player.event(seat, action)
        self._sent = len(history)


def _rebuild(
    label: str, command: tuple[str, ...], variant: Variant | None, deadlines: Deadlines
) -> type[ExecBot]:
    """The ``exec:`` bot class of these fields (what pickle calls in a worker)."""
    key = (label, command, deadlines)
    cls = _CLASSES.get(key)
    if cls is None:
        attrs: dict[str, Any] = {
            "name": label,
            "command": command,
            "deadlines": deadlines,
            "variant": variant,
            "__module__": __name__,
            "__qualname__": "ExecBot",
        }
        cls = _CLASSES[key] = cast("type[ExecBot]", _ExecMeta("ExecBot", (ExecBot,), attrs))
    return cls


def _reduce(cls: type[ExecBot]) -> tuple[Any, ...]:
    if cls is ExecBot:
        return "ExecBot"  # type: ignore[return-value]  # the base class, by reference
    return (_rebuild, (cls.name, cls.command, cls.variant, cls.deadlines))


copyreg.pickle(_ExecMeta, _reduce)  # type: ignore[arg-type]

_CLASSES: dict[tuple[str, tuple[str, ...], Deadlines], type[ExecBot]] = {}


def exec_bot_class(
    spec: str, variant: Variant, deadlines: Deadlines | None = None
) -> type[ExecBot]:
    """The bot class of an ``exec:`` spec for ``variant``; :class:`PlayerStartError` when the
    program cannot be found or run (the handshake is :func:`check_exec`'s)."""
    command = tuple(resolve_argv(parse_exec_spec(spec)))
    return _rebuild(spec.strip(), command, variant, deadlines or Deadlines())


# ---------------------------------------------------------------------- the open players

_OPEN: dict[tuple[tuple[str, ...], Deadlines, int], ExternalPlayer] = {}
_OPEN_PID = 0


def _player_for(cls: type[ExecBot], seat: int) -> ExternalPlayer:
    """The open player of ``cls`` for ``seat`` in this process, started on first use."""
    global _OPEN_PID
    if os.getpid() != _OPEN_PID:
        # A forked worker: the parent's players are the parent's (never written to here).
        _OPEN.clear()
        _OPEN_PID = os.getpid()
        # Worker processes do not run atexit handlers; their finalizers they do run.
        multiprocessing.util.Finalize(None, close_all, exitpriority=100)
    key = (cls.command, cls.deadlines, seat)
    player = _OPEN.get(key)
    if player is None:
        d = cls.deadlines
        player = ExternalPlayer(
            cls.command, start_timeout=d.start, move_timeout=d.move, label=cls.name
        )
        player.seat = seat  # so that a fault while starting names this seat
        player.start(cls.variant or "*")
        _OPEN[key] = player
    return player


def close_players(grace: float = QUIT_GRACE) -> None:
    """Close every external player of this process (drivers call it in ``finally``), each
    given ``grace`` seconds to quit before it is killed."""
    _OPEN.clear()
    close_all(grace)


@contextlib.contextmanager
def players_closed() -> Iterator[None]:
    """Run a command's games and close every external player whatever happens (Ctrl-C too)."""
    try:
        yield
    finally:
        close_players()


def deal_over(bots: Iterable[object], state: DealState) -> None:
    """Tell every ``exec:`` bot among ``bots`` that the deal of ``state`` ended."""
    for bot in bots:
        if isinstance(bot, ExecBot):
            bot.deal_over(state)


def match_over(bots: Iterable[object], totals: Sequence[int], winners: Sequence[int]) -> None:
    for bot in bots:
        if isinstance(bot, ExecBot):
            bot.match_over(totals, winners)


# ---------------------------------------------------------------------- checking specs


def check_exec(classes: Iterable[type[Bot]]) -> None:
    """Start each distinct ``exec:`` class once for the handshake, then close it again:
    :class:`PlayerStartError` (one line) before any game when one cannot play."""
    seen: set[tuple[str, ...]] = set()
    for cls in classes:
        if not issubclass(cls, ExecBot) or cls.command in seen:
            continue
        seen.add(cls.command)
        d = cls.deadlines
        with ExternalPlayer(
            cls.command, start_timeout=d.start, move_timeout=d.move, label=cls.name
        ) as player:
            player.start(cls.variant or "*")


__all__ = [
    "Deadlines",
    "ExecBot",
    "PlayerStartError",
    "check_exec",
    "close_players",
    "deal_over",
    "exec_bot_class",
    "is_exec_spec",
    "match_over",
    "players_closed",
]
