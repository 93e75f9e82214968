"""SHAKE-256 compiled (numba): the engine's random draws (:mod:`sixtysix.core.rng`), bit for bit,
inside compiled code.

Why: a simulated game draws its randomness as ``Seed`` does, from SHAKE-256 of a key and a
path (a game's key from the master's, each bot's key from the game's, the shuffle's words and
each bot's stream); hashing those in Python took longer than playing the game. These kernels
compute the same bytes (``tests/compiled/test_shake.py`` holds them to :mod:`hashlib`), so the
compiled games are the engine's games and the randomness is as secure. Every message here is
shorter than one block (136 bytes): a key of 32 bytes, ``|`` and a short path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.compiled.jit import jit

#: Bytes of one SHAKE-256 block (its rate), and in 64-bit words.
RATE = 136
RATE_WORDS = RATE // 8

_RC = np.array(
    [
        0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
        0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
        0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
        0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
        0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
        0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
    ],
    dtype=np.uint64,
)  # fmt: skip


@jit
def _rotl(x: Any, n: int) -> Any:
    return (x << np.uint64(n)) | (x >> np.uint64(64 - n))


@jit
def keccak_f(lanes: Any) -> None:
    """Keccak-f[1600] on 25 ``uint64`` lanes, in place (FIPS 202; the lanes in registers)."""
    a0, a1, a2, a3, a4 = lanes[0], lanes[1], lanes[2], lanes[3], lanes[4]
    a5, a6, a7, a8, a9 = lanes[5], lanes[6], lanes[7], lanes[8], lanes[9]
    a10, a11, a12, a13, a14 = lanes[10], lanes[11], lanes[12], lanes[13], lanes[14]
    a15, a16, a17, a18, a19 = lanes[15], lanes[16], lanes[17], lanes[18], lanes[19]
    a20, a21, a22, a23, a24 = lanes[20], lanes[21], lanes[22], lanes[23], lanes[24]
    for r in range(24):
        c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20
        c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21
        c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22
        c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23
        c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24
        d0 = c4 ^ _rotl(c1, 1)
        d1 = c0 ^ _rotl(c2, 1)
        d2 = c1 ^ _rotl(c3, 1)
        d3 = c2 ^ _rotl(c4, 1)
        d4 = c3 ^ _rotl(c0, 1)
        b0 = a0 ^ d0
        b16 = _rotl(a5 ^ d0, 36)
        b7 = _rotl(a10 ^ d0, 3)
        b23 = _rotl(a15 ^ d0, 41)
        b14 = _rotl(a20 ^ d0, 18)
        b10 = _rotl(a1 ^ d1, 1)
        b1 = _rotl(a6 ^ d1, 44)
        b17 = _rotl(a11 ^ d1, 10)
        b8 = _rotl(a16 ^ d1, 45)
        b24 = _rotl(a21 ^ d1, 2)
        b20 = _rotl(a2 ^ d2, 62)
        b11 = _rotl(a7 ^ d2, 6)
        b2 = _rotl(a12 ^ d2, 43)
        b18 = _rotl(a17 ^ d2, 15)
        b9 = _rotl(a22 ^ d2, 61)
        b5 = _rotl(a3 ^ d3, 28)
        b21 = _rotl(a8 ^ d3, 55)
        b12 = _rotl(a13 ^ d3, 25)
        b3 = _rotl(a18 ^ d3, 21)
        b19 = _rotl(a23 ^ d3, 56)
        b15 = _rotl(a4 ^ d4, 27)
        b6 = _rotl(a9 ^ d4, 20)
        b22 = _rotl(a14 ^ d4, 39)
        b13 = _rotl(a19 ^ d4, 8)
        b4 = _rotl(a24 ^ d4, 14)
        a0 = b0 ^ (~b1 & b2)
        a1 = b1 ^ (~b2 & b3)
        a2 = b2 ^ (~b3 & b4)
        a3 = b3 ^ (~b4 & b0)
        a4 = b4 ^ (~b0 & b1)
        a5 = b5 ^ (~b6 & b7)
        a6 = b6 ^ (~b7 & b8)
        a7 = b7 ^ (~b8 & b9)
        a8 = b8 ^ (~b9 & b5)
        a9 = b9 ^ (~b5 & b6)
        a10 = b10 ^ (~b11 & b12)
        a11 = b11 ^ (~b12 & b13)
        a12 = b12 ^ (~b13 & b14)
        a13 = b13 ^ (~b14 & b10)
        a14 = b14 ^ (~b10 & b11)
        a15 = b15 ^ (~b16 & b17)
        a16 = b16 ^ (~b17 & b18)
        a17 = b17 ^ (~b18 & b19)
        a18 = b18 ^ (~b19 & b15)
        a19 = b19 ^ (~b15 & b16)
        a20 = b20 ^ (~b21 & b22)
        a21 = b21 ^ (~b22 & b23)
        a22 = b22 ^ (~b23 & b24)
        a23 = b23 ^ (~b24 & b20)
        a24 = b24 ^ (~b20 & b21)
        a0 ^= _RC[r]
    lanes[0], lanes[1], lanes[2], lanes[3], lanes[4] = a0, a1, a2, a3, a4
    lanes[5], lanes[6], lanes[7], lanes[8], lanes[9] = a5, a6, a7, a8, a9
    lanes[10], lanes[11], lanes[12], lanes[13], lanes[14] = a10, a11, a12, a13, a14
    lanes[15], lanes[16], lanes[17], lanes[18], lanes[19] = a15, a16, a17, a18, a19
    lanes[20], lanes[21], lanes[22], lanes[23], lanes[24] = a20, a21, a22, a23, a24


@jit
def draw(lanes: Any, key: Any, path: Any, size: int) -> None:
    """SHAKE-256 of ``key + b"|" + path[:size]`` (``Seed(key).bytes(path)``; ``key``: its 32
    bytes as 4 little-endian words), squeezed to its first block: ``lanes[:RATE_WORDS]`` are
    then the first output words, and each further :func:`keccak_f` squeezes the next block."""
    lanes[:] = 0
    lanes[:4] = key[:4]
    block = lanes.view(np.uint8)
    block[32] = 124  # "|"
    block[33 : 33 + size] = path[:size]
    block[33 + size] ^= 0x1F
    block[RATE - 1] ^= 0x80
    keccak_f(lanes)


@jit
def digits(value: int, out: Any, at: int) -> int:
    """Write ``str(value)`` (value >= 0) as ASCII at ``out[at:]``; return the end."""
    n = 1
    v = value
    while v >= 10:
        v //= 10
        n += 1
    v = value
    for i in range(n - 1, -1, -1):
        out[at + i] = 48 + v % 10
        v //= 10
    return at + n
