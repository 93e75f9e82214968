"""Reading what the player types, forgivingly, in either language.

A card alone plays it (``10h``, ``Q♥``, ``th``, ``as`` for A♠ in English; in words ``queen
hearts``, ``kız kupa``, ``kupa 9``: :mod:`sixtysix.service.card_words`), and so does its number in
the hand as displayed (``3``). The verbs of RECORDS.md work as written (``play QD``, ``marry
H``, ``exchange``, ``close``, ``claim``, ``trump S``, ``trump below``, ``partner AD``, ``solo``,
``concede``), and so do the Turkish words the Turkish screen shows
(:data:`sixtysix.service.terms.COMMAND_WORDS`: ``oyna papaz kupa``, ``evlilik kupa``, ``değiş``,
``kapat``, ``kafi``, ``koz kupa``, ``koz alttan``, ``ortak karo``, ``yalnız``, ``bırak``). A
suit alone names trump during the trump call, an ace alone calls the partner during the
partner call. ``?``, ``hint``, ``undo``, ``rules``, ``tricks`` and ``quit`` (and their Turkish
words) control the session.

Parsing only reads; whether the action is legal is for the session to decide, so every message
here is about notation and says what would have been understood.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

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
from sixtysix.core.cards import ACE, Card
from sixtysix.core.state import Phase
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.card_words import RANK_WORDS, SUIT_WORDS, CardWordProblem, read_card
from sixtysix.service.terms import command_text


class Kind(Enum):
    ACTION = "action"
    HELP = "help"
    HINT = "hint"
    UNDO = "undo"
    QUIT = "quit"
    RULES = "rules"
    #: Each seat's first trick won, shown on request ([004]).
    TRICKS = "tricks"


@dataclass(frozen=True, slots=True)
class Command:
    kind: Kind
    action: int | None = None


class InputProblem(Exception):
    """Input that cannot be read; the message is already in the player's language."""


_CONTROL = {
    "?": Kind.HELP,
    "help": Kind.HELP,
    "yardım": Kind.HELP,
    "yardim": Kind.HELP,
    "hint": Kind.HINT,
    "ipucu": Kind.HINT,
    "undo": Kind.UNDO,
    "geri": Kind.UNDO,
    "geri al": Kind.UNDO,
    "quit": Kind.QUIT,
    "exit": Kind.QUIT,
    "q": Kind.QUIT,
    "çık": Kind.QUIT,
    "cik": Kind.QUIT,
    "çıkış": Kind.QUIT,
    "rules": Kind.RULES,
    "kurallar": Kind.RULES,
    "kural": Kind.RULES,
    "tricks": Kind.TRICKS,
    "eller": Kind.TRICKS,
    "ilk eller": Kind.TRICKS,
}

#: What confirms a question (in either language); anything else declines.
_YES = frozenset({"y", "yes", "e", "evet"})


def control_word(text: str) -> Kind | None:
    """The session command a line names (``?``, ``quit``, ``çık``...), or None if it is no
    command word (a move, or nonsense)."""
    return _CONTROL.get(" ".join(text.strip().lower().split()))


def is_yes(text: str) -> bool:
    """Whether an answer to a yes/no question says yes: ``y``, ``yes``, ``e``, ``evet``."""
    return text.strip().casefold() in _YES


#: Verb aliases (English verbs of RECORDS.md, and Turkish words) -> canonical verb.
VERBS = {
    "play": "play",
    "oyna": "play",
    "at": "play",
    "marry": "marry",
    "evlilik": "marry",
    "evlen": "marry",
    "exchange": "exchange",
    "değiş": "exchange",
    "degis": "exchange",
    "close": "close",
    "kapat": "close",
    "claim": "claim",
    "kafi": "claim",
    "trump": "trump",
    "koz": "trump",
    "partner": "partner",
    "ortak": "partner",
    "solo": "solo",
    "yalnız": "solo",
    "yalniz": "solo",
    "concede": "concede",
    "bırak": "concede",
    "birak": "concede",
}
_BARE = {"exchange": EXCHANGE, "close": CLOSE, "claim": CLAIM, "solo": SOLO, "concede": CONCEDE}

_SUIT_WORDS = SUIT_WORDS
_BELOW = {"below", "alttan", "alt"}


def parse_input(text: str, view: View, hand_order: Sequence[Card], tr: Translator) -> Command:
    """Read one line typed by the player at ``view`` (the hand numbered as ``hand_order``)."""
    raw = " ".join(text.strip().split())
    low = raw.lower()
    if not low:
        raise InputProblem(tr._("Type a card, its number in your hand, or ? for help."))
    control = control_word(low)
    if control is not None:
        return Command(control)
    words = low.split()
    verb = VERBS.get(words[0])
    if verb is not None:
        return Command(Kind.ACTION, _verb(verb, words[0], words[1:], view, hand_order, tr))
    action = _bare(words, view, hand_order, tr)
    if action is not None:
        return Command(Kind.ACTION, action)
    raise InputProblem(tr._("I do not understand {text!r}. Type ? for help.").format(text=raw))


def _verb(
    verb: str,
    typed: str,
    args: list[str],
    view: View,
    hand_order: Sequence[Card],
    tr: Translator,
) -> int:
    if verb in _BARE:
        if args:
            raise InputProblem(tr._("{verb!r} takes nothing after it.").format(verb=typed))
        return _BARE[verb]
    if verb in ("play", "partner") and len(args) == 2:
        card = _card_words(args, hand_order, tr)
        if card is not None:
            return card if verb == "play" else _partner(card, tr)
    if len(args) != 1:
        raise InputProblem(
            tr._("{verb!r} needs one thing after it, e.g. {example}.").format(
                verb=typed, example=command_text(tr, _EXAMPLES[verb])
            )
        )
    arg = args[0]
    if verb == "play":
        return _card(arg, hand_order, tr)
    if verb == "marry":
        return MARRY + _suit(arg, tr)
    if verb == "trump":
        if arg in _BELOW:
            return TRUMP_BELOW
        return TRUMP + _suit(arg, tr)
    # partner: an ace, or just its suit
    suit = _SUIT_WORDS.get(arg)
    if suit is None:
        return _partner(_card(arg, hand_order, tr), tr)
    return PARTNER + suit


def _partner(card: int, tr: Translator) -> int:
    if card % 6 != ACE:
        raise InputProblem(
            tr._("A partner is called by an ace, e.g. {example}.").format(
                example=command_text(tr, PARTNER + 1)
            )
        )
    return PARTNER + card // 6


#: The action each verb's example shows: the queen of hearts, hearts, spades, A♦.
_EXAMPLES = {"play": 14, "marry": MARRY + 2, "trump": TRUMP + 3, "partner": PARTNER + 1}


def _card_words(words: list[str], hand_order: Sequence[Card], tr: Translator) -> int | None:
    try:
        card = read_card(words, hand_order, tr)
    except CardWordProblem as problem:
        raise InputProblem(str(problem)) from None
    return None if card is None else int(card)


def _bare(words: list[str], view: View, hand_order: Sequence[Card], tr: Translator) -> int | None:
    """A card (a word or two), a hand number, a suit or ``below`` typed alone; None if it is
    none of these."""
    word = words[0]
    if len(words) == 1 and _number(word):
        return _card(word, hand_order, tr)
    phase = view.phase
    if len(words) == 1 and phase == Phase.TRUMP_CALL:
        if word in _BELOW:
            return TRUMP_BELOW
        if word in _SUIT_WORDS:
            return TRUMP + _SUIT_WORDS[word]
    lone_ace = len(words) == 1 and RANK_WORDS.get(word) == ACE
    # In English "as" is A♠ itself; any other lone ace word names no suit to call.
    if phase == Phase.PARTNER_CALL and lone_ace and (tr.lang != "en" or word != "as"):
        raise InputProblem(
            tr._("Which ace? Name its suit, e.g. {example}.").format(
                example=command_text(tr, PARTNER + 1)
            )
        )
    card = _card_words(words, hand_order, tr)
    if card is None:
        return None
    if phase == Phase.PARTNER_CALL and card % 6 == ACE:
        return PARTNER + card // 6
    return card


def _number(word: str) -> bool:
    """A hand number typed in ASCII digits (``isdigit`` alone also takes ``²``, which int()
    refuses)."""
    return word.isascii() and word.isdigit()


def _card(arg: str, hand_order: Sequence[Card], tr: Translator) -> int:
    if _number(arg):
        # More digits than a hand could need is no card of it (and int() stops at 4300).
        number = int(arg) if len(arg) <= 3 else 0
        if not 1 <= number <= len(hand_order):
            raise InputProblem(
                tr._(
                    "There is no card number {number}: your hand is numbered 1 to {count}."
                ).format(number=arg if len(arg) <= 12 else arg[:9] + "...", count=len(hand_order))
                if len(hand_order) > 1
                else tr._("There is no card number {number}: you have one card, number 1.").format(
                    number=arg if len(arg) <= 12 else arg[:9] + "..."
                )
                if hand_order
                else tr._("You have no cards to choose by number.")
            )
        return int(hand_order[number - 1])
    card = _card_words([arg], hand_order, tr)
    if card is None:
        raise InputProblem(
            tr._(
                "{text!r} is not a card: type the rank (9 J Q K 10 A) and the suit"
                " (C D H S or ♣ ♦ ♥ ♠), e.g. 10h or Q♥."
            ).format(text=arg)
        )
    return card


def _suit(arg: str, tr: Translator) -> int:
    suit = _SUIT_WORDS.get(arg)
    if suit is None:
        raise InputProblem(
            tr._("{text!r} is not a suit: type C, D, H, S, ♣ ♦ ♥ ♠ or the suit's name.").format(
                text=arg
            )
        )
    return suit
