"""``sixtysix join URL``: take a seat at a table server's table, from any terminal."""

from __future__ import annotations

import re
import sys

import click

from sixtysix.cli.common import bounded, registry, reports_errors
from sixtysix.cli.errors import InputError
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.cli.screen_options import screen_options
from sixtysix.core.records import MAX_SEATS
from sixtysix.i18n import translator
from sixtysix.table.defaults import DEFAULT_RECONNECT_TIME, DEFAULT_SERVER, SERVER_ENV

#: A name at a table server (sixtysix-table/1): letters, digits and ``_-.``.
NAME = re.compile(r"[\w.-]{1,32}")
#: The exit status when the input ends in the lobby, before a table is chosen.
EXIT_NO_TABLE = 1


@click.command(cls=LocalizedCommand)
@click.argument("url", required=False, envvar=SERVER_ENV)
@click.option("--table", "table_id", metavar="ID", default=None, help="The table to join.")
@click.option(
    "--name",
    required=True,
    help="Your name at the server (1-32 letters, digits, _ - .); its token is kept for you.",
)
@click.option(
    "--seat",
    type=bounded(0, MAX_SEATS - 1),
    default=None,
    help="The seat to take (default: the first free).",
)
@click.option(
    "--reconnect-time",
    type=bounded(1, 3600),
    default=DEFAULT_RECONNECT_TIME,
    show_default=True,
    help="Seconds to keep trying when the connection drops (the server keeps a seat as long).",
)
@lang_option()
@screen_options()
@reports_errors
def join(
    url: str | None,
    table_id: str | None,
    name: str,
    seat: int | None,
    reconnect_time: int,
    lang: str | None,
    pause: bool | None,
    auto_last: bool,
) -> None:
    """Take a seat at a table of the server at URL and play it, with the screen of play.

    Without --table, joins the table where NAME already sits, or the only open one. The first
    join of a name issues a secret token, kept in your data directory: later joins send it, and
    nobody else can play under that name. When the connection drops, the client joins again by
    itself. quit leaves the table, after one yes/no question; Ctrl-C only closes the connection,
    and the seat waits for you as long as the server keeps it.

    When there are several tables to choose from, it lists them (variant, free seats, rated or
    test, who sits there) and asks for the number of one; the end of the input there (Ctrl-D)
    joins none, with exit status 1.

    \b
    Examples:
      sixtysix join --name ayse
      sixtysix join ws://127.0.0.1:6666 --table 3f9a1c2b --name ayse --lang tr
      sixtysix join wss://club.example --name mehmet --seat 2
    """
    from rich.console import Console  # start-up

    from sixtysix.play.join import LineReader, LineSource, SeatRequest, sit  # start-up
    from sixtysix.play.line_editor import line_editor  # start-up
    from sixtysix.play.lobby import NoTableChosen  # start-up
    from sixtysix.play.remote import RemoteTable  # start-up
    from sixtysix.play.terminal import ConsoleScreen  # start-up
    from sixtysix.table.client import check_url  # start-up

    tr = translator(lang)
    url = check_url(url or DEFAULT_SERVER, tr)
    if not NAME.fullmatch(name):
        raise InputError(
            tr._("{name!r} is not a name: use 1 to 32 letters, digits, _ - or .").format(name=name)
        )
    console = Console()
    editor = line_editor(console)
    if editor is None:
        screen = ConsoleScreen(console, tr)
        reader: LineSource = LineReader(sys.stdin)

        def prompt(text: str) -> None:
            console.file.write(text)
            console.file.flush()

    else:
        screen = ConsoleScreen(console, tr, guard=editor.output)
        reader, prompt = editor, editor.prompt
    table = RemoteTable(
        tr,
        screen,
        registry(),
        prompt,
        pause=editor is not None if pause is None else pause,
        auto_last=auto_last,
    )
    request = SeatRequest(url, name, table_id, seat, tr.lang, reconnect_time=float(reconnect_time))
    try:
        result = sit(request, table, reader)
    except NoTableChosen:
        if editor is not None:
            editor.restore()
        click.echo(tr._("No table chosen: you have not joined one."), err=True)
        raise click.exceptions.Exit(EXIT_NO_TABLE) from None
    except KeyboardInterrupt:
        if editor is not None:
            editor.restore()
        if not table.table:  # in the lobby: no seat to keep
            raise
        screen.say("")
        screen.say(
            tr._("Your seat is kept for a while: join again with --name {name} to go on.").format(
                name=name
            ),
            "dim",
        )
        raise
    if result.ending == "eof":
        screen.say("")
        screen.say(
            tr._("Your seat is kept for a while: join again with --name {name} to go on.").format(
                name=name
            ),
            "dim",
        )
