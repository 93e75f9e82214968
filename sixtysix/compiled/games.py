"""Random games dealt and played in compiled code: exactly the engine's games of a simulation
between two random players, many times faster.

Game ``i`` of a simulation with master seed ``master`` is, on the engine
(:func:`sixtysix.sim.games.play_game`): the seed ``master.child(("game", i))``, dealer
``i % 2``, the deck shuffled by ``seed.shuffled(deck, ("deal", "shuffle"))`` and dealt by
:func:`~sixtysix.core.deal.deal_from_order`, and each seat's
:class:`~sixtysix.bots.players.random_bot.RandomBot` seeded with ``seed.child(("bot", seat))``,
choosing ``legal[word % len(legal)]`` with the words of its stream ``("bot", seat)``. The
kernels here do the same: the same SHAKE-256 draws (:mod:`sixtysix.compiled.shake`), the same
shuffle and deal, the rules of :mod:`sixtysix.compiled.rules`, and the engine's settlement (the
draws every game makes, four games at a time: :func:`~sixtysix.compiled.shake.keccak_f4`). One
row per game comes back (:data:`COLUMNS`); ``tests/compiled/test_games.py`` holds every column
to the engine game by game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.dealing import PATH_BYTES, deal_shuffled, put, stream_path, stream_word
from sixtysix.compiled.jit import inlined, jit
from sixtysix.compiled.layout import (
    RUNNING,
    SIZE,
    TOACT,
    TR0,
    TR1,
)
from sixtysix.compiled.position import knobs
from sixtysix.compiled.rules import _apply, _legal, _outcome, _valid
from sixtysix.compiled.shake import RATE_WORDS, WAYS, absorb, digits, keccak_f4
from sixtysix.core.cards import iter_mask
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant

#: The columns of a game's row.
COLUMNS = ("dealer", "reason", "game_points_0", "game_points_1", "points_0", "points_1",
           "tricks_0", "tricks_1")  # fmt: skip
DEALER, REASON, GP0, GP1, P0, P1, T0, T1 = range(len(COLUMNS))

_GAME = np.frombuffer(b"child/game/", dtype=np.uint8)
_BOTS = np.frombuffer(b"child/bot/0child/bot/1", dtype=np.uint8).reshape(2, -1)
_SHUFFLE = np.frombuffer(b"deal/shuffle", dtype=np.uint8)

# The rules' two kernels a move calls, compiled into the games' move loop.
_legal_here = inlined(_legal)
_apply_here = inlined(_apply)


@jit
def _side_by_side(states: Any, keys: Any, message: Any) -> None:
    """The draws of one path for the :data:`WAYS` keys ``keys`` (one per row) into the columns
    of ``states``, permuted once: each column's first block. ``message``: the path's padded
    message with a zero key (:func:`~sixtysix.compiled.shake.absorb`)."""
    for r in range(25):
        for j in range(WAYS):
            states[r, j] = keys[j, r] if r < 4 else message[r]
    keccak_f4(states)


@jit
def _columns(states: Any, rows: int, out: Any, at: int) -> None:
    """``out[j, at + r] = states[r, j]`` for the first ``rows`` rows (loops, not a sliced
    assignment: numba compiles a shape check with its error message for each of those)."""
    for j in range(WAYS):
        for r in range(rows):
            out[j, at + r] = states[r, j]


@jit
def _draws(
    master: Any, first: int, states: Any, lanes: Any, path: Any, messages: Any, keys: Any,
    words: Any, streams: Any,
) -> None:  # fmt: skip
    """The draws of games ``first .. first + WAYS - 1`` that every game makes, four at a time:
    their keys, their bots' keys (``keys[1 + seat]``), their shuffles' words and the first
    block of each bot's stream (``streams[seat, j]``: the state after its first squeeze).
    ``messages``: the padded messages of :func:`_messages`."""
    for j in range(WAYS):
        absorb(lanes, master, path, digits(first + j, path, _GAME.shape[0]))
        for r in range(25):
            states[r, j] = lanes[r]
    keccak_f4(states)
    _columns(states, 4, keys[0], 0)
    for seat in range(2):
        _side_by_side(states, keys[0], messages[seat])
        _columns(states, 4, keys[1 + seat], 0)
    _side_by_side(states, keys[0], messages[2])
    for w in range(0, words.shape[1] - RATE_WORDS, RATE_WORDS):
        if w:
            keccak_f4(states)
        _columns(states, RATE_WORDS, words, w)
    for seat in range(2):
        _side_by_side(states, keys[1 + seat], messages[3 + seat])
        _columns(states, 25, streams[seat], 0)


@jit
def _messages(path: Any) -> Any:
    """The padded messages (zero key) of the draws every game makes on a fixed path: each
    bot's key, the shuffle, the first block of each bot's stream."""
    out = np.zeros((5, 25), dtype=np.uint64)
    zero = np.zeros(4, dtype=np.uint64)
    for seat in range(2):
        absorb(out[seat], zero, _BOTS[seat], _BOTS.shape[1])
        absorb(out[3 + seat], zero, path, stream_path(path, seat, 0))
    absorb(out[2], zero, _SHUFFLE, _SHUFFLE.shape[0])
    return out


@jit
def _play(
    master: Any, start: int, deck: Any, rounds: Any, turnup_after: int, k: Any, out: Any
) -> None:
    """Games ``start .. start + len(out) - 1`` into ``out``, one row of :data:`COLUMNS` each."""
    m = deck.shape[0]
    states = np.zeros((25, WAYS), dtype=np.uint64)
    lanes = np.zeros(25, dtype=np.uint64)
    keys = np.zeros((3, WAYS, 4), dtype=np.uint64)
    streams = np.zeros((2, WAYS, 25), dtype=np.uint64)
    words = np.zeros((WAYS, max(m - 1, 1) + RATE_WORDS), dtype=np.uint64)
    path = np.zeros(40, dtype=np.uint8)
    put(path, 0, _GAME)
    paths = np.zeros((2, PATH_BYTES), dtype=np.uint8)
    messages = _messages(paths[0])
    order = np.zeros(m, dtype=np.int64)
    s = np.zeros(SIZE, dtype=np.int64)
    acts = np.zeros(32, dtype=np.int64)
    at = np.zeros(2, dtype=np.int64)
    for first in range(0, out.shape[0], WAYS):
        _draws(master, start + first, states, lanes, path, messages, keys, words, streams)
        for j in range(min(WAYS, out.shape[0] - first)):
            index = start + first + j
            dealer = index % 2
            deal_shuffled(s, words[j], deck, rounds, turnup_after, dealer, order)
            at[:] = 0
            code = RUNNING
            while code == RUNNING:
                n = _legal_here(s, k, acts)
                seat = s[TOACT]
                drawn = at[seat]
                # The first squeeze's words read in place: passing the stream's arrays to a
                # call for each word is slow, even inlined by numba.
                if drawn < RATE_WORDS:
                    word = streams[seat, j, drawn]
                else:
                    stream = streams[seat, j]
                    word = stream_word(stream, keys[1 + seat, j], drawn, seat, paths[seat])
                at[seat] = drawn + 1
                code = _apply_here(s, k, acts[int(word % np.uint64(n))])
            reason, g0, g1 = _outcome(s, k, code)
            row = out[first + j]
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
