"""Speed baseline from a peer engine: the ``schnapsen`` bot platform on PyPI.

Why this module exists: to say whether our engine is fast we need a yardstick,
and the closest public one is the university course platform ``schnapsen``
(0.0.5, "A platform for coding and running card playing bots"). This module
plays its own random bot against itself through its own ``play_game``, so the
number it yields is what that platform does with no help from us.

It imports the peer package at module level on purpose: the module is only
importable where the peer is installed (a separate virtual environment made
from ``benchmarks/requirements-peer.txt``), and the project never depends on
it. Run it directly for a one-line report::

    /tmp/peer/bin/python -m benchmarks.speed._peer_schnapsen --games 2000 --seed 1

The peer plays single deals, not matches to 7, and knows no closing of the
talon; see ``docs/peer-schnapsen-notes.md`` for how its rules differ from ours.
"""

from __future__ import annotations

import argparse
import random
import time
from importlib import metadata

from schnapsen.bots import RandBot
from schnapsen.game import SchnapsenGamePlayEngine

PEER_DISTRIBUTION = "schnapsen"


def describe_peer() -> str:
    """Name and installed version of the peer package.

    Why: a speed figure is only comparable with the version that produced it,
    so reports print this next to the games-per-second number.
    """
    return f"{PEER_DISTRIBUTION} {metadata.version(PEER_DISTRIBUTION)}"


def _game_seeds(master: random.Random) -> tuple[int, int, int]:
    """Draw the deck seed and the two bot seeds for one game.

    Why: every game and every bot gets its own ``Random``, derived from the
    run's seed, so a run is reproducible and no bot's choices depend on how
    many numbers the shuffle or the other bot consumed.
    """
    return master.getrandbits(64), master.getrandbits(64), master.getrandbits(64)


def peer_games_per_second(games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` RandBot-vs-RandBot games on the peer engine and time them.

    Each game uses the peer's ``SchnapsenGamePlayEngine.play_game`` with a
    fresh ``RandBot`` per side, each holding its own ``random.Random`` derived
    from ``seed``; the shuffle uses a third derived ``Random``. The engine is
    built once, outside the timed region, because building it is setup and
    not play; making the bots and their generators is inside it, because our
    own benchmark also pays for its players per game.

    Why ``time.perf_counter``: it is the monotonic, highest-resolution clock,
    meant for measuring short intervals.

    Returns ``(games_played, seconds_elapsed)``; games per second is their
    quotient. Raises ``ValueError`` for a negative ``games``.
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    engine = SchnapsenGamePlayEngine()
    master = random.Random(seed)
    played = 0
    start = time.perf_counter()
    for _ in range(games):
        deck_seed, first_seed, second_seed = _game_seeds(master)
        first = RandBot(rand=random.Random(first_seed), name="rand-1")
        second = RandBot(rand=random.Random(second_seed), name="rand-2")
        engine.play_game(first, second, random.Random(deck_seed))
        played += 1
    elapsed = time.perf_counter() - start
    return played, elapsed


def main(argv: list[str] | None = None) -> int:
    """Print one line with the peer's speed.

    Why: lets a person or a script measure the peer from inside its virtual
    environment without writing any code.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    args = parser.parse_args(argv)
    played, seconds = peer_games_per_second(args.games, args.seed)
    rate = played / seconds if seconds > 0 else float("inf")
    print(f"{describe_peer()}: {played} games in {seconds:.3f} s = {rate:.1f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
