"""Shared pieces of the CLI: the project's errors as one line with exit status 2, integer
options, and the plugin registry (the exit statuses themselves: :mod:`sixtysix.cli.errors`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import click

from sixtysix.cli.errors import InputError
from sixtysix.cli.localized import current_translator
from sixtysix.core.errors import SixtySixError, shown
from sixtysix.core.rng import MAX_SEED_DIGITS
from sixtysix.plugins.manager import Registry, get_registry

P = ParamSpec("P")
R = TypeVar("R")

#: The most games, matches or deals one command plays: a limit no real run comes near, that
#: keeps a typing slip from starting a run of years.
MAX_RUN = 1_000_000_000
#: The most worker processes (or jobs) one command starts.
MAX_WORKERS = 1024
#: The longest integer the command line reads, in digits.
_MAX_DIGITS = 1000
_INTEGER = re.compile(r"[+-]?[0-9]+")


class Integer(click.IntRange):
    """An integer option: ASCII digits only (``int()`` would also read ``٣`` or ``²``), in a
    range (``min``/``max``) or of at most ``digits`` digits, refused with the limit named."""

    def __init__(
        self, min: int | None = None, max: int | None = None, *, digits: int | None = None
    ) -> None:
        super().__init__(min, max)
        self.digits = digits
        if min is None and max is None:
            self.name = "integer"  # its help shows INTEGER, not INTEGER RANGE

    def _describe_range(self) -> str:
        """The limit ``--help`` shows (Click's hook for ranges), in Click's notation, which
        needs no translation."""
        if self.min is None and self.max is None:
            return f"|x|<10^{self.digits or _MAX_DIGITS}"
        return super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if not _INTEGER.fullmatch(text):
                self.fail(
                    _said("{value} is not a valid integer.").format(value=shown(value)), param, ctx
                )
            size = len(text.lstrip("+-"))
            limit = min(self.digits or _MAX_DIGITS, _MAX_DIGITS)
            if size > limit:
                message = _said("{value} has more than {limit} digits.")
                self.fail(message.format(value=shown(value), limit=limit), param, ctx)
            value = text
        return super().convert(value, param, ctx)


def _said(message: str) -> str:
    """``message`` in the running command's language (``--lang``, else the locale)."""
    return current_translator()._(message)


#: ``--seed``: any integer of up to :data:`MAX_SEED_DIGITS` digits (records take the same).
SEED = Integer(digits=MAX_SEED_DIGITS)


def bounded(minimum: int = 1, maximum: int = MAX_RUN) -> Integer:
    """A number of games, deals, matches, workers...: ``minimum`` to ``maximum``."""
    return Integer(minimum, maximum)


def reports_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn the project's errors into one clear line and exit status 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except SixtySixError as exc:
            raise InputError(str(exc)) from None

    return wrapper


def registry() -> Registry:
    """The plugin registry; each broken plugin is reported on stderr once, the rest works."""
    reg = get_registry()
    if reg.problems and not getattr(reg, "_reported", False):
        tr = current_translator()
        for problem in reg.problems:
            click.echo(tr._("Warning: {problem}").format(problem=problem.text(tr)), err=True)
        reg._reported = True  # type: ignore[attr-defined]
    return reg


def option_assignments() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--preset`` and repeatable ``-o name=value`` options of every game command."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        func = click.option(
            "-o",
            "--option",
            "options",
            multiple=True,
            metavar="NAME=VALUE",
            help="Set a rule option (repeatable); `sixtysix rules VARIANT` lists them.",
        )(func)
        func = click.option(
            "--preset", metavar="NAME", help="Start from a named preset (e.g. portal, classic)."
        )(func)
        return func

    return decorate
