"""A yardstick, not a player: the all-seeing player, who sees every card and searches the true
deal, in every variant (two, three and four players).

It makes each decision as the expert would if its one imagined deal were the true one: the
project's own searches, handed the true state (hands, talon order, hidden partner) instead of a
sampler's guesses. Two players (66, Schnapsen): the compiled alpha-beta of
:mod:`sixtysix.bots.compiled` on the true deal, iterative deepening to the end of the deal
within :data:`NODES` nodes, ties in solved positions broken as the expert breaks them
(``TIE_MIX``). Three and four players: the generic alpha-beta (:mod:`sixtysix.bots.search.solver`)
solves the true deal exactly once it is small (:data:`SOLVABLE_TRICKS` tricks left in hand);
before that (the trump call, the partner call or solo, the concession, long card play) each
action is played out to the end of the true deal by the rule player in every seat, each seat
seeing only its own view of it, as the expert's rollouts do on its imagined deals.

With ``sees=calls`` it looks at the true deal only for the calls (:func:`is_call`: naming trump,
a partner's ace or solo, the declarer's concession before the first card) and plays as the rule
player elsewhere; with ``sees=play``, the other way round. The two split the ceiling's edge
between what seeing the cards is worth at the calls and in the card play.

How it sees: ``_watched.Watched`` wraps the duel's variant and remembers the state of the
game being played (every driver deals through ``variant.new_deal``); :class:`AllSeeing` reads
it at each decision (``_watched.watched_state``), which checks that it is the game of the view
it was asked with. It is never registered as a bot: only the benchmarks construct it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import ClassVar

from benchmarks.strength._split import PARTS, in_part
from benchmarks.strength._watched import watched_state
from sixtysix.bots.base import Bot, int_param
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.players.expert import (
    TIE_MIX,
    compiled_estimate,
    compiled_search_for,
    rollout_policy,
)
from sixtysix.bots.players.heuristic import decide
from sixtysix.bots.search.estimate import Budget, SearchEstimate, estimate
from sixtysix.bots.search.rollouts import rollout_estimate
from sixtysix.bots.search.solver import EXACT, fast_copy
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.view import View

#: Search nodes per decision (the oracle's budget, two players; the generic search's with more).
NODES = 300_000
#: Cards in hand up to which a three- or four-player deal is solved exactly on the true deal
#: (one deal, not the expert's 48, so it can afford a trick more than the expert's four).
SOLVABLE_TRICKS = 5

#: Levels of nested play-outs (three and four players): in the play-outs of level 2 the seat's
#: own later moves are level 1's, each played out by the rule player.
LEVEL = 1

#: Where the all-seeing player looks at the true deal (``sees``): everywhere, only for the calls,
#: or only in the card play (the rule player's moves elsewhere).
SEES = ("all", *PARTS)


class TrueDeal(Sampler):
    """A "sampler" that knows: its one layout is the true deal (a fresh copy each time)."""

    def __init__(self, view: View, state: DealState) -> None:  # no Sampler.__init__: no guessing
        self.view = view
        self.variant = state.variant
        self.rules = view.rules
        self.n = view.seats
        self.seat = view.seat
        self.count = 1
        self.orders = 1
        self.state = state

    def sample(self, stream: Stream, check: bool = False) -> DealState:
        return fast_copy(self.state)

    def layouts(self) -> Iterator[DealState]:
        yield fast_copy(self.state)


class _PlaysOn(Bot):
    """The all-seeing player one level down, for its own seat in a play-out of ``root``: the
    play-out's true state is ``root`` with the view's later actions replayed on it."""

    name = "all-seeing-below"
    parameters: ClassVar[Mapping[str, str]] = {}

    def __init__(self, seat: int, root: DealState, stream: Stream, nodes: int, level: int) -> None:
        super().__init__(seat, Seed(0))
        self.root, self.stream, self.nodes, self.level = root, stream, nodes, level
        self.state = fast_copy(root)

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        seen = [(seat, int(action)) for seat, action in view.history]
        start = len(self.root.history)
        if seen[:start] != self.root.history:
            raise RuntimeError("all-seeing: a play-out that does not start from its root")
        if self.state.history != seen[: len(self.state.history)]:
            self.state = fast_copy(self.root)  # the next play-out
        for _, action in seen[len(self.state.history) :]:
            self.state.apply(action)
        found = true_estimate(view, self.state, self.stream, self.nodes, self.level)
        return ACTIONS[found.best()]


def true_estimate(
    view: View, state: DealState, stream: Stream, nodes: int = NODES, level: int = 1
) -> SearchEstimate:
    """The value of each legal action of ``view`` on the true deal ``state`` (see the module
    doc for which search when). ``level`` 2 and more: in the play-outs, the seat's own later
    moves are the all-seeing player's of the level below (nested play-outs), not the rule
    player's."""
    truth = TrueDeal(view, state)
    budget = Budget(samples=1, nodes=nodes, depth=EXACT, enumerate_up_to=1)
    if view.seats == 2 and view.phase == Phase.PLAY:
        search = compiled_search_for(state.variant)
        if search is not None:
            return compiled_estimate(
                view, budget, stream, truth, search, time.perf_counter, tie_mix=TIE_MIX
            )
    if view.phase == Phase.PLAY and len(view.hand) <= SOLVABLE_TRICKS:
        return estimate(view, budget, stream, sampler=truth)
    rule_players = rollout_policy(view.seats)
    assert rule_players is not None
    policy = list(rule_players)
    if level > 1:
        policy[view.seat] = _PlaysOn(view.seat, state, stream, nodes, level - 1)
    draws = [(fast_copy(state), 1)]
    return rollout_estimate(view, budget, stream, truth, policy, time.perf_counter, draws)


class AllSeeing(Bot):
    """The all-seeing player (a benchmark's cheat; never registered as a bot)."""

    name = "all-seeing"
    description = "a yardstick (benchmarks only): sees every card, searches the true deal"
    parameters: ClassVar[Mapping[str, str]] = {
        "nodes": f"search nodes per decision (default {NODES})",
        "level": f"nested play-outs, three and four players (default {LEVEL}; 1: rule players)",
        "sees": "where it sees the true deal: all (default), calls or play (the rule player's"
        " moves elsewhere)",
        "seed": "an integer seed of its own",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.nodes = int_param(self.params, "nodes", NODES)
        self.level = int_param(self.params, "level", LEVEL, high=3)
        self.sees = self.params.get("sees", SEES[0])
        if self.sees not in SEES:
            raise UnknownBotError(f"sees must be one of {', '.join(SEES)}, not {self.sees!r}")
        self.stream = self.seed.stream(("bot", seat, self.name))
        #: The last estimate, for tests.
        self.last: SearchEstimate | None = None

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.sees != "all" and not in_part(view, self.sees):
            return decide(view)  # where it does not look, the rule player's move
        self.last = true_estimate(view, watched_state(view), self.stream, self.nodes, self.level)
        return ACTIONS[self.last.best()]
