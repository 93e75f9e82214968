"""Reading a trick: who wins it, and what the duties of the next follower compare against.

The engine (for legal actions and the winner) and the bots' sampler (for what a follower's card
reveals) must read a trick identically, so the reading lives here once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class TrickFacts(NamedTuple):
    led_suit: int
    #: A non-trump lead that someone has trumped (fine point 10: no duty to head it then).
    trumped: bool
    #: The highest card of the led suit in the trick.
    high_led: int
    #: The highest trump in the trick, or -1.
    high_trump: int


def trick_facts(trick: Sequence[tuple[int, int]], trump: int) -> TrickFacts:
    """The facts of a partly played trick (``(seat, card)`` pairs, the lead first)."""
    led = trick[0][1]
    led_suit = led // 6
    trumped = False
    high_led = led
    high_trump = -1
    for _, c in trick:
        cs = c // 6
        if cs == trump:
            if led_suit != trump:
                trumped = True
            if c > high_trump:
                high_trump = c
        if cs == led_suit and c > high_led:
            high_led = c
    return TrickFacts(led_suit, trumped, high_led, high_trump)


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins: the highest trump, else the highest card of the suit led."""
    w, best = trick[0]
    for seat, card in trick[1:]:
        if card // 6 == best // 6:
            if card > best:
                w, best = seat, card
        elif card // 6 == trump:
            w, best = seat, card
    return w
