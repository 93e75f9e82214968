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
    from rich import box  # start-up
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up
    from rich.text import Text  # start-up

    # Fits 60 columns without cutting anything: one alias a line, and the plugin (the longest
    # word here) under the description, the one column that wraps; a longer name folds.
    table = Table(
        title="Installed variants",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("name", no_wrap=True)
    table.add_column("aliases", no_wrap=True)
    table.add_column("seats", justify="right", no_wrap=True)
    table.add_column("description, plugin", overflow="fold")
    for r in rows:
        aliases = r["aliases"]
        assert isinstance(aliases, list)
        about = Text(f"{r['description']}\n", overflow="fold")
        about.append(str(r["plugin"]), style="dim")
        table.add_row(str(r["name"]), "\n".join(aliases), str(r["seats"]), about)
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
