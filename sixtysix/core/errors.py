"""The project's exceptions: specific, so callers can report them in one clear line."""

from __future__ import annotations


class SixtySixError(Exception):
    """Base of every error the project raises on purpose."""


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


class PluginError(SixtySixError):
    """A plugin that cannot be loaded or registers something invalid."""
