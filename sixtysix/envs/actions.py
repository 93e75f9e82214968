"""The action-id space shared by every variant: the engine's own action codes.

Ids 0..23 play that card (``cards.card_id`` order: ``suit * 6 + rank``), 24+suit marry, 28
exchange, 29 close, 30 claim, 31+suit name trump, 35 trump below, 36+suit call the ace of that
suit as partner, 40 solo, 41 concede. One space for all variants keeps a policy's output layer
the same across games; :func:`usable_ids` says which ids a variant can ever use, so an agent
may drop the others.
"""

from __future__ import annotations

import operator

import numpy as np
import numpy.typing as npt

from sixtysix.core.actions import (
    ACTION_NAMES,
    ACTIONS,
    CLAIM,
    CLOSE,
    CONCEDE,
    EXCHANGE,
    MARRY,
    NUM_ACTIONS,
    PARTNER,
    SOLO,
    TRUMP,
    TRUMP_BELOW,
    Action,
    parse_action,
)
from sixtysix.core.cards import ACE, KQ, NUM_CARDS, SUIT_MASK, card_id, iter_mask
from sixtysix.core.rules import Rules
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.errors import ActionIdError

NUM_ACTION_IDS = NUM_ACTIONS
#: The canonical name of each id (``"play QD"``, ``"marry H"``), as RECORDS.md writes them.
ACTION_ID_NAMES: tuple[str, ...] = ACTION_NAMES

__all__ = [
    "ACTION_ID_NAMES",
    "NUM_ACTION_IDS",
    "action_id",
    "action_of",
    "legal_mask",
    "max_history",
    "usable_ids",
]


def action_id(action: Action | str | int) -> int:
    """The id of an action: an :class:`Action`, its string (``"play QD"``, read forgivingly as
    the engine reads it) or an id already."""
    if isinstance(action, str):
        return int(parse_action(action))
    return int(action_of(action))


def action_of(action_id: int) -> Action:
    """The :class:`Action` of an id (numpy integers too); :class:`ActionIdError` outside
    0..41."""
    try:
        code = operator.index(action_id)
    except TypeError:
        raise ActionIdError(f"an action id is an integer, not {type(action_id).__name__}") from None
    if isinstance(action_id, bool) or not 0 <= code < NUM_ACTION_IDS:
        raise ActionIdError(f"action id {action_id!r} is not one of 0..{NUM_ACTION_IDS - 1}")
    return ACTIONS[code]


_EMPTY_MASK = bytes(NUM_ACTION_IDS)


def legal_mask(view: View) -> npt.NDArray[np.int8]:
    """1 at the id of every legal action of ``view`` (all 0 when the seat is not to act)."""
    mask = bytearray(_EMPTY_MASK)
    for a in view.legal_actions:
        mask[a] = 1
    return np.frombuffer(mask, dtype=np.int8)


def _talon(rules: Rules) -> int:
    """Cards left after the deal: the face-down talon and the turn-up."""
    return rules.deck.bit_count() - rules.seats * rules.hand_size


def exchange_usable(rules: Rules) -> bool:
    """The engine offers the exchange only with a turn-up lying, a talon of at least
    ``exchange_min_talon`` and, if it needs a trick, after one (a round of draws later)."""
    if not rules.exchange or rules.turnup_after_round is None:
        return False
    talon = _talon(rules) - (rules.seats if rules.exchange_needs_trick else 0)
    if talon < rules.exchange_min_talon:
        return False
    return any(rules.deck >> card_id(rules.exchange_rank, s) & 1 for s in range(4))


def close_usable(rules: Rules) -> bool:
    """Closing needs a turn-up lying under a talon, after a trick if ``close_needs_trick``."""
    if not rules.closing or rules.turnup_after_round is None:
        return False
    return _talon(rules) - (rules.seats if rules.close_needs_trick else 0) > 0


def _callable_aces(rules: Rules) -> list[int]:
    """Suits whose ace a caller may name: the ace is dealt and so is another card of its suit."""
    deck = rules.deck
    return [
        s
        for s in range(4)
        if deck >> card_id(ACE, s) & 1 and deck & SUIT_MASK[s] & ~(1 << card_id(ACE, s))
    ]


def usable_ids_of(rules: Rules) -> tuple[int, ...]:
    """The ids the generic engine can ever offer under ``rules``, ascending: the cards of the
    deck and the special actions its knobs turn on (as ``DealState._generate`` offers them)."""
    ids = list(iter_mask(rules.deck))
    if rules.marriages:
        ids += [MARRY + s for s in range(4) if rules.deck & KQ[s] == KQ[s]]
    if exchange_usable(rules):
        ids.append(EXCHANGE)
    if close_usable(rules):
        ids.append(CLOSE)
    if rules.manual_claim:
        ids.append(CLAIM)
    if rules.trump_call:
        ids += [TRUMP + s for s in range(4)]
        if rules.trump_below:
            ids.append(TRUMP_BELOW)
        if rules.partner_call:
            ids += [PARTNER + s for s in _callable_aces(rules)]
            ids.append(SOLO)
        if rules.concession:  # only a declarer concedes, and only a trump call makes one
            ids.append(CONCEDE)
    return tuple(sorted(ids))


def usable_ids(variant: Variant) -> tuple[int, ...]:
    """The ids that can ever be legal in ``variant`` with its options (read from its rules)."""
    return usable_ids_of(variant.rules)


def max_history(rules: Rules) -> int:
    """The most public actions a deal under ``rules`` can have: every card played once, a
    marriage per suit at most (its king or queen is led at once), one exchange (the exchanged
    card then lies under the talon), one close, one ending claim or concession, and the calls."""
    usable = set(usable_ids_of(rules))
    total = sum(1 for a in usable if a < NUM_CARDS)
    total += sum(1 for s in range(4) if MARRY + s in usable)
    total += (EXCHANGE in usable) + (CLOSE in usable)
    total += CLAIM in usable or CONCEDE in usable
    total += bool(rules.trump_call) + bool(rules.trump_call and rules.partner_call)
    return total
