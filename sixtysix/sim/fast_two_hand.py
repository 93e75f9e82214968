"""A vectorised random-vs-random simulator for the two-player talon games (66, Schnapsen).

:func:`simulate_batch` plays games ``start..stop-1`` of a simulation between two plain
:class:`~sixtysix.bots.players.random_bot.RandomBot` players and returns, game by game, exactly the
:class:`~sixtysix.sim.games.GameResult` that :func:`sixtysix.sim.games.play_game` gives:
the same deal, the same choices, the same outcome. It is only faster (several times), because
the per-move game logic runs on whole batches of games at once as numpy array operations.

How the equality is kept:

* Randomness is drawn exactly as the generic path draws it. Game ``i`` uses the seed
  ``master.child(("game", i))``; its deal shuffles with ``seed.words(("deal", "shuffle"), n-1)``
  and the random bot of each seat, seeded with ``seed.child(("bot", seat))``, reads words from
  that seed's ``stream(("bot", seat))``. The hashing is done
  per game in Python (a few microseconds); the Fisher-Yates shuffle, the dealing and the play are
  vectorised. SHAKE-256 is an extendable-output function, so the first words of a stream block
  are the same whether 17 or 32 words are asked for: only one Keccak block (17 words) is made per
  bot up front and the full 32-word block is made for the rare game whose seat needs more.
* The engine's legal list in ascending action order (cards 0..23, marriages 24..27, exchange 28,
  close 29, claim 30) is a 31-bit mask here; a random bot's choice ``legal[word % len(legal)]``
  is the ``word % popcount``-th set bit of that mask.
* Only :class:`~sixtysix.core.rules.Rules` knobs (those of the allow-list
  :data:`~sixtysix.variants.two_hand.FAST_RULES`) and the variant's
  :class:`~sixtysix.variants.two_hand.TwoHandScoring` are read, never the variant's name.
  :func:`supports` says when this path applies; callers fall back to ``play_game`` otherwise.
* A subclass that deals itself has its ``deal`` called per game. A subclass that overrides a
  scoring method (``settle``, ``_scale``, ``_closing_scale``, ``_failed_close``,
  ``_tie_reason``) has the games that reach it replayed by ``play_game``, so that its own
  code scores them on the engine's final state.

numpy is an optional dependency (the ``fast`` extra): importing this module without it raises
:class:`ImportError`, and callers use the generic path.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.sim.fast_two_hand_batch import _Batch
from sixtysix.sim.fast_two_hand_tables import DEFAULT_BATCH, I64, U64, Bools
from sixtysix.sim.games import BotSpec, GameResult
from sixtysix.variants.two_hand import plain_two_hand

__all__ = ["DEFAULT_BATCH", "I64", "U64", "Bools", "iter_games", "simulate_batch", "supports"]


# --------------------------------------------------------------------------- applicability


def supports(variant: Variant, bots: Sequence[BotSpec]) -> bool:
    """True when :func:`simulate_batch` plays exactly the games ``play_game`` would.

    That is: a :class:`TwoHandVariant` played by the generic engine (``new_deal`` not
    overridden), with rules this simulator knows (two seats playing alone, a turned-up or shown
    trump, no trump call, partner call or concession: the allow-list
    :data:`~sixtysix.variants.two_hand.FAST_RULES`),
    between two plain random bots (no seed of their own). A variant that deals itself or
    overrides a scoring method is still supported: its ``deal`` is called per game, and the
    games that reach an overridden scoring method are scored by it.
    """
    if not plain_two_hand(variant) or len(bots) != 2:
        return False
    return all(bot is RandomBot and not params for bot, params in bots)


# --------------------------------------------------------------------------- public API


def simulate_batch(
    variant: Variant, master: Seed, start: int, stop: int, batch: int = DEFAULT_BATCH
) -> list[GameResult]:
    """Games ``start..stop-1`` between two random bots, as ``play_game`` would play them.

    The caller checks :func:`supports` first (with the two bots it means to use).
    """
    out: list[GameResult] = []
    for lo in range(start, stop, batch):
        out.extend(_Batch(variant, master, lo, min(lo + batch, stop)).run())
    return out


def iter_games(
    variant: Variant, master: Seed, start: int, stop: int, batch: int = DEFAULT_BATCH
) -> Iterator[GameResult]:
    """Like :func:`simulate_batch`, one batch in memory at a time."""
    for lo in range(start, stop, batch):
        yield from _Batch(variant, master, lo, min(lo + batch, stop)).run()
