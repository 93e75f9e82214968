"""What the duel-based benchmark scripts share: their command line, a Ctrl-C-safe run and the
summary line.

``losses.py`` and ``told_hand.py`` take the arguments of ``sixtysix duel`` (a
variant, two bots, ``--deals``, ``--seed``, ``--jobs``) and play its very games through
:func:`sixtysix.sim.duel.iter_deals`; a bad argument is a one-line error (exit status 2), and
Ctrl-C keeps the deals finished so far (exit status 130).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant, DealResult, iter_deals, summarize


def duel_parser(
    doc: str | None, bot: str, opponent: str = "its opponent"
) -> argparse.ArgumentParser:
    """A parser for ``VARIANT BOT OPPONENT --deals N --seed S --jobs J``, described by the
    script's ``doc`` (its first line; what follows ``::`` as the epilog)."""
    parser = argparse.ArgumentParser(
        description=(doc or "").splitlines()[0],
        epilog=(doc or "").split("::", 1)[-1] if "::" in (doc or "") else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("variant", help="variant name or alias, as for sixtysix duel")
    parser.add_argument("bot", help=f"{bot} (NAME:k=v or @level)")
    parser.add_argument("opponent", help=opponent)
    parser.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
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
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")
    return variant, contestants


def play_all(
    variant: Variant,
    contestants: list[Contestant],
    args: argparse.Namespace,
) -> tuple[list[DealResult], int]:
    """The duel's deals and the exit status: 0, or 130 with the deals finished before Ctrl-C."""
    played: list[DealResult] = []  # kept as they finish
    try:
        played.extend(iter_deals(variant, contestants, Seed(args.seed), args.deals, args.jobs))
    except KeyboardInterrupt:
        print(f"interrupted: the {len(played)} deals finished so far", file=sys.stderr)
        return played, 130
    return played, 0


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
    data: dict[str, Any] = summarize(variant.name, labels, played, args.seed, seconds).as_json()
    rate = data["win_rate"]["a"]
    gp = data["game_points_per_deal"]["difference"]
    ms = data["time_per_move"]["a"]["median_ms"]
    return (
        f"{variant.name}: {what}: won {100 * rate['estimate']:.1f}%"
        f" ({100 * rate['low']:.1f}-{100 * rate['high']:.1f}) of {2 * len(played)} games,"
        f" {gp['estimate']:+.3f} game points per deal, {ms:.1f} ms median per move"
    )
