"""Many deals stepped at once (numba): one agent action per deal, the random opponent's moves,
the deals that end settled and dealt anew, and every observation and mask, in one call.

The batch's arrays (:class:`sixtysix.compiled.batch.Batch` owns them) are one row per deal:
the packed position (:mod:`sixtysix.compiled.layout`), its extras and public history
(:mod:`sixtysix.compiled.batch_layout`), the shuffled deck it was dealt from, the key of its
environment, and the random opponent's key and stream block. A deal is played as the single
environments play it: an action is recorded in the history and the extras (known and played
cards, marriages) as the engine's ``DealState.apply_legal`` records it, and applied by the
compiled rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.batch_layout import (
    HISTORY_SEAT,
    X_ACTIONS,
    X_DEALER,
    X_DRAWN,
    X_EPISODE,
    X_KNOWN0,
    X_MARRIED0,
    X_PLAYED,
    X_SKIPPED,
)
from sixtysix.compiled.dealing import PATH_BYTES, bot_key, deal, stream_word
from sixtysix.compiled.encoding import legal_mask, observe
from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import H0, RUNNING, TOACT, TURNUP
from sixtysix.compiled.rules import _apply, _legal, _outcome
from sixtysix.compiled.shake import RATE_WORDS
from sixtysix.core.actions import EXCHANGE, MARRY
from sixtysix.core.cards import KQ, NUM_CARDS

#: The opponents: a random player in the other seat, or none (every seat an agent).
RANDOM, SELF = 0, 1

_KQ = np.array(KQ, dtype=np.int64)


@jit
def _act(s: Any, k: Any, x: Any, history: Any, a: int) -> int:
    """Apply the legal action ``a`` of the seat to act, keeping the history, the known and
    played cards and the marriages as the engine does: RUNNING or the deal's end code."""
    seat = s[TOACT]
    history[x[X_ACTIONS]] = seat * HISTORY_SEAT + a
    x[X_ACTIONS] += 1
    if a < NUM_CARDS:
        bit = 1 << a
        x[X_KNOWN0 + seat] &= ~bit
        x[X_PLAYED] |= bit
        turnup = s[TURNUP]
        code = _apply(s, k, a)
        if turnup >= 0 and s[TURNUP] < 0:  # the turn-up was drawn: its holder is known
            holder = 0 if s[H0] >> turnup & 1 else 1
            x[X_KNOWN0 + holder] |= 1 << turnup
        return code
    if a < MARRY + 4:
        x[X_MARRIED0 + seat] |= 1 << (a - MARRY)
        x[X_KNOWN0 + seat] |= _KQ[a - MARRY]
    elif a == EXCHANGE:
        x[X_KNOWN0 + seat] |= 1 << s[TURNUP]
    return _apply(s, k, a)


@jit
def _opponent(
    s: Any, k: Any, x: Any, history: Any, key: Any, lanes: Any, acts: Any, path: Any
) -> int:
    """One move of the random opponent (the seat to act): ``legal[word % count]``."""
    n = _legal(s, k, acts)
    seat = s[TOACT]
    word = stream_word(lanes, key, x[X_DRAWN], seat, path)
    x[X_DRAWN] += 1
    return _act(s, k, x, history, acts[int(word % np.uint64(n))])


@jit
def _new_episode(
    s: Any,
    k: Any,
    x: Any,
    history: Any,
    order: Any,
    key: Any,
    bot: Any,
    lanes: Any,
    mode: int,
    agent: int,
    deck: Any,
    rounds: Any,
    turnup_after: int,
    acts: Any,
    scratch: Any,
    path: Any,
    words: Any,
) -> None:
    """Deal the environment's next episode and, against the random opponent, play it to the
    agent's first turn; an episode that ends before it is skipped (as the single environment
    skips it) and the next one dealt."""
    while True:
        episode = x[X_EPISODE]
        x[X_EPISODE] = episode + 1
        dealer, shown = deal(s, key, episode, deck, rounds, turnup_after, order, scratch, path,
                             words)  # fmt: skip
        x[X_DEALER] = dealer
        x[X_KNOWN0] = 0
        x[X_KNOWN0 + 1] = 0
        if shown >= 0:
            x[X_KNOWN0 + dealer] = 1 << shown
        x[X_PLAYED] = 0
        x[X_MARRIED0] = 0
        x[X_MARRIED0 + 1] = 0
        x[X_ACTIONS] = 0
        x[X_DRAWN] = 0
        if mode == SELF:
            return
        bot_key(key, episode, 1 - agent, scratch, path, bot)
        code = RUNNING
        while code == RUNNING and s[TOACT] != agent:
            code = _opponent(s, k, x, history, bot, lanes, acts, path)
        if code == RUNNING:
            return
        x[X_SKIPPED] += 1


@jit
def _observed(s: Any, k: Any, x: Any, history: Any, mode: int, agent: int, plan: Any,
              slot_of: Any, options: Any, acts: Any, obs: Any, mask: Any) -> None:  # fmt: skip
    """The observation and mask of the seat the environment shows: the agent's against the
    random opponent, the seat to act's in self-play."""
    me = agent if mode != SELF else s[TOACT]
    observe(s, x, history, me, plan, slot_of, options, obs)
    legal_mask(s, k, acts, mask)


@jit
def reset(
    pos: Any,
    k: Any,
    extra: Any,
    history: Any,
    orders: Any,
    keys: Any,
    bots: Any,
    lanes: Any,
    mode: int,
    agent: int,
    deck: Any,
    rounds: Any,
    turnup_after: int,
    plan: Any,
    slot_of: Any,
    options: Any,
    obs: Any,
    masks: Any,
) -> None:
    """Every environment's next episode, observed."""
    acts = np.zeros(32, dtype=np.int64)
    scratch = np.zeros(25, dtype=np.uint64)
    path = np.zeros(PATH_BYTES, dtype=np.uint8)
    words = np.zeros(deck.shape[0] + RATE_WORDS, dtype=np.uint64)
    for j in range(pos.shape[0]):
        s = pos[j]
        x = extra[j]
        _new_episode(s, k, x, history[j], orders[j], keys[j], bots[j], lanes[j], mode, agent,
                     deck, rounds, turnup_after, acts, scratch, path, words)  # fmt: skip
        _observed(s, k, x, history[j], mode, agent, plan, slot_of, options, acts, obs[j], masks[j])


@jit
def step(
    pos: Any,
    k: Any,
    extra: Any,
    history: Any,
    orders: Any,
    keys: Any,
    bots: Any,
    lanes: Any,
    mode: int,
    agent: int,
    deck: Any,
    rounds: Any,
    turnup_after: int,
    plan: Any,
    slot_of: Any,
    options: Any,
    actions: Any,
    obs: Any,
    masks: Any,
    rewards: Any,
    ended: Any,
    points: Any,
    reasons: Any,
) -> None:
    """One legal action per environment (the caller checked them against the last masks), the random
    opponent's moves to the agent's next turn, every finished deal settled (``rewards`` from
    the acting seat, its game points and reason code; the others' reasons -1) and the
    environment's next episode dealt, and every observation and mask."""
    acts = np.zeros(32, dtype=np.int64)
    scratch = np.zeros(25, dtype=np.uint64)
    path = np.zeros(PATH_BYTES, dtype=np.uint8)
    words = np.zeros(deck.shape[0] + RATE_WORDS, dtype=np.uint64)
    for j in range(pos.shape[0]):
        s = pos[j]
        x = extra[j]
        seat = s[TOACT]
        code = _act(s, k, x, history[j], actions[j])
        if mode != SELF:
            while code == RUNNING and s[TOACT] != agent:
                code = _opponent(s, k, x, history[j], bots[j], lanes[j], acts, path)
        if code == RUNNING:
            rewards[j] = 0.0
            ended[j] = False
            reasons[j] = -1
            points[j, 0] = 0
            points[j, 1] = 0
        else:
            reason, g0, g1 = _outcome(s, k, code)
            rewards[j] = g0 - g1 if seat == 0 else g1 - g0
            ended[j] = True
            reasons[j] = reason
            points[j, 0] = g0
            points[j, 1] = g1
            _new_episode(s, k, x, history[j], orders[j], keys[j], bots[j], lanes[j], mode,
                         agent, deck, rounds, turnup_after, acts, scratch, path, words)  # fmt: skip
        _observed(s, k, x, history[j], mode, agent, plan, slot_of, options, acts, obs[j], masks[j])
