"""A yardstick, not a player: a bot *told* the opponent's hand, in the games of ``sixtysix duel``.

Before each of its decisions the measured bot (a search-based one: ``expert``) is told the
opponent's current hand (:mod:`_told`); it still imagines the order of the talon. Everything
else is the duel's: the same deals, seatings and bot seeds as ``sixtysix duel VARIANT BOT
OPPONENT --deals N --seed S``, and the same summary. The difference between the two win rates
is what reading the opponent's cards perfectly would be worth to that bot; what it still loses
is the talon's luck and its own play. ``benchmarks/oracle.py`` goes further: its cheat sees the
talon's order as well. Ctrl-C reports the deals finished so far (exit status 130).

    python benchmarks/told_hand.py schnapsen expert random --deals 500 --jobs 2
    python benchmarks/told_hand.py 66 expert heuristic --deals 500 --jobs 2

Two-player games only.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _told

from sixtysix.bots.base import parse_bot_spec
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.duel import A, Contestant, DealResult, arrangements, play_game, summarize


def contestant(spec: str) -> Contestant:
    name, params = parse_bot_spec(spec)
    return Contestant(spec, build_registry().bot(name), params)


def play_deal(variant_name: str, specs: tuple[str, str], seed: int, deal: int) -> DealResult:
    """Both seatings of one deal, A told B's hand before each of A's decisions."""
    _told.install()
    variant = build_registry().variant(variant_name)()
    contestants = [contestant(s) for s in specs]
    games = []
    for game, seating in enumerate(arrangements(2)):

        def tell(state: DealState, seat: int, seating: tuple[int, ...] = seating) -> None:
            _told.tell(state.hands[1 - seat] if seating[seat] == A else None)

        games.append(play_game(variant, contestants, Seed(seed), deal, game, seating, tell))
    _told.tell(None)
    return DealResult(deal, tuple(games))


def _ignore_interrupts() -> None:
    # Workers leave Ctrl-C to the parent, which reports the deals finished so far.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("bot", help="the bot told the opponent's hand, e.g. expert")
    parser.add_argument("opponent", help="the honest bot, e.g. random or heuristic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    registry = build_registry()
    try:
        variant = registry.variant(args.variant)()
        for spec in (args.bot, args.opponent):
            contestant(spec)
    except Exception as exc:  # an unknown variant or bot: one line, like the CLI
        parser.error(str(exc))
    if variant.seats != 2:
        parser.error("two-player games only")
    specs = (args.bot, args.opponent)
    start = time.perf_counter()
    results: list[DealResult] = []
    pool = ProcessPoolExecutor(max_workers=max(1, args.jobs), initializer=_ignore_interrupts)
    try:
        futures = [
            pool.submit(play_deal, args.variant, specs, args.seed, d) for d in range(args.deals)
        ]
        for future in futures:
            results.append(future.result())
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        print(f"interrupted after {len(results)} deals", file=sys.stderr)
    else:
        pool.shutdown()
    summary = summarize(
        variant.name,
        (f"{args.bot} (told)", args.opponent),
        results,
        args.seed,
        time.perf_counter() - start,
    ).as_json()
    rate = summary["win_rate"]["a"]
    gp = summary["game_points_per_deal"]["difference"]
    print(
        f"{variant.name}: {args.bot}, told the opponent's hand, against {args.opponent}:"
        f" won {100 * rate['estimate']:.1f}% ({100 * rate['low']:.1f}-{100 * rate['high']:.1f})"
        f" of {2 * len(results)} games, {gp['estimate']:+.3f} game points per deal"
    )
    return 130 if len(results) < args.deals else 0


if __name__ == "__main__":
    raise SystemExit(main())
