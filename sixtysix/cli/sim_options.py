"""What ``simulate`` and ``tournament`` share: backend options, bot lists, the progress bar."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from sixtysix.cli.common import MAX_WORKERS, bounded
from sixtysix.cli.errors import InputError
from sixtysix.core.rng import Seed

if TYPE_CHECKING:
    from sixtysix.bots.base import Bot
    from sixtysix.bots.external import Deadlines
    from sixtysix.core.variant import Variant
    from sixtysix.plugins.manager import Registry
    from sixtysix.sim.backends import Backend


#: What ``--workers`` says by default (``simulate``, ``tournament``).
WORKERS_HELP = (
    "Worker processes (local) or CPUs (local Ray instance). "
    "Default: every CPU, and a single process for small runs."
)


def backend_options(
    workers_help: str = WORKERS_HELP, workers_aliases: tuple[str, ...] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--workers`` (also named ``workers_aliases``), ``--backend`` and ``--address``."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        func = click.option(
            "--address",
            metavar="ADDR",
            default=None,
            help="With --backend ray: the cluster to join (e.g. ray://head:10001 or auto). "
            "Default: start a local Ray instance.",
        )(func)
        func = click.option(
            "--backend",
            type=click.Choice(["local", "ray"]),
            default="local",
            show_default=True,
            help="local: processes on this machine; ray: a Ray cluster (sixtysix[ray]).",
        )(func)
        func = click.option(
            "--workers",
            *workers_aliases,
            "workers",
            type=bounded(1, MAX_WORKERS),
            default=None,
            help=workers_help,
        )(func)
        return func

    return decorate


def build_backend(backend: str, workers: int | None, address: str | None) -> Backend:
    from sixtysix.sim.backends import make_backend  # start-up

    if address and backend != "ray":
        raise InputError("--address is only for --backend ray")
    return make_backend(backend, workers, address)


def parse_bots(
    reg: Registry,
    text: str,
    seats: int | None,
    variant: str = "this variant",
    rules: Variant | None = None,
    deadlines: Deadlines | None = None,
) -> tuple[list[str], list[tuple[type[Bot], dict[str, str]]]]:
    """``--bots`` as (names, [(class, params)]), each validated by building it once.

    With ``seats`` given, one bot fills every seat and otherwise there must be one per seat.
    An ``exec:`` spec (with ``rules``, the configured variant) is an external program, started
    once here for its handshake: a bad one is one line before any game.
    """
    from sixtysix.bots.base import parse_bot_spec  # start-up
    from sixtysix.bots.external import check_exec, exec_bot_class, is_exec_spec  # start-up

    texts = [b.strip() for b in text.split(",") if b.strip()]
    if not texts:
        raise InputError("--bots names no bot")
    if seats is not None:
        if len(texts) == 1:
            texts = texts * seats
        if len(texts) != seats:
            raise InputError(f"{variant} has {seats} seats; --bots names {len(texts)} bots")
    out: list[tuple[type[Bot], dict[str, str]]] = []
    for spec in texts:
        if is_exec_spec(spec) and rules is not None:
            out.append((exec_bot_class(spec, rules, deadlines), {}))
        else:
            name, params = parse_bot_spec(spec)
            out.append((reg.bot(name), params))
    for seat, (cls, params) in enumerate(out):
        cls(seat % (seats or 1), Seed(0), params)  # fail on bad parameters before the run
    check_exec(cls for cls, _ in out)
    return [cls.name for cls, _ in out], out


@contextmanager
def progress_bar(
    label: str, total: int, unit: str, show: bool | None
) -> Iterator[tuple[Callable[[int], None], Callable[[int], None]]]:
    """A Rich bar with done/total, rate and ETA on stderr.

    Yields ``(advance, start_at)``: ``advance(k)`` after k more finished, ``start_at(k)`` as
    the run's clock starts, with what a resumed run found already done. The rate is the run
    summary's: what this run played over the time since it started playing (the clock is
    reset by ``start_at``, so the set-up before, such as reading a file to resume, is left out).
    """
    from rich.console import Console  # start-up
    from rich.progress import (  # start-up
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    enabled = sys.stderr.isatty() if show is None else show
    bar = Progress(
        TextColumn(f"[bold]{label}[/bold] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=True,
        get_time=time.perf_counter,  # the clock of the run's own seconds
    )
    with bar:
        task = bar.add_task(label, total=total, rate="")
        base = [0]

        def start_at(k: int) -> None:
            base[0] = k
            bar.reset(task, completed=k, rate="")

        def advance(k: int) -> None:
            bar.advance(task, k)
            t = bar.tasks[0]
            elapsed = t.elapsed or 0.0
            if elapsed > 0:
                bar.update(task, rate=f"{(t.completed - base[0]) / elapsed:,.0f} {unit}/s")

        yield advance, start_at
