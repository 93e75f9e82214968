"""Playing strength: the difficulty ladder and the issue's targets, measured with duels.

Why a benchmark and not a test: strength needs hundreds of deals per figure and the search
players think for tens of milliseconds per move, which is minutes, not a unit test; and the
time-per-move figures depend on the machine and its load.

Every figure comes from :func:`sixtysix.sim.duel.duel` (the engine behind ``sixtysix duel``):
each deal is played in every seating on identical cards, win rates carry a 95% Wilson interval
and game points per deal a 95% normal interval over deals. Three groups of measurements:

``heuristic``
    the rule-based player against ``random`` in every variant (it must beat it clearly);
``ladder``
    each difficulty level against the one below (``@medium`` vs ``@easy``, ``@hard`` vs
    ``@medium``, ``@expert`` vs ``@hard``) in every variant: "measurably stronger" means the
    95% interval of the game-point margin per deal lies above zero;
``targets``
    issue 6's figures for ``expert``: at least 95% of games won against ``random`` and at least
    65% against ``heuristic`` in 66 and Schnapsen, clearly ahead of ``heuristic`` with three and
    four players, median time per move at most 100 ms (two players) and 300 ms (four).

A comparison whose bot is not installed is listed as skipped. Run, for example::

    python benchmarks/strength/strength.py --group heuristic --deals 1000
    python benchmarks/strength/strength.py --group ladder --deals 200 --jobs 2
    python benchmarks/strength/strength.py --group targets --variant 66 --variant schnapsen --json

The exit status is 1 when a measured check fails, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant, DuelSummary, duel

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
    judge: Callable[[DuelSummary], tuple[bool, str]]


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
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Duels that measure the ladder of levels and issue 6's strength targets.",
        epilog=(__doc__ or "").split("Run, for example::", 1)[-1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=200, help="deals per duel (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--variant", action="append", help="name or alias, repeatable; default the built-in four"
    )
    parser.add_argument(
        "--group",
        action="append",
        choices=("heuristic", "ladder", "targets"),
        help="repeatable; default all three",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    groups = args.group or ["heuristic", "ladder", "targets"]
    reg = get_registry()
    try:
        variants = [reg.variant(v).name for v in args.variant or ALL_VARIANTS]
    except UnknownVariantError as exc:
        parser.error(str(exc))
    done: dict[tuple[str, str, str], DuelSummary] = {}
    rows: list[dict[str, object]] = []
    failed = False
    for check in checks(variants, groups):
        key = (check.variant, check.a, check.b)
        row: dict[str, object] = {
            "group": check.group,
            "variant": check.variant,
            "a": check.a,
            "b": check.b,
            "requirement": check.requirement,
        }
        try:
            if key not in done:
                contestants = [
                    Contestant(*resolve_player(spec, reg)) for spec in (check.a, check.b)
                ]
                variant = reg.variant(check.variant)()
                first, second = contestants
                done[key] = duel(variant, first, second, args.deals, Seed(args.seed), args.jobs)
            summary = done[key]
            passed, figure = check.judge(summary)
            row.update(
                passed=passed,
                figure=figure,
                deals=summary.deals,
                games=summary.games,
                seconds=round(summary.seconds, 1),
                summary=summary.as_json(),
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
        print(json.dumps({"deals": args.deals, "seed": args.seed, "results": rows}, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
