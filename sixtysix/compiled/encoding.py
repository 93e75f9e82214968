"""A seat's observation and legal mask written straight from a packed deal (numba): the
vectors of :class:`sixtysix.envs.observation.Encoder`, element for element, in ``uint8``.

Every element of the encoder's float32 vectors is 0 or 1 except the card points (points over
the deck's points) and the option values; here each element is the same integer 0 or 1, the
card points are the points themselves (at most 120) and an option is 1 where its float is not
0. :func:`sixtysix.compiled.batch.to_float32` turns a row back into the encoder's floats
exactly. Where each field goes comes from the plan (:mod:`sixtysix.compiled.batch_layout`),
made from the encoder's own layout, so the two can only differ in what a field holds, which
``tests/compiled/test_batch.py`` holds to the encoder move by move.
"""

from __future__ import annotations

from typing import Any

from sixtysix.compiled.batch_layout import (
    HISTORY_SEAT,
    P_CARD_POINTS,
    P_CLOSED_BY,
    P_DEALER,
    P_HAND,
    P_HISTORY,
    P_KNOWN,
    P_LEADER,
    P_MARRIAGES,
    P_OPTIONS,
    P_PHASE,
    P_PLAYED,
    P_SEAT,
    P_SLOT,
    P_SLOTS,
    P_TALON_SIZE,
    P_TO_ACT,
    P_TRICK,
    P_TRICKS,
    P_TRICKS_SIZE,
    P_TRUMP,
    P_TURNUP,
    P_WIDTH,
    PHASE_PLAY,
    X_ACTIONS,
    X_DEALER,
    X_KNOWN0,
    X_MARRIED0,
    X_PLAYED,
)
from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import CLOSED, CP0, H0, LEAD, TLEN, TOACT, TPOS, TR0, TRUMP, TURNUP
from sixtysix.compiled.rules import _legal
from sixtysix.core.cards import NUM_CARDS


@jit
def _cards(row: Any, at: int, mask: int) -> None:
    """A card set: 1 at ``row[at + c]`` for each card ``c`` of ``mask``."""
    while mask:
        low = mask & -mask
        c = 0
        while low >> c != 1:
            c += 1
        row[at + c] = 1
        mask ^= low


@jit
def observe(s: Any, x: Any, history: Any, me: int, plan: Any, slot_of: Any, options: Any,
            row: Any) -> None:  # fmt: skip
    """Seat ``me``'s vector of the deal in play ``s`` (with its extras ``x`` and public
    ``history``) into ``row``, cleared first; ``slot_of[a]``: action ``a``'s index among the
    usable ids; ``options``: the options run as written here."""
    row[: plan[P_WIDTH]] = 0
    row[plan[P_SEAT] + me] = 1
    row[plan[P_DEALER] + (x[X_DEALER] - me) % 2] = 1
    row[plan[P_PHASE] + PHASE_PLAY] = 1
    to_act = s[TOACT]
    row[plan[P_TO_ACT] + (to_act - me) % 2] = 1
    leader = to_act if s[LEAD] < 0 else 1 - to_act
    row[plan[P_LEADER] + (leader - me) % 2] = 1
    _cards(row, plan[P_HAND], s[H0 + me])
    row[plan[P_TRUMP] + s[TRUMP]] = 1
    if plan[P_TURNUP] >= 0 and s[TURNUP] >= 0:
        row[plan[P_TURNUP] + s[TURNUP]] = 1
    if plan[P_TALON_SIZE] >= 0:
        row[plan[P_TALON_SIZE] + s[TLEN] - s[TPOS] + (s[TURNUP] >= 0)] = 1
    if plan[P_CLOSED_BY] >= 0 and s[CLOSED] >= 0:
        row[plan[P_CLOSED_BY] + (s[CLOSED] - me) % 2] = 1
    if s[LEAD] >= 0:
        row[plan[P_TRICK] + ((leader - me) % 2) * NUM_CARDS + s[LEAD]] = 1
    size = plan[P_TRICKS_SIZE]
    for rel in range(2):
        seat = (me + rel) % 2
        row[plan[P_TRICKS] + rel * size + s[TR0 + seat]] = 1
        row[plan[P_CARD_POINTS] + rel] = s[CP0 + seat]
        if plan[P_MARRIAGES] >= 0:
            _cards(row, plan[P_MARRIAGES] + rel * 4, x[X_MARRIED0 + seat])
        _cards(row, plan[P_KNOWN] + rel * NUM_CARDS, x[X_KNOWN0 + seat])
    _cards(row, plan[P_PLAYED], x[X_PLAYED])
    at = plan[P_OPTIONS]
    for i in range(options.shape[0]):
        row[at + i] = options[i]
    slots = min(plan[P_SLOTS], x[X_ACTIONS])
    slot = plan[P_SLOT]
    at = plan[P_HISTORY]
    for i in range(slots):
        entry = history[i]
        seat = entry // HISTORY_SEAT
        row[at + (seat - me) % 2] = 1
        row[at + 2 + slot_of[entry % HISTORY_SEAT]] = 1
        at += slot


@jit
def legal_mask(s: Any, k: Any, acts: Any, row: Any) -> int:
    """The legal mask of the seat to act into ``row`` (cleared first); how many are legal."""
    row[:] = False
    n = _legal(s, k, acts)
    for i in range(n):
        row[acts[i]] = True
    return n
