"""``sixtysix standings``: the local standings of rated games, per variant and level."""

from __future__ import annotations

import json

import click

from sixtysix.cli.common import registry, reports_errors
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.i18n import translator


@click.command(cls=LocalizedCommand)
@click.option("--variant", default=None, help="Only this variant (a name or an alias).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@lang_option()
@reports_errors
def standings(variant: str | None, as_json: bool, lang: str | None) -> None:
    """Show your rated results per variant and opponents' level: games, wins (+1), draws (0),
    losses (-1), games left unscored, and the total score.

    Results are kept in an SQLite database in your data directory (or $SIXTYSIX_DATA_DIR).
    """
    from sixtysix.service.standings import Standings  # start-up

    name = None if variant is None else registry().variant(variant).name
    book = Standings()
    rows = book.table(name)
    if as_json:
        click.echo(json.dumps([r.as_json() for r in rows], indent=2))
        return
    tr = translator(lang)
    if not rows:
        click.echo(tr._("No rated games yet. Play one with: sixtysix play VARIANT --rated"))
        return
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    table = Table(title=tr._("Standings ({path})").format(path=book.path))
    for col in (
        tr._("variant"),
        tr._("level"),
        tr._("games"),
        tr._("won"),
        tr._("drawn"),
        tr._("lost"),
        tr._("unscored"),
        tr._("score"),
    ):
        table.add_column(col, justify="left" if not table.columns else "right")
    for r in rows:
        table.add_row(
            r.variant,
            r.level,
            str(r.games),
            str(r.wins),
            str(r.draws),
            str(r.losses),
            str(r.unscored),
            f"{r.score:+d}",
        )
    Console().print(table)
