"""The one allow-list of the compiled rules: which rule sets they implement.

Every :class:`~sixtysix.core.rules.Rules` field is named here with the values the compiled
rules play; a field missing here, a value outside its set, a variant that scores in code of
its own, or one that is not a :class:`~sixtysix.variants.two_hand.TwoHandVariant` on the
generic engine goes to the engine, everywhere (the simulator, the expert's search, the batched
environments): :func:`supports` is the one test (and :func:`deals_supported` where the compiled
code deals the cards too). ``tests/compiled/test_allowed.py``
fails when a new field has not been entered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.rules import Rules, Sides
from sixtysix.core.variant import Variant
from sixtysix.variants.two_hand import TwoHandVariant, overridden_scoring

#: Which values of one :class:`Rules` knob the compiled rules implement.
Allowed = Callable[[Any], bool]


def _one_of(*values: object) -> Allowed:
    return lambda v: v in values


def _int_in(lo: int, hi: int) -> Allowed:
    return lambda v: isinstance(v, int) and lo <= v <= hi


def _ints_in(lo: int, hi: int) -> Allowed:
    return lambda v: isinstance(v, tuple) and all(isinstance(x, int) and lo <= x <= hi for x in v)


def _optional(allowed: Allowed) -> Allowed:
    return lambda v: v is None or allowed(v)


def _anything(_: object) -> bool:
    return True


_FLAG = _one_of(False, True)
#: Sums of points stay exact in int64: card points (<= 120) + marriages (<= 100) + a bonus.
_INT32 = _int_in(-(2**31), 2**31)

#: Every :class:`Rules` field, with the values the compiled rules implement.
RULES: Mapping[str, Allowed] = {
    "seats": _one_of(2),
    "deck": lambda v: isinstance(v, int) and v >> NUM_CARDS == 0,
    "deal_rounds": _ints_in(0, NUM_CARDS),
    "turnup_after_round": _optional(_int_in(0, NUM_CARDS)),
    "trump_from_dealer_last": _FLAG,
    "trump_call": _one_of(False),
    "call_after": _anything,  # read only with trump_call
    "trump_below": _one_of(False),
    "partner_call": _one_of(False),
    "sides": _one_of(Sides.SEATS),
    "strict_always": _FLAG,
    "marriages": _FLAG,
    "marriage_after_close": _FLAG,
    "exchange": _FLAG,
    "exchange_rank": _int_in(0, 5),  # a rank of the trump suit
    "exchange_min_talon": _INT32,  # only compared
    "exchange_needs_trick": _FLAG,
    "exchange_anytime": _one_of(False),
    "closing": _FLAG,
    "close_needs_trick": _FLAG,
    "manual_claim": _FLAG,
    "last_trick_bonus": _int_in(0, 255),  # the search's transposition key packs it in 8 bits
    "must_overtrump": _FLAG,  # two cards a trick: a follower never meets a trump to overtop
    "concession": _one_of(False),
    "concede_points": _anything,  # read only with concession
    "winning_points": _INT32,  # only compared
    "open_scores": _FLAG,  # what people are shown, not how the game is played
}


def rules_allowed(rules: Rules) -> bool:
    """Whether every field of ``rules`` is in :data:`RULES` with an allowed value, and trump
    is turned up after a round that is dealt, or shown from the dealer's last card."""
    for field in dataclasses.fields(rules):
        test = RULES.get(field.name)
        if test is None or not test(getattr(rules, field.name)):
            return False
    turnup = rules.turnup_after_round
    if turnup is None:
        return bool(rules.trump_from_dealer_last)
    return turnup < len(rules.deal_rounds)


def supports(variant: Variant) -> bool:
    """Whether the compiled rules play exactly ``variant``'s deals: a :class:`TwoHandVariant`
    that starts and scores them as the generic engine and the two-hand scoring do
    (``new_deal`` and the scoring methods not overridden), with allowed rules."""
    return (
        isinstance(variant, TwoHandVariant)
        and type(variant).new_deal is Variant.new_deal
        and not overridden_scoring(variant)
        and rules_allowed(variant.rules)
    )


def deals_supported(variant: Variant) -> bool:
    """Whether the compiled random games may also deal ``variant``'s cards themselves: it is
    :func:`supported <supports>` and deals as :meth:`Variant.deal` does (not overridden)."""
    return supports(variant) and type(variant).deal is Variant.deal
