"""``sixtysix new-variant`` and ``sixtysix new-bot``: start an installable plugin package."""

from __future__ import annotations

from pathlib import Path

import click

from sixtysix.cli.common import registry, reports_errors
from sixtysix.cli.errors import InputError
from sixtysix.cli.localized import LocalizedCommand


def _report(files: list[Path], root: Path, listing: str) -> None:
    click.echo(f"Created {root}/")
    for path in files:
        click.echo(f"  {path.relative_to(root)}")
    click.echo("Next:")
    click.echo(f"  cd {root}")
    click.echo("  pip install -e '.[test]'")
    click.echo(f"  pytest && sixtysix {listing}")


@click.command("new-variant", cls=LocalizedCommand)
@click.argument("name")
@click.option(
    "--base",
    default="sixtysix",
    show_default=True,
    metavar="VARIANT",
    help="The installed variant (name or alias) to subclass.",
)
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Where to create the package directory sixtysix-NAME.",
)
@reports_errors
def new_variant(name: str, base: str, parent: Path) -> None:
    """Create the plugin package sixtysix-NAME with a variant NAME built on --base.

    The package has a pyproject with the `sixtysix` entry point, a module whose options and
    variant classes subclass the base's, a README, and tests wired to the conformance kit
    (sixtysix.testing). After `pip install -e` the variant appears in `sixtysix variants`
    and can be played, replayed and simulated.

    \b
    Examples:
      sixtysix new-variant house
      sixtysix new-variant speed-schnapsen --base schnapsen --dir plugins/
    """
    from sixtysix.scaffold import Names, scaffold_variant  # start-up

    names = Names.of(name)
    reg = registry()
    base_cls = reg.variant(base)
    if names.name in reg.aliases:
        taken = reg.variants[reg.aliases[names.name]]
        raise InputError(f"variant name {names.name!r} is already taken by {taken.name!r}")
    files = scaffold_variant(names.name, base_cls, parent)
    _report(files, parent / names.dist, "variants")


@click.command("new-bot", cls=LocalizedCommand)
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Where to create the package directory sixtysix-NAME.",
)
@reports_errors
def new_bot(name: str, parent: Path) -> None:
    """Create the plugin package sixtysix-NAME with a computer player NAME.

    The package has a pyproject with the `sixtysix` entry point, a module with a Bot subclass
    (declares marriages, otherwise random: a starting point), a README, and tests wired to the
    bot conformance kit. After `pip install -e` it appears in `sixtysix bots` and takes a seat
    with `--bots NAME`.

    \b
    Examples:
      sixtysix new-bot greedy
      sixtysix new-bot counter --dir plugins/
    """
    from sixtysix.scaffold import Names, scaffold_bot  # start-up

    names = Names.of(name)
    reg = registry()
    if names.name in reg.bots:
        raise InputError(f"bot name {names.name!r} is already taken")
    files = scaffold_bot(names.name, parent)
    _report(files, parent / names.dist, "bots")
