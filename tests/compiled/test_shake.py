"""The compiled SHAKE-256 draws are :mod:`hashlib`'s, and the games' draws four at a time are
the engine's :class:`~sixtysix.core.rng.Seed` draws, bit for bit."""

from __future__ import annotations

import hashlib

import pytest

from sixtysix.compiled import available

if not available():
    pytest.skip("needs numba (the fast extra)", allow_module_level=True)

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from numba.core.errors import TypingError

from sixtysix.compiled.dealing import PATH_BYTES, stream_word
from sixtysix.compiled.games import _GAME, _draws, _messages
from sixtysix.compiled.shake import RATE_WORDS, WAYS, draw, keccak_f, keccak_f4
from sixtysix.core.rng import Seed


def words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 8], "little") for i in range(0, len(data), 8)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=25 * WAYS, max_size=25 * WAYS))
def test_four_side_by_side_are_four_alone(values: list[int]) -> None:
    states = np.array(values, dtype=np.uint64).reshape(25, WAYS)
    alone = [states[:, j].copy() for j in range(WAYS)]
    keccak_f4(states)
    for j, lanes in enumerate(alone):
        keccak_f(lanes)
        assert states[:, j].tolist() == lanes.tolist()


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(min_size=0, max_size=100))
def test_a_draw_is_hashlibs(key: bytes, path: bytes) -> None:
    """Two blocks: the first squeeze and the one after it."""
    lanes = np.zeros(25, dtype=np.uint64)
    buffer = np.zeros(PATH_BYTES * 2, dtype=np.uint8)
    buffer[: len(path)] = np.frombuffer(path, dtype=np.uint8)
    draw(lanes, np.frombuffer(key, dtype=np.uint64).copy(), buffer, len(path))
    got = lanes[:RATE_WORDS].tolist()
    keccak_f(lanes)
    got += lanes[:RATE_WORDS].tolist()
    assert got == words(hashlib.shake_256(key + b"|" + path).digest(2 * 8 * RATE_WORDS))


def test_only_c_ordered_uint64_arrays_of_states_are_taken() -> None:
    @njit
    def permute(states: np.ndarray) -> None:
        keccak_f4(states)

    for wrong in (
        np.zeros((25, WAYS), dtype=np.int64),
        np.zeros((WAYS, 25), dtype=np.uint64).T,
        np.zeros(25 * WAYS, dtype=np.uint64),
    ):
        with pytest.raises(TypingError):
            permute(wrong)


def test_a_wrong_shape_is_refused_not_overrun() -> None:
    with pytest.raises(ValueError, match="25 lanes"):
        keccak_f(np.zeros(24, dtype=np.uint64))
    with pytest.raises(ValueError, match="four at a time"):
        keccak_f4(np.zeros((25, WAYS - 1), dtype=np.uint64))
    with pytest.raises(ValueError, match="four at a time"):
        keccak_f4(np.zeros((24, WAYS), dtype=np.uint64))


@pytest.mark.parametrize(("seed", "first"), [(1, 0), (7, 4), (123, 10**15)])
def test_the_games_draws_four_at_a_time_are_the_engines(seed: int, first: int) -> None:
    """Per game: its key, its bots' keys, the shuffle's 23 words and each bot's stream,
    followed past the first squeeze (17 words) and the first block (32)."""
    master = Seed(seed)
    states = np.zeros((25, WAYS), dtype=np.uint64)
    path = np.zeros(40, dtype=np.uint8)
    path[: _GAME.shape[0]] = _GAME
    keys = np.zeros((3, WAYS, 4), dtype=np.uint64)
    shuffle = np.zeros((WAYS, 23 + RATE_WORDS), dtype=np.uint64)
    streams = np.zeros((2, WAYS, 25), dtype=np.uint64)
    stream_path = np.zeros(PATH_BYTES, dtype=np.uint8)
    _draws(
        np.frombuffer(master.key, dtype=np.uint64).copy(), first, states,
        np.zeros(25, dtype=np.uint64), path, _messages(stream_path), keys, shuffle, streams,
    )  # fmt: skip
    for j in range(WAYS):
        game = master.child(("game", first + j))
        assert keys[0, j].tobytes() == game.key
        assert shuffle[j, :23].tolist() == game.words(("deal", "shuffle"), 23)
        for seat in range(2):
            bot = game.child(("bot", seat))
            assert keys[1 + seat, j].tobytes() == bot.key
            # As the games read it: the first squeeze in place, then stream_word.
            lanes = streams[seat, j].copy()
            got = [int(w) for w in lanes[:RATE_WORDS]] + [
                int(stream_word(lanes, keys[1 + seat, j], i, seat, stream_path))
                for i in range(RATE_WORDS, 70)
            ]
            stream = bot.stream(("bot", seat))
            assert got == [stream.next_word() for _ in range(70)]
