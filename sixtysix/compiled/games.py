"""Random games dealt and played in compiled code: exactly the engine's games of a simulation
between two random players, many times faster.

Game ``i`` of a simulation with master seed ``master`` is, on the engine
(:func:`sixtysix.sim.games.play_game`): the seed ``master.child(("game", i))``, dealer
``i % 2``, the deck shuffled by ``seed.shuffled(deck, ("deal", "shuffle"))`` and dealt by
:func:`~sixtysix.core.deal.deal_from_order`, and each seat's
:class:`~sixtysix.bots.players.random_bot.RandomBot` seeded with ``seed.child(("bot", seat))``,
choosing ``legal[word % len(legal)]`` with the words of its stream ``("bot", seat)``. The
kernels here do the same: the same SHAKE-256 draws (:mod:`sixtysix.compiled.shake`), the same
shuffle and deal, the rules of :mod:`sixtysix.compiled.rules`, and the engine's settlement. One
row per game comes back (:data:`COLUMNS`); ``tests/compiled/test_games.py`` holds every column
to the engine game by game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.dealing import PATH_BYTES, deal_cards, stream_word
from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import (
    RUNNING,
    SIZE,
    TOACT,
    TR0,
    TR1,
)
from sixtysix.compiled.position import knobs
from sixtysix.compiled.rules import _apply, _legal, _outcome, _valid
from sixtysix.compiled.shake import RATE_WORDS, digits, draw
from sixtysix.core.cards import iter_mask
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant

#: The columns of a game's row.
COLUMNS = ("dealer", "reason", "game_points_0", "game_points_1", "points_0", "points_1",
           "tricks_0", "tricks_1")  # fmt: skip
DEALER, REASON, GP0, GP1, P0, P1, T0, T1 = range(len(COLUMNS))

_GAME = np.frombuffer(b"child/game/", dtype=np.uint8)
_BOT0 = np.frombuffer(b"child/bot/0", dtype=np.uint8)
_BOT1 = np.frombuffer(b"child/bot/1", dtype=np.uint8)
_SHUFFLE = np.frombuffer(b"deal/shuffle", dtype=np.uint8)


@jit
def _play(
    master: Any, start: int, deck: Any, rounds: Any, turnup_after: int, k: Any, out: Any
) -> None:
    """Games ``start .. start + len(out) - 1`` into ``out``, one row of :data:`COLUMNS` each."""
    m = deck.shape[0]
    lanes = np.zeros(25, dtype=np.uint64)
    lanes0 = np.zeros(25, dtype=np.uint64)
    lanes1 = np.zeros(25, dtype=np.uint64)
    game_key = np.zeros(4, dtype=np.uint64)
    key0 = np.zeros(4, dtype=np.uint64)
    key1 = np.zeros(4, dtype=np.uint64)
    path = np.zeros(40, dtype=np.uint8)
    path[: _GAME.shape[0]] = _GAME
    path0 = np.zeros(PATH_BYTES, dtype=np.uint8)
    path1 = np.zeros(PATH_BYTES, dtype=np.uint8)
    shuffle_path = np.zeros(PATH_BYTES, dtype=np.uint8)
    shuffle_path[: _SHUFFLE.shape[0]] = _SHUFFLE
    words = np.zeros(max(m - 1, 1) + RATE_WORDS, dtype=np.uint64)
    order = np.zeros(m, dtype=np.int64)
    s = np.zeros(SIZE, dtype=np.int64)
    acts = np.zeros(32, dtype=np.int64)
    at = np.zeros(2, dtype=np.int64)
    for g in range(out.shape[0]):
        index = start + g
        draw(lanes, master, path, digits(index, path, _GAME.shape[0]))
        game_key[:] = lanes[:4]
        draw(lanes, game_key, _BOT0, _BOT0.shape[0])
        key0[:] = lanes[:4]
        draw(lanes, game_key, _BOT1, _BOT1.shape[0])
        key1[:] = lanes[:4]
        dealer = index % 2
        deal_cards(
            s, lanes, game_key, shuffle_path, _SHUFFLE.shape[0], deck, rounds, turnup_after,
            dealer, order, words,
        )  # fmt: skip
        at[:] = 0
        code = RUNNING
        while code == RUNNING:
            n = _legal(s, k, acts)
            seat = s[TOACT]
            if seat == 0:
                word = stream_word(lanes0, key0, at[0], 0, path0)
            else:
                word = stream_word(lanes1, key1, at[1], 1, path1)
            at[seat] += 1
            code = _apply(s, k, acts[int(word % np.uint64(n))])
        reason, g0, g1 = _outcome(s, k, code)
        row = out[g]
        row[0] = dealer
        row[1] = reason
        row[2] = g0
        row[3] = g1
        row[4] = _valid(s, 0)
        row[5] = _valid(s, 1)
        row[6] = s[TR0]
        row[7] = s[TR1]
    return


def play_random_games(variant: Variant, master: Seed, start: int, stop: int) -> Any:
    """Games ``start..stop-1`` of a simulation between two random players, as the engine plays
    them: an ``int64`` array with one row of :data:`COLUMNS` per game.

    The caller checks :func:`~sixtysix.compiled.allowed.deals_supported` and that ``master``
    is a plain :class:`Seed` (a subclass may draw otherwise).
    """
    rules = variant.rules
    out = np.zeros((max(0, stop - start), len(COLUMNS)), dtype=np.int64)
    if len(out):
        turnup = rules.turnup_after_round
        _play(
            np.frombuffer(master.key, dtype=np.uint64).copy(),
            start,
            np.array(list(iter_mask(rules.deck)), dtype=np.int64),
            np.array(rules.deal_rounds, dtype=np.int64),
            -1 if turnup is None else turnup,
            knobs(variant),
            out,
        )
    return out


def prepare(variant: Variant) -> None:
    """Compile (or load from numba's cache) the kernels of the random games, by playing one."""
    play_random_games(variant, Seed(0), 0, 1)
