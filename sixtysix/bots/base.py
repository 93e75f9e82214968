"""The base class of computer players.

A bot is constructed for one seat with a :class:`~sixtysix.core.rng.Seed` and its parameters
(``name:key=value,...`` on the command line), and then asked :meth:`Bot.choose` with the
seat's view whenever that seat is to act. It never sees the true state.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import ClassVar, TypeVar

from sixtysix.core.actions import Action
from sixtysix.core.errors import UnknownBotError, shown
from sixtysix.core.rng import MAX_SEED_DIGITS, Seed
from sixtysix.core.view import View


class Bot:
    name: ClassVar[str]
    description: ClassVar[str] = ""
    #: Parameter names this bot accepts, with one-line docs.
    parameters: ClassVar[Mapping[str, str]] = {}
    #: Set by the plugin manager.
    plugin: ClassVar[str] = ""

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        self.seat = seat
        params = dict(params or {})
        unknown = set(params) - set(self.parameters)
        if unknown:
            valid = ", ".join(self.parameters) or "none"
            raise UnknownBotError(
                f"bot {self.name!r} has no parameter {shown(sorted(unknown)[0])};"
                f" parameters: {valid}"
            )
        self.params = params
        own = parsed_param(
            params,
            "seed",
            lambda text: parse_integer(text, MAX_SEED_DIGITS),
            f"an integer of at most {MAX_SEED_DIGITS} digits",
        )
        self.seed = seed if own is None else Seed(own)

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``."""
        raise NotImplementedError


# ---------------------------------------------------------------------- parameters
# Every bot's parameters arrive as text; these turn them into values, with one-line errors
# that name the parameter. Numbers are written in ASCII (``int()`` and ``float()`` would also
# read ``٣``), are finite, and have a largest value, so no parameter can ask for a search
# that never ends.

T = TypeVar("T")
N = TypeVar("N", int, float)

#: The largest integer parameter unless a bot sets its own (``int_param(high=...)``).
MAX_INT_PARAM = 10_000_000
#: The largest number parameter unless a bot sets its own (``float_param(high=...)``).
MAX_FLOAT_PARAM = 1_000_000.0
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")


def parse_integer(text: str, digits: int = 1000) -> int:
    """An integer in ASCII digits, at most ``digits`` of them, else ValueError."""
    text = text.strip()
    if not _INT.fullmatch(text) or len(text.lstrip("+-")) > digits:
        raise ValueError(text)
    return int(text)


def parse_number(text: str) -> float:
    """A finite number in ASCII (``0.5``, ``1e-3``), else ValueError."""
    if not _FLOAT.fullmatch(text.strip()):
        raise ValueError(text)
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def parsed_param(
    params: Mapping[str, str], name: str, convert: Callable[[str], T], kind: str
) -> T | None:
    """Parameter ``name`` converted by ``convert`` (None if not given), with a one-line error
    naming it and the ``kind`` of value it takes when it is not one."""
    text = params.get(name)
    if text is None:
        return None
    try:
        return convert(text)
    except ValueError:
        raise UnknownBotError(f"bot parameter {name} must be {kind}, not {shown(text)}") from None


def int_param(
    params: Mapping[str, str], name: str, default: int, low: int = 1, high: int = MAX_INT_PARAM
) -> int:
    """An integer bot parameter from ``low`` to ``high``, with a one-line error naming it and
    the limit when it is not one."""
    value = parsed_param(params, name, parse_integer, "an integer")
    if value is None:
        return default
    return _within(name, value, low, high)


def _within(name: str, value: N, low: N, high: N) -> N:
    if value < low:
        raise UnknownBotError(f"bot parameter {name} must be at least {low}, not {shown(value)}")
    if value > high:
        raise UnknownBotError(f"bot parameter {name} must be at most {high}, not {shown(value)}")
    return value


def probability_param(params: Mapping[str, str], name: str, default: float) -> float:
    """A probability parameter, with a one-line error naming it when it is not one."""
    kind = "a number from 0 to 1"
    value = parsed_param(params, name, parse_number, kind)
    if value is None:
        return default
    if not 0.0 <= value <= 1.0:
        raise UnknownBotError(f"bot parameter {name} must be {kind}, not {shown(params[name])}")
    return value


def float_param(
    params: Mapping[str, str], name: str, default: float, high: float = MAX_FLOAT_PARAM
) -> float:
    """A number parameter from 0 to ``high``, with a one-line error naming it and the limit
    when it is not one."""
    value = parsed_param(params, name, parse_number, "a number")
    if value is None:
        return default
    return _within(name, value, 0.0, high)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``expert:samples=64,seed=3`` -> ``("expert", {"samples": "64", "seed": "3"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UnknownBotError(f"bot parameters are given as key=value, not {shown(item)}")
        params[key.strip().lower()] = value.strip()
    return name.strip().lower(), params
