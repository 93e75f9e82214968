"""``sixtysix play VARIANT``: a person against computer players, in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.core import ParameterSource

from sixtysix.cli.common import SEED, bounded, option_assignments, registry, reports_errors
from sixtysix.cli.errors import EXIT_INTERRUPTED, InputError
from sixtysix.cli.exec_options import deadline_options, deadlines
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.cli.screen_options import screen_options
from sixtysix.core.errors import UnknownBotError, shown
from sixtysix.core.options import parse_assignments
from sixtysix.core.records import MAX_SEATS
from sixtysix.core.rng import Seed
from sixtysix.i18n import translator
from sixtysix.plugins.manager import variant_from
from sixtysix.service.timer import DEFAULT_MOVE_TIME, MAX_MOVE_TIME, MIN_MOVE_TIME


@click.command(cls=LocalizedCommand)
@click.argument("variant", required=False)
@click.option("--seat", type=bounded(0, MAX_SEATS - 1), default=None, help="Your seat (default 0).")
@click.option(
    "--vs",
    metavar="BOT[,BOT...]",
    default=None,
    help="Computer players: one bot or level (easy, medium, hard, expert) for every other seat,"
    " or one per other seat; exec:PROGRAM [ARGS...] for an external program."
    " Default: expert when installed, else the strongest bot.",
)
@lang_option()
@click.option("--rated", is_flag=True, help="A rated game: move timer, no undo, standings.")
@click.option(
    "--move-time",
    type=bounded(MIN_MOVE_TIME, MAX_MOVE_TIME),
    default=None,
    help=f"Seconds per move in rated games ({MIN_MOVE_TIME}-{MAX_MOVE_TIME}, default"
    f" {DEFAULT_MOVE_TIME}).",
)
@click.option("--seed", type=SEED, default=None, help="Reproducible deals (test games only).")
@option_assignments()
@click.option(
    "--save",
    "save_to",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Record file written as the game goes (default: in the user data directory).",
)
@click.option(
    "--resume",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Continue an interrupted test game from its record file.",
)
@deadline_options()
@screen_options()
@reports_errors
def play(
    variant: str | None,
    seat: int | None,
    vs: str | None,
    lang: str | None,
    rated: bool,
    move_time: int | None,
    seed: int | None,
    preset: str | None,
    options: tuple[str, ...],
    save_to: Path | None,
    resume: Path | None,
    start_timeout: float,
    move_timeout: float,
    pause: bool | None,
    auto_last: bool,
) -> None:
    """Play VARIANT in the terminal: you take one seat, computer players the others, for a
    whole match (to the target, or as the rules' match option says).

    Type a card to play it (as, 10h, Q♥ or its number in your hand), a move in the notation
    of the records (marry H, close, trump S, partner AD, solo...), ? for help, hint for the
    expert's view, undo to take back, quit to stop. The game is saved as it goes.

    \b
    Examples:
      sixtysix play 66
      sixtysix play schnapsen --vs hard --lang tr
      sixtysix play 66-4 --seat 2 --vs expert,random,expert
      sixtysix play 66 --rated --move-time 45
      sixtysix play --resume ~/.local/share/sixtysix/games/sixtysix-20260101-120000.json
    """
    from rich.console import Console  # start-up

    from sixtysix.bots import warm  # start-up
    from sixtysix.bots.external import check_exec, players_closed  # start-up
    from sixtysix.core.files import check_writable  # start-up
    from sixtysix.play.autosave import (  # start-up
        AutoSave,
        SessionSettings,
        default_save_path,
        load_saved_game,
        session_path,
    )
    from sixtysix.play.session import GameSetup, Session  # start-up
    from sixtysix.play.terminal import ConsoleScreen, TerminalInput  # start-up
    from sixtysix.service.players import build_bots, opponents_for  # start-up
    from sixtysix.service.standings import Standings, data_dir  # start-up

    tr = translator(lang)
    ctx = click.get_current_context()
    given = {
        name: ctx.get_parameter_source(name) is not ParameterSource.DEFAULT
        for name in ("start_timeout", "move_timeout")
    }
    reg = registry()
    resumed = None
    path: Path | None = None
    # The game writes its record and session file as it goes: refuse now, before it starts, a
    # path that is not (or cannot become) a regular file.
    for written in (save_to, resume):
        if written is not None:
            check_writable(written)
            check_writable(session_path(written))
    if resume is not None:
        if variant is not None:
            raise InputError(tr._("give either VARIANT or --resume FILE, not both"))
        if rated:
            raise InputError(tr._("only test games can be resumed; a rated game left is scored"))
        if preset is not None or options or seed is not None:
            raise InputError(tr._("--resume takes the rules and the seed from the saved record"))
        resumed = load_saved_game(resume, reg)
        if resumed.settings is not None and resumed.settings.rated:
            raise InputError(
                tr._("{path} is a rated game: it cannot be resumed").format(path=resume)
            )
        if resumed.replay.winners:
            raise InputError(tr._("{path}: this match is already finished").format(path=resume))
        v = resumed.replay.variant
        master = Seed(resumed.seed)
        settings = resumed.settings
        if settings is not None:
            # What the person chose comes back, unless given again now.
            if lang is None and settings.lang is not None:
                tr = translator(settings.lang)
            if not given["start_timeout"] and settings.start_timeout is not None:
                start_timeout = settings.start_timeout
            if not given["move_timeout"] and settings.move_timeout is not None:
                move_timeout = settings.move_timeout
        if settings is not None and (
            type(settings.seat) is not int or not 0 <= settings.seat < v.seats
        ):
            # A session file edited by hand (or broken): its seat must be one of this game's.
            raise InputError(
                f"{session_path(resume)}: "
                + tr._("{variant} has seats 0 to {last}; there is no seat {seat}").format(
                    variant=v.name, last=v.seats - 1, seat=shown(settings.seat)
                )
            )
        if seat is None:
            seat = settings.seat if settings is not None else 0
        if vs is None and settings is not None:
            specs = list(settings.opponents)
            if len(specs) != v.seats or specs[seat] != "":
                specs = opponents_for(None, v.seats, seat, reg)
        else:
            specs = opponents_for(vs, v.seats, seat, reg)
        path = resume
    else:
        if variant is None:
            raise InputError(
                tr._("name a VARIANT to play (see `sixtysix variants`), or --resume FILE")
            )
        v = variant_from(reg, variant, parse_assignments(options), preset)
        if rated and seed is not None:
            raise InputError(
                tr._("rated games are always shuffled securely: --seed is for test games")
            )
        master = Seed(seed)
        seat = 0 if seat is None else seat
        if seat >= v.seats:
            raise InputError(
                tr._("{variant} has seats 0 to {last}; there is no seat {seat}").format(
                    variant=v.name, last=v.seats - 1, seat=seat
                )
            )
        specs = opponents_for(vs, v.seats, seat, reg)
        path = save_to
    if seat >= v.seats:
        raise InputError(
            tr._("{variant} has seats 0 to {last}; there is no seat {seat}").format(
                variant=v.name, last=v.seats - 1, seat=seat
            )
        )
    if move_time is not None and not rated:
        raise InputError(tr._("--move-time is for rated games (--rated); test games have no timer"))
    try:
        bots = build_bots(specs, reg, master, v, deadlines(start_timeout, move_timeout))
    except UnknownBotError as exc:
        raise InputError(str(exc)) from None
    check_exec(type(b) for b in bots if b is not None)
    warm.for_game(v, bots, hints=not rated)  # the expert's search compiles as the person reads
    level = ",".join(dict.fromkeys(s for s in specs if s))
    setup = GameSetup(
        variant=v,
        seat=seat,
        bots=bots,
        labels=tuple(specs),
        seed=master,
        rated=rated,
        move_time=float(move_time or DEFAULT_MOVE_TIME) if rated else None,
        level=level,
    )
    if path is None:  # claimed now: a file of this game alone
        path = default_save_path(data_dir() / "games", v.name)
    autosave = AutoSave(
        path,
        SessionSettings(
            seat, tuple(specs), level, rated, tr.lang, float(start_timeout), float(move_timeout)
        ),
    )
    screen = ConsoleScreen(Console(), tr)
    session = Session(
        setup,
        tr,
        TerminalInput(),
        screen,
        autosave=autosave,
        standings=Standings(warn=lambda line: screen.say(line, "bold red")) if rated else None,
        resume=None if resumed is None else resumed.replay,
        pause=sys.stdin.isatty() if pause is None else pause,
        auto_last=auto_last,
    )
    with players_closed():
        result = session.run()
    if result.interrupted:
        sys.exit(EXIT_INTERRUPTED)
