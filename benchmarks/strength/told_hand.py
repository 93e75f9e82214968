"""A yardstick, not a player: a bot *told* the opponent's hand, in the games of ``sixtysix duel``.

Before each of its decisions the measured bot (a search-based one: ``expert``) is told the
opponent's current hand (:class:`_told.Told` wraps it); it still imagines the order of the
talon. Everything else is the duel's: the same deals, seatings and bot seeds as ``sixtysix
duel VARIANT BOT OPPONENT --deals N --seed S``, and the same summary. The difference between
the two win rates is what reading the opponent's cards perfectly would be worth to that bot;
what it still loses is the talon's luck and its own play. ``oracle.py`` goes further: its
cheat sees the talon's order as well. With ``--matches M`` the games are those of ``sixtysix
duel ... --matches M``: whole matches, each in both seatings on the same cards deal by deal,
and the match win rate comes first. Ctrl-C reports the deals (matches) finished so far (exit
status 130).

    python -m benchmarks.strength.told_hand schnapsen expert random --deals 500 --jobs 2
    python -m benchmarks.strength.told_hand 66 expert heuristic --deals 500 --jobs 2
    python -m benchmarks.strength.told_hand schnapsen expert heuristic --matches 250 --jobs 2

Two-player games only.
"""

from __future__ import annotations

import time

from benchmarks.strength._duels import (
    duel_parser,
    matches_line,
    play_all,
    play_all_matches,
    resolved,
    summary_line,
)
from benchmarks.strength._told import Told
from benchmarks.strength._watched import Watched
from sixtysix.sim.duel import Contestant


def main(argv: list[str] | None = None) -> int:
    parser = duel_parser(
        __doc__, "the bot told the opponent's hand", "its opponent, honest", matches=True
    )
    args = parser.parse_args(argv)
    variant, contestants = resolved(parser, args)
    if variant.seats != 2:
        parser.error("two-player games only")
    contestants[0] = Contestant(contestants[0].label, Told, {"bot": args.bot})
    what = f"{args.bot}, told the opponent's hand, against {args.opponent}"
    watched = Watched(variant)
    start = time.perf_counter()
    if args.matches:
        matches, status = play_all_matches(watched, contestants, args)
        seconds = time.perf_counter() - start
        print(matches_line(variant, contestants, matches, args, seconds, what))
        return status
    played, status = play_all(watched, contestants, args)
    print(summary_line(variant, contestants, played, args, time.perf_counter() - start, what))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
