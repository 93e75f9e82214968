"""Playing each action out on imagined deals: the rule player on every seat, each seeing only
its own view of the deal (the expert's valuation wherever a deal is too long to solve).

Why a module of its own: the two-player expert and the three- and four-player table player
(:mod:`sixtysix.bots.players.table_play`) both value positions this way.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from sixtysix.bots.base import Bot
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.search.estimate import Budget, Clock, SearchEstimate, Tally
from sixtysix.bots.search.solver import deal_value, fast_copy
from sixtysix.bots.search.stakes import Stakes
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.view import View

#: The generic search is about fifteen times slower than the compiled one: where it stands in
#: (no numba, or a game the compiled search does not play) it gets this fraction (1/15) of the
#: nodes.
GENERIC_SHARE = 15
#: Tricks left (cards in the seat's hand) up to which a strict-phase deal is searched by
#: alpha-beta rather than played out: two players, then three or more.
SOLVABLE_TRICKS = (6, 4)


Policy = Sequence[Bot]


def talon_open(view: View) -> bool:
    """Whether cards are still drawn after each trick: a talon left and nobody closed it."""
    return view.talon_size > 0 and view.closed_by is None


def needs_rollouts(view: View, solvable: int | None = None) -> bool:
    """Whether a position is too large to solve on each sampled deal within a move: a call,
    an open talon, or more than ``solvable`` cards in hand (default :data:`SOLVABLE_TRICKS`)."""
    if view.phase != Phase.PLAY:
        return True  # a trump or partner call: the whole deal lies ahead
    if talon_open(view):
        return True  # an open talon: a dozen tricks and unknown draws
    if solvable is None:
        solvable = SOLVABLE_TRICKS[0] if view.seats == 2 else SOLVABLE_TRICKS[1]
    return len(view.hand) > solvable


def rollout_estimate(
    view: View,
    budget: Budget,
    stream: Stream,
    sampler: Sampler,
    policy: Policy,
    clock: Clock = time.perf_counter,
    draws: Sequence[tuple[DealState, int]] | None = None,
    stakes: Stakes | None = None,
) -> SearchEstimate:
    """Mean value of each action when each sampled deal is played out by ``policy``, in game
    points or with ``stakes`` in the match's worth.

    Every action is tried on the same sampled deals (common random numbers), so differences
    between actions are not drowned by the luck of the sample. ``draws``: the deals to play
    out, each with the number of draws it stands for (:func:`weighted_deals`); by default
    ``budget.samples`` uniform draws.
    """
    legal = [int(a) for a in view.legal_actions]
    seat = view.seat
    start = clock()
    deadline = None if budget.time_ms is None else start + budget.time_ms / 1000.0
    tally = Tally(legal)
    moves = 0
    todo: Iterable[tuple[DealState, int]] = (
        ((sampler.sample(stream), 1) for _ in range(max(1, budget.samples)))
        if draws is None
        else draws
    )
    for deal, times in todo:
        if not times:
            continue
        values: dict[int, float] = {}
        final: list[int] = []
        for a in legal:
            state = fast_copy(deal)
            state.apply_legal(a)
            if state.phase == Phase.OVER:
                final.append(a)
            while state.phase != Phase.OVER:
                options = state.legal_actions()
                if len(options) == 1:
                    state.apply_legal(options[0])  # forced: no need to ask (or build a view)
                else:
                    actor = state.to_act
                    state.apply(policy[actor].choose(state.view(actor)))
                    moves += 1
            if stakes is None:
                values[a] = deal_value(state, seat)
            else:
                assert state.outcome is not None  # the deal was played to its end
                values[a] = stakes.final(state.outcome.game_points)
        tally.add(values, final, times)
        if deadline is not None and clock() >= deadline:
            break
    return tally.estimate(complete=False, nodes=moves, method="rollouts")
