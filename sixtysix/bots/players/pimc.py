"""The ``pimc`` bot: perfect-information Monte Carlo as a player.

It plays :func:`~sixtysix.bots.search.estimate.estimate` with its own
:class:`~sixtysix.bots.search.estimate.Budget` (see that module for how the search values each
action, and what the budget counts): the action with the best average over the imagined deals,
closing the talon only when closing came out ahead in most of them. Its parameters
(``samples``, ``nodes``, ``time``, ``depth``, ``confidence``) set the budget; the expert
(:mod:`sixtysix.bots.players.expert`) builds on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from sixtysix.bots.base import Bot, int_param, probability_param
from sixtysix.bots.search.estimate import Budget, SearchEstimate, estimate
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl

# ---------------------------------------------------------------------- parameters


#: The longest ``time`` parameter: an hour per move.
MAX_TIME_MS = 3_600_000


def budget_from(params: Mapping[str, str], default: Budget) -> Budget:
    """The budget of a bot: its defaults overridden by ``samples``, ``nodes``, ``time``,
    ``depth`` and ``confidence`` parameters."""
    time_ms: float | None = default.time_ms
    if "time" in params:
        time_ms = float(int_param(params, "time", 1, high=MAX_TIME_MS))
    return Budget(
        samples=int_param(params, "samples", default.samples),
        nodes=int_param(params, "nodes", default.nodes),
        time_ms=time_ms,
        depth=int_param(params, "depth", default.depth),
        enumerate_up_to=default.enumerate_up_to,
        close_confidence=probability_param(params, "confidence", default.close_confidence),
    )


BUDGET_PARAMETERS: Mapping[str, str] = {
    "samples": "deals imagined per move (default {samples})",
    "nodes": "search nodes per move, shared by the deals (default {nodes})",
    "time": "wall-clock cap per move in milliseconds (off by default; not reproducible)",
    "depth": "deepest horizon in tricks for deals too large to solve (default: none)",
    "confidence": (
        "share of the imagined deals a close of the talon must win where they were searched"
        " face up (default {confidence})"
    ),
    "seed": "an integer seed of its own",
}


def describe_parameters(default: Budget) -> dict[str, str]:
    return {
        k: v.format(
            samples=default.samples, nodes=default.nodes, confidence=default.close_confidence
        )
        for k, v in BUDGET_PARAMETERS.items()
    }


# ---------------------------------------------------------------------- the bot


class PimcBot(Bot):
    """Determinization: sample deals consistent with the view, solve each, best average."""

    name = "pimc"
    description = "samples the hidden cards, solves each deal by alpha-beta, best average"
    default_budget: ClassVar[Budget] = Budget()
    parameters: ClassVar[Mapping[str, str]] = describe_parameters(Budget())

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.budget = budget_from(self.params, self.default_budget)
        self.stream = self.seed.stream(("bot", seat, self.name))
        #: The last search, for inspection (tests, analysis tools).
        self.last: SearchEstimate | None = None

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        self.last = estimate(view, self.budget, self.stream)
        return ACTIONS[self.last.best(self.budget.close_confidence)]


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(PimcBot)
