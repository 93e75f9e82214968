"""The strongest player: determinization with exact play where it can, checked against a
sound rule player where it cannot.

The expert builds on :mod:`sixtysix.bots.search.estimate` (sample deals consistent with the
view, value each action on each deal, play the best average; the ``pimc`` bot of
:mod:`sixtysix.bots.players.pimc` plays exactly that) and chooses per position how to value:

- **exact play on complete information**: when only one layout of the unseen cards agrees
  with the view (two-player strict phase once the talon is gone, where the unseen cards are
  exactly the opponent's hand; late three- and four-player deals once play has located every
  card) the deal is solved to its end by alpha-beta;
- **every consistent deal instead of a sample** when there are few of them;
- **two players, talon open: play-outs blended with search** (``open=blend``). Each action is
  played out to the end of each of :data:`PLAYOUTS` sampled deals by the rule player on both
  sides (the heuristic with the weights of :data:`ADVISOR_WEIGHTS`), each seat seeing only its
  own view of the imagined deal, so nobody in a play-out knows where the hidden cards lie; with
  numba the compiled search also values each action on as many other deals (below), and the
  expert takes the mean of the two. The search flatters plans that need the hidden cards just
  so, the play-outs value an action as the rule player would go on: their errors lean opposite
  ways. Against an opponent whose play reads as random, the search alone (the rule players of
  the play-outs would misjudge it);
- **two players, with numba** (the ``fast`` extra; :mod:`sixtysix.bots.compiled`): each
  sampled deal is searched by the compiled alpha-beta, one trick ahead while the talon is open
  (then the fitted evaluation) and to the end of the deal after a close, so closing is valued
  exactly on each deal. The deals are weighed by how well they explain the opponent's play so
  far (:mod:`sixtysix.bots.inference.play`), and the same reading tells whether the opponent plays
  at random: once that is more likely than not, the search expects a random reply with that
  probability instead of the best one (minimax would close to cut a loss that a random
  player would never inflict);
- **alpha-beta on each sampled deal** by the generic search otherwise, in strict-phase
  endgames small enough to solve (at most six tricks with two players, four with more);
- **rollouts** by the registered ``heuristic`` player everywhere else (a trump or partner
  call, long three- and four-player deals, an open talon without numba when play-outs are
  turned off): each action is played out to the end of each sampled deal, every seat using
  only its own view of the imagined deal.

**Three and four players** (:func:`table_estimate`). The calls that set a deal's course are
made from few cards and are cheap to play out: naming trump, calling a partner's ace or going
solo, and the declarer's first lead, where he may concede, are each valued on
:data:`TABLE_CALLS` deals rather than the few of a card-play move. Every other move is valued
on deals weighed by how well each explains everyone's calls and play so far under the rule
player's policy (:mod:`sixtysix.bots.inference.table`): a declarer who named hearts most
likely holds them, a partner's lead says what it lacks.

**The margin** (two players; with three or four only when given). Where the values are
estimates (searched, played out or blended), the move the rule player would make is kept
unless the values rate another at least ``margin`` game points higher (:data:`MARGIN`; the
rule player of :data:`ADVISOR_WEIGHTS`): each imagined deal is searched face up, which
flatters plans that need the hidden cards to lie just so, and the rule player's move is the
sound default. What each setting measured is in
``docs/benchmarks.md`` ("The expert's settings").

**The match** (:mod:`sixtysix.bots.search.stakes`). In a match, each imagined deal's result
is valued by the chance it leaves to win the match, from the match-equity table of
:mod:`sixtysix.bots.match_equity`, before the values are averaged: at six all in a match to
seven a win is a win, behind nought to six a schneider is the way back. The values keep the
scale of game points early in a match (plain wins' worth), so the margin means the same.

**Solved positions** (two players, compiled search). Once every imagined deal is searched to
its end (after a close, or once the talon is gone and the endgame is small enough) the values
are averages of final scores, not of horizon estimates: the search decides without the margin.
Minimax often values several actions alike there (every line loses against the best defence,
or every line wins the same): such ties go to the action worth most against an opponent who
may err (:data:`TIE_MIX`), as a good player keeps the traps open in a lost ending.

**Offered, off by default** (two players, compiled search): ``presume`` values each imagined
deal against an opponent whose first reply is made from its own view of it
(:mod:`sixtysix.bots.search.presumed`), and ``mcts`` values open-talon deals by a Monte Carlo
tree search played out at random (:meth:`CompiledSearch.mcts_values`; with ``solver``, one
that keeps each play-out and counts solved subtrees at their minimax; with ``pairs``, one whose
play-outs lead a king or queen with its partner in hand only as a marriage), and ``last`` lets
the search alone value the last trick before the talon runs out, each deal solved to its end.
Measured alone against this expert, none was better (``docs/benchmarks.md``, "Presumed payoffs
and trees within the deals", "Playing like their player: choice by choice").
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import ClassVar

from sixtysix.bots.base import Bot, float_param, int_param, probability_param
from sixtysix.bots.compiled import CompiledSearch, available, supports
from sixtysix.bots.inference.play import chance_of_random, read_play, resample
from sixtysix.bots.inference.sampling import Sampler, variant_of
from sixtysix.bots.players.heuristic import DEFAULT_WEIGHTS, HeuristicBot, Weights, decide
from sixtysix.bots.players.pimc import PimcBot, describe_parameters
from sixtysix.bots.players.table_play import TABLE_CALLS, TABLE_CANDIDATES, Table, table_estimate
from sixtysix.bots.search.estimate import Budget, Clock, SearchEstimate, Tally, estimate
from sixtysix.bots.search.presumed import Presumption
from sixtysix.bots.search.rollouts import (
    GENERIC_SHARE,
    SOLVABLE_TRICKS,
    Policy,
    needs_rollouts,
    rollout_estimate,
    talon_open,
)
from sixtysix.bots.search.solver import EXACT
from sixtysix.bots.search.stakes import Stakes, stakes_for
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.match_view import MatchView
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl

#: The share of the imagined deals a close must win where they were searched face up
#: (``confidence`` parameter; see :meth:`SearchEstimate.best`): a lower share let through closes
#: that a random opponent then broke.
CLOSE_CONFIDENCE = 0.97
#: Samples and nodes per move, and (for the compiled search) tricks of look-ahead while the
#: talon is open; after a close the compiled search always runs to the end of the deal.
EXPERT_BUDGET = Budget(
    samples=24, nodes=300_000, depth=1, enumerate_up_to=24, close_confidence=CLOSE_CONFIDENCE
)
#: Deals drawn per deal searched when weighing them by the other seats' play.
CANDIDATES = 3
#: Game points by which the values must beat the rule player's move to overrule it (two
#: players; see the module doc): smaller overrules measured as noise (``docs/benchmarks.md``,
#: "Do the overrules pay?").
MARGIN = 0.3
#: The margin with three or four players: 0, the play-outs decide alone.
TABLE_MARGIN = 0.0
#: The ``effort`` parameter's range: how many times the default deals, play-outs and nodes a
#: move gets (the time per move grows about in proportion; reproducible, unlike ``time``).
MIN_EFFORT = 0.1
MAX_EFFORT = 100.0
#: Cards in a deck of Schnapsen's shape: the games whose rule player differs.
SMALL_DECK = 20
#: The most deals the opponent may be presumed to imagine (``presume`` parameter): each costs
#: a search per reply presumed.
MAX_PRESUMED = 256
#: The most iterations of tree search per imagined deal (``mcts`` parameter): each adds a node
#: of two 16-action rows and six counters (20,000: about 6 MB).
MAX_TREE = 20_000
#: The most with ``solver``, where an iteration keeps its whole play-out: up to 32 nodes of
#: two 16-action rows and six counters each (5,000: about 50 MB).
MAX_SOLVER_TREE = 5_000
#: Prior probability that the other seat plays at random (two players, compiled search).
RANDOM_PRIOR = 0.1
#: The search expects random replies only once that reading is at least this likely: below
#: it, the pruning that minimax allows is worth more than the small shift in the values.
RANDOM_FLOOR = 0.5
#: Once every deal is solved to its end and several actions share the best value, the tie
#: goes to the action worth most when the opponent plays a random legal card with this
#: probability: the line that leaves the opponent the most ways to go wrong.
TIE_MIX = 0.5
#: Deals per move with three or more players, unless ``samples`` is given: each play-out is
#: cheaper there (more forced moves), and the position is harder to read.
MANY_SEATS_SAMPLES = 32

#: How two-player positions with the talon open are valued (``open`` parameter): each action
#: played out on each imagined deal by the rule player on both sides, each seat seeing only its
#: own view of the deal ("rollouts"); one trick of compiled search and the fitted evaluation
#: ("search"; without numba, the generic search's rollouts); or a weighted mean of the two
#: ("blend", the default: it measured stronger than either alone).
OPEN_BLEND = "blend"
OPEN_ROLLOUTS = "rollouts"
OPEN_SEARCH = "search"
OPEN_METHODS = (OPEN_BLEND, OPEN_ROLLOUTS, OPEN_SEARCH)
#: Deals played out per move where the open talon is played out (two players).
PLAYOUTS = 24
#: The play-outs' share of a blend (the search has the rest): half and half measured best.
BLEND_SHARE = 0.5
#: Estimates (:attr:`SearchEstimate.method`) that include a search of each imagined deal face up:
#: a close valued by them needs ``close_confidence``.
FACE_UP_METHODS = ("search", OPEN_BLEND)

#: The bot that plays the imagined deals out (the built-in ``heuristic`` rule player); None:
#: the generic search plays them out instead.
ROLLOUT_PLAYER: type[Bot] | None = HeuristicBot

#: The rule player whose move the margin keeps, per deck size (two players): the heuristic
#: with weights fitted by play (``benchmarks/tools/tune_heuristic.py``) where they made the
#: expert stronger (Schnapsen's shape); other games keep the heuristic's own.
ADVISOR_WEIGHTS: Mapping[int, Weights] = {
    SMALL_DECK: Weights(
        willing_follow=0.675,
        trump_future=0.4125,
        trump_power_open=12.0,
        side_power_top=1.125,
        marriage_hope=0.075,
        lead_for_marriage=0.225,
        close_slack=3.0,
    ),
}


def open_two_player(view: View) -> bool:
    """A two-player position in play with the talon open: where the expert may play out."""
    return view.seats == 2 and view.phase == Phase.PLAY and talon_open(view)


def rule_players(weights: Weights, seats: int) -> list[Bot]:
    """The built-in rule player with ``weights``, one per seat, to play imagined deals out."""
    players: list[Bot] = []
    for seat in range(seats):
        player = HeuristicBot(seat, Seed(0))
        player.weights = weights
        players.append(player)
    return players


def rollout_policy(seats: int) -> Policy | None:
    """One :data:`ROLLOUT_PLAYER` per seat, or None if there is none."""
    cls = ROLLOUT_PLAYER
    if cls is None:
        return None
    return [cls(seat, Seed(0), {}) for seat in range(seats)]


def weighted_deals(
    view: View,
    sampler: Sampler,
    stream: Stream,
    samples: int,
    model: Policy | None,
    random_prior: float,
    candidates: int = CANDIDATES,
) -> tuple[list[DealState], list[int], float]:
    """``samples`` draws of deals consistent with the view, weighed by the other seats' play.

    With a ``model`` and some play to read, ``candidates`` times as many deals are drawn and
    resampled by how well they explain that play (:mod:`sixtysix.bots.inference.play`); otherwise
    ``samples`` uniform draws. Returns the deals, how many draws each stands for, and the
    probability that the other seat plays at random (0 when nothing was read: expect the best
    reply).
    """
    samples = max(1, samples)
    if model is not None and view.history and candidates > 1:
        deals = [sampler.sample(stream) for _ in range(candidates * samples)]
        readings = [read_play(d, view.seat, model) for d in deals]
        chance, weights = chance_of_random(readings, random_prior)
        return deals, resample(weights, samples, stream), chance
    return [sampler.sample(stream) for _ in range(samples)], [1] * samples, 0.0


def blended(
    rolled: SearchEstimate, searched: SearchEstimate, share: float = BLEND_SHARE
) -> SearchEstimate:
    """The weighted mean of two estimates of the same position, by play-outs (with weight
    ``share``) and by search.

    Their errors lean opposite ways: the search sees each imagined deal face up and
    flatters plans that need the hidden cards just so; the play-outs value each action as the
    rule player would go on, no better. Neither is solved to the end.
    """
    rest = 1.0 - share
    return SearchEstimate(
        {a: share * v + rest * searched.values[a] for a, v in rolled.values.items()},
        {a: share * w + rest * searched.wins[a] for a, w in rolled.wins.items()},
        rolled.deals + searched.deals,
        False,
        False,
        rolled.nodes + searched.nodes,
        method="blend",
        certain=rolled.certain & searched.certain,
        chance=searched.chance,
    )


def compiled_estimate(
    view: View,
    budget: Budget,
    stream: Stream,
    sampler: Sampler,
    search: CompiledSearch,
    clock: Clock = time.perf_counter,
    model: Policy | None = None,
    random_prior: float = 0.0,
    tie_mix: float = 0.0,
    drawn: tuple[list[DealState], list[int], float] | None = None,
    stakes: Stakes | None = None,
    candidates: int = CANDIDATES,
    presume: int = 0,
    mcts: int = 0,
    presume_open: bool = True,
    solver: bool = False,
    pairs: bool = False,
) -> SearchEstimate:
    """PIMC with the compiled search.

    The deals: every consistent one when there are few; otherwise ``candidates`` times
    ``budget.samples`` drawn, weighted by how well they explain the other seats' play under
    ``model`` (:mod:`sixtysix.bots.inference.play`) and resampled down to ``budget.samples`` draws
    (without a model, or with ``candidates`` 1, ``budget.samples`` uniform draws, and nothing
    read). Each distinct deal is searched by iterative deepening on its share of
    ``budget.nodes``; the action with the best mean over the draws wins.

    With ``random_prior`` above 0 the other seat may also be a random player, with that
    probability before it has played: the deals are weighed under both readings of its play
    (:func:`~sixtysix.bots.inference.play.chance_of_random`), and once the random reading is at
    least ``RANDOM_FLOOR`` likely the search expects a random reply with that probability.

    With ``tie_mix`` above the probability of a random reply already expected, once every deal
    was solved to its end and several actions share the best value, the same deals are searched
    again expecting a random reply with probability ``tie_mix``, and those values break the tie
    (:attr:`SearchEstimate.tiebreak`).

    ``drawn``: deals already drawn and weighed by :func:`weighted_deals` (with the reading),
    searched instead of drawing again unless every consistent deal is searched. ``stakes``:
    each deal's values in the match's worth (the root's turn stands for the leaves', see
    :mod:`sixtysix.bots.search.stakes`). ``presume``: above 0, the opponent's first reply on
    each deal is presumed from its own view, by that many deals it imagines
    (:mod:`sixtysix.bots.search.presumed`), unless its play reads as random; with
    ``presume_open`` false only once the talon is closed or gone. ``mcts``: above
    0 and with the talon open, each deal is valued by that many iterations of a Monte Carlo
    tree search played out at random (:meth:`CompiledSearch.mcts_values`) instead of the
    alpha-beta to the horizon, unless the opponent's play reads as random; with ``solver``
    the tree keeps every play-out and values solved subtrees at their minimax; with ``pairs``
    a king or queen whose partner is in hand is led only as a marriage below the root.
    """
    legal = [int(a) for a in view.legal_actions]
    seat = view.seat
    start = clock()
    deadline = None if budget.time_ms is None else start + budget.time_ms / 1000.0
    complete = sampler.count * sampler.orders <= max(1, budget.enumerate_up_to)
    deals: list[DealState]
    chance = 0.0
    if complete:
        deals = list(sampler.layouts())
        kept = [1] * len(deals)
        if model is not None and view.history and random_prior > 0 and candidates > 1:
            chance, _ = chance_of_random([read_play(d, seat, model) for d in deals], random_prior)
    elif drawn is not None:
        deals, kept, chance = drawn
    else:
        deals, kept, chance = weighted_deals(
            view, sampler, stream, budget.samples, model, random_prior, candidates
        )
    planned = sum(kept)
    per_draw = max(1, budget.nodes // planned)
    mix = chance if chance >= RANDOM_FLOOR else 0.0
    before = search.nodes
    opened = talon_open(view)
    presumption = (
        Presumption(search, sampler.variant, seat, presume, budget.depth, stream)
        if presume > 0 and (presume_open or not opened)
        else None
    )
    tree = mcts > 0 and opened

    def search_deals(mix: float) -> tuple[Tally, bool]:
        """Each kept deal searched on its share of the nodes: the tally, and whether every
        deal was solved to its end within the budget and the time."""
        tally = Tally(legal)
        solved = True
        for deal, times in zip(deals, kept, strict=True):
            if not times:
                continue
            if tree and mix == 0.0:
                found = search.mcts_values(deal, seat, mcts, stream.next_word(), solver, pairs)
            elif presumption is not None and mix == 0.0:
                found = presumption.values(deal, per_draw * times)
            else:
                found = search.action_values(deal, seat, per_draw * times, budget.depth, mix)
            solved = solved and found.exact
            values = found.values if stakes is None else stakes.values(found.values, deal.sides)
            tally.add(values, found.final, times)
            if deadline is not None and clock() >= deadline:
                break
        return tally, solved and tally.done == planned

    tally, solved = search_deals(mix)
    found = tally.estimate(complete, 0, "search", solved)
    tiebreak: dict[int, float] = {}
    # Searched already expecting errors at least that often, a second search would find the
    # same values.
    if tie_mix > mix and solved:
        top = max(found.values.values())
        tied = [a for a, v in found.values.items() if v >= top - 1e-9]
        if len(tied) > 1:
            again, _ = search_deals(tie_mix)
            tiebreak = {a: again.sums[a] / again.done for a in tied}
    return replace(found, nodes=search.nodes - before, chance=mix, tiebreak=tiebreak)


def expert_estimate(
    view: View,
    budget: Budget,
    stream: Stream,
    variant: Variant | None = None,
    clock: Clock = time.perf_counter,
    policy: Policy | None = None,
    search: CompiledSearch | None = None,
    use_compiled: bool = True,
    random_prior: float = 0.0,
    tie_mix: float = 0.0,
    players: Policy | None = None,
    playouts: int = 0,
    blend: bool = False,
    share: float = BLEND_SHARE,
    table: Table | None = None,
    stakes: Stakes | None = None,
    candidates: int = CANDIDATES,
    presume: int = 0,
    mcts: int = 0,
    presume_open: bool = True,
    solver: bool = False,
    pairs: bool = False,
) -> SearchEstimate:
    """The expert's value of each legal action (see the module doc for which method when).

    ``search`` defaults to the compiled search when it plays the view's game (unless
    ``use_compiled`` is false); ``policy`` (one bot per seat) plays the rollouts and weighs
    the deals, the ``heuristic`` bot by default; ``random_prior`` and ``tie_mix`` as in
    :func:`compiled_estimate` (the compiled search only).

    With ``players`` (one rule player per seat) and ``playouts`` above 0, a two-player
    position with the talon open is valued by playing each action out on ``playouts`` deals
    weighed by the opponent's play, unless that play reads as random; with ``blend`` (and the
    compiled search) the values are the mean of those play-outs, weighted by ``share``, and the
    compiled search's (:func:`blended`).

    With ``table`` (three and four players), the position is valued by :func:`table_estimate`.

    With ``stakes`` every value is a deal's worth in the match (:mod:`sixtysix.bots.search.stakes`)
    instead of its game points. ``candidates``: deals drawn per deal kept when weighing them by
    the opponent's play (two players; 1: its play is not read). ``presume``, ``mcts``,
    ``presume_open`` and ``solver``: as in :func:`compiled_estimate`.
    """
    sampler = Sampler(view, variant)
    if search is None and use_compiled:
        search = compiled_search_for(sampler.variant)
    if policy is None:
        policy = rollout_policy(view.seats)

    def searched(
        search: CompiledSearch, drawn: tuple[list[DealState], list[int], float] | None = None
    ) -> SearchEstimate:
        """The compiled search's values (:func:`compiled_estimate`) with every setting above."""
        return compiled_estimate(
            view,
            budget,
            stream,
            sampler,
            search,
            clock,
            policy,
            random_prior,
            tie_mix,
            drawn,
            stakes,
            candidates,
            presume,
            mcts,
            presume_open,
            solver,
            pairs,
        )

    if players is not None and playouts > 0 and open_two_player(view):
        deals, kept, chance = weighted_deals(
            view, sampler, stream, playouts, policy, random_prior, candidates
        )
        if chance < RANDOM_FLOOR or search is None:
            draws = list(zip(deals, kept, strict=True))
            rolled = rollout_estimate(view, budget, stream, sampler, players, clock, draws, stakes)
            if not blend or search is None:
                return rolled
            return blended(rolled, searched(search), share)
        # Read as a random player: the compiled search expects random replies (the rule
        # players of the play-outs would not play like it), on the deals read already.
        return searched(search, (deals, kept, chance))
    if view.seats >= 3 and policy is not None and table is not None:
        return table_estimate(view, budget, stream, sampler, policy, table, clock, stakes)
    if search is not None and view.phase == Phase.PLAY:
        return searched(search)
    # The generic search solves what it searches to the end: no horizon.
    budget = replace(budget, nodes=max(1, budget.nodes // GENERIC_SHARE), depth=EXACT)
    small = sampler.count * sampler.orders <= max(1, budget.enumerate_up_to)
    if not small and needs_rollouts(view) and policy is not None:
        return rollout_estimate(view, budget, stream, sampler, policy, clock, stakes=stakes)
    return estimate(view, budget, stream, variant, clock, sampler=sampler, stakes=stakes)


@functools.lru_cache(maxsize=4)
def _compiled_search(variant: Variant) -> CompiledSearch:
    return CompiledSearch(variant)


def compiled_search_for(variant: Variant) -> CompiledSearch | None:
    """The compiled search for ``variant``'s game (one per game and options, kept for its
    table), or None without numba or for a game it does not play."""
    return _compiled_search(variant) if available() and supports(variant) else None


def scaled(count: int, effort: float) -> int:
    """``count`` (deals, play-outs, nodes) for ``effort`` times the default effort."""
    return max(1, round(count * effort))


def scaled_budget(budget: Budget, params: Mapping[str, str], effort: float) -> Budget:
    """``budget`` with the deals and nodes a bot's parameters left at their defaults scaled by
    ``effort`` (a parameter given keeps its value)."""
    if effort == 1.0:
        return budget
    return replace(
        budget,
        samples=budget.samples if "samples" in params else scaled(budget.samples, effort),
        nodes=budget.nodes if "nodes" in params else scaled(budget.nodes, effort),
    )


def advisor_weights(view: View) -> Weights:
    """The weights of the rule player the margin defers to, for the view's game shape."""
    return ADVISOR_WEIGHTS.get(view.rules.deck.bit_count(), DEFAULT_WEIGHTS)


class ExpertBot(PimcBot):
    """Exact when the hidden cards are known; otherwise search on weighted deals, checked
    against the rule player, or rollouts."""

    name = "expert"
    description = "exact play when the hidden cards are known, weighted search otherwise"
    default_budget: ClassVar[Budget] = EXPERT_BUDGET
    parameters: ClassVar[Mapping[str, str]] = {
        **describe_parameters(EXPERT_BUDGET),
        "depth": "tricks of look-ahead while the talon is open (default 1; see the docs)",
        "crowd": (
            f"deals per move with three or four players (default: samples if given,"
            f" else {MANY_SEATS_SAMPLES})"
        ),
        "random": (
            f"prior probability that the opponent plays at random, revised by its play"
            f" (two players; default {RANDOM_PRIOR}, 0: always expect the best reply)"
        ),
        "margin": (
            f"game points by which the values must beat the rule player's move to play another"
            f" while values are estimates (default {MARGIN} with two players, {TABLE_MARGIN:g}"
            f" with three or four; 0: the search alone)"
        ),
        "fitted": (
            "1: the margin defers to the rule player with weights fitted to the game's shape"
            " (default); 0: to the heuristic's own"
        ),
        "open": (
            "how a two-player position with the talon open is valued: rollouts (each action"
            " played out by the rule player on both sides, each seeing only its own cards),"
            " search (one trick of search, then the fitted evaluation) or blend (a weighted"
            " mean of both, see share; default)"
        ),
        "share": (
            f"the play-outs' share of a blend, 0 to 1 (default {BLEND_SHARE}; the search has"
            f" the rest)"
        ),
        "playouts": (
            f"deals played out per move where the open talon is played out (two players;"
            f" default: samples if given, else {PLAYOUTS})"
        ),
        "calls": (
            f"deals played out for a call with three or four players: trump, partner or solo,"
            f" and the declarer's first lead, where he may concede (default: samples if given,"
            f" else {TABLE_CALLS})"
        ),
        "read": (
            f"deals drawn per deal kept, weighed by how well each explains the other seats'"
            f" calls and play (default {CANDIDATES} with two players, {TABLE_CANDIDATES} with"
            f" three or four; 1: their play is not read)"
        ),
        "endgame": (
            f"cards in hand up to which each imagined deal is solved exactly instead of played"
            f" out, with three or four players (default {SOLVABLE_TRICKS[1]})"
        ),
        "effort": (
            f"times the default deals, play-outs and search nodes per move, {MIN_EFFORT:g} to"
            f" {MAX_EFFORT:g} (default 1); the time per move grows about in proportion, and"
            f" unlike time the choices stay reproducible; a count given as its own parameter"
            f" keeps its value"
        ),
        "match": (
            "1: in a match, value each deal's results by the chance they leave to win the match"
            " (default; a deal played alone, or a match too long to tabulate, is played for its"
            " game points); 0: always play for the deal's game points"
        ),
        "presume": (
            "deals the opponent is presumed to imagine: above 0, its first reply on each deal"
            " the compiled search values is the one best on average over that many deals drawn"
            " from its own view, instead of the one best with every card face up (Wisser's"
            " presumed payoffs; two players; default 0: face up)"
        ),
        "presume_open": (
            "1: the opponent's replies are presumed while the talon is open too (default); 0:"
            " only once it is closed or gone, where each imagined deal is searched to its end"
        ),
        "mcts": (
            "iterations of a Monte Carlo tree search per imagined deal: above 0, while the"
            " talon is open each deal is valued by that search, played out at random with every"
            " card face up, instead of one trick of alpha-beta and the fitted evaluation (two"
            " players, with numba; default 0: alpha-beta)"
        ),
        "solver": (
            "1: the tree of mcts keeps each whole play-out, and a subtree played to every end"
            " counts at its minimax value instead of its mean (cpatrasciuc's MCTS; needs mcts"
            f" from 1 to {MAX_SOLVER_TREE}); default 0: one node an iteration, means"
        ),
        "last": (
            "1: once the look-ahead reaches the end of the talon (the last trick before it runs"
            " out, at depth 1) the compiled search alone decides, each imagined deal solved to its"
            " end; default 0: blended with play-outs as while the talon is open"
        ),
        "pairs": (
            "1: in the tree of mcts and its play-outs a king or queen whose partner is in hand"
            " is led only as a marriage, as in cpatrasciuc's engine (needs mcts); default 0:"
            " every legal lead"
        ),
        "tie": (
            f"probability of an error by the opponent with which ties between equally good"
            f" actions are broken once every deal is solved (two players; default {TIE_MIX},"
            f" 0: no tie-breaks)"
        ),
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        effort = float_param(self.params, "effort", 1.0, high=MAX_EFFORT)
        if effort < MIN_EFFORT:
            raise UnknownBotError(f"bot parameter effort must be at least {MIN_EFFORT:g}")
        self.effort = effort
        self.budget = scaled_budget(self.budget, self.params, effort)
        self.margin = float_param(self.params, "margin", MARGIN)
        self.table_margin = self.margin if "margin" in self.params else TABLE_MARGIN
        self.random_prior = probability_param(self.params, "random", RANDOM_PRIOR)
        self.tie_mix = probability_param(self.params, "tie", TIE_MIX)
        fitted = int_param(self.params, "fitted", 1, low=0)
        if fitted > 1:
            raise UnknownBotError(f"bot parameter fitted must be 0 or 1, not {fitted}")
        self.fitted = fitted == 1
        aware = int_param(self.params, "match", 1, low=0)
        if aware > 1:
            raise UnknownBotError(f"bot parameter match must be 0 or 1, not {aware}")
        self.match_aware = aware == 1
        self._stakes: tuple[tuple[MatchView, int] | None, Stakes | None] = (None, None)
        self.open = self.params.get("open", OPEN_BLEND)
        if self.open not in OPEN_METHODS:
            raise UnknownBotError(
                f"bot parameter open must be one of {', '.join(OPEN_METHODS)}, not {self.open!r}"
            )
        self.share = probability_param(self.params, "share", BLEND_SHARE)
        self.playouts = int_param(
            self.params,
            "playouts",
            self.budget.samples if "samples" in self.params else scaled(PLAYOUTS, effort),
        )
        self._policy: Policy | None = None
        self._players: dict[Weights, list[Bot]] = {}
        many = int_param(
            self.params,
            "crowd",
            self.budget.samples if "samples" in self.params else scaled(MANY_SEATS_SAMPLES, effort),
        )
        self._many = replace(self.budget, samples=many)
        self.read = int_param(self.params, "read", CANDIDATES)
        self.presume = int_param(self.params, "presume", 0, low=0, high=MAX_PRESUMED)
        self.mcts = int_param(self.params, "mcts", 0, low=0, high=MAX_TREE)
        self.presume_open = int_param(self.params, "presume_open", 1, low=0, high=1) == 1
        self.solver = int_param(self.params, "solver", 0, low=0, high=1) == 1
        self.last_trick = int_param(self.params, "last", 0, low=0, high=1) == 1
        self.pairs = int_param(self.params, "pairs", 0, low=0, high=1) == 1
        if self.pairs and not self.mcts:
            raise UnknownBotError("bot parameter pairs=1 needs a tree: mcts above 0")
        if self.solver and not self.mcts:
            raise UnknownBotError("bot parameter solver=1 needs a tree: mcts above 0")
        if self.solver and self.mcts > MAX_SOLVER_TREE:
            raise UnknownBotError(
                f"bot parameter mcts must be at most {MAX_SOLVER_TREE} with solver=1,"
                f" not {self.mcts}"
            )
        self._table = Table(
            calls=int_param(
                self.params,
                "calls",
                self.budget.samples if "samples" in self.params else scaled(TABLE_CALLS, effort),
            ),
            candidates=int_param(self.params, "read", TABLE_CANDIDATES),
            endgame=int_param(self.params, "endgame", SOLVABLE_TRICKS[1], low=0),
        )

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self._policy is None or len(self._policy) != view.seats:
            self._policy = rollout_policy(view.seats)
        budget = self.budget if view.seats == 2 else self._many
        weights = advisor_weights(view) if self.fitted else DEFAULT_WEIGHTS
        players: list[Bot] | None = None
        if self.open != OPEN_SEARCH and view.seats == 2 and not self.searched_to_end(view, budget):
            players = self._players.get(weights)
            if players is None:
                players = self._players[weights] = rule_players(weights, 2)
        self.last = expert_estimate(
            view,
            budget,
            self.stream,
            policy=self._policy,
            random_prior=self.random_prior,
            tie_mix=self.tie_mix,
            players=players,
            playouts=self.playouts,
            blend=self.open == OPEN_BLEND,
            share=self.share,
            table=self._table if view.seats >= 3 else None,
            stakes=self.stakes(view),
            candidates=self.read,
            presume=self.presume,
            mcts=self.mcts,
            presume_open=self.presume_open,
            solver=self.solver,
            pairs=self.pairs,
        )
        # Rollouts play the close out as it would be played; searched deals, where the closer
        # sees every card, need the extra confidence, and so does a blend, part of which is such
        # a search (unguarded, a blend closed too often against a random player).
        guarded = self.last.method in FACE_UP_METHODS
        confidence = self.budget.close_confidence if guarded else 0.0
        best = self.last.best(confidence)
        # Once every deal is solved to its end the values are final scores, not estimates:
        # the search decides (ties broken by the opponent's chances to err).
        estimated = not self.last.solved
        margin = self.margin if view.seats == 2 else self.table_margin
        if margin > 0 and estimated:
            advice = int(decide(view, weights))
            if self.last.values[best] < self.last.values[advice] + margin:
                best = advice
        return ACTIONS[best]

    def searched_to_end(self, view: View, budget: Budget) -> bool:
        """Whether the compiled search alone values this open-talon position: with ``last``, once
        its look-ahead reaches the talon's end, so that each imagined deal is solved exactly."""
        return (
            self.last_trick
            and available()
            and talon_open(view)
            and view.talon_size <= 2 * budget.depth
        )

    def stakes(self, view: View) -> Stakes | None:
        """What the deal's results are worth in the view's match (None: play for game points)."""
        if not self.match_aware or view.match is None:
            return None
        seen, stakes = self._stakes
        if seen != (view.match, view.seat):
            stakes = stakes_for(variant_of(view), view.match, view.seat)
            self._stakes = ((view.match, view.seat), stakes)
        return stakes


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(ExpertBot)
