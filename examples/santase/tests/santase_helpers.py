"""Hand-built Santase positions, so each rule test names only the cards that matter."""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.core.actions import ACTION_NAMES, parse_action
from sixtysix.core.cards import SUITS, iter_mask, mask_of, parse_card
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.state import DealState
from sixtysix.variants.sixtysix import SixtySix


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(parse_card(t)) for t in text.split())


def fresh(variant: SixtySix, hands: Sequence[str], trump_card: str, dealer: int = 1) -> DealState:
    """A new deal with these hands; the talon is the rest of the deck in ascending order."""
    hand_cards = tuple(cards(h) for h in hands)
    trump = int(parse_card(trump_card))
    used = {c for h in hand_cards for c in h} | {trump}
    talon = tuple(c for c in iter_mask(variant.rules.deck) if c not in used)
    setup = DealSetup(dealer, hand_cards, trump, talon)
    setup.validate(variant.rules)
    return variant.new_deal(setup)


def position(
    variant: SixtySix,
    hands: Sequence[str],
    *,
    trump: str,
    turnup: str | None,
    talon: str = "",
    to_act: int = 0,
    tricks: Sequence[int] = (0, 0),
    card_points: Sequence[int] = (0, 0),
    closed_by: int = -1,
) -> DealState:
    """A mid-deal position set directly; cards not named count as already played."""
    order = list(iter_mask(variant.rules.deck))
    state = variant.new_deal(deal_from_order(variant.rules, order, 1))
    state.hands = [mask_of(cards(h)) for h in hands]
    state.known = [0, 0]
    state.trump = SUITS.index(trump)
    state.turnup = -1 if turnup is None else int(parse_card(turnup))
    state.talon = list(cards(talon))
    state.to_act = state.leader = to_act
    state.tricks = list(tricks)
    state.card_points = list(card_points)
    state.played = 2 * sum(tricks)
    state.closed_by = closed_by
    if closed_by >= 0:
        state.close_points = tuple(state.valid_points(s) for s in range(2))
        state.close_card_points = tuple(state.card_points)
        state.close_tricks = tuple(state.tricks)
    state._legal = None
    return state


def act(state: DealState, *actions: str) -> DealState:
    """Apply actions in order; a bare card ``"AS"`` means ``play AS``."""
    for text in actions:
        words = {"exchange", "close", "claim"}
        state.apply(parse_action(text if " " in text or text in words else "play " + text))
    return state


def legal(state: DealState) -> list[str]:
    return sorted(ACTION_NAMES[a] for a in state.legal_actions())
