"""How a yardstick sees the true deal: the duel's variant, wrapped so that it remembers the state
of the game being played.

Every driver (a duel's deals, a duel's matches) deals through ``variant.new_deal``, so
:class:`Watched` sees each game as it starts, whatever the seed paths it was dealt from;
:func:`watched_state` hands a yardstick that state at its decision, after checking that it is
the game of the view it was asked with. The all-seeing player (``_all_seeing.py``) and the bot
told the opponent's hand (``_told.py``) read it; no registered bot ever does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.core.deal import DealSetup
from sixtysix.core.outcome import DealEnd, Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

#: The state of the game being played in this process (set by :class:`Watched`).
_CURRENT: list[DealState | None] = [None]


class Watched(Variant):
    """The duel's variant, unchanged, except that it remembers each deal it starts.

    Every attribute the wrapper does not define is the wrapped variant's, so the games are the
    very games of the wrapped variant (the states it makes are the wrapped variant's own).
    """

    def __init__(self, inner: Variant) -> None:  # no Variant.__init__: the inner one's rules
        self.inner = inner
        self.options = inner.options
        self.rules = inner.rules
        self.match_format = inner.match_format

    def __getattr__(self, attr: str) -> Any:
        inner = self.__dict__.get("inner")
        if inner is None:  # while unpickling, before __dict__ is filled
            raise AttributeError(attr)
        return getattr(inner, attr)

    @property
    def target(self) -> int:
        return self.inner.target

    def first_dealer(self, seed: Seed, path: tuple[int | str, ...] = ()) -> int:
        return self.inner.first_dealer(seed, path)

    def next_dealer(self, dealer: int) -> int:
        return self.inner.next_dealer(dealer)

    def deal(self, seed: Seed, path: tuple[int | str, ...], dealer: int) -> DealSetup:
        return self.inner.deal(seed, path, dealer)

    def new_deal(self, setup: DealSetup) -> DealState:
        state = self.inner.new_deal(setup)
        _CURRENT[0] = state
        return state

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        return self.inner.settle(state, end)

    def match_winners(self, totals: Sequence[int], deals: int | None = None) -> list[int]:
        return self.inner.match_winners(totals, deals)

    def summary(self) -> str:
        return self.inner.summary()


def watched_state(view: View) -> DealState:
    """The true state of the game ``view`` was taken from, or RuntimeError (never a guess)."""
    state = _CURRENT[0]
    if (
        state is None
        or state.to_act != view.seat
        or len(state.history) != len(view.history)
        or state.dealer != view.dealer
        or [int(a) for a in state.legal_actions()] != [int(a) for a in view.legal_actions]
    ):
        raise RuntimeError("no watched game matches this view (play it on Watched)")
    return state
