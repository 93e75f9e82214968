"""Speed against the peer: random-vs-random Schnapsen deals per second, ours and the peer's.

The peer is the ``schnapsen`` package from PyPI (a university course's bot platform, see
``docs/peer-schnapsen-notes.md``). In one run, on one machine, this script measures

* the peer: its ``RandBot`` against itself through ``SchnapsenGamePlayEngine.play_game``
  (reusing ``benchmarks/speed/_peer_schnapsen.py``), one deal per game;
* ours through ``sixtysix.sim.simulate.simulate``: ``RandomBot`` against ``RandomBot`` on
  ``schnapsen``, one deal per game, by whatever path ``simulate`` picks (the vectorised fast
  path when numpy is installed and the game is supported);
* ours on the generic engine, calling ``sixtysix.sim.simulate.iter_games`` directly;

and prints the three rates and the ratios of ours to the peer's. It also checks that the fast
and the generic path played the same games (the same totals), since a fast wrong answer is no
benchmark. The issue's target is ours (``simulate``) at least 10 times the peer.

The peer is never a dependency of the project: install it only into a separate virtual
environment, together with this checkout::

    python3 -m venv /tmp/bench
    /tmp/bench/bin/pip install -e . -r benchmarks/requirements-peer.txt
    /tmp/bench/bin/python -m benchmarks.speed.vs_schnapsen_package --games 20000 --seed 1

(``-e '.[fast]'`` as well if numpy is not pulled in already; the peer's scikit-learn brings it.)
Each figure is the best of ``--repeat`` timed runs of the same games, to damp noise from other
processes; every run plays the same ``--games`` games from ``--seed``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.sim import simulate as sim
from sixtysix.variants.schnapsen import Schnapsen

INSTALL = (
    "install the peer into a separate virtual environment, never into the project's:\n"
    "  python3 -m venv /tmp/bench\n"
    "  /tmp/bench/bin/pip install -e . -r benchmarks/requirements-peer.txt\n"
    "  /tmp/bench/bin/python -m benchmarks.speed.vs_schnapsen_package --games 20000 --seed 1"
)
TARGET_RATIO = 10.0


@dataclass(frozen=True)
class Rate:
    label: str
    games: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def line(self) -> str:
        return (
            f"{self.label}: {self.games} games in {self.seconds:.3f} s"
            f" = {self.per_second:,.0f} games/s"
        )


def best_of(repeat: int, run: Callable[[], float]) -> float:
    """The shortest of ``repeat`` timings of ``run`` (each returns its own elapsed seconds)."""
    return min(run() for _ in range(repeat))


def load_peer() -> tuple[Callable[[int, int], tuple[int, float]], Callable[[], str]]:
    """The peer benchmark's functions; raises ImportError when the peer is not installed."""
    from benchmarks.speed._peer_schnapsen import describe_peer, peer_games_per_second

    return peer_games_per_second, describe_peer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Random-vs-random Schnapsen games per second: ours against the `schnapsen`"
        " package from PyPI, measured in one run.",
        epilog=INSTALL,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=10_000, help="games per run (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed runs per engine; the best counts (default 3)"
    )
    parser.add_argument(
        "--min-ratio",
        type=float,
        default=None,
        help=f"exit 1 unless ours/peer reaches this (the issue's target is {TARGET_RATIO:g})",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    try:
        peer_games_per_second, describe_peer = load_peer()
    except ImportError as exc:
        print(f"the peer package is not importable here ({exc});\n{INSTALL}", file=sys.stderr)
        return 2

    games, seed = args.games, args.seed
    variant = Schnapsen()
    bots: list[sim.BotSpec] = [(RandomBot, {}), (RandomBot, {})]
    fast_path = getattr(sim, "fast_path", None)
    fast = fast_path is not None and fast_path(variant, bots) is not None

    def peer_run() -> float:
        played, seconds = peer_games_per_second(games, seed)
        assert played == games
        return seconds

    summaries: list[sim.Summary] = []

    def ours_run() -> float:
        start = time.perf_counter()
        summaries.append(sim.simulate(variant, bots, games, Seed(seed)))
        return time.perf_counter() - start

    generic: list[sim.Summary] = []

    def generic_run() -> float:
        summary = sim.Summary(variant.seats)
        start = time.perf_counter()
        for result in sim.iter_games(variant, bots, Seed(seed), 0, games):
            summary.add(result.outcome)
        elapsed = time.perf_counter() - start
        generic.append(summary)
        return elapsed

    ours_version = metadata.version("sixtysix")
    peer = Rate(
        f"peer {describe_peer()} (RandBot vs RandBot, play_game)",
        games,
        best_of(args.repeat, peer_run),
    )
    path = "vectorised fast path" if fast else "generic path (no fast path here)"
    ours = Rate(
        f"sixtysix {ours_version} simulate() on schnapsen, {path}",
        games,
        best_of(args.repeat, ours_run),
    )
    plain = Rate(
        f"sixtysix {ours_version} iter_games() on schnapsen, generic path",
        games,
        best_of(args.repeat, generic_run),
    )

    print(f"python {sys.version.split()[0]}, {games} games, seed {seed}, best of {args.repeat}")
    for rate in (peer, ours, plain):
        print(rate.line())
    ratio = ours.per_second / peer.per_second
    print(
        f"ratio simulate/peer: {ratio:.1f}x"
        f" (target >= {TARGET_RATIO:g}x: {'met' if ratio >= TARGET_RATIO else 'NOT met'})"
    )
    print(f"ratio generic/peer: {plain.per_second / peer.per_second:.1f}x")
    a, b = summaries[-1], generic[-1]
    same = (a.game_points, a.wins, a.reasons) == (b.game_points, b.wins, b.reasons)
    print(f"simulate() and iter_games() played the same games: {'yes' if same else 'NO'}")
    if not same:
        return 1
    if args.min_ratio is not None and ratio < args.min_ratio:
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
