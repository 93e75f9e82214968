"""The player's side: one function ``choose(view) -> action`` becomes a protocol program.

:func:`run_player` reads the referee's lines, answers the hello, rebuilds each decision's
:class:`~sixtysix.core.view.View` (its rules included) from the message alone and writes the
action ``choose`` returns. :class:`BotPlayer` runs an installed bot this way
(``sixtysix player expert``); the referee hands it no seed, so its randomness comes from the
operator's ``--seed`` on its own command line, or else from the operating system.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from sixtysix.bots.base import Bot
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, get_registry
from sixtysix.protocol import messages

Choose = Callable[[View], int | str]
OnMessage = Callable[[Mapping[str, Any]], None]
#: The bot to play at a table of so many seats (a level may play otherwise at a larger one).
Forms = Callable[[int], tuple[type[Bot], Mapping[str, str]]]


def run_player(
    choose: Choose,
    *,
    name: str,
    variants: Sequence[str] = ("*",),
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    registry: Registry | None = None,
    on_message: OnMessage | None = None,
) -> int:
    """Play through the protocol until ``quit`` or the end of input; the exit status (0).

    ``choose`` gets the seat's :class:`View` at each decision and returns one of its
    ``legal_actions`` (or an action string); ``on_message``, if given, sees every message
    first (a new match, a deal, an event, a result). A message that breaks the protocol
    raises :class:`~sixtysix.protocol.messages.ProtocolError`.
    """
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    reg = registry if registry is not None else get_registry()

    def send(message: Mapping[str, Any]) -> None:
        out.write(messages.encode_line(message))
        out.flush()

    while True:
        line = inp.readline(messages.MAX_LINE + 2)
        if not line:
            return 0
        if not line.strip():
            continue
        message = messages.parse_line(line)
        kind = message["type"]
        if on_message is not None:
            on_message(message)
        if kind == "hello":
            send(messages.hello_reply(name, variants))
        elif kind == "decide":
            view = messages.decode_view(message.get("view") or {}, message.get("legal", []), reg)
            send(messages.action_message(choose(view)))
        elif kind == "quit":
            return 0


def bot_seed(seed: Seed, match: int, deal: int) -> Seed:
    """The seed of the bot that :class:`BotPlayer` makes for deal ``deal`` of its ``match``-th
    match (both from 1): ``seed.child(("player", "match", match, "deal", deal))``. An
    in-process bot made from the same seed and path plays exactly the same moves."""
    return seed.child(("player", "match", match, "deal", deal))


class BotPlayer:
    """An installed bot as a protocol program: a fresh bot for each deal, seeded by
    :func:`bot_seed` from the operator's seed (or an unpredictable one); with ``forms``, the
    bot (and its parameters) of each match is the one ``forms`` gives for its seats. Its hello
    says ``name`` (``sixtysix player`` gives its spec, true at any table), else the bot's."""

    def __init__(
        self,
        cls: type[Bot],
        params: Mapping[str, str] | None = None,
        seed: int | None = None,
        forms: Forms | None = None,
        name: str | None = None,
    ) -> None:
        self.cls = cls
        self.name = name if name is not None else cls.name
        self.params = dict(params or {})
        self.seed = Seed(seed)
        self.forms = forms
        self.matches = 0
        self.seat = 0
        self.bot: Bot | None = None
        cls(0, self.seed, self.params)  # bad parameters fail now, before the hello

    def _seat_at(self, seats: int) -> None:
        if self.forms is not None:
            self.cls, params = self.forms(seats)
            self.params = dict(params)

    def on_message(self, message: Mapping[str, Any]) -> None:
        kind = message["type"]
        if kind == "match":
            self.matches += 1
            self.seat = _count(message, "seat")
            seats = message.get("seats")
            if isinstance(seats, int) and not isinstance(seats, bool):
                self._seat_at(seats)
        elif kind == "deal":
            number = _count(message, "number")
            deal_seed = bot_seed(self.seed, max(self.matches, 1), number)
            self.bot = self.cls(self.seat, deal_seed, self.params)

    def choose(self, view: View) -> int:
        if self.bot is None:  # a decision before any deal: a bot of its own
            self._seat_at(view.seats)
            self.bot = self.cls(view.seat, bot_seed(self.seed, 1, 1), self.params)
        return self.bot.choose(view)

    def run(self, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
        return run_player(
            self.choose,
            name=self.name,
            stdin=stdin,
            stdout=stdout,
            on_message=self.on_message,
        )


def _count(message: Mapping[str, Any], key: str) -> int:
    """A small whole number the referee must send (a seat, a deal's number), else the
    protocol is broken."""
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**9:
        raise messages.ProtocolError(f"a {message['type']} message without a valid {key}")
    return value
