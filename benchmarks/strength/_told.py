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
which is then an honest one. :class:`Told` does both for a bot in the games of a duel played
on ``_watched.Watched``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

import sixtysix.bots.players.expert as expert
from benchmarks.strength._watched import watched_state
from sixtysix.bots.base import Bot
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.levels import resolve_player
from sixtysix.core.actions import Action
from sixtysix.core.cards import iter_mask, mask_of
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry

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
    # The name the expert looks up at each decision, rebound in the expert's own namespace.
    vars(expert)["Sampler"] = ToldSampler


class Told(Bot):
    """The measured bot, told the opponent's current hand before each of its decisions.

    The duel is played on :class:`_watched.Watched`, so the true state of the game being
    played is at hand (:func:`_watched.watched_state`, which checks it is this view's game) in
    single deals and in whole matches alike.
    """

    name = "told"
    description = "a yardstick: the bot named by 'bot' told the opponent's hand (benchmarks)"
    parameters: ClassVar[Mapping[str, str]] = {
        "bot": "the measured bot, as for sixtysix duel (NAME:k=v or @level)",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        install()  # in each worker process too
        _, cls, inner = resolve_player(self.params["bot"], get_registry(), seats=2)
        self.bot = cls(seat, seed, inner)

    def choose(self, view: View) -> Action:
        state = watched_state(view)
        if state.hands[self.seat] != mask_of(view.hand):
            raise RuntimeError("told: the watched deal does not match the view")
        tell(state.hands[1 - self.seat])
        try:
            return self.bot.choose(view)
        finally:
            tell(None)
