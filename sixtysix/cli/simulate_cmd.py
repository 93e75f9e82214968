"""``sixtysix simulate``: many games between computer players, totalled."""

from __future__ import annotations

import json
import sys

import click

from sixtysix.cli.common import (
    EXIT_INTERRUPTED,
    InputError,
    option_assignments,
    registry,
    reports_errors,
)


@click.command()
@click.argument("variant")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Games to play; a game is one deal.",
)
@click.option(
    "--matches",
    type=click.IntRange(min=1),
    default=None,
    help="Play this many whole matches (to the target) instead of single deals.",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Master seed: the same seed gives the same games. Default: secure random.",
)
@click.option(
    "--bots",
    default="random",
    show_default=True,
    metavar="BOT[,BOT...]",
    help="Bot per seat (one name for all seats); parameters as name:key=value.",
)
@option_assignments()
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar (default: when stderr is a terminal).",
)
@reports_errors
def simulate(
    variant: str,
    games: int,
    matches: int | None,
    seed: int | None,
    bots: str,
    preset: str | None,
    options: tuple[str, ...],
    as_json: bool,
    progress: bool | None,
) -> None:
    """Play many games of VARIANT between computer players and print the totals:
    wins and game points per seat and how the deals ended.

    \b
    Examples:
      sixtysix simulate 66 --games 100000 --seed 1
      sixtysix simulate schnapsen --games 5000 -o claim=manual --json
      sixtysix simulate 66 --matches 200 --preset classic

    Ctrl-C stops early and still prints the totals of every finished game (exit status 130).
    """
    from sixtysix.bots.base import parse_bot_spec
    from sixtysix.core.options import parse_assignments
    from sixtysix.core.rng import Seed
    from sixtysix.sim.simulate import Summary, simulate_matches
    from sixtysix.sim.simulate import simulate as run

    reg = registry()
    v = reg.variant(variant).configure(preset, parse_assignments(options))
    specs = [parse_bot_spec(b) for b in bots.split(",") if b.strip()]
    if len(specs) == 1:
        specs = specs * v.seats
    if len(specs) != v.seats:
        raise InputError(f"{v.name} has {v.seats} seats; --bots names {len(specs)} bots")
    bot_specs = [(reg.bot(name), params) for name, params in specs]
    for seat, (cls, params) in enumerate(bot_specs):
        cls(seat, Seed(0), params)  # validate parameters before the run starts
    master = Seed(seed)
    total = matches if matches is not None else games
    summary = Summary(v.seats)
    show = sys.stderr.isatty() if progress is None else progress
    interrupted = False
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    unit = "matches" if matches is not None else "games"
    bar = Progress(
        TextColumn(f"[bold]{v.name}[/bold] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        disable=not show,
        transient=True,
    )
    try:
        with bar:
            task = bar.add_task("sim", total=total, rate="")

            def advance(k: int) -> None:
                bar.advance(task, k)
                elapsed = bar.tasks[0].elapsed or 0.0
                done = bar.tasks[0].completed
                if elapsed > 0:
                    bar.update(task, rate=f"{done / elapsed:,.0f}/s")

            if matches is not None:
                simulate_matches(v, bot_specs, matches, master, advance, summary)
            else:
                run(v, bot_specs, games, master, advance, summary)
    except KeyboardInterrupt:
        interrupted = True
    _report(
        v.name,
        [f"{c.name}" for c, _ in bot_specs],
        summary,
        matches is not None,
        as_json,
        seed,
        interrupted,
    )
    if interrupted:
        sys.exit(EXIT_INTERRUPTED)


def _report(
    name: str,
    bot_names: list[str],
    summary: object,
    matches: bool,
    as_json: bool,
    seed: int | None,
    interrupted: bool,
) -> None:
    from sixtysix.sim.simulate import Summary

    assert isinstance(summary, Summary)
    data = summary.as_json()
    data.update(
        {
            "variant": name,
            "bots": bot_names,
            "seed": seed,
            "unit": "matches" if matches else "games",
            "interrupted": interrupted,
        }
    )
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    n = summary.games
    unit = "matches" if matches else "games"
    rate = f", {n / summary.elapsed:,.0f} {unit}/s" if summary.elapsed > 0 else ""
    note = " (interrupted)" if interrupted else ""
    console.print(
        f"[bold]{name}[/bold]: {n} {unit}, {summary.deals} deals in "
        f"{summary.elapsed:.2f} s{rate}{note}",
        highlight=False,
    )
    table = Table()
    for col in ("seat", "bot", f"{unit} won", "win %", "game points", "per deal"):
        table.add_column(col, justify="right")
    for s in range(summary.seats):
        wins = summary.wins[s]
        table.add_row(
            str(s),
            bot_names[s],
            str(wins),
            f"{100 * wins / n:.1f}" if n else "-",
            str(summary.game_points[s]),
            f"{summary.game_points[s] / summary.deals:.3f}" if summary.deals else "-",
        )
    console.print(table)
    reasons = Table(title="How the deals ended")
    reasons.add_column("reason")
    reasons.add_column("deals", justify="right")
    reasons.add_column("%", justify="right")
    for reason, count in sorted(summary.reasons.items(), key=lambda kv: -kv[1]):
        reasons.add_row(reason, str(count), f"{100 * count / summary.deals:.1f}")
    console.print(reasons)
