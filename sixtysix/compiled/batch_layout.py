"""What the batched environments keep per deal beside its packed position, and the slots of
an observation plan (where each field of the single environments' vectors starts).

Why a module of its own: the dealing, stepping and encoding kernels and the Python side of
:mod:`sixtysix.compiled.batch` all read these indexes, and it imports only the core (plain
ints, which numba folds into the kernels as constants).
"""

from __future__ import annotations

from sixtysix.core.phase import Phase

# Per deal, beside the position (one int64 row each): the dealer, the cards each seat is
# known to hold (the engine's ``DealState.known``), the cards played, the suits each seat has
# married in (4 bits), the public actions so far, the episode to deal next, the words the
# random opponent has drawn from its stream this episode, the deals skipped, and the seat to
# observe.
(
    X_DEALER,
    X_KNOWN0,
    X_KNOWN1,
    X_PLAYED,
    X_MARRIED0,
    X_MARRIED1,
    X_ACTIONS,
    X_EPISODE,
    X_DRAWN,
    X_SKIPPED,
) = range(10)
EXTRA = 10

#: A history entry packs (seat, action id) as ``seat * HISTORY_SEAT + action``.
HISTORY_SEAT = 64

# The observation plan: each field's offset in the vector (-1: the variant's layout has no
# such field), then the sizes the kernels need.
(
    P_SEAT,
    P_DEALER,
    P_PHASE,
    P_TO_ACT,
    P_LEADER,
    P_HAND,
    P_TRUMP,
    P_TURNUP,
    P_TALON_SIZE,
    P_CLOSED_BY,
    P_TRICK,
    P_TRICKS,
    P_CARD_POINTS,
    P_MARRIAGES,
    P_KNOWN,
    P_PLAYED,
    P_OPTIONS,
    P_HISTORY,
) = range(18)
#: The plan's field names, in the order of the slots above (the single environments' names).
PLAN_FIELDS = (
    "seat",
    "dealer",
    "phase",
    "to_act",
    "leader",
    "hand",
    "trump",
    "turnup",
    "talon_size",
    "closed_by",
    "trick",
    "tricks",
    "card_points",
    "marriages",
    "known",
    "played",
    "options",
    "history",
)
#: Then: the width of a vector, the size of one seat's tricks one-hot, of one history slot,
#: and the number of history slots encoded (0: the table only).
P_WIDTH, P_TRICKS_SIZE, P_SLOT, P_SLOTS = range(18, 22)
PLAN = 22

#: The phase one-hot's index of play (``Phase.PLAY``): observations are made only in play.
PHASE_PLAY = int(Phase.PLAY)
