"""Presumed payoffs (Wisser): each imagined deal valued against an opponent who cannot see it.

Perfect-information sampling solves each imagined deal face up, for both seats: the searching
seat plays as if it knew the hidden cards (strategy fusion), and so does the opponent, who
"knows" the searcher's hand and the talon's order. Wisser's presumed-payoff variant of the
method (IJCAI 2015, AAAI workshops 2016) corrects the second error: the opponent's choices are
those of a player who sees only its own cards. What follows is this project's construction of
that idea on its compiled search, not a transcription of his algorithm.

The opponent's *first* decision after each action of the searching seat is presumed that
way. On each imagined deal the opponent's own view is taken; ``deals`` deals consistent with
that view are drawn (every one when there are no more), each searched face up by the compiled
search from the opponent's seat, and the reply with the best mean there is the one it makes.
The action's value on the imagined deal is then that reply's value, searched face up as before.
Where the searching seat decides again before the opponent does (after an exchange, a marriage
or a close, or a trick it won when following), its best continuation counts, as in plain
sampling. A reply is presumed once per view the opponent could have: deals that give it the
same hand share it.

A presumed reply is never better for the opponent than the face-up one, so the values can only
rise, and they rise where the opponent's knowledge mattered: what changes the choice is which
actions leave it a hard guess.
"""

from __future__ import annotations

import math

from sixtysix.bots.compiled import CompiledSearch, SearchResult
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.search.search_evaluation import deal_value
from sixtysix.bots.search.state_copy import fast_copy
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant


class Presumption:
    """Values of one seat's actions on imagined deals of one decision, the opponent's first
    reply presumed from its own view (two players; see the module doc).

    One instance serves one decision: the replies it presumed are kept by the actions that led
    to them and the opponent's hand, which is all the opponent's view adds to the public play.
    """

    def __init__(
        self,
        search: CompiledSearch,
        variant: Variant,
        seat: int,
        deals: int,
        depth: int,
        stream: Stream,
    ) -> None:
        self.search = search
        self.variant = variant
        self.seat = seat
        self.deals = max(1, deals)
        self.depth = depth
        self.stream = stream
        self._replies: dict[tuple[tuple[int, ...], int], int] = {}

    def values(self, deal: DealState, node_limit: int) -> SearchResult:
        """Each legal action's value for the seat on ``deal``, the opponent's first reply
        presumed; ``node_limit`` nodes for each search of a position."""
        values: dict[int, float] = {}
        final: set[int] = set()
        exact = True
        for action in deal.legal_actions():
            child = fast_copy(deal)
            child.apply_legal(action)
            if child.phase == Phase.OVER:
                final.add(action)
            values[action], solved = self._value(child, (action,), node_limit)
            exact = exact and solved
        return SearchResult(values, exact, frozenset(final))

    def _value(
        self, state: DealState, path: tuple[int, ...], node_limit: int
    ) -> tuple[float, bool]:
        """The seat's value of ``state`` (reached by ``path`` from the decision), and whether
        it was searched to the end of the deal."""
        seat = self.seat
        while state.phase != Phase.OVER:
            legal = state.legal_actions()
            if state.to_act == seat:
                best, exact = -math.inf, True
                for action in legal:
                    child = fast_copy(state)
                    child.apply_legal(action)
                    value, solved = self._value(child, (*path, action), node_limit)
                    best = max(best, value)
                    exact = exact and solved
                return best, exact
            if len(legal) > 1:
                other = state.to_act
                found = self.search.action_values(state, other, node_limit, self.depth)
                reply = self._reply(state, other, path, node_limit)
                return -found.values[reply], found.exact
            state = fast_copy(state)
            state.apply_legal(legal[0])
            path = (*path, legal[0])
        return float(deal_value(state, seat)), True

    def _reply(self, state: DealState, other: int, path: tuple[int, ...], node_limit: int) -> int:
        """The reply ``other`` makes from its own view of ``state``: the best mean over the
        deals it can imagine, each searched face up."""
        key = (path, state.hands[other])
        reply = self._replies.get(key)
        if reply is not None:
            return reply
        sampler = Sampler(state.view(other), self.variant)
        if sampler.count * sampler.orders <= self.deals:
            imagined = list(sampler.layouts())
        else:
            imagined = [sampler.sample(self.stream) for _ in range(self.deals)]
        sums: dict[int, float] = {}
        for deal in imagined:
            found = self.search.action_values(deal, other, node_limit, self.depth)
            for action, value in found.values.items():
                sums[action] = sums.get(action, 0.0) + value
        reply = max(sums, key=lambda a: (sums[a], -a))
        self._replies[key] = reply
        return reply
