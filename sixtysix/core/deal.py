"""The cards of a deal as dealt: hands in the order dealt, the turn-up and the talon.

This is exactly what a record stores, so a deal can be rebuilt from a record or from a shuffle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.core.cards import CARD_NAMES, iter_mask, mask_of
from sixtysix.core.errors import RecordError
from sixtysix.core.rules import Rules


@dataclass(frozen=True, slots=True)
class DealSetup:
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    trump_card: int | None
    talon: tuple[int, ...]

    def validate(self, rules: Rules) -> None:
        """Raise :class:`RecordError` unless this is a proper deal of ``rules``' deck."""
        n = rules.seats
        if not 0 <= self.dealer < n:
            raise RecordError(f"dealer {self.dealer} is not a seat 0..{n - 1}")
        if len(self.hands) != n:
            raise RecordError(f"{len(self.hands)} hands for {n} seats")
        for seat, hand in enumerate(self.hands):
            if len(hand) != rules.hand_size:
                raise RecordError(f"seat {seat} has {len(hand)} cards; {rules.hand_size} are dealt")
        has_turnup = rules.turnup_after_round is not None
        if has_turnup != (self.trump_card is not None):
            want = "a trump card" if has_turnup else "trump_card null"
            raise RecordError(f"this variant deals {want}")
        all_cards = [c for h in self.hands for c in h] + list(self.talon)
        if self.trump_card is not None:
            all_cards.append(self.trump_card)
        seen = 0
        for c in all_cards:
            if seen >> c & 1:
                raise RecordError(f"card {CARD_NAMES[c]} is dealt twice")
            seen |= 1 << c
        if seen != rules.deck:
            missing = ", ".join(CARD_NAMES[c] for c in iter_mask(rules.deck & ~seen))
            extra = ", ".join(CARD_NAMES[c] for c in iter_mask(seen & ~rules.deck))
            if extra:
                raise RecordError(f"cards not in this variant's deck: {extra}")
            raise RecordError(f"cards missing from the deal: {missing}")

    def as_json(self) -> dict[str, object]:
        return {
            "dealer": self.dealer,
            "hands": [[CARD_NAMES[c] for c in h] for h in self.hands],
            "trump_card": None if self.trump_card is None else CARD_NAMES[self.trump_card],
            "talon": [CARD_NAMES[c] for c in self.talon],
        }

    def relabel(self, mapping: dict[int, int]) -> DealSetup:
        """The same deal with cards renamed by ``mapping`` (cards not in it stay): used to deal
        the cards a seat cannot see differently while keeping everything else."""

        def m(c: int) -> int:
            return mapping.get(c, c)

        return DealSetup(
            self.dealer,
            tuple(tuple(m(c) for c in h) for h in self.hands),
            None if self.trump_card is None else m(self.trump_card),
            tuple(m(c) for c in self.talon),
        )

    def hand_masks(self) -> list[int]:
        return [mask_of(h) for h in self.hands]


def deal_from_order(rules: Rules, order: Sequence[int], dealer: int) -> DealSetup:
    """Deal a shuffled deck (top card first) round by round, the forehand first each round."""
    n = rules.seats
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    trump_card: int | None = None
    for rnd, count in enumerate(rules.deal_rounds):
        for i in range(1, n + 1):
            seat = (dealer + i) % n
            hands[seat].extend(order[pos : pos + count])
            pos += count
        if rules.turnup_after_round == rnd:
            trump_card = order[pos]
            pos += 1
    return DealSetup(dealer, tuple(tuple(h) for h in hands), trump_card, tuple(order[pos:]))
