"""A yardstick, not a player: the expert *told* the opponent's hand (two players).

Determinization imagines the cards a seat cannot see. Told the opponent's hand, the expert
imagines only what remains hidden from a player who knows it: the order of the talon. Its win
rate then bounds what knowing (or reading perfectly) the opponent's cards could add; whatever
it still loses is the talon's luck and the expert's own play. Only the benchmarks use this; the
bots never see it.

:func:`install` swaps the sampler the expert uses for :class:`ToldSampler`; before each
decision the benchmark calls :func:`tell` with the opponent's current hand (a card mask, in our
card numbers). A told hand that does not fit the view (a different number of cards from the
one the view leaves the opponent, say, in the middle of a trick) is ignored for that decision,
which is then an honest one.
"""

from __future__ import annotations

from collections.abc import Iterator

import sixtysix.bots.expert as expert
from sixtysix.bots.sampling import Sampler
from sixtysix.core.cards import iter_mask
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState

#: The opponent's hand for the decision being made, or None (then nothing is told).
_TOLD: list[int | None] = [None]


def tell(hand: int | None) -> None:
    """The opponent's current hand (a mask of our card numbers) for the next decision."""
    _TOLD[0] = hand


class ToldSampler(Sampler):
    """Deals consistent with the view in which the opponent holds the told hand."""

    def _told(self) -> int | None:
        if self.n != 2 or _TOLD[0] is None:
            return None
        return _TOLD[0]

    def _draw_layout(self, stream: Stream) -> dict[int, list[int]]:
        placed = super()._draw_layout(stream)
        told = self._told()
        opponent = 1 - self.seat
        if told is None or opponent not in placed:
            return placed
        pool = [c for cards in placed.values() for c in cards]
        hidden = [c for c in iter_mask(told) if c in pool]
        if len(hidden) != len(placed[opponent]):
            return placed  # the told hand does not fit this view: decide honestly
        rest = [c for c in pool if c not in hidden]
        layout: dict[int, list[int]] = {}
        for place, cards in placed.items():
            if place == opponent:
                layout[place] = hidden
            else:
                layout[place], rest = rest[: len(cards)], rest[len(cards) :]
        return layout

    def layouts(self) -> Iterator[DealState]:
        told = self._told()
        if told is None:
            yield from super().layouts()
            return
        deals = list(super().layouts())
        opponent = 1 - self.seat
        fitting = [d for d in deals if d.hands[opponent] == told]
        yield from fitting or deals


def install() -> None:
    """Make the expert draw its deals from :class:`ToldSampler` (in this process)."""
    expert.Sampler = ToldSampler  # type: ignore[misc]
