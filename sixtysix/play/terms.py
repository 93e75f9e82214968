"""The game's words in the player's language: suits, cards, seats, actions and results.

Cards keep their canonical letters (``A K Q J 9``, ``10``) with the suit symbol in both
languages, since that is also what the player types; everything said about them is translated.
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
from sixtysix.core.cards import ACE, NUM_CARDS, RANKS, SUIT_SYMBOLS, card_id, marriage_points
from sixtysix.core.outcome import Reason
from sixtysix.i18n import N_, Translator

SUIT_NAMES = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
#: One card of a suit: "a higher heart".
SUIT_SINGULAR = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))
RED_SUITS = frozenset({1, 2})

REASONS: dict[str, str] = {
    Reason.REACHED_66: N_("reached 66"),
    Reason.FALSE_CLAIM: N_("false claim"),
    Reason.FAILED_CLOSE: N_("failed close"),
    Reason.LAST_TRICK: N_("the last trick takes the deal"),
    Reason.PLAYED_OUT: N_("cards played out"),
    Reason.DRAW: N_("draw (pata)"),
    Reason.CONCEDED: N_("conceded"),
}


def card_text(card: int) -> str:
    """``A♥``, ``10♠``: the rank (10 for the ten) and the suit symbol."""
    rank = RANKS[card % 6]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 6]


def suit_name(tr: Translator, suit: int) -> str:
    return tr._(SUIT_NAMES[suit])


def suit_label(tr: Translator, suit: int) -> str:
    """``♥ hearts``."""
    return f"{SUIT_SYMBOLS[suit]} {suit_name(tr, suit)}"


def seat_name(tr: Translator, seat: int, me: int) -> str:
    """How a seat is called on the screen: "you", or "seat 2"."""
    if seat == me:
        return tr._("you")
    return tr._("seat {seat}").format(seat=seat)


def reason_text(tr: Translator, reason: str) -> str:
    return tr._(REASONS.get(reason, reason))


def action_text(tr: Translator, action: int) -> str:
    """An action in words, for menus and help: "play A♥", "declare the hearts marriage"."""
    if action < NUM_CARDS:
        return tr._("play {card}").format(card=card_text(action))
    if MARRY <= action < MARRY + 4:
        return tr._("marriage in {suit}").format(suit=suit_label(tr, action - MARRY))
    if action == EXCHANGE:
        return tr._("exchange the trump card")
    if action == CLOSE:
        return tr._("close the talon")
    if action == CLAIM:
        return tr._("claim 66")
    if TRUMP <= action < TRUMP + 4:
        return tr._("trump {suit}").format(suit=suit_label(tr, action - TRUMP))
    if action == TRUMP_BELOW:
        return tr._("trump from below")
    if PARTNER <= action < PARTNER + 4:
        ace = card_id(ACE, action - PARTNER)
        return tr._("call {card} as partner").format(card=card_text(ace))
    if action == SOLO:
        return tr._("play solo")
    if action == CONCEDE:
        return tr._("concede the deal")
    return str(action)


def announcement(tr: Translator, seat: int, me: int, action: int, trump: int | None) -> str:
    """What the table hears when a seat acts: "seat 1 declares the marriage in ♥ hearts (40)".

    The person's own actions have their own wording ("You close the talon"), since both
    languages conjugate the verb by person.
    """
    mine = seat == me
    who = seat_name(tr, seat, me)
    if action < NUM_CARDS:
        text = tr._("You play {card}") if mine else tr._("{who} plays {card}")
        return text.format(who=who, card=card_text(action))
    if MARRY <= action < MARRY + 4:
        suit = action - MARRY
        text = (
            tr._("You declare the marriage in {suit} ({points})")
            if mine
            else tr._("{who} declares the marriage in {suit} ({points})")
        )
        return text.format(
            who=who,
            suit=suit_label(tr, suit),
            points=marriage_points(suit, -1 if trump is None else trump),
        )
    if action == EXCHANGE:
        text = (
            tr._("You exchange the trump card") if mine else tr._("{who} exchanges the trump card")
        )
    elif action == CLOSE:
        text = tr._("You close the talon") if mine else tr._("{who} closes the talon")
    elif action == CLAIM:
        text = tr._("You claim 66") if mine else tr._("{who} claims 66")
    elif TRUMP <= action < TRUMP + 4:
        text = tr._("You name trump: {suit}") if mine else tr._("{who} names trump: {suit}")
        return text.format(who=who, suit=suit_label(tr, action - TRUMP))
    elif action == TRUMP_BELOW:
        text = tr._("You take trump from below") if mine else tr._("{who} takes trump from below")
    elif PARTNER <= action < PARTNER + 4:
        ace = card_id(ACE, action - PARTNER)
        text = tr._("You call {card} as partner") if mine else tr._("{who} calls {card} as partner")
        return text.format(who=who, card=card_text(ace))
    elif action == SOLO:
        text = (
            tr._('You play solo: "I go alone!"')
            if mine
            else tr._('{who} plays solo: "I go alone!"')
        )
    elif action == CONCEDE:
        text = tr._("You concede the deal") if mine else tr._("{who} concedes the deal")
    else:
        return f"{who}: {action}"
    return text.format(who=who)
