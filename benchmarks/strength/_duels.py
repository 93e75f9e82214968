"""What the duel-based benchmark scripts share: their command line, a Ctrl-C-safe run and the
summary line.

``losses.py`` and ``told_hand.py`` take the arguments of ``sixtysix duel`` (a
variant, two bots, ``--deals``, ``--seed``, ``--jobs``; ``told_hand.py`` also ``--matches``)
and play its very games through :func:`sixtysix.sim.duel.iter_deals` (in matches,
:func:`sixtysix.sim.match_duel.iter_matches`); a bad argument is a one-line error (exit status
2), stderr counts the deals (matches) as they finish, and Ctrl-C keeps those finished so far
(exit status 130).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TypeVar

from benchmarks.strength._progress import counted
from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import A, Contestant, DealResult, DuelSummary, iter_deals, summarize
from sixtysix.sim.match_duel import DuelMatch, iter_matches, summarize_matches

T = TypeVar("T")


def duel_parser(
    doc: str | None, bot: str, opponent: str = "its opponent", matches: bool = False
) -> argparse.ArgumentParser:
    """A parser for ``VARIANT BOT OPPONENT --deals N --seed S --jobs J`` (and ``--matches M``
    where ``matches``), described by the script's ``doc`` (its first line; what follows ``::``
    as the epilog)."""
    parser = argparse.ArgumentParser(
        description=(doc or "").splitlines()[0],
        epilog=(doc or "").split("::", 1)[-1] if "::" in (doc or "") else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("variant", help="variant name or alias, as for sixtysix duel")
    parser.add_argument("bot", help=f"{bot} (NAME:k=v or @level)")
    parser.add_argument("opponent", help=opponent)
    parser.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
    if matches:
        parser.add_argument(
            "--matches",
            type=int,
            default=None,
            help="whole matches to play instead of single deals, each in every seating",
        )
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    return parser


def resolved(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[Variant, list[Contestant]]:
    """The variant and the two contestants named by ``args``, or a one-line parser error."""
    reg = get_registry()
    try:
        variant = reg.variant(args.variant)()
        contestants = [
            Contestant(*resolve_player(s, reg, seats=variant.seats))
            for s in (args.bot, args.opponent)
        ]
    except (UnknownVariantError, UnknownBotError) as exc:
        parser.error(str(exc))
    matches = getattr(args, "matches", None)
    if args.deals < 1 or args.jobs < 1 or (matches is not None and matches < 1):
        parser.error("--deals, --matches and --jobs must be at least 1")
    return variant, contestants


def play_all(
    variant: Variant,
    contestants: list[Contestant],
    args: argparse.Namespace,
) -> tuple[list[DealResult], int]:
    """The duel's deals and the exit status: 0, or 130 with the deals finished before Ctrl-C."""
    found = iter_deals(variant, contestants, Seed(args.seed), args.deals, args.jobs)
    return _kept(counted(found, args.deals, "deals"), "deals")


def play_all_matches(
    variant: Variant,
    contestants: list[Contestant],
    args: argparse.Namespace,
) -> tuple[list[DuelMatch], int]:
    """The duel's matches and the exit status: 0, or 130 with the matches finished before
    Ctrl-C."""
    found = iter_matches(variant, contestants, Seed(args.seed), args.matches, args.jobs)
    return _kept(counted(found, args.matches, "matches"), "matches")


def _kept(results: Iterator[T], unit: str) -> tuple[list[T], int]:
    """Every result, or (Ctrl-C) those finished so far, with the exit status (0 or 130)."""
    done: list[T] = []  # kept as they finish
    try:
        done.extend(results)
    except KeyboardInterrupt:
        print(f"interrupted: the {len(done)} {unit} finished so far", file=sys.stderr)
        return done, 130
    return done, 0


def summary_line(
    variant: Variant,
    contestants: list[Contestant],
    played: list[DealResult],
    args: argparse.Namespace,
    seconds: float,
    what: str,
) -> str:
    """The duel's summary in one line: ``what`` (who played whom), the first bot's games won
    with their interval, game points per deal over the second, and its median time a move."""
    labels = (contestants[0].label, contestants[1].label)
    summary = summarize(variant.name, labels, played, args.seed, seconds)
    return f"{variant.name}: {what}: {_deal_figures(summary)}"


def matches_line(
    variant: Variant,
    contestants: list[Contestant],
    matches: list[DuelMatch],
    args: argparse.Namespace,
    seconds: float,
    what: str,
) -> str:
    """The duel in matches in one line: the first bot's matches won with their interval, then
    the per-deal figures over every deal of those matches (as :func:`summary_line`)."""
    labels = (contestants[0].label, contestants[1].label)
    summary = summarize_matches(variant.name, labels, matches, args.seed, seconds)
    return (
        f"{variant.name}: {what}: won {summary.win_rate[A].percent()} of {summary.games}"
        f" matches; {_deal_figures(summary.deals)}"
    )


def _deal_figures(summary: DuelSummary) -> str:
    """The first bot's games won, game points per deal over the second, median time a move."""
    return (
        f"won {summary.win_rate[A].percent()} of {summary.games} games,"
        f" {summary.margin.value:+.3f} game points per deal,"
        f" {1000 * summary.times[A].median:.1f} ms median per move"
    )
