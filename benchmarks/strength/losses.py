"""Where are the games lost? The games one bot loses in a duel, by how each of them ended.

A win rate says how often a bot loses, not how. This plays the same deals and seatings as
``sixtysix duel VARIANT BOT OPPONENT`` (same seed, same games) and sorts the games BOT did not
win (no more game points than the opponent; with three or four players, the mean over the
seats each held) by the deal's end (``reached_66``, ``failed_close``, ``last_trick``, ...) and by
who closed the talon, if anyone: BOT, the opponent, or nobody, with the cards then left in the
talon (the turn-up included; a full talon means a close at the first lead).

Against a random player, for example, this told apart the games a random player wins with
the cards it was dealt (it closes at its first lead and takes every trick) from the expert's
own failed closes, which a surer close then removed (``docs/history.md``, "A surer
close")::

    python -m benchmarks.strength.losses schnapsen expert random --deals 300 --seed 7 --jobs 2
    python -m benchmarks.strength.losses 66 @hard heuristic --deals 200 --seed 1
"""

from __future__ import annotations

import collections
import sys
from collections.abc import Iterable

from benchmarks.strength._duels import duel_parser, play_all, resolved
from sixtysix.sim.duel import A, B, DealResult, DuelGame

#: A lost game's row: the deal's end, who closed ("bot", "opponent" or "nobody") and the
#: cards left in the talon at the close (0 without one).
Row = tuple[str, str, int]


def closer(game: DuelGame) -> str:
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
    parser = duel_parser(__doc__, "the bot whose lost games are sorted")
    args = parser.parse_args(argv)
    variant, contestants = resolved(parser, args)
    played, status = play_all(variant, contestants, args)
    print(report(*tally(played)))
    return status


if __name__ == "__main__":
    sys.exit(main())
