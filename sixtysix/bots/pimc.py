"""Perfect-information Monte Carlo (PIMC): sample the hidden cards, solve each deal, average.

For each legal action the bot estimates the game points it leads to by imagining complete
deals consistent with its view (:mod:`sixtysix.bots.sampling`), searching each with all cards
face up (:mod:`sixtysix.bots.solver`), and averaging. It then plays the action with the best
average. This is the classic determinization player: strong wherever card play is mostly a
matter of counting and timing, with the known blind spot that each imagined deal is solved as
if the hidden cards were visible.

Two corrections to plain averaging: an action that ends the deal at once (a marriage or a
claim that reaches 66) wins a tie, its value being certain; and closing the talon must come
out ahead in most deals (``close_confidence``), because solving a deal face up flatters the
closer more than any other choice.

Budgets. A move costs at most ``samples`` imagined deals and ``nodes`` search nodes in total
(shared out evenly between the deals); both are counts, so a seeded bot makes exactly the same
choices on any machine. Each deal is searched by iterative deepening, one trick deeper at a
time, until it is solved to the end or its share of nodes runs out; positions too large to
solve are then valued by the deepest search that finished. ``time`` (milliseconds) adds a
wall-clock cap on top; it makes the bot faster on a slow machine but its choices then depend
on the machine's speed, so it is off by default.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from sixtysix.bots.base import Bot, int_param, probability_param
from sixtysix.bots.sampling import Sampler
from sixtysix.bots.solver import EXACT, Solver, fast_copy
from sixtysix.core.actions import ACTIONS, CLOSE, Action
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl

Clock = Callable[[], float]


@dataclass(frozen=True)
class Budget:
    """What one decision may cost. Counts are reproducible; ``time_ms`` is a wall-clock cap."""

    samples: int = 12
    nodes: int = 12_000
    time_ms: float | None = None
    #: Deepest horizon, in tricks, for deals too large to solve (``EXACT``: no limit).
    depth: int = EXACT
    #: Average over every consistent deal instead of a sample when there are at most this
    #: many (0: always sample).
    enumerate_up_to: int = 0
    #: Close the talon only when closing came out ahead in this share of the deals.
    close_confidence: float = 0.9


@dataclass(frozen=True)
class SearchEstimate:
    """The outcome of a search: each action's mean value over the deals searched."""

    values: dict[int, float]
    #: Share of the deals in which each action came out ahead (value above zero).
    wins: dict[int, float]
    deals: int
    #: True when every deal was solved to its end and the deals were all consistent ones.
    exact: bool
    complete: bool
    nodes: int
    #: How the values were found: ``"search"`` (alpha-beta on each deal), ``"rollouts"``
    #: (each deal played out), or ``"blend"`` (the mean of both, by the expert).
    method: str = "search"
    #: Actions that ended the deal at once on every deal searched: their value is certain.
    certain: frozenset[int] = frozenset()
    #: The probability, read from their play, with which the other seats were expected to
    #: play at random rather than well (0: the best reply was always expected).
    chance: float = 0.0
    #: True when every deal searched was solved to its end (sampled or not): each value is
    #: then exact on its deal, an average of final scores rather than of horizon estimates.
    solved: bool = False
    #: For the actions tied at the best value, when ties were broken: their value against an
    #: opponent who may also err (see :data:`sixtysix.bots.expert.TIE_MIX`). Higher wins.
    tiebreak: Mapping[int, float] = field(default_factory=dict)

    def best(self, close_confidence: float = 0.0) -> int:
        """The action with the best mean value.

        Ties go first to an action whose value is certain (it ends the deal now: a marriage
        or a trick that reaches 66 is worth more than play that only wins against the imagined
        opponents), then to the better :attr:`tiebreak`, then to the action ahead in more
        deals, then to engine order.

        With ``close_confidence``, closing the talon is chosen only if it came out ahead in at
        least that share of the deals. Each imagined deal is solved as if the closer could see
        the opponent's hand, which flatters closing more than anything else (the strict play
        after a close is exactly where that knowledge counts), and a failed close costs two or
        three game points.
        """
        values = self.values
        doubtful = CLOSE in values and self.wins[CLOSE] < close_confidence
        if doubtful and len(values) > 1:
            values = {a: v for a, v in values.items() if a != CLOSE}
        top = max(values.values())
        tied = [a for a, v in values.items() if v >= top - 1e-9]
        # An action the tie-break did not value (none was, or closing was set aside) comes last.
        tiebreak = self.tiebreak
        unvalued = -math.inf
        return min(
            tied,
            key=lambda a: (a not in self.certain, -tiebreak.get(a, unvalued), -self.wins[a], a),
        )


class Tally:
    """Each action's values summed over imagined deals, and what :class:`SearchEstimate` reports.

    Shared by every way of valuing deals (search, compiled search, rollouts), so that the
    means, the share of deals ahead and the actions certain to end the deal are worked out
    alike. A deal may stand for several draws (``times``) when deals are resampled by weight.
    """

    def __init__(self, legal: Sequence[int]) -> None:
        self.legal = list(legal)
        self.sums = dict.fromkeys(self.legal, 0.0)
        self.ahead = dict.fromkeys(self.legal, 0)
        self.at_once = dict.fromkeys(self.legal, 0)
        self.done = 0

    def add(self, values: Mapping[int, float], final: Collection[int], times: int = 1) -> None:
        """One deal's value of each action; ``final``: the actions that ended it at once."""
        for a in self.legal:
            v = values[a]
            self.sums[a] += v * times
            self.ahead[a] += (v > 0) * times
            self.at_once[a] += (a in final) * times
        self.done += times

    def estimate(
        self, complete: bool, nodes: int, method: str, solved: bool = False
    ) -> SearchEstimate:
        """The means so far; exact when every deal was solved and they were all the consistent
        ones (``complete``)."""
        done = self.done
        return SearchEstimate(
            {a: self.sums[a] / done for a in self.legal},
            {a: self.ahead[a] / done for a in self.legal},
            done,
            solved and complete,
            complete,
            nodes,
            method=method,
            certain=frozenset(a for a in self.legal if self.at_once[a] == done),
            solved=solved,
        )


def estimate(
    view: View,
    budget: Budget,
    stream: Stream,
    variant: Variant | None = None,
    clock: Clock = time.perf_counter,
    sampler: Sampler | None = None,
    draws: Sequence[tuple[DealState, int]] | None = None,
) -> SearchEstimate:
    """Mean value of each legal action of ``view`` over imagined deals (see the module doc).

    Values are in game points for the view's seat: its side's minus the other side's.
    ``draws``: the deals to search, each with the number of draws it stands for (deals
    weighed by the other seats' play), instead of a sample or every consistent deal.
    """
    legal = [int(a) for a in view.legal_actions]
    if not legal:
        raise ValueError("the seat has no action to choose")
    start = clock()
    deadline = None if budget.time_ms is None else start + budget.time_ms / 1000.0
    if sampler is None:
        sampler = Sampler(view, variant)
    total_layouts = sampler.count * sampler.orders
    complete = total_layouts <= max(1, budget.enumerate_up_to)
    weights: list[int] | None = None
    if complete:
        deals = list(sampler.layouts())
        draw = None
    elif draws is not None:
        deals = [d for d, _ in draws]
        weights = [k for _, k in draws]
        draw = None
    else:
        deals = []
        draw = sampler
    planned = len(deals) if draw is None else max(1, budget.samples)
    per_deal = max(1, budget.nodes // planned)
    tally = Tally(legal)
    nodes = 0
    exact = True
    for i in range(planned):
        state = deals[i] if draw is None else draw.sample(stream)
        final = [a for a in legal if ends_at_once(state, a)]
        solver = Solver(view.seat, node_limit=per_deal)
        values, solved = solver.iterative_values(state, budget.depth, legal)
        nodes += solver.nodes
        exact = exact and solved
        tally.add(values, final, 1 if weights is None else weights[i])
        if deadline is not None and clock() >= deadline:
            break
    solved = exact and tally.done == (planned if weights is None else sum(weights))
    return tally.estimate(complete, nodes, "search", solved)


def ends_at_once(state: DealState, action: int) -> bool:
    """Whether ``action`` ends the deal right away on this deal."""
    child = fast_copy(state)
    child.apply_legal(action)
    return child.phase == Phase.OVER


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
