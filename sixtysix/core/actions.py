"""Actions as small integers with a canonical string form (see RECORDS.md).

Codes 0..23 play that card; the special actions follow. The numeric order puts card plays
first, which is also the order in which the engine lists legal actions, so a choice "the k-th
legal action" means the same thing on every code path.
"""

from __future__ import annotations

from sixtysix.core.cards import (
    ACE,
    CARD_NAMES,
    NUM_CARDS,
    RANKS,
    SUITS,
    card_id,
    parse_card,
    parse_suit,
)
from sixtysix.core.errors import NotationError

MARRY = 24  # + suit
EXCHANGE = 28
CLOSE = 29
CLAIM = 30
TRUMP = 31  # + suit
TRUMP_BELOW = 35
PARTNER = 36  # + suit of the called ace
SOLO = 40
CONCEDE = 41
NUM_ACTIONS = 42


def _name(code: int) -> str:
    if code < NUM_CARDS:
        return "play " + CARD_NAMES[code]
    if MARRY <= code < MARRY + 4:
        return "marry " + SUITS[code - MARRY]
    if TRUMP <= code < TRUMP + 4:
        return "trump " + SUITS[code - TRUMP]
    if PARTNER <= code < PARTNER + 4:
        return "partner " + CARD_NAMES[card_id(ACE, code - PARTNER)]
    return {
        EXCHANGE: "exchange",
        CLOSE: "close",
        CLAIM: "claim",
        TRUMP_BELOW: "trump below",
        SOLO: "solo",
        CONCEDE: "concede",
    }[code]


ACTION_NAMES: tuple[str, ...] = tuple(_name(a) for a in range(NUM_ACTIONS))
_BY_NAME = {name: code for code, name in enumerate(ACTION_NAMES)}


class Action(int):
    """An action: an ``int`` code that prints canonically (``play QD``, ``marry H``)."""

    __slots__ = ()

    @property
    def is_play(self) -> bool:
        return self < NUM_CARDS

    @property
    def card(self) -> int | None:
        """The card played, for a ``play`` action."""
        return int(self) if self < NUM_CARDS else None

    def __str__(self) -> str:
        return ACTION_NAMES[self]

    def __repr__(self) -> str:
        return f"Action({ACTION_NAMES[self]!r})"

    @staticmethod
    def parse(text: str) -> Action:
        return parse_action(text)


ACTIONS: tuple[Action, ...] = tuple(Action(a) for a in range(NUM_ACTIONS))

_VERBS = ("play", "marry", "exchange", "close", "claim", "trump", "partner", "solo", "concede")


def parse_action(text: str) -> Action:
    """Parse an action string forgivingly (any case, ``10`` for ``T``, suit symbols)."""
    raw = text.strip()
    canonical = _BY_NAME.get(raw)
    if canonical is not None:
        return ACTIONS[canonical]
    words = raw.split()
    if not words:
        raise NotationError("empty action")
    verb = words[0].lower()
    args = words[1:]
    if verb not in _VERBS:
        raise NotationError(f"unknown action {text!r} (verbs: {', '.join(_VERBS)})")
    if verb in ("exchange", "close", "claim", "solo", "concede"):
        if args:
            raise NotationError(f"action {verb!r} takes no argument: {text!r}")
        return ACTIONS[_BY_NAME[verb]]
    if len(args) != 1:
        raise NotationError(f"action {verb!r} takes one argument: {text!r}")
    arg = args[0]
    if verb == "play":
        return ACTIONS[parse_card(arg)]
    if verb == "marry":
        return ACTIONS[MARRY + parse_suit(arg)]
    if verb == "trump":
        if arg.lower() == "below":
            return ACTIONS[TRUMP_BELOW]
        return ACTIONS[TRUMP + parse_suit(arg)]
    card = parse_card(arg)
    if card % 6 != ACE:
        raise NotationError(f"a partner is called by an ace, not {CARD_NAMES[card]}")
    return ACTIONS[PARTNER + card // 6]


__all__ = [
    "ACTIONS",
    "ACTION_NAMES",
    "CLAIM",
    "CLOSE",
    "CONCEDE",
    "EXCHANGE",
    "MARRY",
    "NUM_ACTIONS",
    "PARTNER",
    "RANKS",
    "SOLO",
    "TRUMP",
    "TRUMP_BELOW",
    "Action",
    "parse_action",
]
