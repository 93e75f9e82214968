"""The base class of computer players.

A bot is constructed for one seat with a :class:`~sixtysix.core.rng.Seed` and its parameters
(``name:key=value,...`` on the command line), and then asked :meth:`Bot.choose` with the
seat's view whenever that seat is to act. It never sees the true state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, TypeVar

from sixtysix.core.actions import Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
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
                f"bot {self.name!r} has no parameter {sorted(unknown)[0]!r}; parameters: {valid}"
            )
        self.params = params
        own = parsed_param(params, "seed", int, "an integer")
        self.seed = seed if own is None else Seed(own)

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``."""
        raise NotImplementedError


# ---------------------------------------------------------------------- parameters
# Every bot's parameters arrive as text; these turn them into values, with one-line errors
# that name the parameter.

T = TypeVar("T")


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
        raise UnknownBotError(f"bot parameter {name} must be {kind}, not {text!r}") from None


def int_param(params: Mapping[str, str], name: str, default: int, low: int = 1) -> int:
    """An integer bot parameter, with a one-line error naming it when it is not one."""
    value = parsed_param(params, name, int, "an integer")
    if value is None:
        return default
    if value < low:
        raise UnknownBotError(f"bot parameter {name} must be at least {low}, not {value}")
    return value


def probability_param(params: Mapping[str, str], name: str, default: float) -> float:
    """A probability parameter, with a one-line error naming it when it is not one."""
    kind = "a number from 0 to 1"
    value = parsed_param(params, name, float, kind)
    if value is None:
        return default
    if not 0.0 <= value <= 1.0:  # also NaN
        raise UnknownBotError(f"bot parameter {name} must be {kind}, not {params[name]!r}")
    return value


def float_param(params: Mapping[str, str], name: str, default: float) -> float:
    """A non-negative number parameter, with a one-line error naming it when it is not one."""
    value = parsed_param(params, name, float, "a number")
    if value is None:
        return default
    if not value >= 0:  # also NaN
        raise UnknownBotError(f"bot parameter {name} must be at least 0, not {params[name]}")
    return value


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``expert:samples=64,seed=3`` -> ``("expert", {"samples": "64", "seed": "3"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UnknownBotError(f"bot parameters are given as key=value, not {item!r}")
        params[key.strip().lower()] = value.strip()
    return name.strip().lower(), params
