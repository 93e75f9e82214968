"""Packing for the compiled rules: a variant's knobs and a deal's position as the ``int64``
arrays :mod:`sixtysix.compiled.layout` describes, and the reasons behind the reason codes.

Why a module of its own: the expert's search, the random games and the batched environments
all pack the same way; this module needs numpy (the ``fast`` extra) but not numba, which only
:func:`play_random` imports, on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.compiled.allowed import supports
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
    KNOBS,
    LASTW,
    LEAD,
    LMARRY,
    MP0,
    MP1,
    SIZE,
    TALON,
    TLEN,
    TOACT,
    TPOS,
    TR0,
    TR1,
    TRUMP,
    TURNUP,
)
from sixtysix.core.outcome import Reason
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.variants.two_hand import TwoHandVariant

#: The reason of each reason code (``layout.R_*``).
REASONS: tuple[Reason, ...] = (
    Reason.REACHED_66,
    Reason.FALSE_CLAIM,
    Reason.FAILED_CLOSE,
    Reason.LAST_TRICK,
    Reason.PLAYED_OUT,
    Reason.DRAW,
)


def knobs(variant: Variant) -> Any:
    """The knob array of a supported variant (:func:`~sixtysix.compiled.allowed.supports`)."""
    import numpy as np  # the fast extra

    if not supports(variant):
        raise ValueError(f"the compiled rules do not play {variant.name!r} with these rules")
    assert isinstance(variant, TwoHandVariant)
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
    sc = variant.scoring
    k[K_CARD_ONLY] = sc.card_points_only
    k[K_CLOSE_AT_CLOSE] = sc.scale_at_close
    k[K_FAILED_2OR3] = sc.failed_close_2or3
    k[K_FALSE_THREE] = sc.false_claim_three
    k[K_PLAYED_OUT_LAST] = sc.played_out_last_trick
    k[K_TIE_DRAW] = sc.tie_draw
    return k


def pack(state: DealState) -> Any:
    """The position array of a two-player deal in play."""
    import numpy as np  # the fast extra

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


def play_random(
    variant: Variant, state: DealState, words: Sequence[int]
) -> tuple[list[tuple[int, int]], tuple[Reason, int, int]]:
    """Play ``state`` out in the compiled rules choosing ``legal[word % count]`` (for tests
    that hold the compiled rules to the engine's): per move the number of legal actions and
    the action chosen, and the outcome's reason and game points of seats 0 and 1."""
    import numpy as np  # the fast extra

    from sixtysix.compiled import rules  # the fast extra

    position = pack(state)
    log = np.zeros((len(words) + 1, 2), dtype=np.int64)
    k = knobs(variant)
    code = rules._play_random(position, k, np.array(words, dtype=np.int64), log)
    end = next(i for i, row in enumerate(log) if row[0] < 0)
    moves = [(int(n), int(a)) for n, a in log[:end]]
    reason, g0, g1 = rules._outcome(position, k, code)
    return moves, (REASONS[reason], int(g0), int(g1))
