"""Tiny bots for the simulator's tests, registered through the plugin hook like any other.

They live in an importable module (not inside a test function) because worker processes
receive bot classes by pickle, that is, by module and name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from sixtysix.bots.base import Bot, int_param
from sixtysix.core.actions import ACTIONS, CLOSE, Action
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl


class FirstBot(Bot):
    """Always the first legal action (engine order): the lowest card, never close or marry."""

    name = "first"
    description = "the first legal action (tests only)"

    def choose(self, view: View) -> Action:
        return view.legal_actions[0]


class CloserBot(Bot):
    """Closes the talon whenever it may, else plays the first legal action: a poor player."""

    name = "closer"
    description = "closes at once (tests only)"

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        return ACTIONS[CLOSE] if CLOSE in legal else legal[0]


class SloppyBot(Bot):
    """Plays the first legal action, but at every ``every``-th position of a deal (counted by
    the actions played so far) answers an action that is not legal: a buggy bot whose faults
    are known in advance."""

    name = "sloppy"
    description = "faults now and then (tests only)"
    parameters: ClassVar[Mapping[str, str]] = {
        "every": "fault when the number of actions so far is a multiple of this",
    }
    crash = False

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.every = int_param(self.params, "every", 5)

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(view.history) % self.every == self.every - 1:
            if self.crash:
                raise RuntimeError("the sloppy bot's bug")
            return next(a for a in ACTIONS if a not in legal)
        return legal[0]


class CrasherBot(SloppyBot):
    """As :class:`SloppyBot`, but raises where that one answers illegally."""

    name = "crasher"
    description = "raises now and then (tests only)"
    crash = True


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(FirstBot)
    register(CloserBot)
    register(SloppyBot)
    register(CrasherBot)
