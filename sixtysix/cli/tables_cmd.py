"""``sixtysix table new`` and ``sixtysix tables``: open a table on a table server, list them."""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import click

from sixtysix.cli.common import SEED, Integer, option_assignments, registry, reports_errors
from sixtysix.cli.errors import InputError
from sixtysix.cli.localized import LocalizedCommand, LocalizedGroup, lang_option
from sixtysix.core.options import parse_assignments
from sixtysix.i18n import translator
from sixtysix.plugins.manager import variant_from
from sixtysix.table.defaults import (
    DEFAULT_SERVER,
    MOVE_TIME,
    MOVE_TIME_RANGE,
    SERVER_ENV,
)

F = TypeVar("F", bound=Callable[..., Any])

#: A rated table's seconds per move: the Portal's bounds and default.
RATED_MOVE_TIME = MOVE_TIME_RANGE
DEFAULT_TABLE_MOVE_TIME = MOVE_TIME


def server_option() -> Callable[[F], F]:
    """``--server URL``, also from ``$SIXTYSIX_SERVER``."""
    return click.option(
        "--server",
        "url",
        metavar="URL",
        envvar=SERVER_ENV,
        default=DEFAULT_SERVER,
        show_default=True,
        help="The table server (or $SIXTYSIX_SERVER).",
    )


def seat_specs(text: str, seats: int, variant: str, tr: Any) -> list[str]:
    """The ``--seats`` list: ``human``, ``@BOT`` or ``exec:PROGRAM ARGS`` for each seat."""
    specs = [s.strip() for s in text.split(",")]
    for spec in specs:
        low = spec.lower()
        if low == "human":
            continue
        if (low.startswith("@") and len(spec) > 1) or (
            low.startswith("exec:") and spec[5:].strip()
        ):
            continue
        raise InputError(
            tr._("{spec!r} is not a seat: give human, @BOT (e.g. @hard) or exec:PROGRAM").format(
                spec=spec
            )
        )
    if len(specs) != seats:
        raise InputError(
            tr._("{variant} has {seats} seats: --seats lists {count}").format(
                variant=variant, seats=seats, count=len(specs)
            )
        )
    return ["human" if s.lower() == "human" else s for s in specs]


@click.group(cls=LocalizedGroup)
def table() -> None:
    """Tables on a table server (sixtysix serve): open one for people and programs to join."""


@table.command("new", cls=LocalizedCommand)
@click.argument("variant")
@click.option(
    "--seats",
    "seats_text",
    required=True,
    metavar="SEAT[,SEAT...]",
    help="One per seat: human (a person, or a program that connects like one), @BOT (a bot"
    " or level the server runs, e.g. @hard) or exec:PROGRAM [ARGS] (an external player the"
    " server runs).",
)
@click.option("--rated", is_flag=True, help="A rated table: move timer, no undo or hints.")
@click.option(
    "--move-time",
    type=Integer(RATED_MOVE_TIME[0], RATED_MOVE_TIME[1]),
    default=None,
    help=f"Seconds per move at a rated table ({RATED_MOVE_TIME[0]}-{RATED_MOVE_TIME[1]}, default"
    f" {DEFAULT_TABLE_MOVE_TIME}, the Portal's rule; test tables have no timer).",
)
@click.option(
    "--on-leave",
    type=click.Choice(["end", "bot"]),
    default="end",
    show_default=True,
    help="When a person leaves a running match: end it, or let a bot play the seat on.",
)
@click.option("--seed", type=SEED, default=None, help="Reproducible deals (test tables only).")
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The server's data folder, where its operator's token is (default: your data"
    " directory / server); read only for exec: seats and bot parameters.",
)
@option_assignments()
@server_option()
@lang_option()
@reports_errors
def new(
    variant: str,
    seats_text: str,
    rated: bool,
    move_time: int | None,
    on_leave: str,
    seed: int | None,
    data: Path | None,
    preset: str | None,
    options: tuple[str, ...],
    url: str,
    lang: str | None,
) -> None:
    """Open a table of VARIANT on the server and print the command that joins it.

    Seats are people, levels (@easy ... @expert), bots by name, and the programs the
    server's operator named (@NAME). An exec: seat, or a bot with parameters, is the
    operator's alone: run this on the server's machine as the user who runs the server, and
    it shows the server the operator's token from the server's data folder.

    \b
    Examples:
      sixtysix table new 66 --seats human,@hard
      sixtysix table new 66-4 --seats human,human,@hard,exec:./bot --rated --move-time 60
      sixtysix table new 66-3 --seats human,human,human --preset portal --server wss://club.example
    """
    from sixtysix.table.client import check_url, create_table  # start-up

    tr = translator(lang)
    check_url(url, tr)
    from sixtysix.service.players import own_name  # start-up

    reg = registry()
    v = variant_from(reg, variant, parse_assignments(options), preset)
    specs = [
        own_name(s, reg) if s.startswith("@") else s
        for s in seat_specs(seats_text, v.seats, v.name, tr)
    ]
    if rated and seed is not None:
        raise InputError(tr._("rated games are always shuffled securely: --seed is for test games"))
    if move_time is not None and not rated:
        raise InputError(tr._("--move-time is for rated games (--rated); test games have no timer"))
    request = {
        "variant": v.name,
        "options": v.options.diff(),
        "seats": specs,
        "rated": rated,
        "move_time": (move_time or DEFAULT_TABLE_MOVE_TIME) if rated else None,
        "on_leave": on_leave,
        "seed": seed,
    }
    token = _operator_token(specs, url, data, tr)
    if token is not None:
        request["operator"] = token
    table_id = create_table(url, request, tr)
    click.echo(
        tr._("Table {table} is open: {variant}, seats {seats}.").format(
            table=table_id, variant=v.name, seats=", ".join(specs)
        )
    )
    click.echo(tr._("Invite the players with this line (each puts in a name of their own):"))
    command = f"sixtysix join {url} --table {table_id} --name YOURNAME"
    click.echo(tr._("Join my {variant} table: {command}").format(variant=v.name, command=command))


def _operator_token(specs: list[str], url: str, data: Path | None, tr: Any) -> str | None:
    """The operator's token when a seat needs it (``exec:``, bot parameters), read from the
    server's data folder; it is shown only to a server on this machine."""
    from sixtysix.table.seats import SeatRefused, check_client_seat  # start-up

    needs = None
    for spec in specs:
        try:
            check_client_seat(spec, {})
        except SeatRefused:
            needs = spec
            break
    if needs is None:
        return None
    host = (urlsplit(url).hostname or "").strip("[]")
    if host != "localhost" and not _loopback(host):
        raise InputError(
            tr._(
                "{spec!r} is the operator's to seat: run table new on the server's own machine"
                " (a server elsewhere refuses it)"
            ).format(spec=needs)
        )
    from sixtysix.service.standings import data_dir  # start-up
    from sixtysix.table.settings import OPERATOR_TOKEN_FILE  # start-up

    path = (data if data is not None else data_dir() / "server") / OPERATOR_TOKEN_FILE
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InputError(
            tr._(
                "{spec!r} is the operator's to seat, and the operator's token is not readable"
                " at {path} ({reason}): run this as the user who runs the server, with its"
                " --data"
            ).format(spec=needs, path=path, reason=reason)
        ) from None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(cls=LocalizedCommand)
@server_option()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@lang_option()
@reports_errors
def tables(url: str, as_json: bool, lang: str | None) -> None:
    """List the tables of a table server: open ones (a seat for a person is free), running
    ones, and those finished in the last hour."""
    from sixtysix.table.client import check_url, list_tables  # start-up

    tr = translator(lang)
    check_url(url, tr)
    rows = list_tables(url, tr)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(
            tr._(
                "No tables at {url}. Open one with: sixtysix table new VARIANT --seats ..."
            ).format(url=url)
        )
        return
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up
    from rich.text import Text  # start-up

    statuses = {"open": tr._("open"), "running": tr._("running"), "finished": tr._("finished")}
    out = Table(title=tr._("Tables at {url}").format(url=url))
    for column in (tr._("table"), tr._("variant"), tr._("status"), tr._("seats")):
        out.add_column(column)
    out.add_column(tr._("deal"), justify="right")
    out.add_column(tr._("game points"), justify="right")
    for row in rows:
        seats = Text()
        for i, seat in enumerate(row["seats"]):
            if i:
                seats.append(", ")
            if seat["kind"] == "human":
                if seat["name"] is None:
                    seats.append(tr._("(free)"), style="green")
                else:
                    seats.append(seat["name"], style=None if seat["connected"] else "dim")
                    if not seat["connected"]:
                        seats.append(" " + tr._("(away)"), style="dim")
            else:
                seats.append(seat["label"], style="cyan")
        status = statuses[row["status"]]
        if row["rated"]:
            status += " · " + tr._("rated")
        out.add_row(  # Text, not markup: a server's "[" is shown as it is
            Text(row["table"]),
            Text(row["variant"]),
            status,
            seats,
            str(row["deal"]),
            "-".join(map(str, row["totals"])),
        )
    Console().print(out)
