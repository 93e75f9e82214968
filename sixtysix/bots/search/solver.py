"""Perfect-information search of one deal: alpha-beta on the game points it will score.

Given a complete :class:`~sixtysix.core.state.DealState` (a real deal, or one imagined by
:mod:`sixtysix.bots.inference.sampling`), :class:`Solver` finds the value of the deal for one
seat when every seat plays perfectly with all cards face up. The value is what a deal is played for:
the game points the seat's side will score minus those of the other side (``+2`` for a win
keeping the loser under 33, ``-1`` for a loss at 33 or more, ``0`` for a draw), not card
points. Seats of the searching seat's side maximise it, the others minimise it.

The search is generic: it only calls the engine (``legal_actions``, ``copy``, ``apply_legal``)
and lets the variant score the end (``Variant.settle``), so it plays every variant built on
the engine, third-party ones included. To be fast enough in pure Python it uses

- a transposition table keyed on a compact tuple of everything that decides the rest of the
  deal (hands, talon, trick, tallies; not the history), holding bounds and the best action;
- move ordering: the table's best action, then cheap heuristics (marriages and claims first,
  leads from the top, the cheapest winning card when following);
- an optional horizon in tricks with a static evaluation (:func:`evaluate`), and a node
  budget, for positions too large to solve exactly in time (iterative deepening in
  :meth:`Solver.iterative_values`);
- a copy of the state made by generated code (:func:`fast_copy`), copying being most of a
  node's cost.

Adjacent cards are *not* merged as equivalent, as bridge solvers do: here they differ in card
points (and kings and queens in marriages), so they are not interchangeable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sixtysix.bots.search.search_evaluation import (
    WEIGHTS,
    deal_value,
    evaluate,
    features,
    hand_made_evaluation,
    weights_for,
)
from sixtysix.bots.search.state_copy import fast_copy
from sixtysix.core.actions import CLAIM, CLOSE, CONCEDE, EXCHANGE, MARRY
from sixtysix.core.cards import NUM_CARDS, POINTS
from sixtysix.core.state import DealState, Phase

#: A horizon deep enough for any deal: the search then ends only at the end of the deal.
EXACT = 1000

Evaluator = Callable[[DealState, int], float]


class BudgetExhausted(Exception):
    """Raised inside a search when its node budget is spent."""


def remaining_tricks(state: DealState) -> int:
    """An upper bound on the tricks still to be completed (a closed talon is out of play)."""
    cards = sum(h.bit_count() for h in state.hands) + len(state.trick)
    if state.closed_by < 0:
        cards += len(state.talon) + (state.turnup >= 0)
    n = state.n
    return (cards + n - 1) // n


# ---------------------------------------------------------------------- move ordering

_LEAD_ORDER = tuple(-(POINTS[c] * 8 + c % 6) for c in range(NUM_CARDS))


def _ordered(state: DealState, legal: Sequence[int], first: int) -> list[int]:
    """Legal actions, most promising first (the transposition table's best, if any)."""
    trick = state.trick
    if state.phase != Phase.PLAY:
        out = list(legal)
    elif trick:
        out = _order_follow(state, legal)
    else:
        specials = [a for a in legal if a >= NUM_CARDS]
        cards = [a for a in legal if a < NUM_CARDS]
        cards.sort(key=_LEAD_ORDER.__getitem__)
        # Marriages and claims win points at once; the exchange is nearly always right;
        # closing changes the whole deal, so it is tried after the plain leads.
        front = [a for a in specials if a in (CLAIM, EXCHANGE) or MARRY <= a < MARRY + 4]
        back = [a for a in specials if a in (CLOSE, CONCEDE)]
        out = front + cards + back
    if first >= 0 and first in legal and out[0] != first:
        out.remove(first)
        out.insert(0, first)
    return out


def _order_follow(state: DealState, legal: Sequence[int]) -> list[int]:
    """Following: an exchange (where the rules allow it to a follower) first, as on lead; then
    the cheapest card that takes the trick, then the cheapest discards."""
    trick = state.trick
    trump = state.trump
    best = trick[0][1]
    for _, c in trick[1:]:
        if c // 6 == best // 6:
            if c > best:
                best = c
        elif c // 6 == trump:
            best = c
    front: list[int] = []
    winners: list[int] = []
    losers: list[int] = []
    for a in legal:
        if a == EXCHANGE:
            front.append(a)
        elif a >= NUM_CARDS:
            losers.append(a)
        elif (a // 6 == best // 6 and a > best) or (a // 6 == trump and best // 6 != trump):
            winners.append(a)
        else:
            losers.append(a)
    # Cheapest winner first (trumps after plain cards), then the discard worth least.
    winners.sort(key=lambda c: POINTS[c] if c // 6 != trump else 20 + c % 6)
    losers.sort(key=lambda c: (POINTS[c] if c < NUM_CARDS else 100) * 8 + c % 6)
    return front + winners + losers


# ---------------------------------------------------------------------- the search


class Solver:
    """Alpha-beta search for one seat, with a transposition table kept across calls.

    ``node_limit`` caps the solver's node count, all calls together (:class:`BudgetExhausted`
    when spent; evaluations at the horizon count as nodes); ``evaluator`` values positions at
    the horizon of a depth-limited search.
    """

    def __init__(
        self, seat: int, evaluator: Evaluator = evaluate, node_limit: int | None = None
    ) -> None:
        self.seat = seat
        self.evaluator = evaluator
        self.node_limit = node_limit
        self.nodes = 0
        # key -> (lower bound, upper bound, depth searched, best action)
        self.table: dict[tuple[object, ...], tuple[float, float, int, int]] = {}

    # -------------------------------------------------------------- public API

    def solve(self, state: DealState) -> int:
        """The exact value of ``state`` for the seat (no horizon; may take long)."""
        value = self.search(state, EXACT)
        return int(value)

    def search(
        self,
        state: DealState,
        depth: int = EXACT,
        alpha: float = -100.0,
        beta: float = 100.0,
    ) -> float:
        """The value of ``state`` searched ``depth`` tricks ahead (exact with ``EXACT``)."""
        if state.phase == Phase.OVER:
            return float(deal_value(state, self.seat))
        return self._search(state, alpha, beta, depth)

    def action_values(
        self,
        state: DealState,
        depth: int = EXACT,
        actions: Iterable[int] | None = None,
    ) -> dict[int, float]:
        """The value of each legal action (or of ``actions``) searched ``depth`` tricks ahead."""
        out: dict[int, float] = {}
        for a in state.legal_actions() if actions is None else actions:
            child = fast_copy(state)
            before = state.trick
            child.apply_legal(a)
            d = depth - _completes_trick(before, child, a, state.n)
            out[a] = self._child_value(child, d)
        return out

    def iterative_values(
        self,
        state: DealState,
        max_depth: int = EXACT,
        actions: Sequence[int] | None = None,
    ) -> tuple[dict[int, float], bool]:
        """Action values by iterative deepening within the node budget.

        Every action is first searched one trick ahead (always finished, whatever the budget).
        Then, cheapest first, each action is searched a trick deeper at a time until it is
        solved to the end, ``max_depth`` is reached or its share of what is left of the budget
        runs out; it keeps the value of its deepest finished search, and what it leaves unused
        goes to the actions after it. An action leading to a small game (a close, a claim, a
        strict endgame) is therefore solved exactly while a wide one is cut short. Returns the
        values and whether all of them are exact.
        """
        legal = list(state.legal_actions() if actions is None else actions)
        limit = self.node_limit
        trick = state.trick
        n = state.n
        out: dict[int, float] = {}
        # (-weight, first-pass cost, action, child, completes a trick, tricks to the end)
        pending: list[tuple[int, int, int, DealState, int, int]] = []
        all_exact = True
        try:
            self.node_limit = None
            for a in legal:
                child = fast_copy(state)
                child.apply_legal(a)
                if child.phase == Phase.OVER:
                    out[a] = float(deal_value(child, self.seat))
                    continue
                completes = _completes_trick(trick, child, a, n)
                need = remaining_tricks(child) + completes
                start = self.nodes
                exact = need <= 1
                out[a] = self._child_value(child, EXACT if exact else 1 - completes)
                if not exact:
                    # Strict play (after a close, say) is narrow: solving it to the end is
                    # affordable and worth more than a deeper look at a wide open position.
                    weight = _STRICT_WEIGHT if child.strict and not state.strict else 1
                    pending.append((-weight, self.nodes - start, a, child, completes, need))
            pending.sort(key=lambda item: item[:3])
            weights = sum(-item[0] for item in pending)
            for minus_weight, _, a, child, completes, need in pending:
                depth = 2
                exact = False
                share = 0
                if limit is not None:
                    share = max(0, limit - self.nodes) * -minus_weight // max(1, weights)
                    weights += minus_weight
                while depth <= max_depth:
                    exact = depth >= need
                    if limit is not None:
                        if share <= 0:
                            break
                        self.node_limit = self.nodes + share
                    before = self.nodes
                    try:
                        out[a] = self._child_value(child, EXACT if exact else depth - completes)
                    except BudgetExhausted:
                        exact = False
                        break
                    finally:
                        share -= self.nodes - before
                    if exact:
                        break
                    depth += 1
                all_exact = all_exact and exact
        finally:
            self.node_limit = limit
        return out, all_exact

    # -------------------------------------------------------------- internals

    def _child_value(self, child: DealState, depth: int) -> float:
        if child.phase == Phase.OVER:
            return float(deal_value(child, self.seat))
        if depth <= 0:
            return self.evaluator(child, self.seat)
        return self._search(child, -100.0, 100.0, depth)

    def _key(self, state: DealState) -> tuple[object, ...]:
        return (
            tuple(state.hands),
            tuple(state.talon),
            state.turnup,
            tuple(state.trick),
            state.to_act,
            state.lead_marry,
            tuple(state.card_points),
            tuple(state.tricks),
            tuple(state.marriage_points),
            state.closed_by,
            state.close_points,
            state.close_tricks,
            state.trump,
            tuple(state.sides),
            state.phase,
        )

    def _search(self, state: DealState, alpha: float, beta: float, depth: int) -> float:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetExhausted
        if (
            depth < EXACT
            and depth >= state.hands[state.to_act].bit_count()
            and depth >= remaining_tricks(state)
        ):
            depth = EXACT
        key = self._key(state)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            lo, hi, d, first = entry
            if d >= depth:
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        legal = state.legal_actions()
        if state.phase == Phase.PLAY:
            maximizing = state.sides[state.to_act] == state.sides[self.seat]
        else:
            # Before play (naming trump, calling a partner) only the forehand acts; sides are
            # not formed yet, so another seat's call is searched as if against us.
            maximizing = state.to_act == self.seat
        trick = state.trick
        best_action = -1
        a0, b0 = alpha, beta
        if maximizing:
            best = -1000.0
            for a in _ordered(state, legal, first):
                v = self._searched_child(state, a, trick, alpha, beta, depth)
                if v > best:
                    best = v
                    best_action = a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = 1000.0
            for a in _ordered(state, legal, first):
                v = self._searched_child(state, a, trick, alpha, beta, depth)
                if v < best:
                    best = v
                    best_action = a
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            self.table[key] = (-1000.0, best, depth, best_action)
        elif best >= b0:
            self.table[key] = (best, 1000.0, depth, best_action)
        else:
            self.table[key] = (best, best, depth, best_action)
        return best

    def _searched_child(
        self,
        state: DealState,
        a: int,
        trick: list[tuple[int, int]],
        alpha: float,
        beta: float,
        depth: int,
    ) -> float:
        """The value of playing ``a``: exact at the deal's end, evaluated at the horizon."""
        child = fast_copy(state)
        child.apply_legal(a)
        if child.phase == Phase.OVER:
            return float(deal_value(child, self.seat))
        d = depth - _completes_trick(trick, child, a, state.n)
        if d <= 0:
            self.nodes += 1
            return self.evaluator(child, self.seat)
        return self._search(child, alpha, beta, d)


#: How many times a fair share of the budget a root action leading into strict play gets.
_STRICT_WEIGHT = 6


def _completes_trick(before: list[tuple[int, int]], child: DealState, a: int, n: int) -> int:
    """1 when playing ``a`` completed a trick (the horizon is counted in tricks)."""
    return 1 if a < NUM_CARDS and len(before) == n - 1 else 0


__all__ = [
    "EXACT",
    "WEIGHTS",
    "BudgetExhausted",
    "Solver",
    "deal_value",
    "evaluate",
    "fast_copy",
    "features",
    "hand_made_evaluation",
    "remaining_tricks",
    "weights_for",
]
