"""Perfect-information search of one deal: alpha-beta on the game points it will score.

Given a complete :class:`~sixtysix.core.state.DealState` (a real deal, or one imagined by
:mod:`sixtysix.bots.sampling`), :class:`Solver` finds the value of the deal for one seat when
every seat plays perfectly with all cards face up. The value is what a deal is played for:
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

import math
from collections.abc import Callable, Iterable, Sequence

from sixtysix.core.actions import CLAIM, CLOSE, CONCEDE, EXCHANGE, MARRY
from sixtysix.core.cards import KQ, NUM_CARDS, POINTS, marriage_points, mask_points
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState, Phase

#: A horizon deep enough for any deal: the search then ends only at the end of the deal.
EXACT = 1000

Evaluator = Callable[[DealState, int], float]


class BudgetExhausted(Exception):
    """Raised inside a search when its node budget is spent."""


def deal_value(state: DealState, seat: int) -> int:
    """The finished deal's value for ``seat``: its side's game points minus the other side's.

    Every seat of a side scores the same in the built-in games, so one seat of each side
    stands for it.
    """
    outcome = state.outcome
    assert outcome is not None
    gp = outcome.game_points
    sides = state.sides
    mine = sides[seat]
    for other in range(state.n):
        if sides[other] != mine:
            return gp[seat] - gp[other]
    return gp[seat]  # pragma: no cover - every finished deal has two sides


def remaining_tricks(state: DealState) -> int:
    """An upper bound on the tricks still to be completed (a closed talon is out of play)."""
    cards = sum(h.bit_count() for h in state.hands) + len(state.trick)
    if state.closed_by < 0:
        cards += len(state.talon) + (state.turnup >= 0)
    n = state.n
    return (cards + n - 1) // n


# ---------------------------------------------------------------------- copying states

_COPIERS: dict[type[DealState], Callable[[DealState], DealState]] = {}


def fast_copy(state: DealState) -> DealState:
    """``state.copy()``, about three times faster: copying is most of a search node's cost.

    The copy function is generated once per state class from its slots, so it follows
    :class:`DealState` as fields are added: lists (and lists of lists) are copied, the legal
    action cache is dropped, everything else is immutable and shared. A class that overrides
    ``copy`` keeps its own.
    """
    fn = _COPIERS.get(type(state))
    if fn is None:
        fn = _COPIERS[type(state)] = _make_copier(state)
    return fn(state)


def _make_copier(state: DealState) -> Callable[[DealState], DealState]:
    cls = type(state)
    if cls.copy is not DealState.copy:
        return cls.copy
    slots: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in getattr(klass, "__slots__", ()):
            if name not in slots:
                slots.append(name)
    lines = ["def copy(self):", "    other = new(cls)"]
    for name in slots:
        value = getattr(state, name)
        if name == "_legal":
            lines.append("    other._legal = None")
        elif isinstance(value, list) and value and isinstance(value[0], list):
            lines.append(f"    other.{name} = [x[:] for x in self.{name}]")
        elif isinstance(value, (list, dict, set)):
            lines.append(f"    other.{name} = self.{name}.copy()")
        else:
            lines.append(f"    other.{name} = self.{name}")
    lines.append("    return other")
    namespace: dict[str, object] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # generated from the class's own slots, nothing else
    fn = namespace["copy"]
    assert callable(fn)
    return fn


# ---------------------------------------------------------------------- static evaluation

# How much a card in hand is worth for taking tricks later: trumps by rank, then aces, tens.
_TRUMP_STRENGTH = (6.0, 7.0, 8.0, 9.0, 12.0, 14.0)
_PLAIN_STRENGTH = (0.5, 1.0, 1.5, 2.0, 4.0, 8.0)
# The same summed over every pattern of one suit's six cards (a suit is a 6-bit field).
_TRUMP_SUIT = tuple(sum(v for r, v in enumerate(_TRUMP_STRENGTH) if p >> r & 1) for p in range(64))
_PLAIN_SUIT = tuple(sum(v for r, v in enumerate(_PLAIN_STRENGTH) if p >> r & 1) for p in range(64))
_KQ_BITS = KQ[0]  # the queen and king in a suit's 6-bit field


def hand_made_evaluation(state: DealState, seat: int) -> float:
    """A quick estimate of :func:`deal_value` for games without fitted weights.

    Each side is credited with its valid points, most of its pending marriages, half the
    marriages it still holds, and a share of the card points still to be won in proportion to
    the trick-taking strength of its hands (trumps by rank, then aces and tens). The projected
    margin gives a winning chance (a logistic curve), and the chance weighs the 1-or-2 game
    points each side would score; after a close the closer must reach 66 or pay 2. It only
    needs to order positions sensibly: exact values take over wherever the search reaches the
    end of the deal.
    """
    sides = state.sides
    mine = sides[seat]
    trump = state.trump
    rules = state.rules
    marriages = rules.marriages and (rules.marriage_after_close or not state.strict)
    base = [0.0, 0.0]
    strength = [0.0, 0.0]
    has_trick = [False, False]
    card_points = state.card_points
    tricks = state.tricks
    for s in range(state.n):
        if tricks[s]:
            has_trick[0 if sides[s] == mine else 1] = True
    taken = 0
    for s, hand in enumerate(state.hands):
        side = 0 if sides[s] == mine else 1
        taken += card_points[s]
        base[side] += card_points[s] + state.bonus[s]
        married = state.marriage_points[s]
        if married:
            base[side] += married if has_trick[side] else 0.6 * married
        total = 0.0
        for suit in range(4):
            pattern = hand >> (suit * 6) & 63
            if pattern:
                if suit == trump:
                    total += _TRUMP_SUIT[pattern]
                    if marriages and pattern & _KQ_BITS == _KQ_BITS:
                        base[side] += 20.0
                else:
                    total += _PLAIN_SUIT[pattern]
                    if marriages and pattern & _KQ_BITS == _KQ_BITS:
                        base[side] += 10.0
        strength[side] += total
    remaining = 120 - taken
    if state.closed_by >= 0:
        remaining -= mask_points(_talon_mask(state))  # a closed talon is never won
    elif state.talon or state.turnup >= 0:
        remaining += rules.last_trick_bonus
    total_strength = strength[0] + strength[1]
    share = strength[0] / total_strength if total_strength else 0.5
    mine_pts = base[0] + share * remaining
    theirs = base[1] + (1.0 - share) * remaining
    if state.closed_by >= 0:
        closer = 0 if sides[state.closed_by] == mine else 1
        proj = (mine_pts, theirs)
        p = _logistic((proj[closer] - rules.winning_points) / 8.0)
        win = 2.0 if proj[1 - closer] < 33 else 1.0
        value = p * win - (1.0 - p) * 2.0
        return value if closer == 0 else -value
    p = _logistic((mine_pts - theirs) / 12.0)
    win_scale = 2.0 if theirs < 33 else 1.0
    loss_scale = 2.0 if mine_pts < 33 else 1.0
    return p * win_scale - (1.0 - p) * loss_scale


def features(state: DealState, seat: int) -> list[float]:
    """What the learned evaluation looks at, from ``seat``'s side ("us") against the rest.

    Differences between the sides, so the same weights serve either side: valid points,
    pending marriages, marriages still in hand, trump strength and length, plain aces and
    tens, who leads, a close and how far the closer is from 66, tricks won and the 33-point
    line; plus whether the declarer (or soloist) is on our side, for the games where sides
    differ in size.
    """
    sides = state.sides
    mine = sides[seat]
    trump = state.trump
    rules = state.rules
    marriages = rules.marriages and (rules.marriage_after_close or not state.strict)
    valid = [0.0, 0.0]
    pending = [0.0, 0.0]
    kq = [0.0, 0.0]
    trump_strength = [0.0, 0.0]
    trumps = [0, 0]
    aces = [0, 0]
    tens = [0, 0]
    has_trick = [0, 0]
    for s in range(state.n):
        if state.tricks[s]:
            has_trick[0 if sides[s] == mine else 1] = 1
    for s, hand in enumerate(state.hands):
        side = 0 if sides[s] == mine else 1
        valid[side] += state.card_points[s] + state.bonus[s]
        married = state.marriage_points[s]
        if married:
            if has_trick[side]:
                valid[side] += married
            else:
                pending[side] += married
        for suit in range(4):
            pattern = hand >> (suit * 6) & 63
            if not pattern:
                continue
            if marriages and pattern & _KQ_BITS == _KQ_BITS:
                kq[side] += marriage_points(suit, trump)
            if suit == trump:
                trump_strength[side] += _TRUMP_SUIT[pattern]
                trumps[side] += pattern.bit_count()
            else:
                aces[side] += pattern >> 5 & 1
                tens[side] += pattern >> 4 & 1
    closer = 0.0
    closer_gap = 0.0
    if state.closed_by >= 0:
        ours = sides[state.closed_by] == mine
        closer = 1.0 if ours else -1.0
        closer_gap = closer * (valid[0 if ours else 1] - rules.winning_points) / 10.0
    lead = 1.0 if sides[state.to_act] == mine else -1.0
    declarer = 0.0
    if state.declarer >= 0:
        declarer = 1.0 if sides[state.declarer] == mine else -1.0
    return [
        (valid[0] - valid[1]) / 10.0,
        (pending[0] - pending[1]) / 10.0,
        (kq[0] - kq[1]) / 10.0,
        (trump_strength[0] - trump_strength[1]) / 10.0,
        float(trumps[0] - trumps[1]),
        float(aces[0] - aces[1]),
        float(tens[0] - tens[1]),
        lead,
        closer,
        closer_gap,
        float(has_trick[0] - has_trick[1]),
        float((valid[0] >= 33) - (valid[1] >= 33)),
        declarer,
        declarer * float(state.solo),
    ]


#: Weights of :func:`features` fitted to the final value of heuristic-play deals by
#: ``benchmarks/tools/fit_evaluation.py`` (20,000 deals each), by the shape of the game: seats,
#: a talon or not, and the size of the deck.
WEIGHTS: dict[tuple[int, bool, int], tuple[float, ...]] = {
    # two-player 66 (held-out R² 0.39; the hand-made evaluation 0.32)
    (2, True, 24): (
        0.2307, 0.2528, 0.2125, 0.5598, -0.0686, 0.2157, 0.0893,
        0.0919, 0.0110, 0.1412, -0.0055, 0.2421, 0.0, 0.0,
    ),
    # Schnapsen (R² 0.40; hand-made 0.31)
    (2, True, 20): (
        0.2168, 0.1834, 0.1985, 0.5909, -0.0103, 0.2352, 0.0390,
        0.1171, 0.4905, 0.2758, 0.0121, 0.2545, 0.0, 0.0,
    ),
    # three-player 66 (R² 0.57; hand-made 0.45)
    (3, False, 24): (
        0.2426, 0.1571, 0.0870, 0.6870, -0.1743, 0.4912, 0.1094,
        0.2132, 0.0, 0.0, -0.0810, 0.2502, 0.0084, 0.0,
    ),
    # four-player 66 (R² 0.69; hand-made 0.41)
    (4, False, 24): (
        0.2387, 0.2823, 0.1151, 0.8357, -0.2435, 0.3762, 0.0316,
        0.2203, 0.0, 0.0, 0.2579, 0.2425, 0.0722, 1.3219,
    ),
}  # fmt: skip


def weights_for(rules: Rules) -> tuple[float, ...] | None:
    """The fitted weights for a game's shape: a third-party variant shaped like a built-in one
    uses its weights; one shaped like none of them falls back on the hand-made evaluation."""
    try:
        return _SHAPE_CACHE[rules]
    except KeyError:
        pass
    talon = rules.turnup_after_round is not None
    size = rules.deck.bit_count()
    found = WEIGHTS.get((rules.seats, talon, size))
    if found is None and rules.seats == 2:
        found = WEIGHTS.get((2, True, 24))
    if found is None:
        found = next((w for (n, _, _), w in WEIGHTS.items() if n == rules.seats), None)
    _SHAPE_CACHE[rules] = found
    return found


_SHAPE_CACHE: dict[Rules, tuple[float, ...] | None] = {}


def evaluate(state: DealState, seat: int) -> float:
    """A quick estimate of :func:`deal_value` for an unfinished deal (the search horizon).

    A linear function of :func:`features` whose weights were fitted to how deals actually
    end (see :data:`WEIGHTS`), clipped to the range of real outcomes; after a close, and in
    games of a shape with no fitted weights, :func:`hand_made_evaluation`. It only needs to
    order positions sensibly: exact values take over wherever the search reaches the end.
    """
    weights = weights_for(state.rules)
    if weights is None or state.closed_by >= 0:
        # After a close the deal turns on one line, 66 or a failed close, which a linear fit
        # to play that closes only when safe does not see; the hand-made curve does.
        return hand_made_evaluation(state, seat)
    value = _linear(state, seat, weights)
    return max(-6.0, min(6.0, value))


def _linear(state: DealState, seat: int, w: tuple[float, ...]) -> float:
    """``sum(w * features(state, seat))`` without building the feature list (the search's
    hot path; a test keeps the two equal)."""
    sides = state.sides
    mine = sides[seat]
    trump = state.trump
    rules = state.rules
    marriages = rules.marriages and (rules.marriage_after_close or not state.strict)
    tricks = state.tricks
    card_points = state.card_points
    us_trick = them_trick = 0
    for s in range(state.n):
        if tricks[s]:
            if sides[s] == mine:
                us_trick = 1
            else:
                them_trick = 1
    valid = [0.0, 0.0]
    total = 0.0
    trump_suit = _TRUMP_SUIT
    for s, hand in enumerate(state.hands):
        us = sides[s] == mine
        sign = 1.0 if us else -1.0
        valid[0 if us else 1] += card_points[s] + state.bonus[s]
        married = state.marriage_points[s]
        if married:
            if us_trick if us else them_trick:
                valid[0 if us else 1] += married
            else:
                total += sign * w[1] * married / 10.0
        for suit in range(4):
            pattern = hand >> (suit * 6) & 63
            if not pattern:
                continue
            if marriages and pattern & _KQ_BITS == _KQ_BITS:
                total += sign * w[2] * (4.0 if suit == trump else 2.0)
            if suit == trump:
                total += sign * (w[3] * trump_suit[pattern] / 10.0 + w[4] * pattern.bit_count())
            else:
                total += sign * (w[5] * (pattern >> 5 & 1) + w[6] * (pattern >> 4 & 1))
    total += w[0] * (valid[0] - valid[1]) / 10.0
    total += w[7] if sides[state.to_act] == mine else -w[7]
    if state.closed_by >= 0:
        closer = 1.0 if sides[state.closed_by] == mine else -1.0
        gap = valid[0 if closer > 0 else 1] - rules.winning_points
        total += closer * (w[8] + w[9] * gap / 10.0)
    total += w[10] * (us_trick - them_trick)
    total += w[11] * ((valid[0] >= 33) - (valid[1] >= 33))
    if state.declarer >= 0:
        declarer = 1.0 if sides[state.declarer] == mine else -1.0
        total += declarer * (w[12] + (w[13] if state.solo else 0.0))
    return total


def _talon_mask(state: DealState) -> int:
    mask = 1 << state.turnup if state.turnup >= 0 else 0
    for c in state.talon:
        mask |= 1 << c
    return mask


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


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
    "BudgetExhausted",
    "Solver",
    "deal_value",
    "evaluate",
    "features",
    "hand_made_evaluation",
    "remaining_tricks",
    "weights_for",
]
