"""The command line's exit statuses and its one-line error for bad input.

Light (Click alone), so that :mod:`sixtysix.cli.localized`, which every command and
``sixtysix --version`` load, reports errors with them without loading the engine.
"""

from __future__ import annotations

import sys

import click

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

#: What ``str.splitlines`` breaks a line at, written as escapes instead.
_LINE_BREAKS = {
    ord(c): c.encode("unicode_escape").decode() for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
}


def single_line(message: str) -> str:
    """``message`` on one line: a line break in it (a file name can hold one) is escaped."""
    return message.translate(_LINE_BREAKS)


class InputError(click.ClickException):
    """Bad input: printed as one ``Error:`` line, exit status 2."""

    exit_code = EXIT_BAD_INPUT

    def format_message(self) -> str:
        return single_line(super().format_message())


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
