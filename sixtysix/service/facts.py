"""The public facts of a table, as everyone at a real table sees them, for any screen.

A card taken by the trump exchange, the card shown for trump from below (or the dealer's last
card in practice 66), a marriage's other card, each seat's first trick won, who plays with
whom, the points a seat may see: all of it is read from a seat's
:class:`~sixtysix.core.view.View` (``known``, ``history``) and the match's public facts, never
from the true state. Whether running points may be shown at all is the variant's rule
(:func:`points_shown`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtysix.core.actions import EXCHANGE, TRUMP_BELOW
from sixtysix.core.cards import KING, NUM_CARDS, QUEEN, Card, marriage_points
from sixtysix.core.rules import Sides
from sixtysix.core.tricks import trick_winner
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import N_, Translator

#: Why a card is known to lie in a seat's hand.
MARRIAGE = N_("marriage")


EXCHANGED = N_("taken in the exchange")


SHOWN = N_("shown for trump")


TURNUP = N_("the last turn-up")


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


def strict_begins(before: View, after: View) -> bool:
    """Whether this action took the deal into the strict phase (talon closed or used up)."""
    rules = after.rules
    if after.is_over or rules.strict_always or rules.turnup_after_round is None:
        return False
    was = rules.strict_phase(before.closed_by is not None, before.talon_size)
    return not was and rules.strict_phase(after.closed_by is not None, after.talon_size)


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


def points_shown(variant: Variant) -> bool:
    """Whether people see running points: with automatic claims, or with ``open_scores``
    (RULES.md: manual claims are a memory game), as the variant's rules state."""
    return not variant.rules.manual_claim or variant.rules.open_scores


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The public facts about the match that a view does not hold."""

    variant: str
    deal_number: int
    totals: tuple[int, ...]
    target: int
    #: Who sits where: the bot's name, or "" for the person.
    players: tuple[str, ...]
    show_points: bool
    rated: bool
    #: Deals in a match of a fixed length (None: the match is played to ``target``).
    deals: int | None = None


def hand_order(view: View) -> list[Card]:
    """The hand as displayed and numbered: trumps first, then clubs, diamonds, hearts, spades;
    high to low within a suit."""
    trump = view.trump

    def key(card: Card) -> tuple[int, int, int]:
        return (0 if card.suit == trump else 1, card.suit, -card.rank)

    return sorted(view.hand, key=key)


def restricted(view: View) -> frozenset[int]:
    """The cards of the hand that may not be played now, when the person is to play a card
    and only some of the hand is allowed (empty otherwise: nothing to mark)."""
    if not view.my_turn:
        return frozenset()
    legal = {int(a) for a in view.legal_actions if a < NUM_CARDS}
    barred = frozenset(int(c) for c in view.hand if int(c) not in legal)
    return barred if legal and barred else frozenset()


def sides_known(view: View) -> list[int] | None:
    """Each seat's side as far as this seat knows it, or None while a partner is hidden."""
    n = view.seats
    rules = view.rules
    if rules.sides == Sides.SEATS or view.declarer is None:
        return list(range(n))
    if rules.sides == Sides.DECLARER:
        return [0 if s == view.declarer else 1 for s in range(n)]
    if view.solo:
        return [0 if s == view.declarer else 1 for s in range(n)]
    if view.partner is not None:
        return [0 if s in (view.declarer, view.partner) else 1 for s in range(n)]
    return None


def seat_points(view: View, seat: int) -> tuple[int, int]:
    """(points known to count, marriage points still pending) for a seat: card points, plus
    its marriages once its side (as far as this seat knows) has won a trick."""
    trump = view.trump
    married = sum(marriage_points(s, -1 if trump is None else trump) for s in view.marriages[seat])
    sides = sides_known(view)
    if sides is None:
        has_trick = view.tricks[seat] > 0
    else:
        has_trick = any(view.tricks[t] for t in range(view.seats) if sides[t] == sides[seat])
    if has_trick:
        return view.card_points[seat] + married, 0
    return view.card_points[seat], married


def side_points(view: View) -> list[int] | None:
    """Each seat's side's pooled points known to count, where the sides are known and are
    more than single seats (None otherwise)."""
    sides = sides_known(view)
    if view.rules.sides == Sides.SEATS or view.declarer is None or sides is None:
        return None
    valid = [seat_points(view, s)[0] for s in range(view.seats)]
    return [
        sum(valid[t] for t in range(view.seats) if sides[t] == sides[s]) for s in range(view.seats)
    ]


def table_title(view: View, info: TableInfo, tr: Translator) -> str:
    """``sixtysix · deal 2 · you are seat 0 · rated``: the table's heading."""
    if info.deals is None:
        title = tr._("{variant} · deal {number} · you are seat {seat}")
    else:
        title = tr._("{variant} · deal {number} of {deals} · you are seat {seat}")
    title = title.format(
        variant=info.variant, number=info.deal_number, deals=info.deals, seat=view.seat
    )
    return title + (" · " + tr._("rated") if info.rated else "")
