"""Shared pieces of the CLI: one-line errors with exit status 2, and the plugin registry."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import click

from sixtysix.core.errors import SixtySixError
from sixtysix.plugins.manager import Registry, get_registry

P = ParamSpec("P")
R = TypeVar("R")

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class InputError(click.ClickException):
    """Bad input: printed as one ``Error:`` line, exit status 2."""

    exit_code = EXIT_BAD_INPUT


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
    if reg.errors and not getattr(reg, "_reported", False):
        for line in reg.errors:
            click.echo(f"Warning: {line}", err=True)
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


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
