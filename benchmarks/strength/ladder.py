"""The ladder of levels: easy < medium < hard < expert, each against the one below.

Each step is a duel of ``sixtysix duel VARIANT @upper @lower``, in whole matches (``--matches
M``: each match in every seating, on the same cards deal by deal) and in single deals
(``--deals N``); either may be 0. For each step: the upper level's win rate with its Wilson
95% interval, and whether the step is clear of 50%: the interval of the upper level's share of
the decided results (draws left out, as neither side won them) lies above one half.

The duels run as ``sixtysix duel``'s do: in this process, in ``--jobs`` local processes, or
on Ray (``--backend ray``, a local instance of ``--jobs`` CPUs or the cluster at
``--address``), with the same results for a seed whatever the backend. The first Ctrl-C stops
handing out work and lets the matches or deals in progress finish; the ladder then reports the
steps finished so far and the one it cut short, with what that one had finished (exit status
130). A second Ctrl-C stops at once.

    python -m benchmarks.strength.ladder 66 --matches 20 --deals 0 --seed 1
    python -m benchmarks.strength.ladder 66-3 --matches 4 --deals 20 --seed 1 --json
    python -m benchmarks.strength.ladder 66-4 --matches 40 --steps medium,hard --jobs 2
    python -m benchmarks.strength.ladder 66 --matches 100 --backend ray --address auto
"""

from __future__ import annotations

import itertools
import json
import math
import sys
import time
from dataclasses import dataclass

from benchmarks.strength._share import script_parser
from sixtysix.bots.levels import LEVEL_PREFIX, LEVELS, resolve_player
from sixtysix.core.errors import UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.backends import Backend, StopFlag, make_backend, stop_notice
from sixtysix.sim.duel import Contestant, DealResult, iter_deals, local_backend, summarize
from sixtysix.sim.errors import BackendError
from sixtysix.sim.match_duel import DuelMatch, iter_matches, summarize_matches
from sixtysix.sim.stats import Estimate, wilson


@dataclass(frozen=True)
class Step:
    """One step of the ladder in one unit (matches or deals): the upper level's results."""

    upper: str
    lower: str
    unit: str
    results: int
    wins: int
    losses: int
    seconds: float
    median_ms: float
    #: Ctrl-C stopped the step before its ``count``: the figures are those finished before.
    cut: bool = False

    @property
    def rate(self) -> Estimate:
        return wilson(self.wins, self.results)

    @property
    def decided(self) -> Estimate:
        """The upper level's share of the results either side won."""
        return wilson(self.wins, self.wins + self.losses)

    @property
    def clear(self) -> bool:
        low = self.decided.low
        return low is not None and low > 0.5

    def as_json(self) -> dict[str, object]:
        return {
            "upper": self.upper,
            "lower": self.lower,
            "unit": self.unit,
            "results": self.results,
            "won": self.wins,
            "lost": self.losses,
            "win_rate": self.rate.as_json(key="estimate"),
            "of_decided": self.decided.as_json(key="estimate"),
            "clear_of_half": self.clear,
            "median_ms_upper": round(self.median_ms, 1),
            "seconds": round(self.seconds, 1),
            "interrupted": self.cut,
        }

    def text(self) -> str:
        r = self.rate
        d = self.decided
        low, high = r.low or 0.0, r.high or 0.0
        verdict = "clear of 50%" if self.clear else "NOT clear of 50%"
        return (
            f"{self.upper:>8} vs {self.lower:<8} {self.unit:<8} won {100 * r.value:5.1f}%"
            f" ({100 * low:.1f}-{100 * high:.1f}) of {self.results},"
            f" {100 * d.value:.1f}% of the {self.wins + self.losses} decided: {verdict}"
            f" ({self.median_ms:.0f} ms median per move, {self.seconds:.0f} s)"
            + (", cut short by Ctrl-C" if self.cut else "")
        )


def step(
    variant: Variant,
    upper: str,
    lower: str,
    unit: str,
    count: int,
    seed: int,
    jobs: int,
    backend: Backend | None = None,
    stop: StopFlag | None = None,
) -> Step | None:
    """One step, ``count`` matches or deals of ``@upper`` against ``@lower`` (on ``backend``,
    by default ``jobs`` local processes); after a Ctrl-C, the step so far (None if nothing was
    finished)."""
    reg = get_registry()
    players = [
        Contestant(*resolve_player(LEVEL_PREFIX + n, reg, seats=variant.seats))
        for n in (upper, lower)
    ]
    labels = (players[0].label, players[1].label)
    start = time.perf_counter()
    matches: list[DuelMatch] = []
    deals: list[DealResult] = []
    cut = False
    try:
        if unit == "matches":
            matches.extend(iter_matches(variant, players, Seed(seed), count, jobs, backend, stop))
        else:
            deals.extend(iter_deals(variant, players, Seed(seed), count, jobs, backend, stop))
    except KeyboardInterrupt:
        cut = True
    cut = cut or (stop is not None and stop.requested)
    if cut and not matches and not deals:
        return None
    if unit == "matches":
        found = summarize_matches(variant.name, labels, matches, seed)
        results, wins, losses = found.games, found.wins, found.losses
        times = found.deals.times[0]
    else:
        summary = summarize(variant.name, labels, deals, seed)
        results, wins, losses = summary.games, summary.wins, summary.losses
        times = summary.times[0]
    median = 0.0 if math.isnan(times.median) else 1000 * times.median
    seconds = time.perf_counter() - start
    return Step(upper, lower, unit, results, wins, losses, seconds, median, cut)


def uppers() -> list[str]:
    """The levels that head a step: every level but the lowest."""
    return list(LEVELS)[1:]


def main(argv: list[str] | None = None) -> int:
    p = script_parser(__doc__)
    p.add_argument("--matches", type=int, default=10, help="matches per step (default 10)")
    p.add_argument("--deals", type=int, default=0, help="deals per step as well (default 0)")
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    p.add_argument(
        "--jobs",
        "--workers",
        dest="jobs",
        type=int,
        default=None,
        help="worker processes, or CPUs of a local Ray instance (default 1 locally, every CPU"
        " on Ray)",
    )
    p.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where the duels run"
    )
    p.add_argument("--address", default=None, help="with --backend ray: the cluster to join")
    p.add_argument(
        "--steps",
        default=",".join(uppers()),
        help="the steps played, by their upper level, comma-separated (default all)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = p.parse_args(argv)
    try:
        variant = get_registry().variant(args.variant)()
    except UnknownVariantError as exc:
        p.error(str(exc))
    if args.matches < 0 or args.deals < 0 or args.matches + args.deals < 1:
        p.error("--matches and --deals must be at least 0 (not both 0)")
    if args.jobs is not None and args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.address and args.backend != "ray":
        p.error("--address is only for --backend ray")
    wanted = [n.strip().lower().removeprefix(LEVEL_PREFIX) for n in args.steps.split(",")]
    unknown = [n for n in wanted if n not in uppers()]
    if unknown or not wanted:
        p.error(f"--steps names upper levels among {', '.join(uppers())}, not {args.steps!r}")
    plan = [
        (upper, lower, unit, count)
        for lower, upper in itertools.pairwise(LEVELS)
        if upper in wanted
        for unit, count in (("matches", args.matches), ("deals", args.deals))
        if count
    ]
    try:
        backend = (
            local_backend(args.jobs or 1)
            if args.backend == "local"
            else make_backend(args.backend, args.jobs, args.address)
        )
    except BackendError as exc:
        p.error(str(exc))
    steps: list[Step] = []
    status = 0
    if not args.json:
        print(f"{variant.name}: the levels, each against the one below, seed {args.seed}")
    with backend, StopFlag(stop_notice) as stop:
        for upper, lower, unit, count in plan:
            try:
                found = step(variant, upper, lower, unit, count, args.seed, 1, backend, stop)
            except KeyboardInterrupt:  # between two steps
                found = None
                status = 130
            if found is not None:
                steps.append(found)
                if not args.json:
                    print(found.text(), flush=True)
            if status or found is None or found.cut:
                finished = sum(not s.cut for s in steps)
                print(f"interrupted: {finished} steps finished", file=sys.stderr)
                status = 130
                break
    if args.json:
        data = {"variant": variant.name, "seed": args.seed, "steps": [s.as_json() for s in steps]}
        print(json.dumps(data, indent=2))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
