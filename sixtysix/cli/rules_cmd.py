"""``sixtysix rules VARIANT``: the rules summary and every option with its default."""

from __future__ import annotations

import json

import click

from sixtysix.cli.common import option_assignments, registry, reports_errors
from sixtysix.core.options import parse_assignments


@click.command()
@click.argument("variant")
@option_assignments()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@reports_errors
def rules(variant: str, preset: str | None, options: tuple[str, ...], as_json: bool) -> None:
    """Show VARIANT's rules summary, its options (default and current value) and presets.

    \b
    Examples:
      sixtysix rules 66
      sixtysix rules 66 --preset classic
      sixtysix rules schnapsen -o claim=manual --json
    """
    cls = registry().variant(variant)
    v = cls.configure(preset, parse_assignments(options))
    data = {
        "name": cls.name,
        "aliases": list(cls.aliases),
        "seats": cls.seats,
        "description": cls.description,
        "summary": " ".join(v.summary().split()),
        "options": v.options_json(),
        "presets": {k: dict(p) for k, p in cls.presets.items()},
        "plugin": cls.plugin,
    }
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    aliases = f" (aliases: {', '.join(cls.aliases)})" if cls.aliases else ""
    console.print(f"[bold]{cls.name}[/bold]{aliases} — {cls.seats} players")
    console.print(data["summary"], highlight=False)
    table = Table(title="Options (-o name=value)", show_lines=False)
    for col in ("option", "values", "default", "value", "meaning"):
        table.add_column(col)
    for spec in cls.options_class.specs():
        value = getattr(v.options, spec.name)
        table.add_row(
            spec.name,
            spec.describe_values(),
            _fmt(spec.default),
            _fmt(value) if value == spec.default else f"[bold]{_fmt(value)}[/bold]",
            spec.doc,
        )
    console.print(table)
    if cls.presets:
        console.print("Presets (--preset NAME):")
        for name, values in cls.presets.items():
            shown = ", ".join(f"{k}={_fmt(x)}" for k, x in values.items()) or "all defaults"
            console.print(f"  {name}: {shown}", highlight=False)


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
