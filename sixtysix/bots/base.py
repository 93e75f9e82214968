"""The base class of computer players.

A bot is constructed for one seat with a :class:`~sixtysix.core.rng.Seed` and its parameters
(``name:key=value,...`` on the command line), and then asked :meth:`Bot.choose` with the
seat's view whenever that seat is to act. It never sees the true state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

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
        if "seed" in params:
            try:
                seed = Seed(int(params["seed"]))
            except ValueError:
                raise UnknownBotError(
                    f"bot seed must be an integer, not {params['seed']!r}"
                ) from None
        self.seed = seed

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``."""
        raise NotImplementedError


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
