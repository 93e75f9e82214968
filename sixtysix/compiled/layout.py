"""The packed two-player position: its fields, the rule knobs, the end and reason codes, and
the horizon that never stops a search.

Why a module of its own: the packing (:mod:`sixtysix.compiled.position`), the compiled rules
(:mod:`sixtysix.compiled.rules`), the random games, the batched environments and the expert's
search kernels all read this one layout, and it imports none of them. Plain ints, which numba
folds into the kernels as constants; importing it costs no numba.
"""

from __future__ import annotations

from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.outcome import EndCode

# Position fields.
H0, H1, TPOS, TLEN, TURNUP, TRUMP, TOACT, LEAD, LMARRY = range(9)
CP0, CP1, TR0, TR1, MP0, MP1, BO0, BO1 = range(9, 17)
CLOSED, CLP0, CLP1, CLT0, CLT1, CLC0, CLC1, LASTW, GEN = range(17, 26)
TALON = 26  # the talon's cards, top first, from here on (room for any 24-card deck)
SIZE = TALON + NUM_CARDS

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

# End codes returned by apply: RUNNING, or kind * 2 + seat, with the kinds of EndCode (as
# plain ints, which numba folds into the kernels as constants).
RUNNING = int(EndCode.RUNNING)
REACHED, FALSE_CLAIM, CARDS_OUT = (
    int(EndCode.REACHED),
    int(EndCode.FALSE_CLAIM),
    int(EndCode.CARDS_OUT),
)

# Reason codes of a settled deal: indexes into position.REASONS.
R_REACHED, R_FALSE_CLAIM, R_FAILED_CLOSE, R_LAST_TRICK, R_PLAYED_OUT, R_DRAW = range(6)

#: A horizon that never ends a search early.
EXACT = 1000
