"""``sixtysix tournament``: a round robin between bots on identical deals, with ratings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sixtysix.cli.common import SEED, bounded, option_assignments, registry, reports_errors
from sixtysix.cli.errors import EXIT_INTERRUPTED
from sixtysix.cli.exec_options import deadline_options, deadlines
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.cli.sim_options import backend_options, build_backend, parse_bots, progress_bar
from sixtysix.core.options import parse_assignments
from sixtysix.core.rng import Seed
from sixtysix.i18n import Translator, translator
from sixtysix.plugins.manager import variant_from

if TYPE_CHECKING:
    from sixtysix.sim.tournament import BotStanding, TournamentReport

#: The most bootstrap resamples: far past where the intervals stop moving.
MAX_BOOTSTRAP = 100_000


@click.command(cls=LocalizedCommand)
@click.argument("variant")
@click.option(
    "--bots",
    required=True,
    metavar="BOT,BOT[,...]",
    help="The entrants (at least as many as the variant has seats); parameters as name:k=v;"
    " exec:PROGRAM [ARGS...] for an external program.",
)
@click.option(
    "--deals",
    type=bounded(),
    default=1000,
    show_default=True,
    help="Deals; every table plays each of them once per seating.",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Master seed: the same seed gives the same deals, games and intervals.",
)
@option_assignments()
@backend_options()
@click.option(
    "--bootstrap",
    type=bounded(0, MAX_BOOTSTRAP),
    default=200,
    show_default=True,
    help="Bootstrap resamples of the deals for the 95% intervals (0: none).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE.png",
    help="Also draw the ratings with their intervals to FILE (sixtysix[plot]).",
)
@deadline_options()
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar (default: when stderr is a terminal).",
)
@lang_option()
@reports_errors
def tournament(
    variant: str,
    bots: str,
    deals: int,
    seed: int | None,
    preset: str | None,
    options: tuple[str, ...],
    workers: int | None,
    backend: str,
    address: str | None,
    bootstrap: int,
    plot: Path | None,
    start_timeout: float,
    move_timeout: float,
    as_json: bool,
    progress: bool | None,
    lang: str | None,
) -> None:
    """Play a round robin between bots on VARIANT and rate them.

    Every group of bots that fills a table plays the same --deals deals, once in each
    seating (the bots move one seat on each time), so every bot holds every hand against
    every opponent. Each pair of bots at a table is compared by game points in every game;
    the ratings are a Bradley-Terry model on the Elo scale (a 200-point gap: the higher one
    wins about 76% of comparisons), with 95% intervals from a bootstrap over deals.

    \b
    Examples:
      sixtysix tournament 66 --bots random,random:seed=7 --deals 2000 --seed 1
      sixtysix tournament 66 --bots expert,heuristic,random --plot ratings.png
      sixtysix tournament schnapsen --bots a,b,c --backend ray --address auto --json

    Ctrl-C stops after the deals in progress and rates the finished ones (exit status 130).
    """
    from sixtysix.bots.external import players_closed  # start-up
    from sixtysix.sim.backends import StopFlag, stop_notice  # start-up
    from sixtysix.sim.rows import bot_label  # start-up
    from sixtysix.sim.tournament import Tournament, TournamentJob, run_tournament  # start-up

    tr = translator(lang)
    reg = registry()
    v = variant_from(reg, variant, parse_assignments(options), preset)
    limits = deadlines(start_timeout, move_timeout)
    _, bot_specs = parse_bots(reg, bots, None, v.name, v, limits)
    names = [bot_label(cls.name, params) for cls, params in bot_specs]
    if plot is not None:
        from sixtysix.sim.plot import check_plot_path  # start-up

        check_plot_path(plot)
    job = TournamentJob.round_robin(v, bot_specs, Seed(seed))
    contest = Tournament(job, names)
    with (
        players_closed(),
        build_backend(backend, workers, address) as engine,
        StopFlag(stop_notice) as stop,
        progress_bar(v.name, deals, tr._("deals"), progress) as (advance, _),
    ):
        report = run_tournament(contest, deals, engine, stop, advance)
    if contest.deals == 0:
        click.echo(tr._("Stopped before any deal was finished."), err=True)
        sys.exit(EXIT_INTERRUPTED)
    standings = contest.standings(bootstrap)
    if plot is not None:
        from sixtysix.sim.plot import plot_ratings  # start-up

        plot_ratings(
            standings,
            plot,
            f"{v.name}: " + tr._("{deals} deals, 95% intervals").format(deals=contest.deals),
        )
    _report(v.name, report, standings, seed, as_json, plot, tr)
    if report.interrupted:
        sys.exit(EXIT_INTERRUPTED)


def _report(
    name: str,
    report: TournamentReport,
    standings: list[BotStanding],
    seed: int | None,
    as_json: bool,
    plot: Path | None,
    tr: Translator,
) -> None:
    contest = report.tournament
    games = contest.deals * contest.job.games_per_deal
    if as_json:
        data = {
            "variant": name,
            "bots": contest.names,
            "seed": seed,
            "deals": contest.deals,
            "tables": len(contest.job.tables),
            "games": games,
            "method": "bradley-terry (Elo scale), bootstrap over deals",
            "standings": [s.as_json() for s in standings],
            "pairs": [p.as_json() for p in contest.pair_scores()],
            "reasons": dict(sorted(contest.tally.reasons.items())),
            "faults": sum(contest.tally.faults.values()),
            "seconds": round(report.seconds, 3),
            "backend": report.backend,
            "workers": report.workers,
            "interrupted": report.interrupted,
            "plot": None if plot is None else str(plot),
        }
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    from sixtysix.core.turn import describe  # start-up
    from sixtysix.service.terms import fault_kind  # start-up

    console = Console()
    note = " (" + tr._("interrupted") + ")" if report.interrupted else ""
    console.print(
        f"[bold]{name}[/bold]: "
        + tr._(
            "{bots} bots, {deals} deals x {tables} tables x {seatings} seatings = {games} games"
            " in {seconds} s on {backend} ({workers})"
        ).format(
            bots=len(contest.names),
            deals=contest.deals,
            tables=len(contest.job.tables),
            seatings=contest.job.variant.seats,
            games=games,
            seconds=f"{report.seconds:.1f}",
            backend=report.backend,
            workers=_workers(report.workers, tr),
        )
        + note,
        highlight=False,
        soft_wrap=True,  # one line, whatever the width (80 when not a terminal)
    )

    def ci(low: float | None, high: float | None, fmt: str) -> str:
        if low is None or high is None:
            return "-"
        return tr._("{low} to {high}").format(low=f"{low:{fmt}}", high=f"{high:{fmt}}")

    table = Table(title=tr._("Ratings (Bradley-Terry, Elo scale, mean 0)"))
    columns = (
        "#",
        tr._("bot"),
        tr._("rating"),
        tr._("95% CI"),
        tr._("score %"),
        tr._("game pts/game"),
        tr._("games"),
    )
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 1 else "right")
    for rank, s in enumerate(standings, start=1):
        table.add_row(
            str(rank),
            s.name,
            f"{s.rating.value:+.0f}",
            ci(s.rating.low, s.rating.high, "+.0f"),
            f"{100 * s.score.value:.1f}",
            f"{s.mean_game_points.value:.3f}",
            str(s.games),
        )
    console.print(table)
    if contest.tally.faults:
        console.print(
            tr._("Faults (each forfeited a game): {faults}").format(
                faults="; ".join(
                    f"{s.name} {describe(s.faults, fault_kind(tr))}" for s in standings if s.faults
                )
            ),
            highlight=False,
        )
    pairs = Table(title=tr._("Head to head: the row bot's score % against the column bot"))
    pairs.add_column("")
    for n in contest.names:
        pairs.add_column(n, justify="right")
    score: dict[tuple[str, str], float | None] = {}
    for p in contest.pair_scores():
        score[p.a, p.b] = p.score_a
        score[p.b, p.a] = None if p.score_a is None else 1 - p.score_a
    for a in contest.names:
        pairs.add_row(a, *(_pct(score.get((a, b))) for b in contest.names))
    console.print(pairs)
    if plot is not None:
        console.print(tr._("Chart written to {path}").format(path=plot), highlight=False)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _workers(n: int, tr: Translator) -> str:
    return tr._("1 worker") if n == 1 else tr._("{n} workers").format(n=n)
