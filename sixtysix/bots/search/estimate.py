"""Perfect-information Monte Carlo (PIMC): sample the hidden cards, solve each deal, average.

For each legal action :func:`estimate` finds the game points it leads to by imagining complete
deals consistent with a seat's view (:mod:`sixtysix.bots.inference.sampling`), searching each
with all cards face up (:mod:`sixtysix.bots.search.solver`), and averaging; the action with the
best average is :meth:`SearchEstimate.best`. This is the classic determinization player
(:mod:`sixtysix.bots.players.pimc` plays exactly this): strong wherever card play is mostly a
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

Why a module of its own, apart from the ``pimc`` bot: the budget, the estimate and the tally
are the search every player above the rule player shares (the expert, its play-outs
(:mod:`sixtysix.bots.search.rollouts`), its three- and four-player table play, the analysis).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.search.solver import EXACT, Solver, fast_copy
from sixtysix.bots.search.stakes import Stakes
from sixtysix.core.actions import CLOSE
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

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
    #: opponent who may also err (see :data:`sixtysix.bots.players.expert.TIE_MIX`). Higher wins.
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
    stakes: Stakes | None = None,
) -> SearchEstimate:
    """Mean value of each legal action of ``view`` over imagined deals (see the module doc).

    Values are in game points for the view's seat: its side's minus the other side's, or with
    ``stakes`` each deal's worth in the match (:mod:`sixtysix.bots.search.stakes`).
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
        if stakes is not None:
            values = stakes.values(values, state.sides)
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
