"""Building hand-made positions and playing actions by their notation, for the rule tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sixtysix.core.actions import parse_action
from sixtysix.core.cards import iter_mask, parse_card
from sixtysix.core.deal import DealSetup
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant


def cards(text: str) -> tuple[int, ...]:
    """``"AS TS 9H"`` -> card integers in that order."""
    return tuple(int(parse_card(t)) for t in text.split())


def deal(
    variant: Variant,
    hands: Sequence[str],
    trump_card: str | None = None,
    talon: str = "",
    dealer: int | None = None,
) -> DealState:
    """A deal with the given hands; the talon starts with ``talon`` and is completed with the
    remaining cards of the deck in ascending order (so the tests name only what matters)."""
    n = variant.seats
    dealer = (n - 1) if dealer is None else dealer
    hand_cards = tuple(cards(h) for h in hands)
    used = {c for h in hand_cards for c in h}
    top = cards(talon)
    trump = None if trump_card is None else int(parse_card(trump_card))
    used |= set(top)
    if trump is not None:
        used.add(trump)
    rest: tuple[int, ...] = ()
    if variant.rules.turnup_after_round is not None:
        rest = tuple(c for c in iter_mask(variant.rules.deck) if c not in used)
    setup = DealSetup(dealer, hand_cards, trump, top + rest)
    setup.validate(variant.rules)
    return variant.new_deal(setup)


def act(state: DealState, *actions: str) -> DealState:
    """Apply actions in order; a bare card ``"AS"`` means ``play AS``."""
    for text in actions:
        a = parse_action(text if " " in text or text in _VERBS else "play " + text)
        state.apply(a)
    return state


_VERBS = {"exchange", "close", "claim", "solo", "concede"}


def legal(state: DealState) -> list[str]:
    from sixtysix.core.actions import ACTION_NAMES

    return sorted(ACTION_NAMES[a] for a in state.legal_actions())


def names(cs: Iterable[int]) -> str:
    from sixtysix.core.cards import CARD_NAMES

    return " ".join(CARD_NAMES[c] for c in cs)


def position(
    variant: Variant,
    hands: Sequence[str],
    *,
    trump: str,
    turnup: str | None = None,
    talon: str = "",
    to_act: int = 0,
    tricks: Sequence[int] | None = None,
    card_points: Sequence[int] | None = None,
    trick: str = "",
    closed_by: int = -1,
) -> DealState:
    """A mid-deal position set directly: the hands, the talon and the tallies given.

    Cards not named are taken as already played; a rule test then looks only at what the
    engine does next.
    """
    from sixtysix.core.cards import SUITS, mask_of

    n = variant.seats
    state = deal_any(variant)
    state.hands = [mask_of(cards(h)) for h in hands]
    state.known = [0] * n
    state.trump = SUITS.index(trump)
    state.turnup = -1 if turnup is None else int(parse_card(turnup))
    state.talon = list(cards(talon))
    state.to_act = state.leader = to_act
    state.tricks = list(tricks) if tricks is not None else [0] * n
    state.card_points = list(card_points) if card_points is not None else [0] * n
    state.played = 1  # some cards have been played
    played = cards(trick)
    # The seats of a partly played trick precede the seat to act.
    state.trick = [((to_act - len(played) + i) % n, c) for i, c in enumerate(played)]
    state.closed_by = closed_by
    if closed_by >= 0:
        state.close_points = tuple(state.valid_points(s) for s in range(n))
        state.close_card_points = tuple(state.card_points)
        state.close_tricks = tuple(state.tricks)
    state._legal = None
    return state


def deal_any(variant: Variant, dealer: int | None = None) -> DealState:
    """Some valid deal of the variant (cards in deck order), to start a position from."""
    from sixtysix.core.deal import deal_from_order

    n = variant.seats
    order = list(iter_mask(variant.rules.deck))
    setup = deal_from_order(variant.rules, order, (n - 1) if dealer is None else dealer)
    return variant.new_deal(setup)
