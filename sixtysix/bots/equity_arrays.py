"""The match-equity recursion of :class:`~sixtysix.bots.match_equity.MatchEquity` for a match to
a target, all scores at once in arrays (with numpy, the ``fast`` extra).

Four players to 16 have 65,536 scores: the recursion, one score at a time, takes 15 s in pure
Python, too long for the expert's first move. Every deal that scores adds to some total, so the
scores can be filled in layers of equal sum, from the highest down, each layer in a few array
operations per result and dealer (under a second). The tests hold it to the recursion score by
score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Result: each seat's game points, counted from the dealer.
Result = tuple[int, ...]


def target_table(seats: int, target: int, results: Mapping[Result, float]) -> Any:
    """Each seat's chance to win a match to ``target`` from every score below it, for each
    dealer: an array indexed ``[dealer, t0, ..., t(seats-1), seat]``. ``results``: each deal
    result's probability, summing to 1; a deal that scores nothing passes the deal on (solved
    round the ring in closed form, as the recursion does)."""
    import numpy as np  # the fast extra

    n = seats
    shape = (target,) * n
    size = target**n
    coords = np.indices(shape).reshape(n, size).T  # every score below the target
    sums = coords.sum(axis=1)
    table = np.zeros((n, size, n))
    q = results.get((0,) * n, 0.0)
    scored = [(r, p) for r, p in results.items() if any(r)]
    shifts = {
        (d, r): np.array([r[(s - d) % n] for s in range(n)], dtype=np.int64)
        for d in range(n)
        for r, _ in scored
    }
    for total in range(int(sums.max()), -1, -1):
        layer = np.flatnonzero(sums == total)
        here = coords[layer]
        found = np.zeros((n, len(layer), n))
        for d in range(n):
            following = table[(d + 1) % n]
            for r, p in scored:
                moved = here + shifts[(d, r)]
                over = (moved >= target).any(axis=1)
                going = ~over
                if going.any():
                    flat = np.ravel_multi_index(tuple(moved[going].T), shape)
                    found[d, going] += p * following[flat]
                if over.any():
                    ended = moved[over]
                    best = ended == ended.max(axis=1, keepdims=True)
                    found[d, over] += p * best / best.sum(axis=1, keepdims=True)
        if q > 0:
            ring = np.zeros_like(found)
            for d in range(n):
                for k in range(n):
                    ring[d] += q**k * found[(d + k) % n]
            found = ring / (1.0 - q**n)
        table[:, layer] = found
    return table.reshape((n, *shape, n))
