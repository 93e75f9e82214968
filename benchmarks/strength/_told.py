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
which is then an honest one. :class:`Told` does both for a bot in the games of a duel.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

import sixtysix.bots.expert as expert
from sixtysix.bots.base import Bot
from sixtysix.bots.levels import resolve_player
from sixtysix.bots.sampling import Sampler
from sixtysix.core.actions import Action
from sixtysix.core.cards import iter_mask, mask_of
from sixtysix.core.deal import DealSetup
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import deal_path

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


#: The duel's deals, per (variant, seed), as far as looked for: ``(dealer, hands, setup)``.
_DEALS: dict[tuple[str, int], list[tuple[int, tuple[int, ...], DealSetup]]] = {}
#: How many deals :class:`Told` looks through for its game's before giving up.
MAX_DEALS = 1_000_000


class Told(Bot):
    """The measured bot, told the opponent's current hand before each of its decisions.

    A duel deals game after game from ``deal_path(d)`` of its seed, dealer ``d % seats``: the
    wrapper finds its game's deal by its own first hand, replays the view's public actions on
    it, and so knows the hidden hand without any hook in the duel.
    """

    name = "told"
    description = "a yardstick: the bot named by 'bot' told the opponent's hand (benchmarks)"
    parameters: ClassVar[Mapping[str, str]] = {
        "bot": "the measured bot, as for sixtysix duel (NAME:k=v or @level)",
        "variant": "the duel's variant",
        "duel_seed": "the duel's master seed",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        install()  # in each worker process too
        registry = get_registry()
        self.variant: Variant = registry.variant(self.params["variant"])()
        _, cls, inner = resolve_player(self.params["bot"], registry, seats=self.variant.seats)
        self.bot = cls(seat, seed, inner)
        self.duel_seed = int(self.params["duel_seed"])
        self.state: DealState | None = None

    def choose(self, view: View) -> Action:
        state = self.state if self.state is not None else self._find(view)
        self.state = state
        for _, action in view.history[len(state.history) :]:
            state.apply(int(action))
        if state.hands[self.seat] != mask_of(view.hand):
            raise RuntimeError("told: the replayed deal no longer matches the view")
        tell(state.hands[1 - self.seat])
        try:
            return self.bot.choose(view)
        finally:
            tell(None)

    def _find(self, view: View) -> DealState:
        """A fresh state of this game's deal: the duel's deal with this dealer and hand."""
        deals = _DEALS.setdefault((self.variant.name, self.duel_seed), [])
        hand = mask_of(view.hand)
        n = self.variant.seats
        seed = Seed(self.duel_seed)
        for d in range(MAX_DEALS):
            if d == len(deals):
                setup = self.variant.deal(seed, deal_path(d), d % n)
                first = self.variant.new_deal(setup)
                deals.append((first.dealer, tuple(first.hands), setup))
            dealer, hands, setup = deals[d]
            if dealer == view.dealer and hands[self.seat] == hand:
                return self.variant.new_deal(setup)
        raise RuntimeError("told: no deal of the duel has this hand")
