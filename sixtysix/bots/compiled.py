"""A compiled perfect-information search for the two-player talon games (66, Schnapsen).

The generic :class:`~sixtysix.bots.solver.Solver` plays any variant through the engine and
manages about 200,000 nodes a second: enough to solve a strict endgame, but only a trick or
two of look-ahead per imagined deal while the talon is open, which is where 66 is won or lost
(when to close, which marriage to keep, when to spend a trump). This module searches the same
game, with the same value (game points), fifty to a hundred times faster, by compiling a
dedicated copy of the two-player rules with numba. The expert uses it when it applies
(:func:`supports`) and numba is installed (the ``fast`` extra); otherwise it falls back on
the generic search.

A second copy of the rules is a liability, so it is kept honest by tests that play random
legal games through both and compare every legal action list and every outcome
(``tests/bots/test_compiled.py``), and it reads only :class:`~sixtysix.core.rules.Rules`
knobs and the switches of :class:`~sixtysix.variants.two_hand.TwoHandVariant`: never a
variant's name. A variant that overrides the two-hand scoring is not supported.

Layout. A position is one ``int64`` array (copying it is the search's whole "undo"); the
knobs are another. The search is alpha-beta with a transposition table, move ordering and a
horizon counted in tricks of the open phase: once the talon is closed or exhausted the search
always runs to the end of the deal, so everything after a close is exact.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from sixtysix.core.actions import CLAIM, CLOSE, EXCHANGE, MARRY
from sixtysix.core.cards import NUM_CARDS, POINTS
from sixtysix.core.rules import Rules, Sides
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.variants.two_hand import TwoHandVariant


def _import_numba() -> tuple[Any, Any]:
    """numba and numpy (the ``fast`` extra), or None twice."""
    if os.environ.get("SIXTYSIX_NO_NUMBA"):
        return None, None
    try:
        import numba
        import numpy
    except ImportError:  # pragma: no cover - the CI installs the extra
        return None, None
    return numba, numpy


numba, np = _import_numba()

_F = TypeVar("_F", bound=Callable[..., Any])

# --------------------------------------------------------------------------- layout

# Position fields.
H0, H1, TPOS, TLEN, TURNUP, TRUMP, TOACT, LEAD, LMARRY = range(9)
CP0, CP1, TR0, TR1, MP0, MP1, BO0, BO1 = range(9, 17)
CLOSED, CLP0, CLP1, CLT0, CLT1, CLC0, CLC1, LASTW, GEN = range(17, 26)
TALON = 26  # the talon's cards, top first, from here on
SIZE = TALON + 16

# Knobs.
(
    K_MARRIAGES,
    K_MARRY_AFTER_CLOSE,
    K_EXCHANGE,
    K_EXCHANGE_RANK,
    K_EXCHANGE_MIN,
    K_EXCHANGE_TRICK,
    K_CLOSING,
    K_CLOSE_TRICK,
    K_MANUAL,
    K_BONUS,
    K_STRICT,
    K_GOAL,
    K_CARD_ONLY,
    K_CLOSE_AT_CLOSE,
    K_FAILED_2OR3,
    K_FALSE_THREE,
    K_PLAYED_OUT_LAST,
    K_TIE_DRAW,
) = range(18)
KNOBS = 18

# End codes returned by apply: RUNNING, or kind * 2 + seat.
RUNNING = -1
REACHED, FALSE_CLAIM, CARDS_OUT = 1, 2, 3

#: A horizon that never ends a search early.
EXACT = 1000
#: Transposition table entries (a power of two).
TABLE_BITS = 17

_SCORING_METHODS = ("settle", "_scale", "_closing_scale", "_failed_close", "_tie_reason")


def available() -> bool:
    """Whether numba is installed (and not disabled by ``SIXTYSIX_NO_NUMBA``)."""
    return numba is not None


def rules_supported(r: Rules) -> bool:
    """Two seats playing alone, trump turned up or shown, no call, partner or concession."""
    return (
        r.seats == 2
        and r.sides == Sides.SEATS
        and not r.trump_call
        and not r.trump_below
        and not r.partner_call
        and not r.concession
        and (r.turnup_after_round is not None or r.trump_from_dealer_last)
        and r.deck >> NUM_CARDS == 0
    )


def supports(variant: Variant) -> bool:
    """Whether the compiled search plays exactly ``variant``'s game (numba aside)."""
    if not isinstance(variant, TwoHandVariant) or not rules_supported(variant.rules):
        return False
    cls = type(variant)
    return all(getattr(cls, m) is getattr(TwoHandVariant, m) for m in _SCORING_METHODS)


def knobs(variant: TwoHandVariant) -> Any:
    """The knob array of a supported variant."""
    r = variant.rules
    k = np.zeros(KNOBS, dtype=np.int64)
    k[K_MARRIAGES] = r.marriages
    k[K_MARRY_AFTER_CLOSE] = r.marriage_after_close
    k[K_EXCHANGE] = r.exchange
    k[K_EXCHANGE_RANK] = r.exchange_rank
    k[K_EXCHANGE_MIN] = r.exchange_min_talon
    k[K_EXCHANGE_TRICK] = r.exchange_needs_trick
    k[K_CLOSING] = r.closing
    k[K_CLOSE_TRICK] = r.close_needs_trick
    k[K_MANUAL] = r.manual_claim
    k[K_BONUS] = r.last_trick_bonus
    k[K_STRICT] = r.strict_always
    k[K_GOAL] = r.winning_points
    k[K_CARD_ONLY] = bool(variant._opt("schneider_card_points_only", False))
    k[K_CLOSE_AT_CLOSE] = variant.close_scale_at_close
    k[K_FAILED_2OR3] = variant._opt("failed_close", "2or3") == "2or3"
    k[K_FALSE_THREE] = variant.false_claim_three_without_trick
    k[K_PLAYED_OUT_LAST] = variant.played_out_last_trick
    k[K_TIE_DRAW] = variant._opt("tie", "last_trick_wins") == "draw"
    return k


def pack(state: DealState) -> Any:
    """The position array of a two-player deal in play."""
    if state.phase != Phase.PLAY:
        raise ValueError("only a deal in play can be packed")
    s = np.zeros(SIZE, dtype=np.int64)
    s[H0], s[H1] = state.hands
    talon = state.talon
    s[TPOS] = 0
    s[TLEN] = len(talon)
    s[TALON : TALON + len(talon)] = talon
    s[TURNUP] = state.turnup
    s[TRUMP] = state.trump
    s[TOACT] = state.to_act
    s[LEAD] = state.trick[0][1] if state.trick else -1
    s[LMARRY] = state.lead_marry
    s[CP0], s[CP1] = state.card_points
    s[TR0], s[TR1] = state.tricks
    s[MP0], s[MP1] = state.marriage_points
    s[BO0], s[BO1] = state.bonus
    s[CLOSED] = state.closed_by
    if state.closed_by >= 0:
        s[CLP0], s[CLP1] = state.close_points
        s[CLT0], s[CLT1] = state.close_tricks
        s[CLC0], s[CLC1] = state.close_card_points
    s[LASTW] = state.last_winner
    return s


def weights(variant: Variant) -> Any:
    """The evaluation weights at the horizon (those of the generic search's evaluation)."""
    from sixtysix.bots.solver import WEIGHTS

    r = variant.rules
    found = WEIGHTS.get((2, True, r.deck.bit_count())) or WEIGHTS[(2, True, 24)]
    return np.array(found, dtype=np.float64)


# --------------------------------------------------------------------------- compiled core

if numba is not None:
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
                kq = 12 << (suit * 6)
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
            s[MP0 + seat] += 40 if suit == s[TRUMP] else 20
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
        """The fitted linear evaluation of the generic search (``solver._linear``)."""
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
                wins = (a // 6 == lead // 6 and a > lead) or (
                    a // 6 == trump and lead // 6 != trump
                )
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
    ) -> float:
        """Alpha-beta value of ``s`` for ``me``; ``counters``: nodes, limit, horizon hits,
        aborted."""
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
                if v < best:
                    best = v
                    best_action = a
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
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
        table_keys: Any,
        table_vals: Any,
        table_meta: Any,
    ) -> tuple[int, int, int]:
        """Iterative deepening over the root's actions: returns (actions, deepest completed
        depth, nodes); the deepest completed values are in ``out_values``."""
        n = _legal(s, k, out_actions)
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


class CompiledSearch:
    """The compiled search for one variant, with a transposition table kept across calls.

    Different imagined deals share keys but not values, so each call of
    :meth:`action_values` is a new *generation*, part of every key: old entries simply stop
    matching, and the table never has to be cleared between deals (clearing it cost more than
    a small search).
    """

    def __init__(self, variant: Variant, table_bits: int = TABLE_BITS) -> None:
        if numba is None:
            raise RuntimeError("the compiled search needs numba (pip install 'sixtysix[fast]')")
        if not supports(variant):
            raise ValueError(f"the compiled search does not play {variant.name!r}")
        assert isinstance(variant, TwoHandVariant)
        self.variant = variant
        self.knobs = knobs(variant)
        self.weights = weights(variant)
        size = 1 << table_bits
        self._keys = np.full((size, 3), -1, dtype=np.int64)
        self._vals = np.zeros((size, 2), dtype=np.float64)
        self._meta = np.full((size, 2), -1, dtype=np.int64)
        self._values = np.zeros(32, dtype=np.float64)
        self._actions = np.zeros(32, dtype=np.int64)
        self.nodes = 0
        self._generation = 0

    def action_values(
        self, state: DealState, seat: int, node_limit: int, max_depth: int = EXACT
    ) -> tuple[dict[int, float], bool]:
        """Each legal action's value for ``seat`` (game points, its own minus the other's),
        by iterative deepening within ``node_limit`` nodes; and whether all are exact."""
        position = pack(state)
        self._generation = (self._generation + 1) % (1 << 20)
        position[GEN] = self._generation
        n, depth, nodes = _root(
            position,
            self.knobs,
            self.weights,
            seat,
            max(1, min(max_depth, 64)),
            node_limit,
            self._values,
            self._actions,
            self._keys,
            self._vals,
            self._meta,
        )
        self.nodes += int(nodes)
        values = {int(self._actions[i]): float(self._values[i]) for i in range(n)}
        return values, depth == EXACT


def play_random(
    variant: Variant, state: DealState, words: Sequence[int]
) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Play ``state`` out in the compiled rules choosing ``legal[word % count]`` (for tests
    that hold the compiled rules to the engine's): per move the number of legal actions and
    the action chosen, and each seat's final value (its game points minus the other's)."""
    assert isinstance(variant, TwoHandVariant)
    position = pack(state)
    log = np.zeros((len(words) + 1, 2), dtype=np.int64)
    k = knobs(variant)
    code = _play_random(position, k, np.array(words, dtype=np.int64), log)
    moves = [(int(n), int(a)) for n, a in log if n >= 0]
    moves = moves[: next(i for i, row in enumerate(log) if row[0] < 0)]
    return moves, (int(_settle(position, k, code, 0)), int(_settle(position, k, code, 1)))


__all__ = ["CompiledSearch", "available", "play_random", "supports"]
