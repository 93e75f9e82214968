"""``sixtysix simulate``: many games between computer players, on every core or a Ray cluster."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sixtysix.cli.common import SEED, bounded, option_assignments, registry, reports_errors
from sixtysix.cli.errors import EXIT_INTERRUPTED, InputError
from sixtysix.cli.exec_options import deadline_options, deadlines
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.cli.sim_options import backend_options, build_backend, parse_bots, progress_bar
from sixtysix.core.options import parse_assignments
from sixtysix.core.rng import Seed
from sixtysix.i18n import Translator, translator
from sixtysix.plugins.manager import variant_from

if TYPE_CHECKING:
    from sixtysix.sim.jobs import RunReport


@click.command(cls=LocalizedCommand)
@click.argument("variant")
@click.option(
    "--games",
    type=bounded(),
    default=1000,
    show_default=True,
    help="Games to play; a game is one deal.",
)
@click.option(
    "--matches",
    type=bounded(),
    default=None,
    help="Play this many whole matches (to the target, or as the rules' match option says) instead"
    " of single deals.",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Master seed: the same seed gives the same games. Default: secure random.",
)
@click.option(
    "--bots",
    default="random",
    show_default=True,
    metavar="BOT[,BOT...]",
    help="Bot per seat (one name for all seats); parameters as name:key=value;"
    " exec:PROGRAM [ARGS...] for an external program.",
)
@option_assignments()
@backend_options()
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Write one row per game to FILE: *.jsonl (JSON Lines) or *.parquet (sixtysix[parquet]).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the --out FILE of an earlier run of this same command up to --games.",
)
@deadline_options()
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar (default: when stderr is a terminal).",
)
@lang_option()
@reports_errors
def simulate(
    variant: str,
    games: int,
    matches: int | None,
    seed: int | None,
    bots: str,
    preset: str | None,
    options: tuple[str, ...],
    workers: int | None,
    backend: str,
    address: str | None,
    out: Path | None,
    resume: bool,
    start_timeout: float,
    move_timeout: float,
    as_json: bool,
    progress: bool | None,
    lang: str | None,
) -> None:
    """Play many games of VARIANT between computer players and print the totals: win rates
    and mean game points per seat with 95% confidence intervals, and how the deals ended.

    \b
    Examples:
      sixtysix simulate 66 --games 1000000 --seed 1 --out games.parquet
      sixtysix simulate 66 --games 1000000 --seed 1 --out games.parquet --resume
      sixtysix simulate schnapsen --games 5000 -o claim=manual --json
      sixtysix simulate 66 --games 10000000 --backend ray --address auto
      sixtysix simulate 66 --matches 200 --preset classic

    Game i draws all its randomness from the master seed and i alone, so a seed gives the
    same games with any --workers and either backend. Every row of --out can be replayed:
    `sixtysix replay --from FILE --game I`.

    Ctrl-C stops after the games in progress, keeps every finished game (in the totals and
    in --out) and exits with status 130; --resume continues from there.
    """
    from sixtysix.bots.external import players_closed  # start-up
    from sixtysix.sim.backends import StopFlag, stop_notice  # start-up
    from sixtysix.sim.jobs import MatchJob, SimJob, run_matches, run_simulation  # start-up

    tr = translator(lang)
    reg = registry()
    v = variant_from(reg, variant, parse_assignments(options), preset)
    limits = deadlines(start_timeout, move_timeout)
    names, bot_specs = parse_bots(reg, bots, v.seats, v.name, v, limits)
    if resume and out is None:
        raise InputError(tr._("--resume needs --out FILE: the file to continue"))
    if matches is not None and out is not None:
        raise InputError(tr._("--out writes one row per game; it cannot be used with --matches"))
    master = Seed(seed)
    total = matches if matches is not None else games
    with (
        players_closed(),
        build_backend(backend, workers, address) as engine,
        StopFlag(stop_notice) as stop,
        progress_bar(
            v.name,
            total,
            tr._("matches") if matches is not None else tr.p_("simulate", "games"),
            progress,
        ) as (advance, start_at),
    ):
        if matches is not None:
            report = run_matches(
                MatchJob(v, tuple(bot_specs), master), matches, engine, stop, advance, start_at
            )
        else:
            report = run_simulation(
                SimJob(v, tuple(bot_specs), master),
                games,
                engine,
                stop,
                out=out,
                resume=resume,
                bot_names=names,
                progress=advance,
                on_start=start_at,
            )
    if report.dropped_bytes:
        click.echo(
            tr._(
                "Warning: dropped an incomplete last line of {out} ({bytes} bytes), left by a"
                " hard stop; that game is played again."
            ).format(out=out, bytes=report.dropped_bytes),
            err=True,
        )
    _report(v.name, names, report, matches is not None, as_json, seed, tr)
    if report.interrupted:
        if out is not None:
            click.echo(
                tr._(
                    "Kept {games} finished games in {out}; add --resume to the same command to"
                    " continue."
                ).format(games=report.summary.games, out=out),
                err=True,
            )
        sys.exit(EXIT_INTERRUPTED)


def _report(
    name: str,
    bot_names: list[str],
    report: RunReport,
    matches: bool,
    as_json: bool,
    seed: int | None,
    tr: Translator,
) -> None:
    summary = report.summary
    unit = "matches" if matches else "games"
    data = summary.as_json()
    data.update(
        {
            "variant": name,
            "bots": bot_names,
            "seed": seed,
            "unit": unit,
            "interrupted": report.interrupted,
            "played": report.played,
            "resumed": report.resumed,
            "seconds": round(report.seconds, 3),
            "games_per_second": None if report.rate is None else round(report.rate, 1),
            "backend": report.backend,
            "workers": report.workers,
            "out": report.out,
        }
    )
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    console = Console()
    n = summary.games
    rate = ""
    if report.rate:
        per_second = tr._("{rate} matches/s") if matches else tr._("{rate} games/s")
        rate = ", " + per_second.format(rate=f"{report.rate:,.0f}")
    notes = []
    if report.resumed:
        notes.append(tr._("{count} read from {out}").format(count=report.resumed, out=report.out))
    if report.interrupted:
        notes.append(tr._("interrupted"))
    note = f" ({'; '.join(notes)})" if notes else ""
    workers = tr._("1 worker") if report.workers == 1 else tr._("{n} workers")
    head = (
        tr._(
            "{n} matches, {deals} deals; played {played} in {seconds} s{rate} on {backend}"
            " ({workers})"
        )
        if matches
        else tr._(
            "{n} games, {deals} deals; played {played} in {seconds} s{rate} on {backend}"
            " ({workers})"
        )
    )
    console.print(
        f"[bold]{name}[/bold]: "
        + head.format(
            n=n,
            deals=summary.deals,
            played=report.played,
            seconds=f"{report.seconds:.2f}",
            rate=rate,
            backend=report.backend,
            workers=workers.format(n=report.workers),
        )
        + note,
        highlight=False,
        soft_wrap=True,  # one line, whatever the width (80 when not a terminal)
    )

    def ci(low: float | None, high: float | None, scale: float, digits: int) -> str:
        if low is None or high is None:
            return "-"
        return f"{low * scale:.{digits}f}-{high * scale:.{digits}f}"

    table = Table()
    # Totals of game points are in --json; the mean per deal is what compares.
    won = tr._("matches won") if matches else tr._("games won")
    columns = (
        tr._("seat"),
        tr._("bot"),
        won,
        tr._("win %"),
        tr._("95% CI"),
        tr._("game pts/deal"),
        tr._("95% CI"),
    )
    for col in columns:
        table.add_column(col, justify="right")
    for s in range(summary.seats):
        win = summary.win_rate(s)
        mean = summary.mean_game_points(s)
        table.add_row(
            str(s),
            bot_names[s],
            str(summary.wins[s]),
            f"{100 * win.value:.1f}" if n else "-",
            ci(win.low, win.high, 100, 1),
            f"{mean.value:.3f}" if summary.deals else "-",
            ci(mean.low, mean.high, 1, 3),
        )
    console.print(table)
    from sixtysix.service.terms import fault_kind, reason_text  # start-up

    reasons = Table(title=tr._("How the deals ended"))
    reasons.add_column(tr._("reason"))
    reasons.add_column(tr._("deals"), justify="right")
    reasons.add_column("%", justify="right")
    for reason, count in sorted(summary.reasons.items(), key=lambda kv: -kv[1]):
        reasons.add_row(reason_text(tr, reason), str(count), f"{100 * count / summary.deals:.1f}")
    console.print(reasons)
    if summary.faults:
        from sixtysix.core.turn import describe  # start-up

        kind = fault_kind(tr)
        console.print(
            tr._("Faults (each forfeited a deal): {faults}").format(
                faults="; ".join(
                    tr._("seat {seat} ({bot}) {faults}").format(
                        seat=s, bot=bot_names[s], faults=describe(summary.faults_of(s), kind)
                    )
                    for s in range(summary.seats)
                    if summary.faults_of(s)
                )
            ),
            highlight=False,
        )
