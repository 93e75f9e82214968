"""``sixtysix player BOT``: an installed bot as a ``sixtysix-player/1`` program."""

from __future__ import annotations

import sys
from functools import cache

import click

from sixtysix.cli.common import SEED, registry, reports_errors
from sixtysix.cli.errors import EXIT_INTERRUPTED
from sixtysix.cli.localized import LocalizedCommand
from sixtysix.protocol.messages import MAX_NAME


@click.command(cls=LocalizedCommand)
@click.argument("bot", metavar="BOT")
@click.option(
    "--seed",
    type=SEED,  # ASCII digits, as every command's --seed (int() would take ５ or ٣)
    default=None,
    help="The bot's own seed (the referee never sends one). Default: secure random.",
)
@reports_errors
def player(bot: str, seed: int | None) -> None:
    """Play the bot BOT (a name with parameters, or a level) over stdin and stdout.

    Speaks the sixtysix-player/1 protocol (docs/protocol.md), so that a referee runs the
    built-in bots exactly as it runs any external program: exec:sixtysix player expert. With
    --seed, it plays the same moves as the same bot in-process seeded the same way.

    \b
    Examples:
      sixtysix duel 66 'exec:sixtysix player expert --seed 3' heuristic
      sixtysix player heuristic < messages.jsonl
    """
    from sixtysix.bots.base import Bot  # start-up
    from sixtysix.bots.levels import CROWDED_SEATS, resolve_player  # start-up
    from sixtysix.protocol.player import BotPlayer  # start-up

    reg = registry()

    @cache
    def at(seats: int) -> tuple[type[Bot], dict[str, str]]:
        _, cls, params = resolve_player(bot, reg, seats=seats)
        return cls, params

    at(CROWDED_SEATS)  # a level's bad parameters at any table fail now, before the hello
    label, cls, params = resolve_player(bot, reg, seats=2)
    try:
        status = BotPlayer(cls, params, seed, at, label[:MAX_NAME]).run()
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        status = 0
    sys.exit(status)
