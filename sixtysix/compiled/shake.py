"""SHAKE-256 compiled (numba): the engine's random draws (:mod:`sixtysix.core.rng`), bit for bit,
inside compiled code.

Why: a simulated game draws its randomness as ``Seed`` does, from SHAKE-256 of a key and a
path (a game's key from the master's, each bot's key from the game's, the shuffle's words and
each bot's stream); hashing those in Python took longer than playing the game. These kernels
compute the same bytes (``tests/compiled/test_shake.py`` holds them to :mod:`hashlib`), so the
compiled games are the engine's games and the randomness is as secure. Every message here is
shorter than one block (136 bytes): a key of 32 bytes, ``|`` and a short path.

Independent draws (the keys and first blocks of many games) go four at a time through
:func:`keccak_f4`, Keccak-f[1600] on four states side by side in 256-bit vectors: the same
permutation, four states an instruction on an AVX2 core (``docs/benchmarks.md`` has the gain).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic

from sixtysix.compiled.jit import jit

#: Bytes of one SHAKE-256 block (its rate), and in 64-bit words.
RATE = 136
RATE_WORDS = RATE // 8
#: States :func:`keccak_f4` permutes at once (four 64-bit lanes fill a 256-bit vector).
WAYS = 4

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


#: The rotation of lane ``x + 5 * y`` in the rho step (FIPS 202, 3.2.2).
_RHO = (
    0, 1, 62, 28, 27,
    36, 44, 6, 55, 20,
    3, 10, 43, 25, 39,
    41, 45, 15, 21, 8,
    18, 2, 61, 56, 14,
)  # fmt: skip


def _keccak_round(builder: Any, a: list[Any], rc: Any, vector: Any) -> list[Any]:
    """One round of Keccak-f[1600] on 25 lanes of LLVM values of type ``vector``, round
    constant ``rc`` (a vector too)."""

    def splat(value: int) -> Any:
        return ir.Constant(vector, [ir.Constant(vector.element, value)] * vector.count)

    def rotl(x: Any, n: int) -> Any:
        return builder.or_(builder.shl(x, splat(n)), builder.lshr(x, splat(64 - n))) if n else x

    ones = splat(2**64 - 1)
    c = [builder.xor(builder.xor(builder.xor(a[x], a[x + 5]), builder.xor(a[x + 10], a[x + 15])),
                     a[x + 20]) for x in range(5)]  # fmt: skip
    d = [builder.xor(c[(x - 1) % 5], rotl(c[(x + 1) % 5], 1)) for x in range(5)]
    out = [ones] * 25
    for y in range(5):  # rho and pi into row y, then chi on it, a row at a time
        b = [ones] * 5
        for x in range(5):  # lane (x, y) of b comes from lane ((x + 3y) % 5, x) of a
            src = (x + 3 * y) % 5 + 5 * x
            b[x] = rotl(builder.xor(a[src], d[src % 5]), _RHO[src])
        for x in range(5):
            not_next = builder.xor(b[(x + 1) % 5], ones)
            out[5 * y + x] = builder.xor(b[x], builder.and_(not_next, b[(x + 2) % 5]))
    out[0] = builder.xor(out[0], rc)  # iota
    return out


def _typed_keccak(typingctx: Any, states: Any) -> Any:
    """Keccak-f[1600] emitted as LLVM code on vectors: on the 25 lanes of a ``uint64`` array
    of 25 (one state), or on the :data:`WAYS` states of a C-ordered ``(25, WAYS)`` one, lane
    ``k`` of all of them as one vector (row ``k``), which numba's compiler would not vectorize
    from a loop. The rounds are a loop, not unrolled: unrolling them only lengthens compiling."""
    if states not in (types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 2, "C")):
        return None
    width = 1 if states.ndim == 1 else WAYS

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        word = ir.IntType(64)
        vector = ir.VectorType(word, width)
        rows = builder.bitcast(data, vector.as_pointer())
        at = [builder.gep(rows, [ir.Constant(word, k)]) for k in range(25)]
        first = [builder.load(p, align=8) for p in at]
        constants = cgutils.global_constant(
            builder, "keccak_rc", ir.Constant(ir.ArrayType(word, len(_RC)), _RC.tolist())
        )
        entry = builder.block
        loop = builder.append_basic_block("keccak.round")
        done = builder.append_basic_block("keccak.done")
        builder.branch(loop)
        builder.position_at_end(loop)
        r = builder.phi(word)
        lanes = [builder.phi(vector) for _ in range(25)]
        rc = builder.load(builder.gep(constants, [ir.Constant(word, 0), r]))
        rc = builder.insert_element(ir.Constant(vector, None), rc, ir.Constant(ir.IntType(32), 0))
        rc = builder.shuffle_vector(
            rc,
            ir.Constant(vector, None),
            ir.Constant(ir.VectorType(ir.IntType(32), width), [0] * width),
        )
        after = _keccak_round(builder, lanes, rc, vector)
        following = builder.add(r, ir.Constant(word, 1))
        r.add_incoming(ir.Constant(word, 0), entry)
        r.add_incoming(following, loop)
        for phi, before, value in zip(lanes, first, after, strict=True):
            phi.add_incoming(before, entry)
            phi.add_incoming(value, loop)
        builder.cbranch(builder.icmp_unsigned("<", following, ir.Constant(word, len(_RC))),
                        loop, done)  # fmt: skip
        builder.position_at_end(done)
        for value, p in zip(after, at, strict=True):
            builder.store(value, p, align=8)
        return context.get_dummy_value()

    return types.void(states), codegen


_keccak: Any = intrinsic(_typed_keccak)


@jit
def keccak_f(lanes: Any) -> None:
    """Keccak-f[1600] on 25 ``uint64`` lanes, in place (FIPS 202)."""
    if lanes.shape[0] != 25:
        raise ValueError("Keccak-f[1600] permutes 25 lanes")
    _keccak(lanes)


@jit
def keccak_f4(states: Any) -> None:
    """Keccak-f[1600] on each column of ``states`` (25 x :data:`WAYS` ``uint64``, C order),
    in place: :data:`WAYS` :func:`keccak_f` at once."""
    if states.shape[0] != 25 or states.shape[1] != WAYS:
        raise ValueError("Keccak-f[1600] four at a time permutes a (25, WAYS) array")
    _keccak(states)


@jit
def absorb(lanes: Any, key: Any, path: Any, size: int) -> None:
    """The padded message ``key + b"|" + path[:size]`` of :func:`draw` in ``lanes``, not yet
    permuted (to permute several side by side with :func:`keccak_f4`). Loops, not sliced
    assignments: numba compiles a shape check with its error message for each of those."""
    lanes[:] = 0
    for i in range(4):
        lanes[i] = key[i]
    block = lanes.view(np.uint8)
    block[32] = 124  # "|"
    for i in range(size):
        block[33 + i] = path[i]
    block[33 + size] ^= 0x1F
    block[RATE - 1] ^= 0x80


@jit
def draw(lanes: Any, key: Any, path: Any, size: int) -> None:
    """SHAKE-256 of ``key + b"|" + path[:size]`` (``Seed(key).bytes(path)``; ``key``: its 32
    bytes as 4 little-endian words), squeezed to its first block: ``lanes[:RATE_WORDS]`` are
    then the first output words, and each further :func:`keccak_f` squeezes the next block."""
    absorb(lanes, key, path, size)
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
