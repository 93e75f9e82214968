"""The sampler's random choices: big uniform numbers, shuffles and every split of a set."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from sixtysix.bots.inference.views import InconsistentViewError
from sixtysix.core.rng import Stream


def below(stream: Stream, n: int) -> int:
    """A number in ``range(n)`` for any ``n`` (layout counts exceed 64 bits)."""
    if n <= 0:
        raise InconsistentViewError("nothing to choose from")
    if n < 1 << 32:
        return stream.below(n)
    value = 0
    bits = 0
    while bits < n.bit_length() + 64:
        value = (value << 64) | stream.next_word()
        bits += 64
    return value % n


def shuffle(items: list[int], stream: Stream) -> None:
    """Shuffle ``items`` in place (Fisher-Yates), drawing from ``stream``."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


def partitions(cards: Sequence[int], split: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every way to cut ``cards`` into parts of the sizes in ``split`` (as sets)."""
    if not split:
        if not cards:
            yield []
        return
    for chosen in combinations(cards, split[0]):
        rest = [c for c in cards if c not in chosen]
        for tail in partitions(rest, split[1:]):
            yield [list(chosen), *tail]
