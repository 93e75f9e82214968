"""The expert at three- and four-player tables: the calls on many deals, every other move on
deals weighed by the table's calls and play (see :mod:`sixtysix.bots.players.expert`'s module doc).

Why a module of its own: these decisions and their budget are the three- and four-player
games' own; the two-player expert never reaches them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.inference.table import weighted_table_deals
from sixtysix.bots.search.estimate import Budget, Clock, SearchEstimate, estimate
from sixtysix.bots.search.rollouts import (
    GENERIC_SHARE,
    SOLVABLE_TRICKS,
    Policy,
    needs_rollouts,
    rollout_estimate,
)
from sixtysix.bots.search.solver import EXACT
from sixtysix.bots.search.stakes import Stakes
from sixtysix.core.actions import CONCEDE
from sixtysix.core.rng import Stream
from sixtysix.core.state import Phase
from sixtysix.core.view import View

#: Deals played out per call with three or four players (:class:`Table`).
TABLE_CALLS = 96
#: Deals drawn per deal kept when reading the other seats with three or four players.
TABLE_CANDIDATES = 2


@dataclass(frozen=True)
class Table:
    """How the expert values positions with three or four players (:func:`table_estimate`)."""

    #: Deals played out for a call: naming trump, calling a partner or solo, and the
    #: declarer's first lead, where he may concede.
    calls: int = TABLE_CALLS
    #: Deals drawn per deal kept when weighing them by the other seats' calls and play
    #: (1: no reading, the deals are drawn uniformly).
    candidates: int = TABLE_CANDIDATES
    #: Cards in hand up to which each deal is solved by alpha-beta instead of played out.
    endgame: int = SOLVABLE_TRICKS[1]


def is_call(view: View) -> bool:
    """A decision of the few-card kind that sets the deal's course: naming trump, calling a
    partner or solo, or the declarer's lead before the first card, where he may concede."""
    if view.phase != Phase.PLAY:
        return True
    return CONCEDE in view.legal_actions and not view.played


def table_estimate(
    view: View,
    budget: Budget,
    stream: Stream,
    sampler: Sampler,
    policy: Policy,
    table: Table,
    clock: Clock = time.perf_counter,
    stakes: Stakes | None = None,
) -> SearchEstimate:
    """Three and four players: each action's mean value over deals weighed by how well they
    explain the other seats' calls and play (:mod:`sixtysix.bots.inference.table`), played
    out by ``policy`` where the deal is too long to solve, solved by alpha-beta where it is
    small enough; ``table.calls`` deals for a call (:func:`is_call`); in the match's worth
    with ``stakes``."""
    budget = replace(budget, nodes=max(1, budget.nodes // GENERIC_SHARE), depth=EXACT)
    if is_call(view):
        budget = replace(budget, samples=max(budget.samples, table.calls))
    small = view.phase == Phase.PLAY and (
        sampler.count * sampler.orders <= max(1, budget.enumerate_up_to)
    )
    if small and table.candidates <= 1:
        return estimate(view, budget, stream, clock=clock, sampler=sampler, stakes=stakes)
    draws = weighted_table_deals(
        view,
        sampler,
        stream,
        budget.samples,
        policy,
        table.candidates,
        list(sampler.layouts()) if small else None,
    )
    if needs_rollouts(view, table.endgame) and not small:
        return rollout_estimate(view, budget, stream, sampler, policy, clock, draws, stakes)
    return estimate(view, budget, stream, clock=clock, sampler=sampler, draws=draws, stakes=stakes)
