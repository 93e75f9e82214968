"""The public facts of a deal drawn as text: cards known in hands, what the table hears,
each seat's first trick, and the hands left face up once a deal is over.

The facts themselves are the table service's (:mod:`sixtysix.service.facts`,
:mod:`sixtysix.service.narration`); this module lays them out so that no card group, seat
or suit label is cut across lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from sixtysix.core.cards import iter_mask
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.facts import first_tricks, known_cards
from sixtysix.service.narration import Phrase
from sixtysix.service.terms import card_text, seat_name, suit_label
from sixtysix.text.layout import Flow, phrase

SUIT_STYLES = ("green", "dark_orange", "red", "blue")


def card_piece(card: int, style: str = "bold") -> Text:
    """A card in its suit's colour."""
    return Text(card_text(card), style=f"{SUIT_STYLES[card // 6]} {style}".strip())


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


def told(tr: Translator, said: Phrase, me: int, seats: int) -> Flow:
    """What the table hears, laid out so that no seat or suit label is cut."""
    return Flow(phrase(said.text(tr, me), labels(tr, seats, me)), gap=" ")


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
