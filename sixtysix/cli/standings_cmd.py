"""``sixtysix standings``: the local standings of rated games, per variant and level, or with
``--server`` a club's: every name's at a table server, and with ``--name`` one person's
matches there."""

from __future__ import annotations

import contextlib
import json
from datetime import datetime
from typing import Any

import click

from sixtysix.cli.common import bounded, registry, reports_errors
from sixtysix.cli.errors import InputError
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.i18n import Translator, translator

#: Rows (and a person's matches) shown by default, and at most (the server's own bounds).
LIMIT = 50
MAX_LIMIT = 500


@click.command(cls=LocalizedCommand)
@click.option(
    "--server",
    "url",
    metavar="URL",
    default=None,
    help="A table server's club standings instead of yours (e.g. ws://127.0.0.1:6666).",
)
@click.option("--variant", default=None, help="Only this variant (a name or an alias).")
@click.option(
    "--level", default=None, help="Only this opponents' level, as listed (e.g. @hard,human)."
)
@click.option(
    "--name", default=None, help="With --server: also this person's matches, newest first."
)
@click.option(
    "--limit",
    type=bounded(1, MAX_LIMIT),
    default=LIMIT,
    show_default=True,
    help="At most this many rows, and matches of --name.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@lang_option()
@reports_errors
def standings(
    url: str | None,
    variant: str | None,
    level: str | None,
    name: str | None,
    limit: int,
    as_json: bool,
    lang: str | None,
) -> None:
    """Show your rated results per variant and opponents' level: games, wins (+1), draws (0),
    losses (-1), games left unscored, and the total score.

    Results are kept in an SQLite database in your data directory (or $SIXTYSIX_DATA_DIR).

    With --server, the club's standings at that table server instead: every name's rated
    matches per variant and level, and with --name that person's own matches.

    \b
    Examples:
      sixtysix standings --variant 66
      sixtysix standings --server ws://127.0.0.1:6666 --variant 66-4
      sixtysix standings --server wss://club.example --name ayse --lang tr
    """
    tr = translator(lang)
    if url is not None:
        _club(url, variant, level, name, limit, as_json, tr)
        return
    if name is not None:
        raise InputError(tr._("--name is for a club's standings: give --server URL too"))
    from sixtysix.service.standings import Standings  # start-up

    chosen = None if variant is None else registry().variant(variant).name
    book = Standings()
    rows = [r for r in book.table(chosen) if level is None or r.level == level][:limit]
    if as_json:
        click.echo(json.dumps([r.as_json() for r in rows], indent=2))
        return
    if not rows:
        click.echo(tr._("No rated games yet. Play one with: sixtysix play VARIANT --rated"))
        return
    from rich.console import Console  # start-up

    from sixtysix.cli.standings_view import Sheet, show  # start-up

    sheet = Sheet(
        tr._("Standings ({path})").format(path=book.path),
        [
            *(tr._("variant"), tr._("level"), tr._("games"), tr._("won")),
            *(tr._("drawn"), tr._("lost"), tr._("unscored"), tr._("score")),
        ],
        key=2,
        right=frozenset(range(2, 8)),
    )
    for r in rows:
        sheet.rows.append(
            [
                *(r.variant, r.level, str(r.games), str(r.wins), str(r.draws)),
                *(str(r.losses), str(r.unscored), f"{r.score:+d}"),
            ]
        )
    show(Console(), sheet)


def _club(
    url: str,
    variant: str | None,
    level: str | None,
    name: str | None,
    limit: int,
    as_json: bool,
    tr: Translator,
) -> None:
    """The club's standings at ``url`` (and ``name``'s matches), asked of the server."""
    from sixtysix.cli.join_cmd import NAME  # start-up
    from sixtysix.core.errors import SixtySixError  # start-up
    from sixtysix.table.client import check_url, club_standings  # start-up

    check_url(url, tr)
    if name is not None and not NAME.fullmatch(name):
        raise InputError(
            tr._("{name!r} is not a name: use 1 to 32 letters, digits, _ - or .").format(name=name)
        )
    if variant is not None:  # by the name the server knows; one unknown here goes as written
        with contextlib.suppress(SixtySixError):
            variant = registry().variant(variant).name
    reply = club_standings(url, tr, variant=variant, level=level, name=name, limit=limit)
    if as_json:
        click.echo(json.dumps(reply, indent=2, ensure_ascii=False))
        return
    from rich.console import Console  # start-up

    from sixtysix.cli.standings_view import Sheet, show  # start-up

    console = Console()
    rows = reply["rows"]
    if not rows:
        if variant is None and level is None:
            click.echo(tr._("No rated matches at {url} yet.").format(url=url))
        else:
            click.echo(tr._("No rated matches at {url} of that variant and level.").format(url=url))
    else:
        sheet = Sheet(
            tr._("Club standings at {url}").format(url=url),
            [
                *(tr._("name"), tr._("variant"), tr._("level"), tr._("games"), tr._("won")),
                *(tr._("drawn"), tr._("lost"), tr.p_("standings", "left"), tr._("score")),
            ],
            key=3,
            right=frozenset(range(3, 9)),
        )
        for r in rows:
            sheet.rows.append(
                [
                    *(r["name"], r["variant"], r["level"], str(r["played"]), str(r["won"])),
                    *(str(r["drawn"]), str(r["lost"]), str(r["left"]), f"{r['score']:+d}"),
                ]
            )
        show(console, sheet)
        if reply["total"] > len(rows):
            line = tr._("The first {shown} of {total} rows: --limit shows more (at most {most}).")
            click.echo(line.format(shown=len(rows), total=reply["total"], most=MAX_LIMIT))
    if name is not None:
        _history(console, reply, url, tr)


def _history(console: Any, reply: dict[str, Any], url: str, tr: Translator) -> None:
    """A person's matches, newest first, from a ``club_standings`` reply."""
    from sixtysix.cli.standings_view import Sheet, show  # start-up

    matches = reply["history"] or []
    name = reply["name"]
    click.echo("")
    if not matches:
        click.echo(tr._("{name} has no rated matches at {url}.").format(name=name, url=url))
        return
    endings = {"finished": tr.p_("ending", "finished"), "left": tr.p_("ending", "left")}
    sheet = Sheet(
        tr._("Rated matches of {name}, newest first").format(name=name),
        [
            *(tr._("date"), tr._("variant"), tr._("level"), tr._("seat")),
            *(tr._("ending"), tr._("score"), tr._("game points")),
        ],
        key=3,
        right=frozenset({3, 5}),
    )
    for m in matches:
        score = "—" if m["score"] is None else f"{m['score']:+d}" if m["score"] else "0"
        sheet.rows.append(
            [
                *(_when(m["played_at"]), m["variant"], m["level"], str(m["seat"])),
                *(endings[m["ending"]], score, "-".join(str(t) for t in m["totals"])),
            ]
        )
    show(console, sheet)
    total = reply["history_total"] or 0
    if total > len(matches):
        line = tr._("The last {shown} of {total} matches: --limit shows more (at most {most}).")
        click.echo(line.format(shown=len(matches), total=total, most=MAX_LIMIT))


def _when(stamp: str) -> str:
    """A result's time stamp as a date and time of this machine's clock (as sent if unread)."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp
