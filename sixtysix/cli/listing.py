"""``sixtysix variants`` and ``sixtysix bots``: what the installed plugins provide."""

from __future__ import annotations

import json

import click

from sixtysix.cli.common import registry, reports_errors
from sixtysix.cli.localized import LocalizedCommand


@click.command(cls=LocalizedCommand)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@reports_errors
def variants(as_json: bool) -> None:
    """List the installed variants: name, aliases, seats, description, plugin."""
    reg = registry()
    rows = [
        {
            "name": v.name,
            "aliases": list(v.aliases),
            "seats": v.seats,
            "description": v.description,
            "plugin": v.plugin,
        }
        for v in sorted(reg.variants.values(), key=lambda v: (v.seats, v.name))
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Installed variants")
    for col in ("name", "aliases", "seats", "description", "plugin"):
        table.add_column(col)
    for r in rows:
        aliases = r["aliases"]
        assert isinstance(aliases, list)
        table.add_row(
            str(r["name"]),
            ", ".join(aliases),
            str(r["seats"]),
            str(r["description"]),
            str(r["plugin"]),
        )
    Console().print(table)


@click.command(cls=LocalizedCommand)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@reports_errors
def bots(as_json: bool) -> None:
    """List the installed computer players and their parameters."""
    reg = registry()
    rows = [
        {
            "name": b.name,
            "description": b.description,
            "parameters": dict(b.parameters),
            "plugin": b.plugin,
        }
        for b in sorted(reg.bots.values(), key=lambda b: b.name)
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        params = r["parameters"]
        assert isinstance(params, dict)
        extra = "; parameters: " + ", ".join(params) if params else ""
        click.echo(f"{r['name']:<12} {r['description']}{extra}  [{r['plugin']}]")
