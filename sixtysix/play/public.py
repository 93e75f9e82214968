"""The public facts of a deal, as everyone at a real table sees them.

A card taken by the trump exchange, the card shown for trump from below (or the dealer's last
card in practice 66), a marriage's other card, the turn-up drawn last, each seat's first trick
won: all of it is in a seat's :class:`~sixtysix.core.view.View` (``known``, ``history``), so
it is read from there and never from the true state. Only once a deal is over are the other
hands shown face up, from the finished deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from sixtysix.core.actions import EXCHANGE, MARRY, TRUMP_BELOW
from sixtysix.core.cards import KING, NUM_CARDS, QUEEN, Card, iter_mask
from sixtysix.core.tricks import trick_winner
from sixtysix.core.view import View
from sixtysix.i18n import N_, Translator
from sixtysix.play.layout import Flow, phrase
from sixtysix.play.terms import announcement, card_text, seat_name, suit_label

#: Why a card is known to lie in a seat's hand.
MARRIAGE = N_("marriage")
EXCHANGED = N_("taken in the exchange")
SHOWN = N_("shown for trump")
TURNUP = N_("the last turn-up")

SUIT_STYLES = ("green", "dark_orange", "red", "blue")


def card_piece(card: int, style: str = "bold") -> Text:
    """A card in its suit's colour."""
    return Text(card_text(card), style=f"{SUIT_STYLES[card // 6]} {style}".strip())


def known_reason(view: View, seat: int, card: Card) -> str:
    """Why everyone knows ``card`` is in ``seat``'s hand (an untranslated label)."""
    suit, rank = divmod(int(card), 6)
    if suit in view.marriages[seat] and rank in (KING, QUEEN):
        return MARRIAGE
    acted = {int(a) for t, a in view.history if t == seat}
    if suit == view.trump:
        if TRUMP_BELOW in acted or (view.rules.trump_from_dealer_last and seat == view.dealer):
            return SHOWN
        if EXCHANGE in acted and rank != view.rules.exchange_rank:
            return EXCHANGED
    return TURNUP


def known_cards(view: View) -> list[tuple[int, Card, str]]:
    """(seat, card, reason) for every card all seats know to be in a hand, other seats first
    by seat number, then the viewer's own."""
    order = sorted(range(view.seats), key=lambda s: (s == view.seat, s))
    return [
        (s, c, known_reason(view, s, c)) for s in order for c in sorted(view.known[s], reverse=True)
    ]


def known_line(view: View, tr: Translator) -> Flow | None:
    """``Known in hands: seat 1 A♣ (taken in the exchange)  you Q♥ (marriage)``."""
    pieces = []
    for seat, card, reason in known_cards(view):
        piece = Text(seat_name(tr, seat, view.seat) + " ")
        piece.append_text(card_piece(card))
        piece.append(f" ({tr._(reason)})", style="italic")
        pieces.append(piece)
    if not pieces:
        return None
    return Flow(pieces, head=Text(tr._("Known in hands") + ": ", style="bold"), gap=" · ")


def labels(tr: Translator, seats: int, me: int) -> list[str]:
    """The labels a line must not cut: every seat's name and every suit's label."""
    return [seat_name(tr, s, me) for s in range(seats)] + [suit_label(tr, s) for s in range(4)]


def telling(tr: Translator, seat: int, me: int, action: int, before: View, after: View) -> str:
    """What the table hears, with the cards everyone sees named: the card taken by the
    exchange, the card shown for trump from below, the marriage's cards."""
    who = seat_name(tr, seat, me)
    cards = ", ".join(card_text(c) for c in sorted(after.known[seat] - before.known[seat]))
    if action == EXCHANGE and before.turnup is not None and after.turnup is not None:
        text = (
            tr._("You exchange {card} for the turn-up {taken}")
            if seat == me
            else tr._("{who} exchanges {card} for the turn-up {taken}")
        )
        return text.format(who=who, card=card_text(after.turnup), taken=card_text(before.turnup))
    if action == TRUMP_BELOW and cards and after.trump is not None:
        text = (
            tr._("You take trump from below: {card} is shown, trump is {suit}")
            if seat == me
            else tr._("{who} takes trump from below: {card} is shown, trump is {suit}")
        )
        return text.format(who=who, card=cards, suit=suit_label(tr, after.trump))
    trump = after.trump if MARRY <= action < MARRY + 4 else None
    said = announcement(tr, seat, me, action, trump)
    if trump is not None and cards:
        said = tr._("{said}, showing {cards}").format(said=said, cards=cards)
    return said


def announced(tr: Translator, view: View, seat: int, action: int) -> str:
    """An announcement of the deal so far, for the table: with the card taken by the exchange
    or shown for trump while it is still known to be in the hand."""
    me = view.seat
    who = seat_name(tr, seat, me)
    known = {reason: c for s, c, reason in known_cards(view) if s == seat}
    if action == EXCHANGE and view.trump is not None:
        given = card_text(view.trump * 6 + view.rules.exchange_rank)
        if EXCHANGED not in known:  # the card taken has been played since
            text = (
                tr._("You exchange {card} for the turn-up")
                if seat == me
                else tr._("{who} exchanges {card} for the turn-up")
            )
            return text.format(who=who, card=given)
        text = (
            tr._("You exchange {card} for the turn-up {taken}")
            if seat == me
            else tr._("{who} exchanges {card} for the turn-up {taken}")
        )
        return text.format(who=who, card=given, taken=card_text(known[EXCHANGED]))
    if action == TRUMP_BELOW and SHOWN in known and view.trump is not None:
        text = (
            tr._("You take trump from below: {card} is shown, trump is {suit}")
            if seat == me
            else tr._("{who} takes trump from below: {card} is shown, trump is {suit}")
        )
        return text.format(who=who, card=card_text(known[SHOWN]), suit=suit_label(tr, view.trump))
    return announcement(tr, seat, me, action, view.trump if MARRY <= action < MARRY + 4 else None)


def told(tr: Translator, seat: int, me: int, action: int, before: View, after: View) -> Flow:
    """:func:`telling`, laid out so that no seat or suit label is cut."""
    said = telling(tr, seat, me, action, before, after)
    return Flow(phrase(said, labels(tr, after.seats, me)), gap=" ")


def strict_news(tr: Translator, before: View, after: View) -> str | None:
    """The line that says the strict phase begins, when this action began it."""
    return strict_line(tr, after) if strict_begins(before, after) else None


def strict_begins(before: View, after: View) -> bool:
    """Whether this action took the deal into the strict phase (talon closed or used up)."""
    rules = after.rules
    if after.is_over or rules.strict_always or rules.turnup_after_round is None:
        return False
    was = rules.strict_phase(before.closed_by is not None, before.talon_size)
    return not was and rules.strict_phase(after.closed_by is not None, after.talon_size)


def strict_line(tr: Translator, after: View) -> str:
    if after.closed_by is not None:
        why = tr._("The talon is closed")
    else:
        why = tr._("The talon is used up")
    return tr._(
        "{why}: strict play from now on. Follow suit and head the trick if you can, else trump;"
        " no more drawing."
    ).format(why=why)


def first_tricks(view: View) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Each seat's first trick won, in the order they were won: (seat, its cards)."""
    plays = [(s, int(a)) for s, a in view.history if a < NUM_CARDS]
    n = view.seats
    trump = -1 if view.trump is None else view.trump
    seen: dict[int, tuple[tuple[int, int], ...]] = {}
    for i in range(0, len(plays) - len(plays) % n, n):
        trick = tuple(plays[i : i + n])
        winner = trick_winner(trick, trump)
        seen.setdefault(winner, trick)
    return list(seen.items())


def render_first_tricks(view: View, tr: Translator) -> RenderableType:
    """The ``tricks`` command: each seat's first trick won, shown on request ([004])."""
    won = first_tricks(view)
    if not won:
        return Text(tr._("Nobody has won a trick yet."), style="dim")
    parts: list[RenderableType] = [Text(tr._("First trick won by each player") + ":", style="bold")]
    for seat, trick in won:
        head = Text("  " + seat_name(tr, seat, view.seat) + ": ", style="bold")
        pieces = []
        for s, c in trick:
            piece = Text(seat_name(tr, s, view.seat) + " ")
            piece.append_text(card_piece(c))
            pieces.append(piece)
        parts.append(Flow(pieces, head=head, gap="   "))
    return Group(*parts)


def hands_left(hands: Sequence[int], me: int, tr: Translator) -> Flow | None:
    """The other seats' cards left at the end of a deal, face up (bit masks, seat order)."""
    pieces = []
    for seat, mask in enumerate(hands):
        if seat == me or not mask:
            continue
        piece = Text(seat_name(tr, seat, me) + ":")
        for c in sorted(iter_mask(mask), reverse=True):
            piece.append(" ")
            piece.append_text(card_piece(c))
        pieces.append(piece)
    if not pieces:
        return None
    return Flow(pieces, head=Text(tr._("Cards left") + ": ", style="bold"), gap=" · ")
