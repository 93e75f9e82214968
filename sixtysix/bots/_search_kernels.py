"""The compiled search kernels of :mod:`sixtysix.bots.compiled` (numba; imported on first use):
the leaf evaluation, move ordering, alpha-beta search and the root.

Kept apart so that importing the expert, listing the bots or running a simulation does not
pay for importing numba (about 0.3 s); see :mod:`sixtysix.bots.compiled` for what these
functions compute and why they exist. The rules they walk are those of
:mod:`sixtysix.compiled.rules`, on the positions of :mod:`sixtysix.compiled.layout`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import (
    BO0,
    BO1,
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
    GEN,
    H0,
    H1,
    K_GOAL,
    K_MARRIAGES,
    K_MARRY_AFTER_CLOSE,
    LASTW,
    LEAD,
    LMARRY,
    MP0,
    MP1,
    RUNNING,
    TOACT,
    TPOS,
    TR0,
    TR1,
    TRUMP,
    TURNUP,
)
from sixtysix.compiled.rules import (
    _POINTS,
    _apply,
    _legal,
    _settle,
    _strict,
)
from sixtysix.core.actions import CLOSE
from sixtysix.core.cards import NUM_CARDS, POINTS

_TRUMP_STRENGTH = (6.0, 7.0, 8.0, 9.0, 12.0, 14.0)
_TS = np.array(
    [sum(v for r, v in enumerate(_TRUMP_STRENGTH) if p >> r & 1) for p in range(64)],
    dtype=np.float64,
)
_LEAD_KEY = np.array([POINTS[c] * 8 + c % 6 for c in range(NUM_CARDS)], dtype=np.int64)


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
