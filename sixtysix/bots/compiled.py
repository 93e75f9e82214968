"""A compiled perfect-information search for the two-player talon games (66, Schnapsen).

The generic :class:`~sixtysix.bots.search.solver.Solver` plays any variant through the engine and
manages about 200,000 nodes a second: enough to solve a strict endgame, but only a trick or
two of look-ahead per imagined deal while the talon is open, which is where 66 is won or lost
(when to close, which marriage to keep, when to spend a trump). This module searches the same
game, with the same value (game points), about seventeen times faster (some 3.5 million
nodes a second), on the compiled rules of :mod:`sixtysix.compiled`. The expert uses it when
they play the variant (:func:`~sixtysix.compiled.allowed.supports`) and numba is installed
(the ``fast`` extra); otherwise it falls back on the generic search.

The search is alpha-beta with a transposition table, move ordering and a horizon counted in
tricks of the open phase: once the talon is closed or exhausted the search always runs to the
end of the deal, so everything after a close is exact. This module drives it; its kernels
(evaluation, ordering, search, root) are :mod:`sixtysix.bots._search_kernels`, imported on
first use only (:func:`_kernels`), since they import numba.
"""

from __future__ import annotations

import os
import threading
from typing import Any, NamedTuple

from sixtysix.bots.search.search_evaluation import weights_for
from sixtysix.compiled import available
from sixtysix.compiled.allowed import supports
from sixtysix.compiled.layout import EXACT, GEN
from sixtysix.compiled.position import knobs, pack
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant

#: Transposition table entries (a power of two).
TABLE_BITS = 17


#: The thread preparing the kernels in the background (:func:`warm_up`), if one was started.
_warming: threading.Thread | None = None
_warming_lock = threading.Lock()


def warming() -> bool:
    """Whether a background preparation (:func:`warm_up`) is still compiling or loading."""
    thread = _warming
    return thread is not None and thread.is_alive()


def _wait_for_warm_up() -> None:
    """Let a background preparation (:func:`warm_up`) finish, unless this is it."""
    warming = _warming
    if warming is not None and warming is not threading.current_thread():
        warming.join()


# A process forked while the preparation compiles would inherit numba's compiler lock (and
# perhaps an import lock) held by a thread it does not have, and hang at its first compilation:
# a fork (a duel's workers, say) waits for the preparation to finish first.
os.register_at_fork(before=_wait_for_warm_up)


def _kernels() -> Any:
    """The compiled kernels (importing numba, and compiling or loading them from the cache),
    once a background preparation (:func:`warm_up`) has finished with them.

    Imported here rather than at the top so that importing this module does not import numba
    (about 0.3 s); the kernels do not import this module.
    """
    _wait_for_warm_up()
    from sixtysix.bots import _search_kernels  # the fast extra (numba), and start-up

    return _search_kernels


def _mcts_kernels() -> Any:
    """The compiled tree search of one deal (:mod:`sixtysix.bots._mcts_kernels`), imported on
    first use like :func:`_kernels`."""
    _wait_for_warm_up()
    from sixtysix.bots import _mcts_kernels  # the fast extra (numba), and start-up

    return _mcts_kernels


def warm_up(variant: Variant) -> bool:
    """Start preparing the kernels for ``variant``'s game in a background thread: compiling
    them (numba writes them to its on-disk cache for the next run) or loading them from that
    cache, while the person reads the table and thinks. True if a thread was started (not
    without numba, for a game the compiled search does not play, or when one already ran).

    The search waits for the thread before its first use, so what it computes never depends on
    how far the preparation got: only when the first search can start does.
    """
    global _warming
    if not (available() and supports(variant)):
        return False
    with _warming_lock:
        if _warming is not None:
            return False
        _warming = threading.Thread(
            target=_prepare_quietly, args=(variant,), name="sixtysix-warm-up", daemon=True
        )
        _warming.start()
    return True


def prepare(variant: Variant) -> None:
    """Compile (or load from numba's cache) every kernel the search of ``variant`` calls, by
    searching one deal of it shallowly."""
    search = CompiledSearch(variant, table_bits=4)
    state = variant.new_deal(variant.deal(Seed(0), ("warm-up",), 0))
    search.action_values(state, state.to_act, 64, 1)


def _prepare_quietly(variant: Variant) -> None:
    """:func:`prepare` in the background: a failure is left for the first real search to meet
    again and report, in the main thread (a thread's traceback would land on the table)."""
    try:
        prepare(variant)
    except Exception:
        return


def weights(variant: Variant) -> Any:
    """The evaluation weights at the horizon (those of the generic search's evaluation)."""
    import numpy as np  # the fast extra

    found = weights_for(variant.rules)
    assert found is not None  # every two-seat game has weights (those of 66 at worst)
    return np.array(found, dtype=np.float64)


class SearchResult(NamedTuple):
    """What one search of one deal found."""

    #: Each legal action's value for the searching seat (game points, its own minus the
    #: other's).
    values: dict[int, float]
    #: True when every value is exact (searched to the end of the deal).
    exact: bool
    #: The actions that end the deal at once (their value is certain on this deal).
    final: frozenset[int]


class CompiledSearch:
    """The compiled search for one variant, with a transposition table kept across calls.

    Different imagined deals share keys but not values, so each call of
    :meth:`action_values` is a new *generation*, part of every key: old entries simply stop
    matching, and the table never has to be cleared between deals (clearing it cost more than
    a small search).
    """

    def __init__(self, variant: Variant, table_bits: int = TABLE_BITS) -> None:
        if not available():
            raise RuntimeError("the compiled search needs numba (pip install 'sixtysix[fast]')")
        import numpy as np  # the fast extra

        self._k = _kernels()
        if not supports(variant):
            raise ValueError(f"the compiled search does not play {variant.name!r}")
        self.variant = variant
        self.knobs = knobs(variant)
        self.weights = weights(variant)
        size = 1 << table_bits
        self._keys = np.full((size, 3), -1, dtype=np.int64)
        self._vals = np.zeros((size, 2), dtype=np.float64)
        self._meta = np.full((size, 2), -1, dtype=np.int64)
        self._values = np.zeros(32, dtype=np.float64)
        self._actions = np.zeros(32, dtype=np.int64)
        self._final = np.zeros(32, dtype=np.bool_)
        self.nodes = 0
        self._generation = 0

    def action_values(
        self,
        state: DealState,
        seat: int,
        node_limit: int,
        max_depth: int = EXACT,
        mix: float = 0.0,
    ) -> SearchResult:
        """Each legal action's value for ``seat`` by iterative deepening within
        ``node_limit`` nodes (0: no limit) and ``max_depth`` open-phase tricks.

        ``mix``: the probability with which the other seat is taken to play a uniformly
        random legal action rather than the best one (0: minimax). Above 0 the other seat's
        nodes cannot be pruned, so the same budget sees less far.
        """
        position = pack(state)
        self._generation = (self._generation + 1) % (1 << 20)
        position[GEN] = self._generation
        n, depth, nodes = self._k._root(
            position,
            self.knobs,
            self.weights,
            seat,
            max(1, min(max_depth, 64)),
            node_limit,
            self._values,
            self._actions,
            self._final,
            self._keys,
            self._vals,
            self._meta,
            float(mix),
        )
        self.nodes += int(nodes)
        return self._found(n, depth == EXACT)

    def mcts_values(
        self,
        state: DealState,
        seat: int,
        iterations: int,
        seed: int,
        solver: bool = False,
        pairs: bool = False,
    ) -> SearchResult:
        """Each legal action's mean value for ``seat`` after ``iterations`` iterations of UCT
        on ``state`` face up, played out at random (:mod:`sixtysix.bots._mcts_kernels`);
        ``seed`` drives the play-outs. ``solver``: every play-out is kept in the tree and
        solved subtrees count at their minimax value, exact once the root is solved.
        ``pairs``: below the root, a king or queen whose partner is in hand is led only as a
        marriage (as in cpatrasciuc's engine; the root still values every legal action)."""
        mcts = _mcts_kernels()
        n = mcts._tree(
            pack(state),
            self.knobs,
            seat,
            max(1, iterations),
            mcts.EXPLORATION,
            seed & ((1 << 63) - 1),
            solver,
            pairs,
            self._values,
            self._actions,
            self._final,
        )
        self.nodes += max(1, iterations)
        return self._found(abs(n), n < 0)

    def _found(self, n: int, exact: bool) -> SearchResult:
        """The result a kernel left in the first ``n`` entries of the output arrays."""
        actions = [int(a) for a in self._actions[:n]]
        values = {a: float(v) for a, v in zip(actions, self._values[:n], strict=True)}
        final = frozenset(a for a, f in zip(actions, self._final[:n], strict=True) if f)
        return SearchResult(values, exact, final)


__all__ = [
    "CompiledSearch",
    "SearchResult",
    "available",
    "supports",
]
