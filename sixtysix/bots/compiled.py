"""A compiled perfect-information search for the two-player talon games (66, Schnapsen).

The generic :class:`~sixtysix.bots.search.solver.Solver` plays any variant through the engine and
manages about 200,000 nodes a second: enough to solve a strict endgame, but only a trick or
two of look-ahead per imagined deal while the talon is open, which is where 66 is won or lost
(when to close, which marriage to keep, when to spend a trump). This module searches the same
game, with the same value (game points), about seventeen times faster (some 3.5 million
nodes a second), by compiling a dedicated copy of the two-player rules with numba. The expert
uses it when it applies (:func:`supports`) and numba is installed (the ``fast`` extra);
otherwise it falls back on the generic search.

A second copy of the rules is a liability, so it is kept honest by tests that play random
legal games through both and compare every legal action list and every outcome
(``tests/bots/test_compiled.py``), and it reads only :class:`~sixtysix.core.rules.Rules`
knobs (those of the allow-list :data:`~sixtysix.variants.two_hand.COMPILED_RULES`) and the
variant's :class:`~sixtysix.variants.two_hand.TwoHandScoring`: never a variant's name. A
variant that overrides the two-hand scoring is not supported.

Layout. A position is one ``int64`` array (copying it is the search's whole "undo"); the
knobs are another (both laid out in :mod:`sixtysix.bots._layout`). The search is alpha-beta
with a transposition table, move ordering and a horizon counted in tricks of the open phase:
once the talon is closed or exhausted the search always runs to the end of the deal, so
everything after a close is exact.

Modules. This one packs positions and knobs and drives the search; the kernels are the rules
(:mod:`sixtysix.bots._rule_kernels`) and the search (:mod:`sixtysix.bots._kernels`, which
walks those rules). All three read the layout from :mod:`sixtysix.bots._layout`, and neither
kernel module imports this one: this one imports the search kernels, on first use only
(:func:`_kernels`), since they import numba.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

from sixtysix.bots._layout import (
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
from sixtysix.bots.search.search_evaluation import weights_for
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.variants.two_hand import (
    COMPILED_RULES,
    TwoHandVariant,
    overridden_scoring,
    plain_two_hand,
)

#: Transposition table entries (a power of two).
TABLE_BITS = 17


def available() -> bool:
    """Whether numba is installed (and not disabled by ``SIXTYSIX_NO_NUMBA``).

    Only looked up, not imported: numba is imported with the kernels, on first use.
    """
    if os.environ.get("SIXTYSIX_NO_NUMBA"):
        return False
    return all(importlib.util.find_spec(m) is not None for m in ("numba", "numpy"))


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
    from sixtysix.bots import _kernels  # the fast extra (numba), and start-up

    return _kernels


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


def supports(variant: Variant) -> bool:
    """Whether the compiled search plays exactly ``variant``'s game (numba aside): a plain
    two-hand game (:func:`~sixtysix.variants.two_hand.plain_two_hand`, with the compiled
    search's sets :data:`~sixtysix.variants.two_hand.COMPILED_RULES`) scored as
    :class:`TwoHandVariant` scores it."""
    return plain_two_hand(variant, COMPILED_RULES) and not overridden_scoring(variant)


def knobs(variant: TwoHandVariant) -> Any:
    """The knob array of a supported variant."""
    import numpy as np  # the fast extra

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
        actions = [int(a) for a in self._actions[:n]]
        values = {a: float(v) for a, v in zip(actions, self._values[:n], strict=True)}
        final = frozenset(a for a, f in zip(actions, self._final[:n], strict=True) if f)
        return SearchResult(values, depth == EXACT, final)


def play_random(
    variant: Variant, state: DealState, words: Sequence[int]
) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Play ``state`` out in the compiled rules choosing ``legal[word % count]`` (for tests
    that hold the compiled rules to the engine's): per move the number of legal actions and
    the action chosen, and each seat's final value (its game points minus the other's)."""
    import numpy as np  # the fast extra

    assert isinstance(variant, TwoHandVariant)
    kernels = _kernels()
    position = pack(state)
    log = np.zeros((len(words) + 1, 2), dtype=np.int64)
    k = knobs(variant)
    code = kernels._play_random(position, k, np.array(words, dtype=np.int64), log)
    moves = [(int(n), int(a)) for n, a in log if n >= 0]
    moves = moves[: next(i for i, row in enumerate(log) if row[0] < 0)]
    settle = kernels._settle
    return moves, (int(settle(position, k, code, 0)), int(settle(position, k, code, 1)))


__all__ = [
    "CompiledSearch",
    "SearchResult",
    "available",
    "play_random",
    "supports",
]
