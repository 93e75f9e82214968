"""Strength bought with time: the expert at several efforts against fixed opponents, in whole
matches (Bummerls), with its time per move at each effort.

For each ``--effort`` E it plays ``sixtysix duel VARIANT expert:effort=E OPPONENT --matches N``
(every match in both seatings on identical cards, the same seed for every E, so the efforts
meet the very same deals) and prints one row: the matches won with their 95% Wilson interval,
game points per deal, and the expert's mean and median time per move, which is what a person
waits. Issue 44 asks for the curve at 0.1, 0.3, 1 and 3 s a move, 1,000 Bummerls per point;
pick the efforts whose median lands there on the machine at hand.

    python -m benchmarks.strength.time_curve schnapsen --opponent heuristic --matches 500 \\
        --effort 1 --effort 4 --effort 12 --effort 40 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time

from benchmarks.strength._progress import counted
from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import SixtySixError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import A, Contestant
from sixtysix.sim.match_duel import DuelMatch, iter_matches, summarize_matches


def row(effort: float, matches: list[DuelMatch], labels: tuple[str, str], seed: int) -> str:
    """One Markdown row of the curve."""
    summary = summarize_matches("", labels, matches, seed, 0.0)
    times = summary.deals.times[A]
    return (
        f"| {effort:g} | {summary.games} | {summary.win_rate[A].percent()} |"
        f" {summary.deals.margin.value:+.3f} | {1000 * times.mean:.0f} / {1000 * times.median:.0f}"
        f" ms |"
    )


def main(argv: list[str] | None = None) -> int:
    doc = (__doc__ or "").split("\n\n")
    parser = argparse.ArgumentParser(
        description=doc[0], epilog=doc[-1], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variant", help="variant name or alias")
    parser.add_argument("--opponent", default="heuristic", help="the fixed opponent (heuristic)")
    parser.add_argument(
        "--effort", type=float, action="append", help="the expert's effort (repeatable; 1)"
    )
    parser.add_argument("--matches", type=int, default=100, help="matches per effort (100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.matches < 1 or args.jobs < 1:
        parser.error("--matches and --jobs must be at least 1")
    registry = get_registry()
    try:
        variant = registry.variant(args.variant)()
        rival = Contestant(*resolve_player(args.opponent, registry, seats=variant.seats))
        experts = []
        for effort in args.effort or [1.0]:
            spec = f"expert:effort={effort:g}"
            label, cls, params = resolve_player(spec, registry, seats=variant.seats)
            cls(0, Seed(0), params)  # a bad effort is refused here, in one line
            experts.append((effort, Contestant(label, cls, params)))
    except SixtySixError as exc:
        parser.error(str(exc))
    print(
        f"{variant.name}, expert against {rival.label}, {args.matches} matches per effort"
        f" (each in both seatings), seed {args.seed}, {args.jobs} jobs\n"
    )
    print(
        "| effort | seated matches | expert won (95%) | game points per deal"
        " | expert's time per move: mean / median |"
    )
    print("|---:|---:|---|---:|---|")
    for effort, expert in experts:
        start = time.perf_counter()
        done: list[DuelMatch] = []
        try:
            found = iter_matches(variant, [expert, rival], Seed(args.seed), args.matches, args.jobs)
            done.extend(counted(found, args.matches, f"matches at effort {effort:g}"))
        except KeyboardInterrupt:
            print(f"interrupted: {len(done)} matches at effort {effort:g}", file=sys.stderr)
            if done:
                print(row(effort, done, (expert.label, rival.label), args.seed))
            return 130
        print(row(effort, done, (expert.label, rival.label), args.seed), flush=True)
        print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
