"""The compiled kernels of :mod:`sixtysix.bots.compiled` (numba; imported on first use).

Kept apart so that importing the expert, listing the bots or running a simulation does not
pay for importing numba (about 0.3 s); see :mod:`sixtysix.bots.compiled` for what these
functions compute and why they exist.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from sixtysix.bots.compiled import (
    BO0,
    BO1,
    CARDS_OUT,
    CLC0,
    CLC1,
    CLOSED,
    CLP0,
    CLP1,
    CLT0,
    CLT1,
    CP0,
    CP1,
    EXACT,
    FALSE_CLAIM,
    GEN,
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
    MP1,
    REACHED,
    RUNNING,
    TALON,
    TLEN,
    TOACT,
    TPOS,
    TR0,
    TR1,
    TRUMP,
    TURNUP,
)
from sixtysix.core.actions import CLAIM, CLOSE, EXCHANGE, MARRY
from sixtysix.core.cards import KQ, MARRIAGE_POINTS, NUM_CARDS, POINTS, TRUMP_MARRIAGE_POINTS

_F = TypeVar("_F", bound=Callable[..., Any])

_POINTS = np.array(POINTS, dtype=np.int64)
_TRUMP_STRENGTH = (6.0, 7.0, 8.0, 9.0, 12.0, 14.0)
_TS = np.array(
    [sum(v for r, v in enumerate(_TRUMP_STRENGTH) if p >> r & 1) for p in range(64)],
    dtype=np.float64,
)
_LEAD_KEY = np.array([POINTS[c] * 8 + c % 6 for c in range(NUM_CARDS)], dtype=np.int64)

_njit = numba.njit(cache=True, nogil=True)


def jit(fn: _F) -> _F:
    """numba's ``njit``, typed for mypy (the kernels keep their Python signatures)."""
    return cast(_F, _njit(fn))


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
def _settle(s: Any, k: Any, code: int, me: int) -> int:
    """Game points of ``me`` minus the opponent's for a finished deal."""
    kind = code // 2
    seat = code % 2
    g0 = 0
    g1 = 0
    closer = s[CLOSED]
    goal = k[K_GOAL]
    if kind == REACHED:
        w = seat
        if closer < 0:
            v = _loser_scale(s, k, 1 - w)
        elif w == closer:
            v = _closing_scale(s, k, 1 - w)
        else:
            v = _failed_close(s, k, w)
        if w == 0:
            g0 = v
        else:
            g1 = v
    elif kind == FALSE_CLAIM:
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
                v = _closing_scale(s, k, 1 - closer)
                w = closer
            else:
                v = _failed_close(s, k, 1 - closer)
                w = 1 - closer
            if w == 0:
                g0 = v
            else:
                g1 = v
        elif k[K_MANUAL]:
            if p0 >= goal or p1 >= goal:
                if p0 >= goal and (p1 < goal or p0 >= p1):
                    g0 = 1
                if p1 >= goal and (p0 < goal or p1 >= p0):
                    g1 = 1
            elif k[K_PLAYED_OUT_LAST]:
                if s[LASTW] == 0:
                    g0 = 1
                else:
                    g1 = 1
        elif not k[K_TIE_DRAW]:
            if s[LASTW] == 0:
                g0 = 1
            else:
                g1 = 1
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


@jit
def _legal(s: Any, k: Any, out: Any) -> int:
    """The legal actions in engine order into ``out``; returns how many."""
    seat = s[TOACT]
    hand = s[H0 + seat]
    n = 0
    if s[LEAD] >= 0:
        mask = _duty(s, hand) if _strict(s, k) else hand
        for c in range(NUM_CARDS):
            if mask >> c & 1:
                out[n] = c
                n += 1
        return n
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
    for c in range(NUM_CARDS):
        if hand >> c & 1:
            out[n] = c
            n += 1
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
def _evaluate(s: Any, k: Any, w: Any, me: int) -> float:
    """The fitted linear evaluation of the generic search (``search_evaluation._linear``), restated
    because numba cannot call it; ``tests/bots/test_compiled.py`` keeps the two equal."""
    trump = s[TRUMP]
    marriages = k[K_MARRIAGES] and (k[K_MARRY_AFTER_CLOSE] or not _strict(s, k))
    us_trick = 1 if s[TR0 + me] else 0
    them_trick = 1 if s[TR0 + 1 - me] else 0
    total = 0.0
    valid_us = 0.0
    valid_them = 0.0
    for seat in range(2):
        us = seat == me
        sign = 1.0 if us else -1.0
        v = float(s[CP0 + seat] + s[BO0 + seat])
        married = s[MP0 + seat]
        if married:
            if (us_trick if us else them_trick) != 0:
                v += married
            else:
                total += sign * w[1] * married / 10.0
        if us:
            valid_us += v
        else:
            valid_them += v
        hand = s[H0 + seat]
        for suit in range(4):
            pattern = (hand >> (suit * 6)) & 63
            if pattern == 0:
                continue
            if marriages and pattern & 12 == 12:
                total += sign * w[2] * (4.0 if suit == trump else 2.0)
            if suit == trump:
                bits = 0
                p = pattern
                while p:
                    bits += p & 1
                    p >>= 1
                total += sign * (w[3] * _TS[pattern] / 10.0 + w[4] * bits)
            else:
                total += sign * (w[5] * ((pattern >> 5) & 1) + w[6] * ((pattern >> 4) & 1))
    total += w[0] * (valid_us - valid_them) / 10.0
    total += w[7] if s[TOACT] == me else -w[7]
    if s[CLOSED] >= 0:
        closer = 1.0 if s[CLOSED] == me else -1.0
        gap = (valid_us if closer > 0 else valid_them) - k[K_GOAL]
        total += closer * (w[8] + w[9] * gap / 10.0)
    total += w[10] * (us_trick - them_trick)
    total += w[11] * ((1 if valid_us >= 33 else 0) - (1 if valid_them >= 33 else 0))
    if total > 6.0:
        return 6.0
    if total < -6.0:
        return -6.0
    return total


@jit
def _key(s: Any) -> tuple[int, int, int]:
    k1 = s[H0] | (s[H1] << 24) | (s[TPOS] << 48) | ((s[TURNUP] + 1) << 53)
    k1 |= s[TOACT] << 58 | ((s[CLOSED] + 1) << 59) | ((s[LMARRY] + 1) << 61)
    k2 = s[CP0] | (s[CP1] << 8) | (s[TR0] << 16) | (s[TR1] << 20) | (s[MP0] << 24)
    k2 |= (s[MP1] << 32) | (s[BO0] << 40) | (s[BO1] << 48) | ((s[LEAD] + 1) << 56)
    k3 = s[CLP0] | (s[CLP1] << 8) | (s[CLT0] << 16) | (s[CLT1] << 20)
    k3 |= (s[CLC0] << 24) | (s[CLC1] << 32) | ((s[LASTW] + 1) << 40) | (s[GEN] << 42)
    return k1, k2, k3


@jit
def _order(s: Any, k: Any, acts: Any, n: int, first: int) -> None:
    """Sort ``acts[:n]`` most promising first (insertion sort on a small key)."""
    keys = np.empty(n, dtype=np.int64)
    lead = s[LEAD]
    trump = s[TRUMP]
    for i in range(n):
        a = acts[i]
        if a == first:
            key = -100000
        elif lead >= 0:
            wins = (a // 6 == lead // 6 and a > lead) or (a // 6 == trump and lead // 6 != trump)
            if wins:
                key = (_POINTS[a] if a // 6 != trump else 20 + a % 6) - 1000
            else:
                key = _POINTS[a] * 8 + a % 6
        elif a >= NUM_CARDS:
            key = 1000 if a == CLOSE else -500
        else:
            key = -_LEAD_KEY[a]
        keys[i] = key
    for i in range(1, n):
        a = acts[i]
        key = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            acts[j + 1] = acts[j]
            keys[j + 1] = keys[j]
            j -= 1
        acts[j + 1] = a
        keys[j + 1] = key


@jit
def _search(
    s: Any,
    k: Any,
    w: Any,
    me: int,
    depth: int,
    alpha: float,
    beta: float,
    table_keys: Any,
    table_vals: Any,
    table_meta: Any,
    counters: Any,
    mix: float,
) -> float:
    """Alpha-beta value of ``s`` for ``me``; ``counters``: nodes, limit, horizon hits,
    aborted.

    ``mix`` > 0 models an opponent who plays a uniformly random legal action with that
    probability (and the minimizing one otherwise): the other seat's nodes are then worth
    ``mix`` times the mean of their children plus ``1 - mix`` times the least, which needs
    every child's exact value, so nothing is pruned below them."""
    counters[0] += 1
    if counters[3] or (counters[1] > 0 and counters[0] > counters[1]):
        counters[3] = 1
        return 0.0
    k1, k2, k3 = _key(s)
    mask = table_keys.shape[0] - 1
    slot = (k1 * 0x9E3779B1 ^ k2 * 0x85EBCA6B ^ k3 * 0xC2B2AE35) & mask
    first = -1
    a0 = alpha
    b0 = beta
    if table_keys[slot, 0] == k1 and table_keys[slot, 1] == k2 and table_keys[slot, 2] == k3:
        lo = table_vals[slot, 0]
        hi = table_vals[slot, 1]
        stored = table_meta[slot, 0]
        first = table_meta[slot, 1]
        if stored >= depth:
            hit = lo >= beta or hi <= alpha or lo == hi
            if hit:
                if stored < EXACT:
                    counters[2] += 1
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    acts = np.empty(32, dtype=np.int64)
    n = _legal(s, k, acts)
    _order(s, k, acts, n, first)
    maximizing = s[TOACT] == me
    mixing = mix > 0.0 and not maximizing
    if mixing:
        alpha = -1000.0
        beta = 1000.0
        a0 = alpha
        b0 = beta
    total = 0.0
    strict_now = _strict(s, k)
    best = -1000.0 if maximizing else 1000.0
    best_action = -1
    horizon_before = counters[2]
    for i in range(n):
        a = acts[i]
        child = s.copy()
        code = _apply(child, k, a)
        if code != RUNNING:
            v = float(_settle(child, k, code, me))
        else:
            d = depth
            if a < NUM_CARDS and s[LEAD] >= 0 and not strict_now:
                d -= 1
            if d <= 0 and not _strict(child, k):
                counters[2] += 1
                counters[0] += 1
                v = _evaluate(child, k, w, me)
            else:
                v = _search(
                    child,
                    k,
                    w,
                    me,
                    d if d > 0 else 1,
                    alpha,
                    beta,
                    table_keys,
                    table_vals,
                    table_meta,
                    counters,
                    mix,
                )
        if counters[3]:
            return 0.0
        if maximizing:
            if v > best:
                best = v
                best_action = a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        else:
            total += v
            if v < best:
                best = v
                best_action = a
                # A mixing node keeps the full window: every child's value must be exact.
                if v < beta and not mixing:
                    beta = v
                    if alpha >= beta:
                        break
    if mixing:
        best = mix * total / n + (1.0 - mix) * best
    stored_depth = EXACT if counters[2] == horizon_before else depth
    if stored_depth >= table_meta[slot, 0] or table_keys[slot, 0] != k1:
        table_keys[slot, 0] = k1
        table_keys[slot, 1] = k2
        table_keys[slot, 2] = k3
        if best <= a0:
            table_vals[slot, 0] = -1000.0
            table_vals[slot, 1] = best
        elif best >= b0:
            table_vals[slot, 0] = best
            table_vals[slot, 1] = 1000.0
        else:
            table_vals[slot, 0] = best
            table_vals[slot, 1] = best
        table_meta[slot, 0] = stored_depth
        table_meta[slot, 1] = best_action
    return best


@jit
def _root(
    s: Any,
    k: Any,
    w: Any,
    me: int,
    max_depth: int,
    node_limit: int,
    out_values: Any,
    out_actions: Any,
    out_final: Any,
    table_keys: Any,
    table_vals: Any,
    table_meta: Any,
    mix: float,
) -> tuple[int, int, int]:
    """Iterative deepening over the root's actions: returns (actions, deepest completed
    depth, nodes); the deepest completed values are in ``out_values``, and ``out_final``
    marks the actions that end the deal at once."""
    n = _legal(s, k, out_actions)
    for i in range(n):
        out_final[i] = _apply(s.copy(), k, out_actions[i]) != RUNNING
    counters = np.zeros(4, dtype=np.int64)
    counters[1] = node_limit
    values = np.empty(n, dtype=np.float64)
    done_depth = 0
    strict_root = _strict(s, k)
    for depth in range(1, max_depth + 1):
        counters[2] = 0
        for i in range(n):
            a = out_actions[i]
            child = s.copy()
            code = _apply(child, k, a)
            if code != RUNNING:
                values[i] = float(_settle(child, k, code, me))
                continue
            d = depth
            if a < NUM_CARDS and s[LEAD] >= 0 and not strict_root:
                d -= 1
            if d <= 0 and not _strict(child, k):
                counters[2] += 1
                values[i] = _evaluate(child, k, w, me)
            else:
                values[i] = _search(
                    child,
                    k,
                    w,
                    me,
                    d if d > 0 else 1,
                    -100.0,
                    100.0,
                    table_keys,
                    table_vals,
                    table_meta,
                    counters,
                    mix,
                )
            if counters[3]:
                break
        if counters[3]:
            break
        for i in range(n):
            out_values[i] = values[i]
        done_depth = depth
        if counters[2] == 0:
            done_depth = EXACT
            break
    if done_depth == 0:
        # Not even one trick ahead within the budget: value each action statically.
        for i in range(n):
            child = s.copy()
            code = _apply(child, k, out_actions[i])
            if code != RUNNING:
                out_values[i] = float(_settle(child, k, code, me))
            else:
                out_values[i] = _evaluate(child, k, w, me)
    return n, done_depth, counters[0]


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
