"""A prototype, not a registered bot: information-set Monte Carlo tree search (ISMCTS).

Issue 6 names ISMCTS as a way to a stronger expert "if it measures stronger"; this is the
measurement's player (``ismcts.py``; figures in ``benchmarks/README.md``). It is the
single-observer form (Cowling, Powley and Whitehouse, 2012) for the two-player games the
compiled search plays (66, Schnapsen):

- every iteration draws one deal consistent with the seat's view (the expert's
  :class:`~sixtysix.bots.sampling.Sampler`) and walks one tree with it, so the statistics of a
  node pool every deal in which its actions were legal ("availability" in the UCB term);
- an edge is an action of whoever is to act; it leads to one node per observation of the
  searching seat (its own hand after the action and the draws), so that the seat does not
  plan as if it knew what it will draw;
- the other seat picks its edges by UCB on its own values (game points are zero-sum), or with
  probability ``mix`` a uniformly random legal action, as against a random player;
- a new leaf is valued by the compiled one-trick search and its fitted evaluation (the
  expert's own evaluation; with ``mix`` expecting random replies), a finished deal by its
  score;
- the action with the most visits is played; with ``margin`` above 0 the rule player's move
  (the expert's advisor) is kept unless the tree rates another at least that much higher.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

from sixtysix.bots.base import Bot, float_param, int_param, probability_param
from sixtysix.bots.compiled import CompiledSearch
from sixtysix.bots.expert import advisor_weights, compiled_search_for
from sixtysix.bots.heuristic import decide
from sixtysix.bots.sampling import Sampler
from sixtysix.bots.solver import deal_value, fast_copy
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.view import View

#: Per-move budget: milliseconds, unless ``iterations`` is given (then reproducible).
MOVE_MS = 80
EXPLORATION = 1.5
LEAF_NODES = 400


class Edge:
    """An action's statistics, for the seat that takes it, and where it leads."""

    __slots__ = ("avail", "n", "next", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 1
        #: The searcher's hand after the action -> the edges of the node reached.
        self.next: dict[int, dict[int, Edge]] = {}


class IsmctsBot(Bot):
    """Single-observer ISMCTS with compiled leaf values (see the module doc)."""

    name = "ismcts"
    description = "prototype: information-set Monte Carlo tree search (benchmarks only)"
    parameters: Mapping[str, str] = {
        "seed": "own seed",
        "ms": f"milliseconds per move (default {MOVE_MS})",
        "iterations": "iterations per move instead of a time budget (reproducible)",
        "c": f"UCB exploration constant, in game points (default {EXPLORATION})",
        "leaf": f"compiled search nodes per new leaf (default {LEAF_NODES})",
        "mix": "probability that the other seat plays a random legal action (default 0)",
        "margin": "game points by which the tree must beat the rule player's move (default 0)",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.ms = int_param(self.params, "ms", MOVE_MS)
        self.iterations = int_param(self.params, "iterations", 0, low=0)
        self.c = float_param(self.params, "c", EXPLORATION)
        self.leaf = int_param(self.params, "leaf", LEAF_NODES)
        self.mix = probability_param(self.params, "mix", 0.0)
        self.margin = float_param(self.params, "margin", 0.0)
        self.stream = self.seed.stream(("bot", seat, self.name))
        self.search: CompiledSearch | None = None
        #: Iterations of each search, for inspection.
        self.done: list[int] = []

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        sampler = Sampler(view)
        if self.search is None:
            self.search = compiled_search_for(sampler.variant)
            if self.search is None:
                raise RuntimeError("ismcts needs numba and a two-player game of 66's family")
        root = self.grow(view.seat, sampler)
        best = max(root, key=lambda a: root[a].n)
        if self.margin > 0:
            advice = int(decide(view, advisor_weights(view)))
            mine, theirs = root[best], root.get(advice)
            if theirs is not None and mine.w / mine.n < theirs.w / theirs.n + self.margin:
                best = advice
        return ACTIONS[best]

    def grow(self, me: int, sampler: Sampler) -> dict[int, Edge]:
        """The tree's root edges after this move's iterations."""
        search = self.search
        assert search is not None
        stream, c, mix = self.stream, self.c, self.mix
        log, sqrt = math.log, math.sqrt
        root: dict[int, Edge] = {}
        deadline = time.perf_counter() + self.ms / 1000.0
        done = 0
        while True:
            state = fast_copy(sampler.sample(stream))
            edges = root
            path: list[tuple[Edge, float]] = []
            value: float | None = None
            while state.phase != Phase.OVER:
                options = state.legal_actions()
                actor = state.to_act
                sign = 1.0 if actor == me else -1.0
                pick = -1
                if actor != me and mix > 0 and stream.random() < mix:
                    pick = options[stream.below(len(options))]
                    new = pick not in edges
                else:
                    untried = []
                    top = -math.inf
                    for a in options:
                        e = edges.get(a)
                        if e is None:
                            untried.append(a)
                            continue
                        e.avail += 1  # available in this deal: counted, tried or not
                        score = e.w / e.n + c * sqrt(log(e.avail) / e.n)
                        if score > top:
                            pick, top = a, score
                    new = bool(untried)
                    if new:
                        pick = untried[stream.below(len(untried))]
                edge = edges.setdefault(pick, Edge())
                state.apply_legal(pick)
                path.append((edge, sign))
                if new:
                    if state.phase != Phase.OVER:
                        mover = state.to_act
                        found = search.action_values(state, mover, self.leaf, 1, mix)
                        v = max(found.values.values())
                        value = v if mover == me else -v
                    break
                edges = edge.next.setdefault(state.hands[me], {})
            if value is None:
                value = float(deal_value(state, me))
            for edge, sign in path:
                edge.n += 1
                edge.w += sign * value
            done += 1
            if self.iterations:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        self.done.append(done)
        return root
