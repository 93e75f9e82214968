"""Reading everyone's calls and play at a three- or four-player table.

The sampler deals the unseen cards uniformly among the layouts the rules allow; the other
seats' choices say more. A declarer who named hearts from four cards most likely holds
hearts; a caller of the club ace holds the club ten more often than not; a partner who led a
low spade had no better lead under a sound rule player's judgement. As in two-player play
(:mod:`sixtysix.bots.inference.play`), each imagined deal is weighed by the probability of every
other seat's public decisions under the ``heuristic`` rule player, softened (its action with
probability ``trust``, any other legal action with the rest), so that no deal that the rules
allow is ever ruled out: the product over past decisions of P(the action taken | the rule
player's policy on that seat's view of the imagined deal at that time).

The trump call is made from the first cards dealt, which no imagined deal pins down (the
sampler orders a rebuilt deal's cards by when they were needed, not by when they came): its
probability is averaged over every set of first cards the declarer may have been dealt from
the hand of the imagined deal. Everything is read from the imagined deal and the public
history, nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from sixtysix.bots.base import Bot
from sixtysix.bots.inference.play import TRUST, resample
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.players.heuristic import suit_strength, trump_pick
from sixtysix.core.actions import TRUMP_BELOW
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.view import View

#: Deals drawn per deal kept when weighing the sampled deals by the other seats' play.
CANDIDATES = 3

#: Log-weight below the best deal's at which a deal stops being read: e^-8, a weight of
#: three in ten thousand, is kept less than once in the draws made.
NEGLIGIBLE = 8.0
#: A suit's strength as trump by the 6-bit pattern of its cards held (the same in every suit).
_STRENGTH: tuple[float, ...] = tuple(suit_strength(p, 0) for p in range(64))


@lru_cache(maxsize=1 << 16)
def _pick(first: int, legal: tuple[int, ...]) -> int:
    """The rule player's trump call (its index in ``legal``) from the first cards ``first``."""
    return trump_pick(lambda suit: _STRENGTH[first >> (suit * 6) & 63], legal)


def trump_call_probability(
    cards: Sequence[int],
    shown: int | None,
    call_after: int,
    legal: tuple[int, ...],
    action: int,
    trust: float = TRUST,
) -> float:
    """P(``action`` | the declarer's dealt ``cards``) under the softened rule player, averaged
    over the sets of ``call_after`` cards he may have seen first (``shown``: the card he turned
    for trump from below, dealt last, so never among the first)."""
    pool = [c for c in cards if c != shown]
    miss = (1.0 - trust) / max(1, len(legal) - 1)
    hits = total = 0
    for first in combinations(pool, call_after):
        mask = 0
        for c in first:
            mask |= 1 << c
        hits += legal[_pick(mask, legal)] == action
        total += 1
    share = hits / total if total else 0.0
    return share * trust + (1.0 - share) * miss


def read_table(
    deal: DealState,
    seat: int,
    model: Sequence[Bot],
    trust: float = TRUST,
    floor: float = -math.inf,
) -> float:
    """Log-probability of the other seats' calls and play in ``deal``'s history under the
    softened ``model`` (one rule player per seat), replayed from the deal's setup.

    The reading stops once the log-probability falls below ``floor`` (it only falls as more
    decisions are read): the deal's weight is then negligible beside a better one's."""
    state = deal.redealt()
    hit = math.log(trust)
    total = 0.0
    for s, a in deal.history:
        if total < floor:
            return total
        if s != seat:
            legal = state.legal_actions()
            if len(legal) > 1:
                if state.phase == Phase.TRUMP_CALL:
                    cards = deal.setup.hands[s]
                    shown = cards[-1] if a == TRUMP_BELOW else None
                    p = trump_call_probability(
                        cards, shown, state.rules.call_after, tuple(legal), a, trust
                    )
                    total += math.log(p)
                elif model[s].choose(state.view(s)) == a:
                    total += hit
                else:
                    total += math.log((1.0 - trust) / (len(legal) - 1))
        state.apply_legal(a)
    return total


def weighted_table_deals(
    view: View,
    sampler: Sampler,
    stream: Stream,
    samples: int,
    model: Sequence[Bot],
    candidates: int = CANDIDATES,
    pool: Sequence[DealState] | None = None,
) -> list[tuple[DealState, int]]:
    """``samples`` draws of deals consistent with the view, weighed by the other seats' calls
    and play: ``candidates`` times as many deals drawn (or every deal of ``pool``, the
    consistent deals when there are few), then resampled in proportion to :func:`read_table`.
    Each deal comes with the number of draws it stands for."""
    samples = max(1, samples)
    others_decided = any(s != view.seat for s, _ in view.history)
    if candidates <= 1 or not others_decided:
        if pool is not None:
            return [(d, 1) for d in pool]
        return [(sampler.sample(stream), 1) for _ in range(samples)]
    if pool is None:
        deals = [sampler.sample(stream) for _ in range(candidates * samples)]
    else:
        deals = list(pool)
        samples = max(samples, len(deals))
    weights: list[float] = []
    best = -math.inf
    for d in deals:
        weights.append(read_table(d, view.seat, model, floor=best - NEGLIGIBLE))
        best = max(best, weights[-1])
    kept = resample(weights, samples, stream)
    return [(d, k) for d, k in zip(deals, kept, strict=True) if k]


__all__ = [
    "CANDIDATES",
    "read_table",
    "trump_call_probability",
    "weighted_table_deals",
]
