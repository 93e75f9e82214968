"""Hints and post-game analysis: every legal action with its expected game points.

:func:`analyse` asks the expert (:func:`sixtysix.bots.players.expert.expert_estimate`) for the value
of *every* legal action of a seat, not only the best: what a hint shows a person, and what a
post-game review compares the action taken with. It works from the seat's view alone, so a
hint never gives away a hidden card.

Values are expected game points for the seat's side minus the other side's (``+1.0``: on
average the side wins one game point more than it loses from here). They are exact when the
result says so (``exact``): every consistent deal was solved to the end. They always assume
the other seats reply at their best: unlike the playing expert, analysis does not judge
whether the opponent plays at random (a hint should not bet on the other player's blunders).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

from sixtysix.bots.players.expert import expert_estimate
from sixtysix.bots.search.estimate import Budget, Clock
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import SixtySixError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

#: Analysis can afford more than a move in play: a person waits for a hint, not a bot.
ANALYSIS_BUDGET = Budget(samples=48, nodes=600_000, depth=1, enumerate_up_to=64)


class AnalysisError(SixtySixError, ValueError):
    """A view that cannot be analysed (its seat is not to act)."""


class ActionValue(NamedTuple):
    """One legal action and its expected game points (own side minus the other side)."""

    action: Action
    value: float


@dataclass(frozen=True)
class Analysis:
    """The values of every legal action, best first, and how they were obtained."""

    values: tuple[ActionValue, ...]
    #: Deals searched (imagined, or every consistent one).
    deals: int
    #: True when the values are exact for the seat's information.
    exact: bool

    @property
    def best(self) -> ActionValue:
        return self.values[0]


def analyse(
    view: View,
    *,
    samples: int | None = None,
    nodes: int | None = None,
    time_ms: float | None = None,
    seed: Seed | int | None = None,
    variant: Variant | None = None,
    clock: Clock = time.perf_counter,
) -> list[ActionValue]:
    """Every legal action of ``view`` with its expected game points, best first.

    ``samples``, ``nodes`` and ``time_ms`` override the analysis budget; ``seed`` makes the
    sampling reproducible (a secure random seed otherwise). Ties keep the engine's order.
    """
    return list(
        analyse_position(
            view,
            samples=samples,
            nodes=nodes,
            time_ms=time_ms,
            seed=seed,
            variant=variant,
            clock=clock,
        ).values
    )


def analyse_position(
    view: View,
    *,
    samples: int | None = None,
    nodes: int | None = None,
    time_ms: float | None = None,
    seed: Seed | int | None = None,
    variant: Variant | None = None,
    clock: Clock = time.perf_counter,
) -> Analysis:
    """Like :func:`analyse`, with how many deals were searched and whether it is exact."""
    if not view.legal_actions:
        raise AnalysisError(
            f"seat {view.seat} has nothing to choose"
            + (": the deal is over" if view.is_over else f" (seat {view.to_act} is to act)")
        )
    budget = Budget(
        samples=samples if samples is not None else ANALYSIS_BUDGET.samples,
        nodes=nodes if nodes is not None else ANALYSIS_BUDGET.nodes,
        time_ms=time_ms,
        enumerate_up_to=ANALYSIS_BUDGET.enumerate_up_to,
    )
    root = seed if isinstance(seed, Seed) else Seed(seed)
    stream = root.stream(("analysis", view.seat, len(view.history)))
    result = expert_estimate(view, budget, stream, variant=variant, clock=clock)
    ranked = sorted(result.values.items(), key=lambda item: (-item[1], item[0]))
    return Analysis(
        tuple(ActionValue(ACTIONS[a], v) for a, v in ranked), result.deals, result.exact
    )
