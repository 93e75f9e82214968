"""Why an action is not allowed, said to the player in the player's language.

The engine explains illegal actions in English from the true state
(:meth:`DealState.explain`); the player's screen must not be built from the true state, so the
reasons are worked out again here from the seat's :class:`View` alone: its hand, the trick, the
legal actions and the rules. They name the duty ("you must follow suit with a higher heart").
"""

from __future__ import annotations

from sixtysix.core.actions import (
    CLAIM,
    CLOSE,
    CONCEDE,
    EXCHANGE,
    MARRY,
    PARTNER,
    SOLO,
    TRUMP,
    TRUMP_BELOW,
)
from sixtysix.core.cards import ACE, KING, NUM_CARDS, QUEEN, card_id
from sixtysix.core.state import Phase
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.terms import SUIT_SINGULAR, card_text, suit_label, suit_name


def cards_list(cards: list[int] | set[int]) -> str:
    return " ".join(card_text(c) for c in sorted(cards, reverse=True))


def pending_marriage(view: View) -> int | None:
    """The suit of the marriage this seat just declared, whose K or Q it must now lead."""
    if view.trick or not view.history:
        return None
    seat, last = view.history[-1]
    if seat == view.seat and MARRY <= last < MARRY + 4:
        return last - MARRY
    return None


def is_strict(view: View) -> bool:
    """The strict phase: no open phase at all, or the talon closed or used up."""
    return view.rules.strict_phase(view.closed_by is not None, view.talon_size)


def why_illegal(view: View, action: int, tr: Translator) -> str:
    """The reason ``action`` is not among ``view.legal_actions`` (empty if it is legal)."""
    if action in view.legal_actions:
        return ""
    if view.is_over:
        return tr._("The deal is over.")
    if not view.my_turn:
        return tr._("It is not your turn.")
    phase = view.phase
    if phase == Phase.TRUMP_CALL:
        if action == TRUMP_BELOW:
            return tr._("Trump from below is not offered in this game (option trump_from_below).")
        return tr._("First name trump: a suit, e.g. trump H.")
    if phase == Phase.PARTNER_CALL:
        if PARTNER <= action < PARTNER + 4:
            suit = action - PARTNER
            ace = card_id(ACE, suit)
            if ace in view.hand:
                return tr._("You hold {card} yourself: call another ace, or play solo.").format(
                    card=card_text(ace)
                )
            return tr._("You hold no {suit}, so you cannot call its ace.").format(
                suit=suit_name(tr, suit)
            )
        return tr._("Call a partner by an ace (e.g. partner AD), or play solo.")
    if TRUMP <= action <= TRUMP_BELOW and not view.rules.trump_call:
        return tr._("There is no trump call in this game: trump is the suit of the turn-up.")
    if PARTNER <= action <= SOLO and not view.rules.partner_call:
        return tr._("There is no partner call in this game.")
    if TRUMP <= action <= SOLO:
        return tr._("Trump and partner are already settled.")
    if action < NUM_CARDS:
        return _why_card(view, action, tr)
    if action == CONCEDE:
        return _why_concede(view, tr)
    if view.trick and not (action == EXCHANGE and view.rules.exchange_anytime):
        return tr._("Only the player on lead may do that, before leading a card.")
    married = pending_marriage(view)
    if married is not None:
        return _lead_marriage(married, tr)
    rules = view.rules
    if action == CLAIM:
        return tr._("Claims are automatic in this game: the deal ends as soon as someone has 66.")
    if MARRY <= action < MARRY + 4:
        suit = action - MARRY
        if not rules.marriages:
            return tr._("Marriages are off in this game (option marriages).")
        if is_strict(view) and not rules.marriage_after_close:
            return tr._(
                "No marriages once the talon is closed or used up (option marriage_after_close)."
            )
        return tr._("For that marriage you need the king and the queen of {suit}.").format(
            suit=suit_label(tr, suit)
        )
    if action == EXCHANGE:
        if not rules.exchange:
            return tr._("There is no trump exchange in this game.")
        if view.turnup is None or view.closed_by is not None:
            return tr._("The talon is closed or used up.")
        if view.talon_size < rules.exchange_min_talon:
            return tr._("The talon is too small for the exchange (fewer than {n} cards).").format(
                n=rules.exchange_min_talon
            )
        assert view.trump is not None
        needed = card_id(rules.exchange_rank, view.trump)
        if needed not in view.hand:
            return tr._("You do not hold the trump card for the exchange ({card}).").format(
                card=card_text(needed)
            )
        if rules.exchange_needs_trick and not view.tricks[view.seat]:
            return tr._("You must win a trick before the exchange.")
        return tr._("That is not allowed now.")
    if action == CLOSE:
        if not rules.closing:
            return tr._("There is no closing in this game.")
        if view.turnup is None or view.closed_by is not None:
            return tr._("The talon is closed or used up.")
        return tr._("You must win a trick before closing (option close_needs_trick).")
    return tr._("That is not allowed now.")


def _lead_marriage(suit: int, tr: Translator) -> str:
    return tr._(
        "After declaring the marriage in {suit} you must lead its king or queen: {cards}."
    ).format(
        suit=suit_label(tr, suit),
        cards=cards_list([card_id(KING, suit), card_id(QUEEN, suit)]),
    )


def _why_card(view: View, card: int, tr: Translator) -> str:
    if card not in view.hand:
        return tr._("You do not hold {card}.").format(card=card_text(card))
    if not view.trick:
        married = pending_marriage(view)
        if married is not None:
            return _lead_marriage(married, tr)
        return tr._("You cannot lead {card} now.").format(card=card_text(card))
    legal = {int(a) for a in view.legal_actions if a < NUM_CARDS}
    led_suit = view.trick[0][1] // 6
    same = {int(c) for c in view.hand if c // 6 == led_suit}
    trumped = led_suit != view.trump and any(c // 6 == view.trump for _, c in view.trick)
    high_led = max(c for _, c in view.trick if c // 6 == led_suit)
    if legal and legal <= same:
        if not trumped and min(legal) > high_led:
            return tr._("You must follow suit with a higher {suit}: {cards}.").format(
                suit=tr._(SUIT_SINGULAR[led_suit]), cards=cards_list(legal)
            )
        return tr._("You must follow suit: {suit} ({cards}).").format(
            suit=suit_label(tr, led_suit), cards=cards_list(legal)
        )
    trumps = {int(c) for c in view.hand if c // 6 == view.trump}
    trick_trumps = [c for _, c in view.trick if c // 6 == view.trump]
    if legal and legal <= trumps:
        overtrump = view.rules.must_overtrump and trick_trumps
        if overtrump and min(legal) > max(trick_trumps):
            return tr._("You have no {suit} and must overtrump: {cards}.").format(
                suit=suit_name(tr, led_suit), cards=cards_list(legal)
            )
        return tr._("You have no {suit}, so you must trump: {cards}.").format(
            suit=suit_name(tr, led_suit), cards=cards_list(legal)
        )
    return tr._("You cannot play {card} now.").format(card=card_text(card))


def _why_concede(view: View, tr: Translator) -> str:
    rules = view.rules
    if not rules.concession:
        return tr._("Conceding is not part of this game.")
    if view.seat != view.declarer:
        return tr._("Only the declarer may concede.")
    if pending_marriage(view) is not None:
        return tr._("You cannot concede right after declaring a marriage.")
    return tr._("Cards have been played: you may concede only with {points} valid points.").format(
        points=rules.concede_points
    )
