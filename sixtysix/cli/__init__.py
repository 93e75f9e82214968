"""The ``sixtysix`` command line.

Sub-commands live in their own modules and are imported only when run, so that
``sixtysix --version`` and ``--help`` stay fast (the engine, Rich and the plugins are never
imported for them).

Exit status: 0 success; 1 an unexpected internal error; 2 bad input (usage, unknown variant,
option or bot, a broken record, an illegal move); 130 interrupted (Ctrl-C). Every error,
a usage error included, is one line on stderr (:func:`sixtysix.cli.localized.one_line`).
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from sixtysix import __version__
from sixtysix.cli.localized import LocalizedGroup

#: command name -> "module:attribute"
COMMANDS: dict[str, str] = {
    "analyse": "sixtysix.cli.analyse_cmd:analyse",
    "bots": "sixtysix.cli.listing:bots",
    "duel": "sixtysix.cli.duel_cmd:duel",
    "exploit": "sixtysix.cli.exploit_cmd:exploit",
    "join": "sixtysix.cli.join_cmd:join",
    "new-bot": "sixtysix.cli.scaffold_cmd:new_bot",
    "new-variant": "sixtysix.cli.scaffold_cmd:new_variant",
    "plugins": "sixtysix.cli.plugins_cmd:plugins",
    "play": "sixtysix.cli.play_cmd:play",
    "player": "sixtysix.cli.player_cmd:player",
    "replay": "sixtysix.cli.replay_cmd:replay",
    "rules": "sixtysix.cli.rules_cmd:rules",
    "serve": "sixtysix.cli.serve_cmd:serve",
    "simulate": "sixtysix.cli.simulate_cmd:simulate",
    "tournament": "sixtysix.cli.tournament_cmd:tournament",
    "standings": "sixtysix.cli.standings_cmd:standings",
    "table": "sixtysix.cli.tables_cmd:table",
    "tables": "sixtysix.cli.tables_cmd:tables",
    "variants": "sixtysix.cli.listing:variants",
}


class LazyGroup(LocalizedGroup):
    """A group whose sub-commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module, _, attr = target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "-V", "--version", prog_name="sixtysix")
def cli() -> None:
    """Play, replay and simulate the card games of the Sixty-six family.

    Variants: two-player 66 (Altmışaltı), Schnapsen, three-player 66 with a called trump,
    four-player 66 with a hidden partner -- and any installed plugin.

    \b
    Examples:
      sixtysix variants
      sixtysix rules 66 --lang tr
      sixtysix play 66 --vs hard
      sixtysix simulate 66 --games 2000
      sixtysix replay game.json --json

    Every error is one line on stderr, usage errors too. Exit status: 0 ok, 1 internal error
    (a bug: please report it), 2 bad input (usage, unknown name, broken record), 130
    interrupted (Ctrl-C).
    """


def main(argv: list[str] | None = None, **kwargs: Any) -> None:
    """Console-script entry point."""
    cli.main(args=argv, prog_name="sixtysix", **kwargs)
