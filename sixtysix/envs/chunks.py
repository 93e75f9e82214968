"""Runs of float32 bytes, made once, that the encoder joins into its vectors.

Each field of a vector is a run of little-endian float32 values; every run a view can produce
(a one-hot, a set of cards, a count) is computed ahead as ``bytes``, so encoding a view is
looking runs up and one ``join``, and the only numpy call is wrapping the result.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from sixtysix.core.cards import NUM_CARDS

ONE = struct.pack("<f", 1.0)
ZERO = bytes(4)
#: numpy's name of the layout of these bytes.
DTYPE = "<f4"


def floats(values: Sequence[float]) -> bytes:
    """The float32 bytes of ``values``."""
    return struct.pack(f"<{len(values)}f", *values)


def one_hot(size: int, k: int | None) -> bytes:
    """``size`` floats, 1 at ``k`` (all 0 when ``k`` is None)."""
    if k is None:
        return ZERO * size
    return ZERO * k + ONE + ZERO * (size - k - 1)


def one_hots(size: int, order: Sequence[int | None] | None = None) -> tuple[bytes, ...]:
    """``one_hot(size, order[i])`` for every ``i`` (``order`` defaults to ``0..size-1``), and
    an all-0 run last, so that index -1 means "none"."""
    keys = list(range(size)) if order is None else list(order)
    return (*(one_hot(size, k) for k in keys), ZERO * size)


#: The 12 floats of a 12-bit mask: ``HALF[m & 4095] + HALF[m >> 12]`` spells a card set.
HALF: tuple[bytes, ...] = tuple(
    b"".join(ONE if m >> i & 1 else ZERO for i in range(12)) for m in range(1 << 12)
)
#: The 24 floats of no card.
NO_CARDS = ZERO * NUM_CARDS
#: The 24 floats of one card, then of none.
CARD: tuple[bytes, ...] = one_hots(NUM_CARDS)


def card_set(mask: int) -> bytes:
    """The 24 floats of a card mask, 1 at each card id in it."""
    return HALF[mask & 4095] + HALF[mask >> 12]
