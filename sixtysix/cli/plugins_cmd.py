"""``sixtysix plugins``: what is installed, what each plugin registers, and what is broken."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib.metadata import entry_points

import click

from sixtysix.cli.common import reports_errors
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.i18n import Translator, translator
from sixtysix.plugins import PROJECT
from sixtysix.plugins.manager import DEFAULT_PLUGINS, get_registry


@dataclass
class PluginRow:
    """One loaded plugin: where it comes from and what it registered."""

    name: str
    package: str | None = None
    version: str | None = None
    entry_point: str | None = None
    builtin: bool = False
    variants: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "package": self.package,
            "version": self.version,
            "entry_point": self.entry_point,
            "builtin": self.builtin,
            "variants": self.variants,
            "bots": self.bots,
        }


def collect(tr: Translator | None = None) -> tuple[list[PluginRow], list[str]]:
    """The loaded plugins (built-ins first) and one line per broken plugin (in ``tr``'s
    language; English without it)."""
    reg = get_registry()
    sources: dict[str, tuple[str, str | None, str | None]] = {}
    for ep in entry_points(group=PROJECT):
        dist = ep.dist
        info = (ep.name, dist.name if dist else None, dist.version if dist else None)
        sources.setdefault(ep.value.partition(":")[0].strip(), info)
        sources.setdefault(ep.name, info)
    rows: dict[str, PluginRow] = {}
    for name in reg.plugins:
        ep_name, package, version = sources.get(name, (None, None, None))
        rows[name] = PluginRow(name, package, version, ep_name, builtin=name in DEFAULT_PLUGINS)
    for v in sorted(reg.variants.values(), key=lambda v: v.name):
        rows.setdefault(v.plugin, PluginRow(v.plugin)).variants.append(v.name)
    for b in sorted(reg.bots.values(), key=lambda b: b.name):
        rows.setdefault(b.plugin, PluginRow(b.plugin)).bots.append(b.name)
    ordered = sorted(rows.values(), key=lambda r: (not r.builtin, r.name))
    lines = [str(p) if tr is None else p.text(tr) for p in reg.problems]
    return ordered, lines


@click.command(cls=LocalizedCommand)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@lang_option()
@reports_errors
def plugins(as_json: bool, lang: str | None) -> None:
    """List the installed plugins and the variants and bots each registers.

    Built-in variants and bots are plugins too and are listed first. A plugin that cannot be
    loaded (an import error, an unknown hook, an invalid or duplicate registration) is shown
    in one line naming it; everything else keeps working.

    \b
    Examples:
      sixtysix plugins
      sixtysix plugins --json
    """
    tr = translator(lang)
    rows, errors = collect(None if as_json else tr)
    if as_json:
        data = {"plugins": [r.as_json() for r in rows], "errors": errors}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    console = Console()
    table = Table(title=tr._("Installed plugins"))
    for col in (tr._("plugin"), tr._("package"), tr._("variants"), tr._("bots")):
        table.add_column(col)
    for r in rows:
        if r.builtin:
            package = tr._("built-in")
        elif r.package:
            package = f"{r.package} {r.version or ''}".strip()
        else:
            package = "-"
        table.add_row(r.name, package, ", ".join(r.variants), ", ".join(r.bots))
    console.print(table)
    if errors:
        heading = tr._("Broken plugins ({count}):").format(count=len(errors))
        console.print(f"[bold red]{heading}[/bold red]")
        for line in errors:
            console.print(f"  {line}", highlight=False, markup=False, soft_wrap=True)
