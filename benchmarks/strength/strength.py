"""Playing strength: the difficulty ladder and the issue's targets, measured with duels.

Why a benchmark and not a test: strength needs hundreds of deals per figure and the search
players think for tens of milliseconds per move, which is minutes, not a unit test; and the
time-per-move figures depend on the machine and its load.

Every figure comes from :func:`sixtysix.sim.duel.duel` (the engine behind ``sixtysix duel``):
each deal is played in every seating on identical cards, win rates carry a 95% Wilson interval
and game points per deal a 95% normal interval over deals. Four groups of measurements:

``heuristic``
    the rule-based player against ``random`` in every variant (it must beat it clearly);
``ladder``
    each difficulty level against the one below (``@medium`` vs ``@easy``, ``@hard`` vs
    ``@medium``, ``@expert`` vs ``@hard``) in every variant: "measurably stronger" means the
    95% interval of the game-point margin per deal lies above zero;
``targets``
    issue 6's figures for ``expert``: at least 95% of games won against ``random`` and at least
    65% against ``heuristic`` in 66 and Schnapsen, clearly ahead of ``heuristic`` with three and
    four players, median time per move at most 100 ms (two players) and 300 ms (four);
``matches``
    issue 26's two-player figures, in whole matches (:func:`sixtysix.sim.match_duel.duel_matches`,
    ``sixtysix duel --matches``: every match in both seatings on identical cards): ``expert``
    wins at least 90% of the matches against ``heuristic`` in 66 and Schnapsen, at a median of
    at most 100 ms a move. Three- and four-player shares of the way to the ceiling are
    ``ceiling.py``'s, the ladder in matches ``ladder.py``'s.

A comparison whose bot is not installed is listed as skipped. Run, for example::

    python -m benchmarks.strength.strength --group heuristic --deals 1000
    python -m benchmarks.strength.strength --group ladder --deals 200 --jobs 2
    python -m benchmarks.strength.strength --group targets --variant 66 --variant schnapsen --json
    python -m benchmarks.strength.strength --group matches --matches 500 --jobs 2

The exit status is 1 when a measured check fails, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant, DuelSummary, duel
from sixtysix.sim.match_duel import MatchDuelSummary, duel_matches

ALL_VARIANTS = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")
TWO_PLAYER = ("sixtysix", "schnapsen")


@dataclass(frozen=True)
class Check:
    """One duel and what it must show."""

    group: str
    variant: str
    a: str
    b: str
    #: Names the requirement, and judges a summary: (passed, the figure in words).
    requirement: str
    judge: Callable[[Any], tuple[bool, str]]  # a DuelSummary, or a MatchDuelSummary in matches
    #: Played in whole matches (``--matches``), judged on the match summary.
    in_matches: bool = False


def margin_above_zero(s: DuelSummary) -> tuple[bool, str]:
    m = s.margin
    low = m.low if m.low is not None else float("nan")
    high = m.high if m.high is not None else float("nan")
    rate = win_rate_at_least(0.0)(s)[1]
    return (
        m.low is not None and m.low > 0,
        f"{rate}, margin {m.value:+.3f} gp/deal ({low:+.3f} to {high:+.3f})",
    )


def win_rate_at_least(target: float) -> Callable[[DuelSummary], tuple[bool, str]]:
    def judge(s: DuelSummary) -> tuple[bool, str]:
        r = s.win_rate[0]
        low = 100 * (r.low or 0.0)
        high = 100 * (r.high or 0.0)
        return r.value >= target, f"won {100 * r.value:.1f}% ({low:.1f}-{high:.1f})"

    return judge


def median_time_at_most(ms: float) -> Callable[[DuelSummary], tuple[bool, str]]:
    def judge(s: DuelSummary) -> tuple[bool, str]:
        t = s.times[0]
        return (
            1000 * t.median <= ms,
            f"median {1000 * t.median:.1f} ms, mean {1000 * t.mean:.1f}, p95 {1000 * t.p95:.1f}",
        )

    return judge


def matches_won_at_least(target: float) -> Callable[[MatchDuelSummary], tuple[bool, str]]:
    def judge(s: MatchDuelSummary) -> tuple[bool, str]:
        r = s.win_rate[0]
        low = 100 * (r.low or 0.0)
        high = 100 * (r.high or 0.0)
        return r.value >= target, (
            f"won {s.wins} of {s.games} matches, {100 * r.value:.1f}% ({low:.1f}-{high:.1f})"
        )

    return judge


def in_matches(judge: Callable[[DuelSummary], tuple[bool, str]]) -> Callable[..., tuple[bool, str]]:
    """A per-deal judge (the time per move) applied to a duel in matches: over all its deals."""
    return lambda s: judge(s.deals)


def checks(variants: Sequence[str], groups: Sequence[str]) -> list[Check]:
    out: list[Check] = []
    if "heuristic" in groups:
        for v in variants:
            out.append(
                Check("heuristic", v, "heuristic", "random", "beats random", margin_above_zero)
            )
    if "ladder" in groups:
        for v in variants:
            for upper, lower in (("@medium", "@easy"), ("@hard", "@medium"), ("@expert", "@hard")):
                out.append(Check("ladder", v, upper, lower, "stronger", margin_above_zero))
    if "targets" in groups:
        for v in variants:
            if v in TWO_PLAYER:
                out.append(
                    Check("targets", v, "expert", "random", ">= 95% won", win_rate_at_least(0.95))
                )
                out.append(
                    Check(
                        "targets", v, "expert", "heuristic", ">= 65% won", win_rate_at_least(0.65)
                    )
                )
                out.append(
                    Check(
                        "targets",
                        v,
                        "expert",
                        "heuristic",
                        "median <= 100 ms/move",
                        median_time_at_most(100),
                    )
                )
            else:
                out.append(
                    Check("targets", v, "expert", "heuristic", "clearly ahead", margin_above_zero)
                )
                if v == "sixtysix-4":
                    out.append(
                        Check(
                            "targets",
                            v,
                            "expert",
                            "heuristic",
                            "median <= 300 ms/move",
                            median_time_at_most(300),
                        )
                    )
    if "matches" in groups:
        for v in variants:
            if v in TWO_PLAYER:
                won = matches_won_at_least(0.90)
                out.append(
                    Check("matches", v, "expert", "heuristic", ">= 90% of matches", won, True)
                )
                slow = in_matches(median_time_at_most(100))
                out.append(
                    Check("matches", v, "expert", "heuristic", "median <= 100 ms/move", slow, True)
                )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Duels that measure the ladder of levels and issue 6's strength targets.",
        epilog=(__doc__ or "").split("Run, for example::", 1)[-1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=200, help="deals per duel (default 200)")
    parser.add_argument(
        "--matches", type=int, default=500, help="matches per duel of --group matches (default 500)"
    )
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--variant", action="append", help="name or alias, repeatable; default the built-in four"
    )
    parser.add_argument(
        "--group",
        action="append",
        choices=("heuristic", "ladder", "targets", "matches"),
        help="repeatable; default heuristic, ladder and targets",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    groups = args.group or ["heuristic", "ladder", "targets"]
    reg = get_registry()
    try:
        variants = [reg.variant(v).name for v in args.variant or ALL_VARIANTS]
    except UnknownVariantError as exc:
        parser.error(str(exc))
    done: dict[tuple[str, str, str, bool], DuelSummary | MatchDuelSummary] = {}
    rows: list[dict[str, object]] = []
    failed = False
    for check in checks(variants, groups):
        key = (check.variant, check.a, check.b, check.in_matches)
        row: dict[str, object] = {
            "group": check.group,
            "variant": check.variant,
            "a": check.a,
            "b": check.b,
            "requirement": check.requirement,
        }
        try:
            if key not in done:
                variant = reg.variant(check.variant)()
                contestants = [
                    Contestant(*resolve_player(spec, reg, seats=variant.seats))
                    for spec in (check.a, check.b)
                ]
                first, second = contestants
                seed = Seed(args.seed)
                done[key] = (
                    duel_matches(variant, first, second, args.matches, seed, args.jobs)
                    if check.in_matches
                    else duel(variant, first, second, args.deals, seed, args.jobs)
                )
            found = done[key]
            passed, figure = check.judge(found)
            summary = found.deals if isinstance(found, MatchDuelSummary) else found
            row.update(
                passed=passed,
                figure=figure,
                deals=summary.deals,
                games=summary.games,
                seconds=round(summary.seconds, 1),
                summary=found.as_json(),
            )
            failed |= not passed
        except UnknownBotError as exc:
            row.update(passed=None, figure=f"skipped: {exc}")
        rows.append(row)
        if not args.json:
            verdict = {True: "ok", False: "FAIL", None: "skip"}[row["passed"]]  # type: ignore[index]
            print(
                f"{verdict:4} {check.group:9} {check.variant:10} {check.a:>10} vs {check.b:<10}"
                f" {check.requirement:22} {row['figure']}"
                + (f"  [{row['deals']} deals, {row['seconds']} s]" if "deals" in row else ""),
                flush=True,
            )
    if args.json:
        head = {"deals": args.deals, "matches": args.matches, "seed": args.seed}
        print(json.dumps({**head, "results": rows}, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
