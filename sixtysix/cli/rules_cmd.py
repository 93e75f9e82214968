"""``sixtysix rules VARIANT``: the rules summary and every option with its default."""

from __future__ import annotations

import json

import click

from sixtysix.cli.common import option_assignments, registry, reports_errors
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.core.options import parse_assignments
from sixtysix.i18n import translator
from sixtysix.i18n.rules_text import values_text
from sixtysix.plugins.manager import variant_from


@click.command(cls=LocalizedCommand)
@click.argument("variant")
@option_assignments()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@lang_option()
@reports_errors
def rules(
    variant: str, preset: str | None, options: tuple[str, ...], as_json: bool, lang: str | None
) -> None:
    """Show VARIANT's rules summary, its options (default and current value) and presets.

    \b
    Examples:
      sixtysix rules 66
      sixtysix rules 66 --preset classic
      sixtysix rules schnapsen -o claim=manual --json
      sixtysix rules 66 --lang tr
    """
    v = variant_from(registry(), variant, parse_assignments(options), preset)
    cls = type(v)
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
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    from sixtysix.text.rules_summary import option_value, rules_summary  # start-up

    tr = translator(lang)
    console = Console()
    console.print(rules_summary(v, tr), highlight=False)
    table = Table(title=tr._("Options (-o name=value)"), show_lines=False)
    for col in (tr._("option"), tr._("values"), tr._("default"), tr._("value"), tr._("meaning")):
        table.add_column(col)
    for spec in cls.options_class.specs():
        value = getattr(v.options, spec.name)
        table.add_row(
            spec.name,
            values_text(tr, spec),
            option_value(spec.default),
            option_value(value) if value == spec.default else f"[bold]{option_value(value)}[/bold]",
            tr.text(spec.doc),
        )
    console.print(table)
    if cls.presets:
        console.print(tr._("Presets (--preset NAME):"))
        for name, values in cls.presets.items():
            pairs = ", ".join(f"{k}={option_value(x)}" for k, x in values.items())
            shown = pairs or tr._("all defaults")
            console.print(f"  {name}: {shown}", highlight=False)
