"""Randomness: cryptographically secure by default, reproducible from an explicit seed.

Every random draw comes from SHAKE-256 used as a keyed extendable-output function. Without a
seed the key is 32 bytes from :mod:`secrets`, so shuffles are as unpredictable as the
operating system's generator; with a seed the key is derived from it, so every deal, every bot
choice and every game of a simulation is reproducible. Draws are addressed by a *path*
(e.g. ``("game", 17, "deal", 0)``), never by a shared running generator, which is what makes a
simulation give the same games whatever the number of workers or the order they run in.

A sub-task gets a *child* seed (:meth:`Seed.child`): its key is drawn from the parent's key, so
it cannot lead back to the parent or to its other children (SHAKE-256 is one-way), and it
carries no seed value. That is what keeps a bot's randomness apart from the deal's: a bot is
only ever given a child on a branch of its own (``("bot", seat)``), never a seed the shuffle or
another seat draws from.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

PathPart = int | str
#: A seed is any integer of up to this many digits (a 256-bit number has 78): the command line
#: and the records take the same, so every record a seed gives can be read back.
MAX_SEED_DIGITS = 100

_WORDS_PER_BLOCK = 32


def _encode(path: Sequence[PathPart]) -> bytes:
    return "/".join(str(p) for p in path).encode()


class Seed:
    """The root of all randomness for a match, a simulation or a bot.

    ``value`` is the number a root seed was made from (None for a secure random one, and for
    every child: only the master's value is ever recorded). ``reproducible`` says whether the
    root was made from a value, for children too.
    """

    __slots__ = ("key", "reproducible", "value")

    def __init__(self, value: int | None = None) -> None:
        self.value = value
        self.reproducible = value is not None
        if value is None:
            self.key = secrets.token_bytes(32)
        else:
            self.key = hashlib.sha256(b"sixtysix-seed:" + str(int(value)).encode()).digest()

    @staticmethod
    def from_key(key: bytes, reproducible: bool = False) -> Seed:
        """The seed of a known key (a child's, or one stored with a game), with no value."""
        seed = Seed.__new__(Seed)
        seed.value = None
        seed.reproducible = reproducible
        seed.key = key
        return seed

    def bytes(self, path: Sequence[PathPart], size: int) -> bytes:
        """``size`` pseudo-random bytes for ``path``: the same seed and path, the same bytes."""
        return hashlib.shake_256(self.key + b"|" + _encode(path)).digest(size)

    def words(self, path: Sequence[PathPart], count: int) -> list[int]:
        """``count`` 64-bit words for ``path``."""
        data = self.bytes(path, 8 * count)
        return [int.from_bytes(data[i : i + 8], "little") for i in range(0, 8 * count, 8)]

    def shuffled(self, items: Sequence[int], path: Sequence[PathPart]) -> list[int]:
        """A uniformly shuffled copy of ``items`` (Fisher-Yates on 64-bit words)."""
        out = list(items)
        n = len(out)
        words = self.words(path, max(n - 1, 1))
        for k, i in enumerate(range(n - 1, 0, -1)):
            j = words[k] % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def stream(self, path: Sequence[PathPart]) -> Stream:
        return Stream(self, path)

    def child(self, path: Sequence[PathPart]) -> Seed:
        """An independent seed for a sub-task (a game of a simulation, a bot): a key drawn
        from this one, no value, so nothing in it recomputes this seed's other draws."""
        return Seed.from_key(self.bytes(("child", *path), 32), self.reproducible)


class Stream:
    """An endless sequence of 64-bit words for one path, made in blocks as needed."""

    __slots__ = ("_block", "_buf", "_path", "_pos", "_seed")

    def __init__(self, seed: Seed, path: Sequence[PathPart]) -> None:
        self._seed = seed
        self._path = tuple(path)
        self._block = 0
        self._buf: list[int] = []
        self._pos = 0

    def next_word(self) -> int:
        if self._pos >= len(self._buf):
            self._buf = self._seed.words((*self._path, self._block), _WORDS_PER_BLOCK)
            self._block += 1
            self._pos = 0
        word = self._buf[self._pos]
        self._pos += 1
        return word

    def below(self, n: int) -> int:
        """A number in ``range(n)``."""
        return self.next_word() % n

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next_word() >> 11) * (1.0 / (1 << 53))
