"""What a strict-phase play tells about the follower's hand (the sampler's card facts)."""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.core.cards import ABOVE, SUIT_MASK
from sixtysix.core.tricks import trick_facts


def revealed_absent(
    trick: Sequence[tuple[int, int]], card: int, trump: int, must_overtrump: bool
) -> int:
    """Cards a strict-phase follower cannot have held, given that ``card`` was legal."""
    led_suit, trumped, high_led, high_trump = trick_facts(trick, trump)
    if card // 6 == led_suit:
        if trumped or ABOVE[high_led] >> card & 1:
            return 0
        return ABOVE[high_led]  # followed low: nothing of the suit above the trick's best
    absent = SUIT_MASK[led_suit]  # did not follow: void in the suit led
    if trump >= 0:
        if card // 6 == trump:
            if must_overtrump and high_trump >= 0 and not ABOVE[high_trump] >> card & 1:
                absent |= ABOVE[high_trump]  # trumped low: no higher trump
        else:
            absent |= SUIT_MASK[trump]  # neither followed nor trumped: no trump either
    return absent
