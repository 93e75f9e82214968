"""The two-player rules compiled (numba): legal actions, applying one, settling a deal.

The one compiled statement of the rules, on a packed position
(:func:`sixtysix.compiled.position.pack`, laid out as :mod:`sixtysix.compiled.layout` says):
the random games, the batched environments and the expert's search all walk these kernels.
Each restates a part of the engine (named in its docstring); ``tests/compiled/`` holds them to
it move by move and game by game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import (
    BO0,
    CARDS_OUT,
    CLC0,
    CLOSED,
    CLP0,
    CLT0,
    CP0,
    FALSE_CLAIM,
    H0,
    H1,
    K_BONUS,
    K_CARD_ONLY,
    K_CLOSE_AT_CLOSE,
    K_CLOSE_TRICK,
    K_CLOSING,
    K_EXCHANGE,
    K_EXCHANGE_MIN,
    K_EXCHANGE_RANK,
    K_EXCHANGE_TRICK,
    K_FAILED_2OR3,
    K_FALSE_THREE,
    K_GOAL,
    K_MANUAL,
    K_MARRIAGES,
    K_MARRY_AFTER_CLOSE,
    K_PLAYED_OUT_LAST,
    K_STRICT,
    K_TIE_DRAW,
    LASTW,
    LEAD,
    LMARRY,
    MP0,
    R_DRAW,
    R_FAILED_CLOSE,
    R_FALSE_CLAIM,
    R_LAST_TRICK,
    R_PLAYED_OUT,
    R_REACHED,
    REACHED,
    RUNNING,
    TALON,
    TLEN,
    TOACT,
    TPOS,
    TR0,
    TRUMP,
    TURNUP,
)
from sixtysix.core.actions import CLAIM, CLOSE, EXCHANGE, MARRY
from sixtysix.core.cards import KQ, MARRIAGE_POINTS, NUM_CARDS, POINTS, TRUMP_MARRIAGE_POINTS

_POINTS = np.array(POINTS, dtype=np.int64)


@jit
def _valid(s: Any, seat: int) -> int:
    pts = s[CP0 + seat] + s[BO0 + seat]
    if s[MP0 + seat] and s[TR0 + seat]:
        pts += s[MP0 + seat]
    return pts


@jit
def _strict(s: Any, k: Any) -> bool:
    """:meth:`Rules.strict_phase`, restated on the position array (numba cannot call it)."""
    return k[K_STRICT] != 0 or s[CLOSED] >= 0 or (s[TPOS] >= s[TLEN] and s[TURNUP] < 0)


@jit
def _scale(pts: int, tricks: int) -> int:
    if pts >= 33:
        return 1
    return 2 if tricks else 3


@jit
def _loser_scale(s: Any, k: Any, loser: int) -> int:
    pts = s[CP0 + loser] if k[K_CARD_ONLY] else _valid(s, loser)
    return _scale(pts, s[TR0 + loser])


@jit
def _closing_scale(s: Any, k: Any, loser: int) -> int:
    if not k[K_CLOSE_AT_CLOSE]:
        return _loser_scale(s, k, loser)
    pts = s[CLC0 + loser] if k[K_CARD_ONLY] else s[CLP0 + loser]
    return _scale(pts, s[CLT0 + loser])


@jit
def _failed_close(s: Any, k: Any, opponent: int) -> int:
    if k[K_FAILED_2OR3] and s[CLT0 + opponent] == 0:
        return 3
    return 2


@jit
def _outcome(s: Any, k: Any, code: int) -> tuple[int, int, int]:
    """:meth:`TwoHandVariant.settle <sixtysix.variants.two_hand.TwoHandVariant.settle>` of a
    finished deal (``code``, from :func:`_apply`): the reason code (``layout.R_*``) and each
    seat's game points."""
    kind = code // 2
    seat = code % 2
    g0 = 0
    g1 = 0
    closer = s[CLOSED]
    goal = k[K_GOAL]
    if kind == REACHED:
        w = seat
        reason = R_REACHED
        if closer < 0:
            v = _loser_scale(s, k, 1 - w)
        elif w == closer:
            v = _closing_scale(s, k, 1 - w)
        else:
            v = _failed_close(s, k, w)
            reason = R_FAILED_CLOSE
        if w == 0:
            g0 = v
        else:
            g1 = v
    elif kind == FALSE_CLAIM:
        reason = R_FALSE_CLAIM
        opp = 1 - seat
        if closer == seat:
            v = _failed_close(s, k, opp)
        elif k[K_FALSE_THREE] and s[TR0 + opp] == 0:
            v = 3
        else:
            v = 2
        if opp == 0:
            g0 = v
        else:
            g1 = v
    else:  # cards out
        p0 = _valid(s, 0)
        p1 = _valid(s, 1)
        if closer >= 0:
            pc = p0 if closer == 0 else p1
            if pc >= goal:
                reason = R_REACHED
                v = _closing_scale(s, k, 1 - closer)
                w = closer
            else:
                reason = R_FAILED_CLOSE
                v = _failed_close(s, k, 1 - closer)
                w = 1 - closer
            if w == 0:
                g0 = v
            else:
                g1 = v
        elif k[K_MANUAL]:
            reason = R_PLAYED_OUT
            if p0 >= goal or p1 >= goal:
                if p0 >= goal and (p1 < goal or p0 >= p1):
                    g0 = 1
                if p1 >= goal and (p0 < goal or p1 >= p0):
                    g1 = 1
            elif k[K_PLAYED_OUT_LAST]:
                reason = R_LAST_TRICK
                if s[LASTW] == 0:
                    g0 = 1
                else:
                    g1 = 1
        elif k[K_TIE_DRAW]:
            reason = R_DRAW
        else:
            reason = R_LAST_TRICK
            if s[LASTW] == 0:
                g0 = 1
            else:
                g1 = 1
    return reason, g0, g1


@jit
def _settle(s: Any, k: Any, code: int, me: int) -> int:
    """Game points of ``me`` minus the opponent's for a finished deal (:func:`_outcome`)."""
    _, g0, g1 = _outcome(s, k, code)
    return g0 - g1 if me == 0 else g1 - g0


@jit
def _duty(s: Any, hand: int) -> int:
    lead = s[LEAD]
    suit = lead // 6
    suit_cards = hand & (63 << (suit * 6))
    if suit_cards:
        higher = suit_cards & ~((1 << (lead + 1)) - 1)
        if higher:
            return higher
        return suit_cards
    trump = s[TRUMP]
    if trump >= 0:
        trumps = hand & (63 << (trump * 6))
        if trumps:
            return trumps
    return hand


#: The index of a single set bit ``b`` is ``_BIT_INDEX[(b * _DE_BRUIJN >> 58) & 63]``.
_DE_BRUIJN = 0x03F79D71B4CB0A89
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[(((1 << _i) * _DE_BRUIJN) & (2**64 - 1)) >> 58] = _i


@jit
def _cards(mask: int, out: Any, n: int) -> int:
    """The cards of ``mask`` in ascending order into ``out[n:]``; returns the new count."""
    while mask:
        low = mask & -mask
        out[n] = _BIT_INDEX[(low * _DE_BRUIJN >> 58) & 63]
        n += 1
        mask ^= low
    return n


@jit
def _legal(s: Any, k: Any, out: Any) -> int:
    """The legal actions in engine order into ``out``; returns how many."""
    seat = s[TOACT]
    hand = s[H0 + seat]
    if s[LEAD] >= 0:
        return _cards(_duty(s, hand) if _strict(s, k) else hand, out, 0)
    n = 0
    if s[LMARRY] >= 0:
        base = s[LMARRY] * 6
        for c in (base + 2, base + 3):
            if hand >> c & 1:
                out[n] = c
                n += 1
        if k[K_MANUAL]:
            out[n] = CLAIM
            n += 1
        return n
    n = _cards(hand, out, 0)
    if k[K_MARRIAGES] and (k[K_MARRY_AFTER_CLOSE] or not _strict(s, k)):
        for suit in range(4):
            kq = KQ[0] << (suit * 6)
            if hand & kq == kq:
                out[n] = MARRY + suit
                n += 1
    if s[TURNUP] >= 0 and s[CLOSED] < 0:
        talon_size = s[TLEN] - s[TPOS] + 1
        if (
            k[K_EXCHANGE]
            and talon_size >= k[K_EXCHANGE_MIN]
            and hand >> (s[TRUMP] * 6 + k[K_EXCHANGE_RANK]) & 1
            and (not k[K_EXCHANGE_TRICK] or s[TR0 + seat] > 0)
        ):
            out[n] = EXCHANGE
            n += 1
        if k[K_CLOSING] and (not k[K_CLOSE_TRICK] or s[TR0 + seat] > 0):
            out[n] = CLOSE
            n += 1
    if k[K_MANUAL]:
        out[n] = CLAIM
        n += 1
    return n


@jit
def _apply(s: Any, k: Any, a: int) -> int:
    """Apply a legal action; RUNNING, or the end code of the deal it ended."""
    seat = s[TOACT]
    goal = k[K_GOAL]
    if a < NUM_CARDS:
        s[H0 + seat] ^= 1 << a
        s[LMARRY] = -1
        lead = s[LEAD]
        if lead < 0:
            s[LEAD] = a
            s[TOACT] = 1 - seat
            return RUNNING
        leader = 1 - seat
        trump = s[TRUMP]
        if a // 6 == lead // 6:
            w = seat if a > lead else leader
        elif a // 6 == trump:
            w = seat
        else:
            w = leader
        s[CP0 + w] += _POINTS[lead] + _POINTS[a]
        s[TR0 + w] += 1
        s[LASTW] = w
        s[TOACT] = w
        s[LEAD] = -1
        if s[CLOSED] < 0:
            for i in range(2):
                t = (w + i) % 2
                if s[TPOS] < s[TLEN]:
                    s[H0 + t] |= 1 << s[TALON + s[TPOS]]
                    s[TPOS] += 1
                elif s[TURNUP] >= 0:
                    s[H0 + t] |= 1 << s[TURNUP]
                    s[TURNUP] = -1
        last = s[H0] == 0 and s[H1] == 0
        if last and k[K_BONUS] and s[CLOSED] < 0:
            s[BO0 + w] += k[K_BONUS]
        if not k[K_MANUAL] and _valid(s, w) >= goal:
            return REACHED * 2 + w
        if last:
            return CARDS_OUT * 2 + w
        return RUNNING
    if a < MARRY + 4:
        suit = a - MARRY
        s[LMARRY] = suit
        s[MP0 + seat] += TRUMP_MARRIAGE_POINTS if suit == s[TRUMP] else MARRIAGE_POINTS
        if not k[K_MANUAL] and s[TR0 + seat] and _valid(s, seat) >= goal:
            return REACHED * 2 + seat
        return RUNNING
    if a == EXCHANGE:
        card = s[TRUMP] * 6 + k[K_EXCHANGE_RANK]
        s[H0 + seat] ^= (1 << card) | (1 << s[TURNUP])
        s[TURNUP] = card
        return RUNNING
    if a == CLOSE:
        s[CLOSED] = seat
        for t in range(2):
            s[CLP0 + t] = _valid(s, t)
            s[CLT0 + t] = s[TR0 + t]
            s[CLC0 + t] = s[CP0 + t]
        return RUNNING
    # CLAIM
    if _valid(s, seat) >= goal:
        return REACHED * 2 + seat
    return FALSE_CLAIM * 2 + seat


@jit
def _play_random(s: Any, k: Any, words: Any, log: Any) -> int:
    """Play ``s`` out with action ``legal[word % count]`` per move (for the tests): the
    end code; ``log`` gets, per move, the legal count and the chosen action."""
    acts = np.empty(32, dtype=np.int64)
    i = 0
    while True:
        n = _legal(s, k, acts)
        a = acts[words[i] % n]
        log[i, 0] = n
        log[i, 1] = a
        code = _apply(s, k, a)
        i += 1
        if code != RUNNING:
            log[i, 0] = -1
            return code
