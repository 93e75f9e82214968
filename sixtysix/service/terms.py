"""The game's words in the player's language: suits, cards, seats, actions and results.

Cards keep their canonical letters (``A K Q J 9``, ``10``) with the suit symbol in both
languages, since that is also what the player types; everything said about them is translated.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from sixtysix.core.actions import (
    ACTION_NAMES,
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
from sixtysix.core.cards import (
    ACE,
    JACK,
    KING,
    NINE,
    NUM_CARDS,
    QUEEN,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TEN,
    card_id,
)
from sixtysix.core.faults import FaultKind
from sixtysix.core.outcome import Reason
from sixtysix.i18n import LANGUAGES, N_, Translator, translator

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
    Reason.DRAW: N_("draw"),
    Reason.CONCEDED: N_("conceded"),
    Reason.FORFEIT: N_("forfeit"),
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


#: The words a player types, as the help and the move list show them, per language: the
#: English verbs are the notation of RECORDS.md, the Turkish ones what
#: :mod:`sixtysix.service.input` reads besides them (a test parses every one back).
COMMAND_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "play": "play",
        "marry": "marry",
        "exchange": "exchange",
        "close": "close",
        "claim": "claim",
        "trump": "trump",
        "below": "below",
        "partner": "partner",
        "solo": "solo",
        "concede": "concede",
        "help": "?",
        "hint": "hint",
        "undo": "undo",
        "rules": "rules",
        "tricks": "tricks",
        "quit": "quit",
    },
    "tr": {
        "play": "oyna",
        "marry": "evlilik",
        "exchange": "değiş",
        "close": "kapat",
        "claim": "kafi",
        "trump": "koz",
        "below": "alttan",
        "partner": "ortak",
        "solo": "yalnız",
        "concede": "bırak",
        "help": "?",
        "hint": "ipucu",
        "undo": "geri",
        "rules": "kurallar",
        "tricks": "eller",
        "quit": "çık",
    },
}

#: Rank words as typed in Turkish (English types the letters of the notation).
TURKISH_RANKS = {ACE: "as", KING: "papaz", QUEEN: "kız", JACK: "vale", TEN: "on", NINE: "dokuz"}
TURKISH_SUITS = ("sinek", "karo", "kupa", "maça")


def word(tr: Translator, verb: str) -> str:
    """A command word in the player's language: ``quit`` / ``çık``."""
    return COMMAND_WORDS.get(tr.lang, COMMAND_WORDS["en"])[verb]


def card_words(tr: Translator, card: int) -> str:
    """A card as the player types it: ``KS`` in English notation, ``papaz maça`` in Turkish."""
    if tr.lang == "en":
        return ACTION_NAMES[card].split()[1]
    return f"{TURKISH_RANKS[card % 6]} {TURKISH_SUITS[card // 6]}"


def suit_command(tr: Translator, suit: int) -> str:
    """A suit after a verb: ``H`` in English notation, ``kupa`` in Turkish."""
    return SUITS[suit] if tr.lang == "en" else TURKISH_SUITS[suit]


def command_text(tr: Translator, action: int) -> str:
    """What to type for ``action`` in the player's language: ``marry H`` / ``evlilik kupa``,
    ``partner AD`` / ``ortak karo``, ``play KS`` / ``oyna papaz maça``."""
    if tr.lang == "en":
        return ACTION_NAMES[action]
    if action < NUM_CARDS:
        return f"{word(tr, 'play')} {card_words(tr, action)}"
    if MARRY <= action < MARRY + 4:
        return f"{word(tr, 'marry')} {suit_command(tr, action - MARRY)}"
    if TRUMP <= action < TRUMP + 4:
        return f"{word(tr, 'trump')} {suit_command(tr, action - TRUMP)}"
    if action == TRUMP_BELOW:
        return f"{word(tr, 'trump')} {word(tr, 'below')}"
    if PARTNER <= action < PARTNER + 4:
        return f"{word(tr, 'partner')} {suit_command(tr, action - PARTNER)}"
    bare = {EXCHANGE: "exchange", CLOSE: "close", CLAIM: "claim", SOLO: "solo"}
    bare[CONCEDE] = "concede"
    return word(tr, bare[action])


#: Computer players' names shown at the table, translated (a bot's own name stays as it is).
BOT_NAMES = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "random": N_("random"),
    "heuristic": N_("heuristic"),
}


#: Why a player faulted, as reports and the table word it.
FAULT_KINDS: dict[str, str] = {
    FaultKind.ILLEGAL: N_("illegal"),
    FaultKind.TIMEOUT: N_("timeout"),
    FaultKind.CRASH: N_("crash"),
    FaultKind.CLOSED: N_("closed"),
    FaultKind.GARBAGE: N_("garbage"),
}


def fault_kind(tr: Translator) -> Callable[[str], str]:
    """A fault kind in ``tr``'s language (``timeout`` -> ``süre aşımı``); unknown kinds as given."""
    return lambda kind: tr._(FAULT_KINDS[kind]) if kind in FAULT_KINDS else kind


def typed_bot_name(name: str) -> str:
    """A computer player's name as a person may type it, in any language of the interface,
    as the registry knows it (``uzman`` -> ``expert``, ``Rastgele`` -> ``random``); any other
    name unchanged."""
    return _typed_names().get(name.strip().lower(), name)


@cache
def _typed_names() -> dict[str, str]:
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        tr = translator(lang)
        for name, message in BOT_NAMES.items():
            out.setdefault(tr._(message).lower(), name)
    return out


def bot_label(tr: Translator, spec: str) -> str:
    """A seat's computer player as shown at the table: ``uzman`` for ``expert``, parameters
    kept as typed (``uzman:samples=8``)."""
    at = spec.startswith("@")
    name, sep, params = spec.removeprefix("@").partition(":")
    if name.lower() not in BOT_NAMES:
        return spec
    return ("@" if at else "") + tr._(BOT_NAMES[name.lower()]) + sep + params


def news_list(tr: Translator, items: list[str]) -> str:
    """Announcements joined into one running list: ``seat 1 closes the talon; you play A♥``
    (each item lower-cased at its start, as it is no longer a sentence of its own)."""

    def lower_first(text: str) -> str:
        word = text.split(" ", 1)[0]
        if not word.isalpha() or (len(word) > 1 and word.isupper()):
            return text  # a card (J♦, 10♥) or a name in capitals keeps its case
        head = text[0]
        if tr.lang == "tr":
            head = {"I": "ı", "İ": "i"}.get(head, head)
        return head.lower() + text[1:]

    return "; ".join(lower_first(item) for item in items)
