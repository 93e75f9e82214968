"""``sixtysix duel``: two bots on identical deals, every seating, with confidence intervals."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from sixtysix.cli.common import SEED, bounded, option_assignments, registry, reports_errors
from sixtysix.cli.errors import EXIT_INTERRUPTED, InputError
from sixtysix.cli.exec_options import deadline_options, deadlines
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.cli.sim_options import backend_options, build_backend
from sixtysix.core.options import parse_assignments
from sixtysix.core.rng import Seed
from sixtysix.i18n import Translator, translator
from sixtysix.plugins.manager import variant_from

if TYPE_CHECKING:
    from sixtysix.sim.backends import Backend


@click.command(cls=LocalizedCommand)
@click.argument("variant")
@click.argument("bot_a", metavar="BOT_A")
@click.argument("bot_b", metavar="BOT_B")
@click.option(
    "--deals",
    type=bounded(),
    default=200,
    show_default=True,
    help="Deals to play; each is played in every seating (see above).",
)
@click.option(
    "--matches",
    type=bounded(),
    default=None,
    help="Play this many whole matches instead of single deals (see above; not with --deals).",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Master seed: the same seed gives the same deals and choices. Default: secure random.",
)
@option_assignments()
@backend_options(
    workers_help="Worker processes (local) or CPUs (Ray); results do not depend on it, times"
    " per move get noisier. Default: 1 locally; on Ray every CPU of the cluster (of this"
    " machine for a local instance).",
    workers_aliases=("--jobs",),
)
@deadline_options()
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr (default: when stderr is a terminal).",
)
@lang_option()
@reports_errors
def duel(
    variant: str,
    bot_a: str,
    bot_b: str,
    deals: int,
    matches: int | None,
    seed: int | None,
    preset: str | None,
    options: tuple[str, ...],
    workers: int | None,
    backend: str,
    address: str | None,
    start_timeout: float,
    move_timeout: float,
    as_json: bool,
    progress: bool | None,
    lang: str | None,
) -> None:
    """Measure BOT_A against BOT_B on VARIANT.

    Every deal is played in every seating on identical cards, so that the luck of the deal
    cancels out: with two players twice, seats swapped; with three or four players BOT_A sits
    alone in each seat in turn with BOT_B in all the others, and then the reverse (BOT_B alone
    in each seat), 2 x seats games per deal. A game is won by the bot whose seats scored more
    game points (the mean over its seats).

    With --matches, whole matches are played instead: each match, to the variant's target (in
    Schnapsen a Bummerl of 7), is played in every seating, its deals on identical cards in
    every seating for as long as that seating's match lasts. Reported then: matches won with
    the 95% Wilson interval of the match win rate, beside the figures below over every deal of
    those matches. With three or four players the bot sitting alone wins a match when its seat
    wins it. Ctrl-C keeps the finished matches.

    Reported for each bot: games won with the 95% Wilson interval of the win rate; game
    points per deal with a 95% normal interval over deals (and the difference); time per move
    (mean, median and 95th percentile of its own thinking time).

    A bot is NAME or NAME:key=value,... (`sixtysix bots` lists them), or a difficulty level
    @easy, @medium, @hard, @expert (with extra parameters as @hard:seed=3), or an external
    program as exec:PROGRAM [ARGS...] (one process per seat; a fault forfeits that game).

    \b
    Examples:
      sixtysix duel 66 heuristic random --deals 500 --seed 1
      sixtysix duel schnapsen @hard @medium --deals 200 --jobs 2
      sixtysix duel 66-4 expert:samples=32 heuristic --json
      sixtysix duel schnapsen expert heuristic --matches 100 --seed 1
      sixtysix duel 66 @hard @medium --deals 2000 --backend ray --address auto

    A seed gives the same results with any --workers and either backend: every deal and
    match draws only from its own seed paths.

    Ctrl-C stops after the deals (matches) in progress and reports every one finished (exit
    status 130); a second Ctrl-C stops at once.
    """
    from sixtysix.bots.external import (  # start-up
        check_exec,
        exec_bot_class,
        is_exec_spec,
        players_closed,
    )
    from sixtysix.bots.levels import resolve_player  # start-up
    from sixtysix.sim import match_duel  # start-up
    from sixtysix.sim.backends import StopFlag, stop_notice  # start-up
    from sixtysix.sim.duel import (  # start-up
        Contestant,
        DealResult,
        iter_deals,
        local_backend,
        summarize,
    )

    tr = translator(lang)
    given = click.get_current_context().get_parameter_source("deals")
    if matches is not None and given is not ParameterSource.DEFAULT:
        raise InputError(tr._("--deals and --matches cannot be used together: give one of them"))
    reg = registry()
    v = variant_from(reg, variant, parse_assignments(options), preset)
    limits = deadlines(start_timeout, move_timeout)

    def contestant(spec: str) -> Contestant:
        if is_exec_spec(spec):
            cls = exec_bot_class(spec, v, limits)
            return Contestant(cls.name, cls)
        return Contestant(*resolve_player(spec, reg, seats=v.seats))

    contestants = (contestant(bot_a), contestant(bot_b))
    check_exec(c.cls for c in contestants)
    master = Seed(seed)
    show = sys.stderr.isatty() if progress is None else progress
    results: list[DealResult] = []
    played: list[match_duel.DuelMatch] = []
    interrupted = False
    from rich.console import Console  # start-up
    from rich.progress import (  # start-up
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn(
            f"[bold]{v.name}[/bold] "
            + tr._("{a} vs {b}").format(a=contestants[0].label, b=contestants[1].label)
        ),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(tr._("deals") if matches is None else tr._("matches")),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=True,
    )
    engine: Backend = (
        local_backend(workers or 1)
        if backend == "local" and not address
        else build_backend(backend, workers, address)
    )
    start = time.perf_counter()
    try:
        with players_closed(), engine, StopFlag(stop_notice) as stop, bar:
            if matches is None:
                task = bar.add_task("duel", total=deals)
                for result in iter_deals(v, contestants, master, deals, backend=engine, stop=stop):
                    results.append(result)
                    bar.advance(task)
            else:
                task = bar.add_task("duel", total=matches)
                for match in match_duel.iter_matches(
                    v, contestants, master, matches, backend=engine, stop=stop
                ):
                    played.append(match)
                    bar.advance(task)
        interrupted = stop.requested
    except KeyboardInterrupt:
        interrupted = True
    labels = (contestants[0].label, contestants[1].label)
    seconds = time.perf_counter() - start
    in_matches = None
    if matches is None:
        summary = summarize(v.name, labels, results, seed, seconds, interrupted)
        data = summary.as_json()
    else:
        in_matches = match_duel.summarize_matches(
            v.name, labels, played, seed, seconds, interrupted
        )
        summary, data = in_matches.deals, in_matches.as_json()
    if as_json:
        data["options"] = dict(v.options.diff())
        data["backend"] = engine.name
        data["workers"] = engine.workers
        click.echo(json.dumps(data, indent=2))
    else:
        _print(summary, tr, in_matches)
    if interrupted:
        sys.exit(EXIT_INTERRUPTED)


def _print(summary: object, tr: Translator, in_matches: object = None) -> None:
    """The duel's table; with ``in_matches`` (a duel in matches), the match figures first."""
    from rich.console import Console  # start-up
    from rich.table import Table  # start-up

    from sixtysix.cli.figures import estimate_text, times_text  # start-up
    from sixtysix.core.turn import describe  # start-up
    from sixtysix.service.terms import fault_kind  # start-up
    from sixtysix.sim.duel import A, B, DuelSummary  # start-up
    from sixtysix.sim.match_duel import MatchDuelSummary  # start-up
    from sixtysix.sim.stats import Estimate, TimeStats  # start-up

    assert isinstance(summary, DuelSummary)
    assert in_matches is None or isinstance(in_matches, MatchDuelSummary)
    s, m = summary, in_matches
    console = Console()
    note = " (" + tr._("interrupted") + ")" if s.interrupted else ""
    seed = tr._("random") if s.seed is None else str(s.seed)
    fields = {
        "a": s.labels[A],
        "b": s.labels[B],
        "deals": s.deals,
        "games": s.games,
        "seed": seed,
        "seconds": f"{s.seconds:.1f}",
    }
    if m is None:
        head = tr._("{a} vs {b}, {deals} deals, {games} games, seed {seed}, {seconds} s")
    else:
        head = tr._(
            "{a} vs {b}, {matches} matches in every seating ({played} in all), "
            "{deals} deals, {games} games, seed {seed}, {seconds} s"
        )
        fields.update(matches=m.matches, played=m.games)
    console.print(
        f"[bold]{s.variant}[/bold]: " + head.format(**fields) + note,
        highlight=False,
        soft_wrap=True,  # one line, whatever the width (80 when not a terminal)
    )
    if not s.games:
        console.print(tr._("No deal finished.") if m is None else tr._("No match finished."))
        return

    def num(i: Estimate) -> str:
        return estimate_text(i, tr)

    def ms(t: TimeStats) -> str:
        return times_text(t, tr)

    table = Table(caption=tr._("95% confidence intervals in brackets"))
    table.add_column("")
    table.add_column(f"A: {s.labels[A]}", justify="right")
    table.add_column(f"B: {s.labels[B]}", justify="right")
    if m is not None:
        table.add_row(tr._("matches won"), str(m.wins), str(m.losses))
        table.add_row(tr._("match win rate"), m.win_rate[A].percent(), m.win_rate[B].percent())
    table.add_row(tr._("games won"), str(s.wins), str(s.losses))
    table.add_row(tr._("win rate"), s.win_rate[A].percent(), s.win_rate[B].percent())
    table.add_row(tr._("game points per deal"), num(s.points[A]), num(s.points[B]))
    table.add_row(tr._("time per move: mean / median / p95"), ms(s.times[A]), ms(s.times[B]))
    console.print(table)
    console.print(
        tr._("drawn games: {draws}; game points per deal, A minus B: {margin}").format(
            draws=s.draws, margin=num(s.margin)
        ),
        highlight=False,
    )
    if m is not None:
        console.print(
            tr._("drawn matches: {draws}; deals per match: {length}").format(
                draws=m.draws, length=num(m.length)
            ),
            highlight=False,
        )
    if any(s.faults):
        kind = fault_kind(tr)
        console.print(
            tr._("faults (each forfeited a game): A {a}, B {b}").format(
                a=describe(s.faults[A], kind), b=describe(s.faults[B], kind)
            ),
            highlight=False,
        )
