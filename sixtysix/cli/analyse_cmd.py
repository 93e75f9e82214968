"""``sixtysix analyse RECORD --seat S``: each move of a seat against the expert."""

from __future__ import annotations

import json
import sys

import click

from sixtysix.cli.common import SEED, bounded, registry
from sixtysix.cli.errors import EXIT_BAD_INPUT, InputError, single_line
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.core.actions import parse_action
from sixtysix.core.errors import SixtySixError
from sixtysix.core.records import MAX_SEATS, load_record_file, load_record_stream
from sixtysix.core.rng import Seed
from sixtysix.i18n import translator

#: A move within this of the best (expected game points) is as good as the best.
TIE = 0.005


@click.command(cls=LocalizedCommand)
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--seat", type=bounded(0, MAX_SEATS - 1), required=True, help="The seat to analyse.")
@click.option(
    "--deal",
    "deals",
    type=bounded(),
    multiple=True,
    help="Only this deal (counted from 1; repeatable).",
)
@click.option("--seed", type=SEED, default=None, help="Seed for the analysis (reproducible).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
@lang_option()
def analyse(
    record: str,
    seat: int,
    deals: tuple[int, ...],
    seed: int | None,
    as_json: bool,
    lang: str | None,
) -> None:
    """Mark each move of SEAT in RECORD against the expert: the best move and the loss in
    expected game points (?! inaccuracy, ? mistake, ?? blunder). Forced moves are skipped.

    \b
    Examples:
      sixtysix analyse game.json --seat 0
      sixtysix analyse game.json --seat 1 --deal 2 --json
    """
    from sixtysix.core.replay import replay  # start-up
    from sixtysix.service.review import load_analyser, review  # start-up

    tr = translator(lang)
    try:
        raw = (
            load_record_stream(sys.stdin.buffer, "stdin")
            if record == "-"
            else load_record_file(record)
        )
        replayed = replay(raw, registry())
    except SixtySixError as exc:
        click.echo(f"Error: {single_line(str(exc))}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    variant = replayed.variant
    if seat >= variant.seats:
        raise InputError(
            tr._("{variant} has seats 0 to {last}; there is no seat {seat}").format(
                variant=variant.name, last=variant.seats - 1, seat=seat
            )
        )
    missing = [d for d in deals if d > len(replayed.deals)]
    if missing:
        raise InputError(
            tr._("the record has {count} deals; there is no deal {number}").format(
                count=len(replayed.deals), number=missing[0]
            )
        )
    analyser = load_analyser()
    if analyser is None:
        raise click.ClickException(
            tr._("the expert analysis (sixtysix.bots.analysis) is not installed in this version")
        )
    reviews = review(replayed, seat, analyser, Seed(seed), deals or None)
    analysed = [r for r in reviews if not r.forced]
    total = sum(r.loss for r in analysed)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "variant": variant.name,
                    "seat": seat,
                    "moves": [r.as_json() for r in reviews],
                    "analysed": len(analysed),
                    "total_loss": total,
                },
                indent=2,
            )
        )
        return
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    from sixtysix.service.terms import action_text  # start-up

    table = Table(
        title=tr._("Seat {seat} against the expert ({variant})").format(
            seat=seat, variant=variant.name
        )
    )
    for col in (tr._("deal"), tr._("step"), tr._("move"), "", tr._("best"), tr._("loss")):
        table.add_column(
            col, justify="right" if col in (tr._("deal"), tr._("step"), tr._("loss")) else "left"
        )
    for r in reviews:
        shown = not r.forced and r.loss >= TIE and r.best != r.action
        best = action_text(tr, parse_action(r.best)) if shown else ""
        loss = tr._("forced") if r.forced else f"{r.loss:.2f}"
        table.add_row(
            str(r.deal),
            str(r.step),
            action_text(tr, parse_action(r.action)),
            r.mark,
            best,
            loss,
            style="red" if r.mark in ("?", "??") else None,
        )
    console = Console()
    console.print(table)
    console.print(
        tr._(
            "{count} moves analysed, {forced} forced; expected game points lost: {loss:.2f}."
        ).format(count=len(analysed), forced=len(reviews) - len(analysed), loss=total),
        highlight=False,
    )
