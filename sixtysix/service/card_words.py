"""Cards and suits typed in words, in either language: ``9 kupa``, ``kupa dokuz``, ``papaz
maça``, ``queen of hearts``, ``10h``, ``Q♥``.

A card is its compact notation (``qh``, ``10♥``, one word), or a rank word and a suit word in
either order. Rank words: English ``ace king queen jack ten nine`` and the letters/digits
``A K Q J 10 9``; Turkish ``as papaz kız vale/oğlan on dokuz``. Suit words: ``C D H S``, the
symbols, the English and the Turkish names (``sinek/ispati karo kupa maça``).

A rank word alone names the card of that rank in the hand when there is exactly one; with
two or more the reader asks which, listing them, so a lone word never picks a card the player
did not mean. One exception keeps the established notation: in English ``as`` is the compact
form of A♠. In Turkish ``as`` is the word for "ace", so there it is the rank word, like
``papaz``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.core.cards import ACE, JACK, KING, NINE, QUEEN, TEN, Card, card_id, parse_card
from sixtysix.core.errors import NotationError
from sixtysix.i18n import N_, Translator
from sixtysix.service.terms import card_text, suit_name

SUIT_WORDS: dict[str, int] = {
    **dict.fromkeys(("c", "♣", "♧", "club", "clubs", "sinek", "ispati", "ispatı"), 0),
    **dict.fromkeys(("d", "♦", "♢", "diamond", "diamonds", "karo"), 1),
    **dict.fromkeys(("h", "♥", "♡", "heart", "hearts", "kupa"), 2),
    **dict.fromkeys(("s", "♠", "♤", "spade", "spades", "maça", "maca"), 3),
}

RANK_WORDS: dict[str, int] = {
    **dict.fromkeys(("a", "ace", "as"), ACE),
    **dict.fromkeys(("k", "king", "papaz", "kral", "p"), KING),
    **dict.fromkeys(("q", "queen", "kız", "kiz", "dam"), QUEEN),
    **dict.fromkeys(("j", "jack", "vale", "oğlan", "oglan", "bacak"), JACK),
    **dict.fromkeys(("10", "t", "ten", "on"), TEN),
    **dict.fromkeys(("9", "nine", "dokuz"), NINE),
}
#: Words that join a rank and a suit and mean nothing themselves: "queen of hearts".
_FILLER = {"of"}

#: A rank in words, for "which queen?": the player's language's word for it.
RANK_NAMES = {
    ACE: N_("ace"),
    KING: N_("king"),
    QUEEN: N_("queen"),
    JACK: N_("jack"),
    TEN: N_("ten"),
    NINE: N_("nine"),
}


class CardWordProblem(Exception):
    """The words name no card, or no single card; the message is in the player's language."""


def read_card(words: Sequence[str], hand: Sequence[Card], tr: Translator) -> Card | None:
    """The card the (lower-case) words name; None when they are no card words at all.

    Raises :class:`CardWordProblem` for a lone rank word that fits no card or several in
    ``hand``.
    """
    words = [w for w in words if w not in _FILLER]
    if len(words) == 1:
        word = words[0]
        if not (tr.lang != "en" and word == "as"):
            try:
                return parse_card(word)
            except NotationError:
                pass
        if word in RANK_WORDS and not word.isdigit() and len(word) > 1:
            return _lone_rank(RANK_WORDS[word], hand, tr)
        return None
    if len(words) == 2:
        first, second = words
        if first in RANK_WORDS and second in SUIT_WORDS:
            return Card(card_id(RANK_WORDS[first], SUIT_WORDS[second]))
        if first in SUIT_WORDS and second in RANK_WORDS:
            return Card(card_id(RANK_WORDS[second], SUIT_WORDS[first]))
    return None


def _lone_rank(rank: int, hand: Sequence[Card], tr: Translator) -> Card:
    held = [c for c in hand if c.rank == rank]
    if len(held) == 1:
        return held[0]
    name = tr._(RANK_NAMES[rank])
    if not held:
        raise CardWordProblem(tr._("You hold no {rank}.").format(rank=name))
    raise CardWordProblem(
        tr._("Which {rank}? You hold {cards}: add the suit, e.g. {example}.").format(
            rank=name,
            cards=" ".join(card_text(c) for c in held),
            example=f"{tr._(RANK_NAMES[rank])} {suit_word(tr, held[0].suit)}",
        )
    )


def suit_word(tr: Translator, suit: int) -> str:
    """The suit as the player types it in words: ``hearts`` / ``kupa``."""
    return suit_name(tr, suit)
