"""The project's exceptions: specific, so callers can report them in one clear line."""

from __future__ import annotations

import reprlib


class SixtySixError(Exception):
    """Base of every error the project raises on purpose."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for an error line about a user's value: one
    short line however long, deep or large the value (a huge integer is not even converted)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"an integer of {value.bit_length()} bits"
    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxother = 3, limit, limit
    try:
        text = short.repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class NotationError(SixtySixError, ValueError):
    """A card, suit or action string that cannot be read."""


class IllegalActionError(SixtySixError, ValueError):
    """An action that the rules do not allow in the current position; the message says why."""

    def __init__(self, seat: int, action: str, reason: str) -> None:
        super().__init__(f"seat {seat} cannot {action}: {reason}")
        self.seat = seat
        self.action = action
        self.reason = reason


class OptionError(SixtySixError, ValueError):
    """An unknown option name or an invalid value; the message lists the valid ones."""


class RecordError(SixtySixError, ValueError):
    """A game record that breaks the format or the rules."""


class UnknownVariantError(SixtySixError, LookupError):
    """No installed variant has this name or alias."""


class UnknownBotError(SixtySixError, LookupError):
    """No installed bot has this name."""


class MatchError(SixtySixError, RuntimeError):
    """A match that found no winner within its limit of deals (a target within the options'
    limit never gets here; a plugin's rules that score nothing could)."""


class PluginError(SixtySixError):
    """A plugin that cannot be loaded or registers something invalid."""
