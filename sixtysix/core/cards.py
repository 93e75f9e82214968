"""Cards as small integers, hands as bit masks.

A card is ``suit * 6 + rank`` with ranks ``9 J Q K T A`` (0..5) and suits ``C D H S`` (0..3),
so a hand of any deck fits in a 24-bit integer and a suit is a 6-bit field. Higher rank index
means a stronger card in every suit, which makes "the cards above this one" a single mask.
The readable :class:`Card` type is an ``int`` subclass used at the API boundary only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from sixtysix.core.errors import NotationError

RANKS = "9JQKTA"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_NAMES_SINGULAR = ("club", "diamond", "heart", "spade")
SUIT_SYMBOLS = "♣♦♥♠"
RANK_POINTS = (0, 2, 3, 4, 10, 11)

NINE, JACK, QUEEN, KING, TEN, ACE = range(6)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NUM_CARDS = 24

SUIT_MASK: tuple[int, ...] = tuple(0b111111 << (6 * s) for s in range(4))
FULL_DECK = (1 << NUM_CARDS) - 1
NINES_MASK = sum(1 << (s * 6 + NINE) for s in range(4))

POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 6] for c in range(NUM_CARDS))
#: ``ABOVE[c]``: the cards of c's suit that beat c.
ABOVE: tuple[int, ...] = tuple(SUIT_MASK[c // 6] & ~((1 << (c + 1)) - 1) for c in range(NUM_CARDS))
#: ``KQ[s]``: the king and the queen of suit ``s``, the cards of its marriage.
KQ: tuple[int, ...] = tuple((1 << (s * 6 + KING)) | (1 << (s * 6 + QUEEN)) for s in range(4))
#: A marriage's points: 20, or 40 in the trump suit.
MARRIAGE_POINTS, TRUMP_MARRIAGE_POINTS = 20, 40
CARD_NAMES: tuple[str, ...] = tuple(RANKS[c % 6] + SUITS[c // 6] for c in range(NUM_CARDS))


def card_id(rank: int, suit: int) -> int:
    """The integer of the card of ``rank`` (0 = nine .. 5 = ace) in ``suit``."""
    return suit * 6 + rank


def marriage_points(suit: int, trump: int) -> int:
    """The points of a marriage in ``suit`` with ``trump`` the trump suit (-1: none yet)."""
    return TRUMP_MARRIAGE_POINTS if suit == trump else MARRIAGE_POINTS


def suit_of(card: int) -> int:
    return card // 6


def rank_of(card: int) -> int:
    return card % 6


def mask_points(mask: int) -> int:
    """Card points of every card in a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def iter_mask(mask: int) -> Iterator[int]:
    """The cards of a mask in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def highest(mask: int) -> int:
    """The strongest card of a mask that holds cards of one suit."""
    return mask.bit_length() - 1


_SYMBOL_TO_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


def parse_suit(text: str) -> int:
    """Parse a suit letter or symbol (any case): ``h``, ``H``, ``♥``."""
    t = text.strip()
    t = _SYMBOL_TO_SUIT.get(t, t).upper()
    if len(t) != 1 or t not in SUITS:
        raise NotationError(f"unknown suit {text!r} (use C, D, H, S or ♣ ♦ ♥ ♠)")
    return SUITS.index(t)


def parse_card(text: str) -> Card:
    """Parse a card forgivingly: any case, ``10`` for ``T``, suit symbols (``10♥`` is ``TH``)."""
    t = text.strip()
    for sym, letter in _SYMBOL_TO_SUIT.items():
        t = t.replace(sym, letter)
    t = t.upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise NotationError(f"unknown card {text!r} (rank 9 J Q K T A, then suit C D H S)")
    return CARDS[card_id(RANKS.index(t[0]), SUITS.index(t[1]))]


class Card(int):
    """A card: an ``int`` (0..23) that prints in canonical notation (``AS``, ``TH``)."""

    __slots__ = ()

    @property
    def suit(self) -> int:
        return self // 6

    @property
    def rank(self) -> int:
        return self % 6

    @property
    def points(self) -> int:
        return POINTS[self]

    def __str__(self) -> str:
        return CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card({CARD_NAMES[self]})"

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(text)


#: The interned :class:`Card` objects, indexed by card integer.
CARDS: tuple[Card, ...] = tuple(Card(c) for c in range(NUM_CARDS))


#: ``_BYTE_IDS[k][b]``: the card integers of byte ``b`` of a mask shifted to bits ``8k..8k+7``;
#: ``_BYTE_CARDS`` the same as :class:`Card` objects.
_BYTE_IDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(iter_mask(b << (8 * k))) for b in range(256)) for k in range(3)
)
_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(CARDS[c] for c in ids) for ids in table) for table in _BYTE_IDS
)


def card_ids(mask: int) -> list[int]:
    """The card integers of a mask in a new list, ascending (as :func:`iter_mask` yields them)."""
    if 0 <= mask <= FULL_DECK:
        low, mid, high = _BYTE_IDS  # a table per byte: this runs for every legal move list
        return [*low[mask & 0xFF], *mid[mask >> 8 & 0xFF], *high[mask >> 16]]
    return list(iter_mask(mask))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask as readable :class:`Card` objects, ascending."""
    if 0 <= mask <= FULL_DECK:
        low, mid, high = _BYTE_CARDS  # a table per byte: this runs for every view
        return low[mask & 0xFF] + mid[mask >> 8 & 0xFF] + high[mask >> 16]
    return tuple(CARDS[c] for c in iter_mask(mask))


def format_cards(cards: Iterable[int]) -> str:
    return ", ".join(CARD_NAMES[c] for c in cards)
