"""The messages of ``sixtysix-player/1``: dicts in, dicts out, no I/O.

The referee and the player side both build and check their messages here, so the two cannot
drift apart, and a later transport (a network connection) carries exactly the same objects.
Every card and action is in RECORDS.md notation, written by the core's own formatting.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sixtysix.core import bounded_json
from sixtysix.core.actions import ACTION_NAMES, Action, parse_action
from sixtysix.core.bounded_json import JSONInputError
from sixtysix.core.cards import CARD_NAMES, SUITS, Card, parse_card, parse_suit
from sixtysix.core.errors import NotationError, SixtySixError
from sixtysix.core.match_view import MatchView
from sixtysix.core.outcome import Outcome
from sixtysix.core.phase import Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, variant_from

#: The protocol and its version; a change that an existing player could misread bumps it.
PROTOCOL = "sixtysix-player/1"
#: Longest line (bytes, newline excluded) either side may send.
MAX_LINE = 64 * 1024
#: Deepest nesting of arrays and objects in a line: the deepest message is 4 levels (a
#: ``decide``: the message, its view, ``known``, a seat's cards), so 64 leaves a wide margin.
MAX_DEPTH = bounded_json.MAX_DEPTH
#: Longest player name and action string a player may send, and most variants it may list.
MAX_NAME = 100
MAX_ACTION = 100
MAX_VARIANTS = 100

PHASE_NAMES: dict[int, str] = {
    Phase.TRUMP_CALL: "trump_call",
    Phase.PARTNER_CALL: "partner_call",
    Phase.PLAY: "play",
    Phase.OVER: "over",
}
_PHASE_BY_NAME = {name: phase for phase, name in PHASE_NAMES.items()}

#: The message types each side may send.
REFEREE_TYPES = ("hello", "match", "deal", "event", "decide", "result", "match_over", "quit")
PLAYER_TYPES = ("hello", "action")

Message = dict[str, Any]


class ProtocolError(SixtySixError, ValueError):
    """A line or message that breaks the protocol (for a player's line: a ``garbage`` fault)."""


class IllegalAnswer(SixtySixError, ValueError):
    """A well-formed ``action`` message whose action is unknown or not legal now."""


# ---------------------------------------------------------------------- framing


def encode_line(message: Mapping[str, Any]) -> bytes:
    """One message as one line: compact UTF-8 JSON and a newline."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


def parse_line(line: bytes | str, max_line: int = MAX_LINE) -> Message:
    """The message of one line (newline optional): a JSON object with a string ``type``, read
    within :data:`MAX_DEPTH`, so that no line from a peer can exhaust the parser's stack."""
    raw = line.encode("utf-8") if isinstance(line, str) else line
    raw = raw.rstrip(b"\n").rstrip(b"\r")
    if len(raw) > max_line:
        raise ProtocolError(f"a line of more than {max_line} bytes")
    try:
        message = bounded_json.loads(raw, max_bytes=max_line, max_depth=MAX_DEPTH)
    except JSONInputError as exc:
        if exc.kind == "syntax":
            raise ProtocolError(f"not a JSON line: {_excerpt(raw)}") from None
        what = f"with {exc}" if exc.kind == "number" else str(exc)
        raise ProtocolError(f"a line {what}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"not a JSON object: {_excerpt(raw)}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(f"a message without a string type: {_excerpt(raw)}")
    return message


def _excerpt(raw: bytes, size: int = 60) -> str:
    text = raw[:size].decode("utf-8", "replace")
    return repr(text + ("..." if len(raw) > size else ""))


# ---------------------------------------------------------------------- referee -> player


def hello() -> Message:
    return {"type": "hello", "protocol": PROTOCOL}


def match_message(variant: Variant, seat: int) -> Message:
    """A new match: the variant's public rules (every option value) and the seat played."""
    fmt = variant.match_format
    return {
        "type": "match",
        "variant": variant.name,
        "options": variant.options.as_dict(),
        "seats": variant.seats,
        "seat": seat,
        "target": fmt.target,
        "deals": fmt.deals,
    }


def deal_message(number: int, dealer: int) -> Message:
    return {"type": "deal", "number": number, "dealer": dealer}


def event_message(seat: int, action: int) -> Message:
    return {"type": "event", "seat": seat, "action": ACTION_NAMES[action]}


def decide_message(view: View, deadline_ms: int) -> Message:
    """The seat is to act: its view, its legal actions (engine order) and its deadline."""
    return {
        "type": "decide",
        "view": encode_view(view),
        "legal": [ACTION_NAMES[a] for a in view.legal_actions],
        "deadline_ms": deadline_ms,
    }


def result_message(number: int, outcome: Outcome, hands: Sequence[Iterable[int]]) -> Message:
    """The deal is over: its result and every seat's cards left, face up as at a table."""
    return {
        "type": "result",
        "number": number,
        "result": outcome.as_json(),
        "hands": [[CARD_NAMES[c] for c in sorted(cards)] for cards in hands],
    }


def match_over_message(totals: Sequence[int], winners: Sequence[int]) -> Message:
    return {"type": "match_over", "totals": list(totals), "winners": list(winners)}


def quit_message() -> Message:
    return {"type": "quit"}


# ---------------------------------------------------------------------- player -> referee


def hello_reply(name: str, variants: Sequence[str] = ("*",)) -> Message:
    return {"type": "hello", "protocol": PROTOCOL, "name": name, "variants": list(variants)}


def action_message(action: int | str) -> Message:
    text = ACTION_NAMES[action] if isinstance(action, int) else action
    return {"type": "action", "action": text}


def check_hello_reply(message: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The player's name and the variants it plays (``*``: any), from its hello."""
    if message.get("type") != "hello":
        raise ProtocolError(f"expected a hello, got a {str(message.get('type'))[:40]!r} message")
    protocol = message.get("protocol")
    if protocol != PROTOCOL:
        raise ProtocolError(f"speaks {str(protocol)[:60]!r}, not {PROTOCOL}")
    name = message.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise ProtocolError(f"a name must be a string of at most {MAX_NAME} characters")
    variants = message.get("variants", ["*"])
    if (
        not isinstance(variants, list)
        or len(variants) > MAX_VARIANTS
        or not all(isinstance(v, str) and len(v) <= MAX_NAME for v in variants)
    ):
        raise ProtocolError(f"variants must be a list of at most {MAX_VARIANTS} names")
    return name, tuple(v.strip().lower() for v in variants)


def plays_variant(variants: Sequence[str], variant: type[Variant] | Variant) -> bool:
    """Whether a hello's variant list covers ``variant`` (by name or alias, or ``*``)."""
    names = {variant.name.lower(), *(a.lower() for a in variant.aliases)}
    return "*" in variants or bool(names & set(variants))


def check_action(message: Mapping[str, Any], legal: Sequence[int]) -> Action:
    """The action a player's ``action`` message names, read forgivingly as the CLI reads it,
    if it is one of ``legal``."""
    if message.get("type") != "action":
        raise ProtocolError(f"expected an action, got a {str(message.get('type'))[:40]!r} message")
    text = message.get("action")
    if not isinstance(text, str) or len(text) > MAX_ACTION:
        raise ProtocolError(f"an action must be a string of at most {MAX_ACTION} characters")
    try:
        action = parse_action(text)
    except NotationError as exc:
        raise IllegalAnswer(str(exc)) from None
    if action not in legal:
        options = ", ".join(ACTION_NAMES[a] for a in legal)
        raise IllegalAnswer(f"{ACTION_NAMES[action]!r} is not legal now (legal: {options})")
    return action


# ---------------------------------------------------------------------- the view


def _card(c: Card | None) -> str | None:
    return None if c is None else CARD_NAMES[c]


def _cards(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in sorted(cards)]


def encode_view(view: View) -> Message:
    """A seat's :class:`View` as the VIEW object: every field it holds, nothing more."""
    return {
        "variant": view.variant,
        "seat": view.seat,
        "seats": view.seats,
        "dealer": view.dealer,
        "phase": PHASE_NAMES[view.phase],
        "to_act": view.to_act,
        "hand": [CARD_NAMES[c] for c in view.hand],
        "trump": None if view.trump is None else SUITS[view.trump],
        "turnup": _card(view.turnup),
        "talon_size": view.talon_size,
        "closed_by": view.closed_by,
        "leader": view.leader,
        "trick": [[s, CARD_NAMES[c]] for s, c in view.trick],
        "history": [[s, ACTION_NAMES[a]] for s, a in view.history],
        "tricks": list(view.tricks),
        "card_points": list(view.card_points),
        "marriages": [[SUITS[s] for s in suits] for suits in view.marriages],
        "known": [_cards(cards) for cards in view.known],
        "played": _cards(view.played),
        "declarer": view.declarer,
        "called_ace": _card(view.called_ace),
        "partner": view.partner,
        "solo": view.solo,
        "options": dict(view.options),
        "match": None if view.match is None else view.match.as_json(),
    }


def decode_view(view: Mapping[str, Any], legal: Sequence[str], registry: Registry) -> View:
    """Rebuild the :class:`View` of a VIEW object and its legal actions, the rules included
    (from the variant and its options through ``registry``); :class:`ProtocolError` if the
    object is not a VIEW."""
    try:
        variant = variant_from(registry, view["variant"], view["options"])
        opts = variant.options
        return View(
            variant=variant.name,
            rules=variant.rules,
            seat=_int(view["seat"]),
            seats=_int(view["seats"]),
            dealer=_int(view["dealer"]),
            phase=int(_PHASE_BY_NAME[view["phase"]]),
            to_act=_int(view["to_act"]),
            hand=tuple(parse_card(c) for c in view["hand"]),
            trump=None if view["trump"] is None else parse_suit(view["trump"]),
            turnup=None if view["turnup"] is None else parse_card(view["turnup"]),
            talon_size=_int(view["talon_size"]),
            closed_by=_opt_int(view["closed_by"]),
            leader=_int(view["leader"]),
            trick=tuple((_int(s), parse_card(c)) for s, c in view["trick"]),
            history=tuple((_int(s), parse_action(a)) for s, a in view["history"]),
            tricks=tuple(map(_int, view["tricks"])),
            card_points=tuple(map(_int, view["card_points"])),
            marriages=tuple(tuple(parse_suit(s) for s in suits) for suits in view["marriages"]),
            known=tuple(frozenset(parse_card(c) for c in cards) for cards in view["known"]),
            played=frozenset(parse_card(c) for c in view["played"]),
            declarer=_opt_int(view["declarer"]),
            called_ace=None if view["called_ace"] is None else parse_card(view["called_ace"]),
            partner=_opt_int(view["partner"]),
            solo=bool(view["solo"]),
            legal_actions=tuple(parse_action(a) for a in legal),
            outcome=None,
            options=tuple((spec.name, getattr(opts, spec.name)) for spec in opts.specs()),
            match=_match(view.get("match"), _int(view["seats"])),
        )
    except SixtySixError as exc:
        raise ProtocolError(f"not a valid view: {exc}") from None
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"not a valid view: {type(exc).__name__} {exc}") from None


def _match(value: object, seats: int) -> MatchView | None:
    """The VIEW's ``match`` (absent or null: a deal played alone, as before the field)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"match: expected an object, got {value!r}")
    return MatchView.from_json(value, seats)


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _opt_int(value: object) -> int | None:
    return None if value is None else _int(value)


__all__ = [
    "MAX_DEPTH",
    "MAX_LINE",
    "PROTOCOL",
    "IllegalAnswer",
    "ProtocolError",
    "check_action",
    "check_hello_reply",
    "decode_view",
    "encode_line",
    "encode_view",
    "parse_line",
]
