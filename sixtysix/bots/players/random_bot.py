"""The random player: a uniformly random legal action, reproducible under a seed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, TypeVar

from sixtysix.bots.base import Bot
from sixtysix.core.actions import Action
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl

T = TypeVar("T")


class RandomBot(Bot):
    """Picks action ``k`` of the legal actions (in engine order) with ``k`` = next word mod count.

    The rule is spelled out because the vectorised simulator reproduces it exactly.
    """

    name = "random"
    description = "uniformly random legal actions (a baseline)"
    parameters: ClassVar[Mapping[str, str]] = {"seed": "an integer seed of its own"}

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.stream = self.seed.stream(("bot", seat))

    def choose(self, view: View) -> Action:
        return self.pick(view.legal_actions)

    def pick(self, legal: Sequence[T]) -> T:
        """The choice among ``legal`` (also used by the simulator without building a view)."""
        return legal[self.stream.next_word() % len(legal)]


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(RandomBot)
