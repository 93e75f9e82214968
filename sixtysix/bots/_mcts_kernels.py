"""The compiled Monte Carlo tree search of one imagined deal (numba; imported on first use).

UCT on a packed two-player position (:mod:`sixtysix.compiled.layout`), every card face up:
each iteration walks down the tree by the upper confidence bound of the seat to act, adds one
node, plays the deal out from there at random and scores it in game points. This is how the
published MCTS players of Schnapsen value each sampled deal; the expert offers it in place of
its one-trick alpha-beta while the talon is open (:meth:`sixtysix.bots.compiled.CompiledSearch.
mcts_values`). With ``solve``, as cpatrasciuc's MCTS does, each iteration keeps its whole
play-out in the tree and a node whose every child is solved is solved at their minimax, so the
last tricks of a deal are searched exactly and a solved root stops the search. The rules walked
are those of :mod:`sixtysix.compiled.rules`; the random numbers come from a xorshift generator
seeded by the caller, so a seeded expert stays reproducible.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import H0, H1, RUNNING, TLEN, TOACT, TPOS
from sixtysix.compiled.rules import _apply, _legal, _settle
from sixtysix.core.actions import MARRY
from sixtysix.core.cards import KING, NUM_CARDS, QUEEN

#: Most legal actions a two-player position has (cards, marriages, exchange, close, claim).
MAX_ACTIONS = 32
#: Most legal actions a node of the tree keeps room for (a two-player position has at most six
#: cards, three marriages, the exchange, the close and a claim).
WIDTH = 16
#: Game points a deal is worth at most either way: rewards are divided by it for the bound.
SCALE = 3.0
#: The weight of the bound's exploration term on rewards so scaled (UCB1's square root of two).
EXPLORATION = math.sqrt(2.0)


@jit
def _next(rng: Any) -> int:
    """The next number of the xorshift generator in ``rng[0]`` (never 0 once seeded)."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return int(x >> np.uint64(1))


@jit
def _paired(acts: Any, n: int) -> int:
    """Drop from the first ``n`` of ``acts`` the king and queen leads of every suit that may be
    married instead, as cpatrasciuc's engine does; how many actions are left."""
    married = 0
    for i in range(n):
        if MARRY <= acts[i] < MARRY + 4:
            married |= 1 << (acts[i] - MARRY)
    if married == 0:
        return n
    kept = 0
    for i in range(n):
        a = acts[i]
        if a < NUM_CARDS and (married >> (a // 6)) & 1 and (a % 6 == KING or a % 6 == QUEEN):
            continue
        acts[kept] = a
        kept += 1
    return kept


@jit
def _playout(s: Any, k: Any, me: int, rng: Any, acts: Any, pairs: bool) -> float:
    """Play ``s`` to its end at random; ``me``'s game points minus the other seat's. With
    ``pairs``, a king or queen whose partner is in hand is led only as a marriage."""
    while True:
        n = _legal(s, k, acts)
        if pairs:
            n = _paired(acts, n)
        code = _apply(s, k, acts[_next(rng) % n])
        if code != RUNNING:
            return float(_settle(s, k, code, me))


@jit
def _steps_left(s: Any) -> int:
    """More steps than the deal in ``s`` can still take: a card each, and room for marriages,
    an exchange, a close and claims."""
    left = 8 + max(0, int(s[TLEN] - s[TPOS]) + 1)
    for c in range(NUM_CARDS):
        left += int((s[H0] >> c) & 1) + int((s[H1] >> c) & 1)
    return left


@jit
def _settle_node(
    p: int, me: int, count: Any, grown: Any, child: Any, actor: Any, solved: Any, worth: Any
) -> bool:
    """Solve node ``p`` at its children's minimax for ``me`` if every one is solved; whether
    it is solved now."""
    if grown[p] < count[p]:
        return False
    mine = actor[p] == me
    best = -1e300 if mine else 1e300
    for i in range(count[p]):
        c = child[p, i]
        if not solved[c]:
            return False
        if (mine and worth[c] > best) or (not mine and worth[c] < best):
            best = worth[c]
    solved[p] = True
    worth[p] = best
    return True


@jit
def _tree(
    s: Any,
    k: Any,
    me: int,
    iterations: int,
    exploration: float,
    seed: int,
    solve: bool,
    pairs: bool,
    out_values: Any,
    out_actions: Any,
    out_final: Any,
) -> int:
    """``iterations`` iterations of UCT from ``s`` (at least one per root action), solving
    with ``solve`` (see the module doc), below the root leading a held pair only as a marriage
    with ``pairs`` (:func:`_paired`): each root action's value for ``me`` (its mean, or its
    minimax once solved) into ``out_values``, its action into ``out_actions``, whether it ends
    the deal at once into ``out_final``; returns how many root actions, negated when the root
    itself is solved (every value exact)."""
    acts = np.empty(MAX_ACTIONS, dtype=np.int64)
    first = _legal(s, k, acts)
    runs = max(iterations, first)
    plies = _steps_left(s)
    # Each iteration adds one node, or with ``solve`` at most a node for each step left.
    grow = plies if solve else 1
    size = runs * grow + 1
    legal = np.empty((size, WIDTH), dtype=np.int64)
    child = np.empty((size, WIDTH), dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    grown = np.zeros(size, dtype=np.int64)
    actor = np.zeros(size, dtype=np.int64)
    visits = np.zeros(size, dtype=np.int64)
    total = np.zeros(size, dtype=np.float64)
    ended = np.zeros(size, dtype=np.bool_)
    solved = np.zeros(size, dtype=np.bool_)
    worth = np.zeros(size, dtype=np.float64)
    path = np.empty(plies + 2, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) | np.uint64(1)

    if first > WIDTH:
        raise ValueError("more legal actions than a node of the tree has room for")
    count[0] = first
    legal[0, :first] = acts[:first]
    child[0, :first] = -1
    actor[0] = s[TOACT]
    nodes = 1
    for _ in range(runs):
        if solved[0] or nodes + grow > size:
            break
        st = s.copy()
        node = 0
        depth = 0
        path[0] = 0
        # Down the tree while every child of the node exists (past solved children).
        while not ended[node] and grown[node] == count[node]:
            best = -1
            top = -1e300
            mine = actor[node] == me
            log_n = math.log(visits[node] + 1.0)
            for i in range(count[node]):
                c = child[node, i]
                if solved[c]:
                    continue
                q = total[c] / visits[c] / SCALE
                if not mine:
                    q = -q
                bound = q + exploration * math.sqrt(log_n / visits[c])
                if bound > top:
                    top = bound
                    best = i
            _apply(st, k, legal[node, best])
            node = child[node, best]
            depth += 1
            path[depth] = node
        # One new child at random; with ``solve`` the rest of the play-out too, every node kept.
        while not ended[node]:
            pick = grown[node] + _next(rng) % (count[node] - grown[node])
            a = legal[node, pick]
            legal[node, pick] = legal[node, grown[node]]
            legal[node, grown[node]] = a
            slot = grown[node]
            grown[node] += 1
            code = _apply(st, k, a)
            new = nodes
            nodes += 1
            child[node, slot] = new
            depth += 1
            path[depth] = new
            node = new
            if code != RUNNING:
                ended[new] = True
                solved[new] = solve
                worth[new] = float(_settle(st, k, code, me))
                break
            n = _legal(st, k, acts)
            if pairs:
                n = _paired(acts, n)
            if n > WIDTH:
                raise ValueError("more legal actions than a node of the tree has room for")
            legal[new, :n] = acts[:n]
            child[new, :n] = -1
            count[new] = n
            actor[new] = st[TOACT]
            if not solve:
                break
        value = worth[node] if ended[node] else _playout(st, k, me, rng, acts, pairs)
        for d in range(depth + 1):
            visits[path[d]] += 1
            total[path[d]] += value
        # Solve upwards while every child of a node is solved.
        d = depth - 1
        while (
            solve
            and d >= 0
            and _settle_node(path[d], me, count, grown, child, actor, solved, worth)
        ):
            d -= 1
    n = int(count[0])
    for i in range(n):
        c = child[0, i]
        out_actions[i] = legal[0, i]
        out_final[i] = ended[c] if c >= 0 else False
        if c < 0 or visits[c] == 0:
            out_values[i] = 0.0
        elif solved[c]:
            out_values[i] = worth[c]
        else:
            out_values[i] = total[c] / visits[c]
    return -n if solved[0] else n
