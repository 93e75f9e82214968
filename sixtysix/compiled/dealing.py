"""The episodes of the batched environments dealt in compiled code, exactly as the single
environments deal theirs (numba).

Environment ``j`` of a batch with master seed ``master`` is the single environment whose
episodes are drawn from ``Seed.from_key(master.child(("env", j)).key)``
(:class:`sixtysix.envs.episodes.Episodes`): episode ``e`` on the path ``()`` for ``e == 0``,
else ``("episode", e)``; its dealer ``Variant.first_dealer`` of that path, its cards
``Variant.deal`` of ``(*path, "deal", 0)``, and a random opponent in seat ``s`` the
:class:`~sixtysix.bots.players.random_bot.RandomBot` of ``seed.child((*path, "bot", s))``,
drawing ``legal[word % count]`` from its stream ``("bot", s)``. The same SHAKE-256 draws as
:mod:`sixtysix.core.rng` (:mod:`sixtysix.compiled.shake`), so a batch's deals are the single
environment's deals, and as secure.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.jit import jit
from sixtysix.compiled.layout import (
    CLOSED,
    H0,
    LASTW,
    LEAD,
    LMARRY,
    TALON,
    TLEN,
    TOACT,
    TRUMP,
    TURNUP,
)
from sixtysix.compiled.shake import RATE_WORDS, digits, draw, keccak_f

#: Words of one block of a random player's stream (``rng.Stream``).
STREAM_BLOCK = 32
#: Bytes of the longest path drawn here ("child/episode/<e>/bot/<s>", e below 10**20).
PATH_BYTES = 64

_CHILD_ENV = np.frombuffer(b"child/env/", dtype=np.uint8)
_CHILD = np.frombuffer(b"child/", dtype=np.uint8)
_EPISODE = np.frombuffer(b"episode/", dtype=np.uint8)
_FIRST_DEALER = np.frombuffer(b"first-dealer", dtype=np.uint8)
_SHUFFLE = np.frombuffer(b"deal/0/shuffle", dtype=np.uint8)
_BOT = np.frombuffer(b"bot/", dtype=np.uint8)
_SLASH = 47


@jit
def env_keys(master: Any, start: int, out: Any) -> None:
    """``out[i]``: the key of ``master.child(("env", start + i))`` as 4 little-endian words."""
    lanes = np.zeros(25, dtype=np.uint64)
    path = np.zeros(PATH_BYTES, dtype=np.uint8)
    path[: _CHILD_ENV.shape[0]] = _CHILD_ENV
    for i in range(out.shape[0]):
        size = digits(start + i, path, _CHILD_ENV.shape[0])
        draw(lanes, master, path, size)
        out[i, :] = lanes[:4]


@jit
def _episode_path(path: Any, at: int, episode: int) -> int:
    """Write the episode's path prefix (``""`` or ``"episode/<e>/"``) at ``path[at:]``."""
    if episode == 0:
        return at
    path[at : at + _EPISODE.shape[0]] = _EPISODE
    end = digits(episode, path, at + _EPISODE.shape[0])
    path[end] = _SLASH
    return end + 1


@jit
def put(path: Any, at: int, text: Any) -> int:
    """Write ``text`` at ``path[at:]``; return the end (a loop: numba compiles a shape check
    with its error message for each sliced assignment's types)."""
    for i in range(text.shape[0]):
        path[at + i] = text[i]
    return at + text.shape[0]


@jit
def deal(
    s: Any,
    key: Any,
    episode: int,
    deck: Any,
    rounds: Any,
    turnup_after: int,
    order: Any,
    lanes: Any,
    path: Any,
    words: Any,
) -> tuple[int, int]:
    """Deal episode ``episode`` of the environment with ``key`` into the position ``s``
    (cleared first), its shuffled deck into ``order``: the dealer, and the card the dealer
    shows for trump (dealt last to the dealer; -1 where a card is turned up)."""
    base = _episode_path(path, 0, episode)
    draw(lanes, key, path, put(path, base, _FIRST_DEALER))
    dealer = int(lanes[0] % np.uint64(2))
    size = put(path, base, _SHUFFLE)
    last = deal_cards(s, lanes, key, path, size, deck, rounds, turnup_after, dealer, order, words)
    return dealer, (last if s[TURNUP] < 0 else -1)


@jit
def deal_cards(
    s: Any,
    lanes: Any,
    key: Any,
    path: Any,
    size: int,
    deck: Any,
    rounds: Any,
    turnup_after: int,
    dealer: int,
    order: Any,
    words: Any,
) -> int:
    """``Variant.deal`` for two seats into the position ``s`` (cleared first): ``deck``
    shuffled as ``Seed.shuffled`` does with the words of the draw ``path[:size]`` of ``key``
    (``order`` gets the shuffled deck), then dealt as ``deal_from_order`` deals it and the
    deal started as ``DealState`` starts it. Returns the last card dealt to the dealer."""
    draw(lanes, key, path, size)
    for w in range(0, deck.shape[0] - 1, RATE_WORDS):
        if w:
            keccak_f(lanes)
        words[w : w + RATE_WORDS] = lanes[:RATE_WORDS]
    return deal_shuffled(s, words, deck, rounds, turnup_after, dealer, order)


@jit
def deal_shuffled(
    s: Any, words: Any, deck: Any, rounds: Any, turnup_after: int, dealer: int, order: Any
) -> int:
    """The deal of :func:`deal_cards` from the shuffle's words, already drawn."""
    m = deck.shape[0]
    # Seed.shuffled: for k, i in enumerate(range(m - 1, 0, -1)): swap i with w[k] % (i + 1).
    for i in range(m):
        order[i] = deck[i]
    for j in range(m - 1):
        i = m - 1 - j
        r = int(words[j] % np.uint64(i + 1))
        order[i], order[r] = order[r], order[i]
    # deal_from_order for two seats: each round the forehand's cards, then the dealer's.
    forehand = 1 - dealer
    s[:] = 0
    pos = 0
    last = -1
    turnup = -1
    for rnd in range(rounds.shape[0]):
        count = rounds[rnd]
        for c in range(count):
            s[H0 + forehand] |= 1 << order[pos + c]
        pos += count
        for c in range(count):
            s[H0 + dealer] |= 1 << order[pos + c]
        if count:
            last = order[pos + count - 1]
        pos += count
        if rnd == turnup_after:
            turnup = order[pos]
            pos += 1
    s[TLEN] = m - pos
    for i in range(m - pos):
        s[TALON + i] = order[pos + i]
    s[TURNUP] = turnup
    s[TRUMP] = (turnup if turnup >= 0 else last) // 6
    s[TOACT] = forehand
    s[LEAD] = -1
    s[LMARRY] = -1
    s[CLOSED] = -1
    s[LASTW] = -1
    return last


@jit
def bot_key(key: Any, episode: int, seat: int, lanes: Any, path: Any, out: Any) -> None:
    """The key of the random opponent in ``seat`` for ``episode`` (``child((*path, "bot",
    seat))``) into ``out``."""
    at = put(path, 0, _CHILD)
    at = put(path, _episode_path(path, at, episode), _BOT)
    draw(lanes, key, path, digits(seat, path, at))
    out[:4] = lanes[:4]


@jit
def stream_path(path: Any, seat: int, block: int) -> int:
    """Write the path of block ``block`` of the stream ``("bot", seat)`` into ``path``; return
    its length."""
    at = digits(seat, path, put(path, 0, _BOT))
    path[at] = _SLASH
    return digits(block, path, at + 1)


@jit
def stream_word(lanes: Any, key: Any, drawn: int, seat: int, path: Any) -> Any:
    """Word ``drawn`` of the stream ``("bot", seat)`` of the seed with ``key``; ``lanes``
    hold its current block between calls (a new block is a new draw, its 18th word the
    second squeeze of that draw)."""
    pos = drawn % STREAM_BLOCK
    if pos == 0:
        draw(lanes, key, path, stream_path(path, seat, drawn // STREAM_BLOCK))
    elif pos == RATE_WORDS:
        keccak_f(lanes)
    return lanes[pos % RATE_WORDS]
