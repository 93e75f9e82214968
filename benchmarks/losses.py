"""Where are the games lost? The games one bot loses in a duel, by how each of them ended.

A win rate says how often a bot loses, not how. This plays the same deals and seatings as
``sixtysix duel VARIANT BOT OPPONENT`` (same seed, same games) and sorts the games BOT did not
win (no more game points than the opponent; with three or four players, the mean over the
seats each held) by the deal's end (``reached_66``, ``failed_close``, ``last_trick``, ...) and by
who closed the talon, if anyone: BOT, the opponent, or nobody, with the cards then left in the
talon (the turn-up included; a full talon means a close at the first lead).

Against a random player, for example, this told apart the games a random player wins with
the cards it was dealt (it closes at its first lead and takes every trick) from the expert's
own failed closes, which a surer close then removed (``benchmarks/README.md``, "A surer
close")::

    python benchmarks/losses.py schnapsen expert random --deals 300 --seed 7 --jobs 2
    python benchmarks/losses.py 66 @hard heuristic --deals 200 --seed 1
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Iterable

from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import A, B, Contestant, DealResult, GameResult, iter_deals

#: A lost game's row: the deal's end, who closed ("bot", "opponent" or "nobody") and the
#: cards left in the talon at the close (0 without one).
Row = tuple[str, str, int]


def closer(game: GameResult) -> str:
    """Who closed the talon in ``game``: the measured bot, its opponent, or nobody."""
    if game.closed_by < 0:
        return "nobody"
    return "bot" if game.seating[game.closed_by] == A else "opponent"


def tally(results: Iterable[DealResult]) -> tuple[int, collections.Counter[Row]]:
    """Every game played, and the games bot A did not win counted by :data:`Row`."""
    games = 0
    lost: collections.Counter[Row] = collections.Counter()
    for result in results:
        for game in result.games:
            games += 1
            if game.points(A) <= game.points(B):
                lost[(str(game.outcome.reason), closer(game), game.closed_with)] += 1
    return games, lost


def report(games: int, lost: collections.Counter[Row]) -> str:
    """The table: lost games by end and closer, then by the talon left at each close."""
    total = sum(lost.values())
    lines = [f"{games} games, {total} not won ({total / max(games, 1):.1%})"]
    by_end: collections.Counter[tuple[str, str]] = collections.Counter()
    for (reason, who, _), n in lost.items():
        by_end[(reason, who)] += n
    lines.append(f"{'end':<14} {'closed by':<10} {'games':>5}")
    lines += [f"{reason:<14} {who:<10} {n:>5}" for (reason, who), n in by_end.most_common()]
    closes = sorted((row, n) for row, n in lost.items() if row[1] != "nobody")
    if closes:
        lines.append("closes, with the cards left in the talon:")
        lines += [f"  {who:<9} {left:>2} cards, {reason}: {n}" for (reason, who, left), n in closes]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        epilog=(__doc__ or "").split("::", 1)[-1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("variant", help="variant name or alias, as for sixtysix duel")
    parser.add_argument("bot", help="the bot whose lost games are sorted (NAME:k=v or @level)")
    parser.add_argument("opponent", help="its opponent")
    parser.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    reg = get_registry()
    try:
        variant = reg.variant(args.variant)()
        contestants = [Contestant(*resolve_player(s, reg)) for s in (args.bot, args.opponent)]
    except (UnknownVariantError, UnknownBotError) as exc:
        parser.error(str(exc))
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")
    played: list[DealResult] = []  # kept as they finish: Ctrl-C reports what is done
    status = 0
    try:
        played.extend(iter_deals(variant, contestants, Seed(args.seed), args.deals, args.jobs))
    except KeyboardInterrupt:
        print(f"interrupted: the {len(played)} deals finished so far", file=sys.stderr)
        status = 130
    print(report(*tally(played)))
    return status


if __name__ == "__main__":
    sys.exit(main())
