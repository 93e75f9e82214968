"""What a seat is told after each action, as data: sentences by translation key, worded only
when a screen shows them.

A :class:`Phrase` is a message's key (its English text, the catalog's msgid) with its fields;
a seat, a suit or a nested phrase is worded in the screen's language at the last moment, so
the terminal, a remote seat and a browser say the same thing in either language. Everything is
drawn from the person's own views before and after the action: nothing else is known to that
seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

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
from sixtysix.core.cards import ACE, NUM_CARDS, card_id, marriage_points
from sixtysix.core.view import View
from sixtysix.i18n import N_, Translator
from sixtysix.service.facts import EXCHANGED, SHOWN, known_cards, strict_begins
from sixtysix.service.terms import card_text, seat_name, suit_label


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat in a sentence: "you" or "seat 2", as the reader is."""

    seat: int


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit in a sentence: ``♥ hearts`` in the reader's language."""

    suit: int


Field: TypeAlias = "int | str | Seat | Suit | Phrase"


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence as data: its translation key and its fields (cards in their notation, which
    both languages share)."""

    key: str
    fields: tuple[tuple[str, Field], ...] = ()

    def text(self, tr: Translator, me: int) -> str:
        """The sentence in ``tr``'s language, for the person at seat ``me``."""
        return tr._(self.key).format(**{name: _word(v, tr, me) for name, v in self.fields})


def _word(value: Field, tr: Translator, me: int) -> str | int:
    if isinstance(value, Seat):
        return seat_name(tr, value.seat, me)
    if isinstance(value, Suit):
        return suit_label(tr, value.suit)
    if isinstance(value, Phrase):
        return value.text(tr, me)
    return value


def _by(seat: int, me: int, mine: str, theirs: str, **fields: Field) -> Phrase:
    """The person's own action in the person's own words ("You close"), another's with its
    subject ("seat 1 closes"): both languages conjugate the verb by person."""
    if seat == me:
        return Phrase(mine, tuple(fields.items()))
    return Phrase(theirs, (("who", Seat(seat)), *fields.items()))


@dataclass(frozen=True, slots=True)
class News:
    """One thing a seat is told after an action: its kind (what a screen may style or
    animate), the sentence, and the cards it shows (the cards drawn, for ``draw``)."""

    kind: Literal["action", "trick", "draw", "strict"]
    phrase: Phrase
    cards: tuple[int, ...] = ()


def announcement(seat: int, me: int, action: int, trump: int | None) -> Phrase:
    """What the table hears when a seat acts: "seat 1 declares the marriage in ♥ hearts (40)"."""
    if action < NUM_CARDS:
        return _by(
            seat, me, N_("You play {card}"), N_("{who} plays {card}"), card=card_text(action)
        )
    if MARRY <= action < MARRY + 4:
        suit = action - MARRY
        return _by(
            seat,
            me,
            N_("You declare the marriage in {suit} ({points})"),
            N_("{who} declares the marriage in {suit} ({points})"),
            suit=Suit(suit),
            points=marriage_points(suit, -1 if trump is None else trump),
        )
    if TRUMP <= action < TRUMP + 4:
        return _by(
            seat, me, N_("You name trump: {suit}"), N_("{who} names trump: {suit}"),
            suit=Suit(action - TRUMP),
        )  # fmt: skip
    if PARTNER <= action < PARTNER + 4:
        ace = card_text(card_id(ACE, action - PARTNER))
        return _by(
            seat, me, N_("You call {card} as partner"), N_("{who} calls {card} as partner"),
            card=ace,
        )  # fmt: skip
    plain = _PLAIN.get(action)
    if plain is None:
        return Phrase("{who}: {action}", (("who", Seat(seat)), ("action", action)))
    return _by(seat, me, *plain)


#: The announcements that name nothing but the seat.
_PLAIN = {
    EXCHANGE: (N_("You exchange the trump card"), N_("{who} exchanges the trump card")),
    CLOSE: (N_("You close the talon"), N_("{who} closes the talon")),
    CLAIM: (N_("You claim 66"), N_("{who} claims 66")),
    TRUMP_BELOW: (N_("You take trump from below"), N_("{who} takes trump from below")),
    SOLO: (N_('You play solo: "I go alone!"'), N_('{who} plays solo: "I go alone!"')),
    CONCEDE: (N_("You concede the deal"), N_("{who} concedes the deal")),
}


def _exchange(seat: int, me: int, given: int, taken: int | None) -> Phrase:
    if taken is None:  # the card taken has been played since
        return _by(
            seat, me, N_("You exchange {card} for the turn-up"),
            N_("{who} exchanges {card} for the turn-up"), card=card_text(given),
        )  # fmt: skip
    return _by(
        seat, me, N_("You exchange {card} for the turn-up {taken}"),
        N_("{who} exchanges {card} for the turn-up {taken}"),
        card=card_text(given), taken=card_text(taken),
    )  # fmt: skip


def _from_below(seat: int, me: int, shown: str, trump: int) -> Phrase:
    return _by(
        seat, me, N_("You take trump from below: {card} is shown, trump is {suit}"),
        N_("{who} takes trump from below: {card} is shown, trump is {suit}"),
        card=shown, suit=Suit(trump),
    )  # fmt: skip


def telling(seat: int, me: int, action: int, before: View, after: View) -> Phrase:
    """What the table hears, with the cards everyone sees named: the card taken by the
    exchange, the card shown for trump from below, the marriage's cards."""
    cards = ", ".join(card_text(c) for c in sorted(after.known[seat] - before.known[seat]))
    if action == EXCHANGE and before.turnup is not None and after.turnup is not None:
        return _exchange(seat, me, after.turnup, before.turnup)
    if action == TRUMP_BELOW and cards and after.trump is not None:
        return _from_below(seat, me, cards, after.trump)
    trump = after.trump if MARRY <= action < MARRY + 4 else None
    said = announcement(seat, me, action, trump)
    if trump is not None and cards:
        return Phrase(N_("{said}, showing {cards}"), (("said", said), ("cards", cards)))
    return said


def announced(view: View, seat: int, action: int) -> Phrase:
    """An announcement of the deal so far, for the table: with the card taken by the exchange
    or shown for trump while it is still known to be in the hand."""
    me = view.seat
    known = {reason: c for s, c, reason in known_cards(view) if s == seat}
    if action == EXCHANGE and view.trump is not None:
        given = view.trump * 6 + view.rules.exchange_rank
        return _exchange(seat, me, given, known.get(EXCHANGED))
    if action == TRUMP_BELOW and SHOWN in known and view.trump is not None:
        return _from_below(seat, me, card_text(known[SHOWN]), view.trump)
    return announcement(seat, me, action, view.trump if MARRY <= action < MARRY + 4 else None)


def deal_heading(number: int, deals: int | None, dealer: Field) -> Phrase:
    """The line that opens deal ``number`` (of ``deals`` in a match of a fixed length)."""
    if deals is None:
        return Phrase(
            N_("Deal {number}, dealer: {dealer}."), (("number", number), ("dealer", dealer))
        )
    key = N_("Deal {number} of {deals}, dealer: {dealer}.")
    return Phrase(key, (("number", number), ("deals", deals), ("dealer", dealer)))


def strict_phrase(after: View) -> Phrase:
    """The talon is closed or used up: strict play from now on."""
    why = N_("The talon is closed") if after.closed_by is not None else N_("The talon is used up")
    return Phrase(
        N_(
            "{why}: strict play from now on. Follow suit and head the trick if you can, else"
            " trump; no more drawing."
        ),
        (("why", Phrase(why)),),
    )


def news(me: int, seat: int, action: int, before: View, after: View) -> list[News]:
    """What seat ``me`` is told of ``seat``'s ``action``: the action with the cards it shows
    everyone (the card taken by the exchange, a marriage's other card), the trick's winner,
    the cards the person draws, and the strict phase once it begins."""
    told = [News("action", telling(seat, me, action, before, after))]
    if sum(after.tricks) > sum(before.tricks):
        winner = next(s for s in range(after.seats) if after.tricks[s] > before.tricks[s])
        gained = after.card_points[winner] - before.card_points[winner]
        trick = Phrase(
            N_("Trick to {who} (+{points})."), (("who", Seat(winner)), ("points", gained))
        )
        told.append(News("trick", trick))
        drawn = set(after.hand) - set(before.hand)
        if drawn:
            told.append(News("draw", Phrase(N_("You draw")), tuple(sorted(drawn))))
    if strict_begins(before, after):
        told.append(News("strict", strict_phrase(after)))
    return told


def hint_rows(values: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """The expert's values of each move, best first (a hint table's rows)."""
    return sorted(((int(a), float(v)) for a, v in values), key=lambda av: -av[1])
