"""Tiny bots for the simulator's tests, registered through the plugin hook like any other.

They live in an importable module (not inside a test function) because worker processes
receive bot classes by pickle, that is, by module and name.
"""

from __future__ import annotations

from collections.abc import Callable

from sixtysix.bots.base import Bot
from sixtysix.core.actions import ACTIONS, CLOSE, Action
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


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(FirstBot)
    register(CloserBot)
