"""What a deal is worth to the search: exactly at its end (:func:`deal_value`), estimated before
(:func:`evaluate`, the fitted linear evaluation, and :func:`hand_made_evaluation`).

Why a module of its own: the leaf evaluation is fitted apart from the search
(``benchmarks/tools/fit_evaluation.py``) and restated by the compiled kernels;
:mod:`sixtysix.bots.search.solver` re-exports every name.
"""

from __future__ import annotations

import math

from sixtysix.core.cards import KQ, marriage_points, mask_points
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState


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
