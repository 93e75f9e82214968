"""The ceiling of a variant, and each bot's share of the way from the heuristic's level to it.

The all-seeing player (``_all_seeing.py``: it sees every card and searches the true deal; a
yardstick, never a registered bot) plays the heuristic on the deals and seatings of ``sixtysix
duel VARIANT all-seeing heuristic --deals N --seed S``; each bot of ``--bots`` plays the
heuristic on the very same deals, seatings and bot seeds, and so does the heuristic itself (its
level: half of the games not drawn, no game points either way). Each bot's share of the way
is (bot - heuristic) / (ceiling - heuristic), in games won and in game points per deal, with a
95% percentile bootstrap interval over deals (the three duels resampled together, deal by
deal). With ``--matches M`` every duel is played in whole matches instead (``sixtysix duel
... --matches M``: each match in every seating, on the same cards deal by deal), and the share
is in matches won, resampled by match. With ``--parts`` (three and four players) the ceiling's
edge is split: the all-seeing player that looks at the true deal only for the calls (trump, a
partner's ace or solo, the concession before the first card) and the one that looks only in the
card play, the rule player's moves elsewhere; and each expert of ``--bots`` at the calls only and
in the play only (``_split.py``). Ctrl-C reports the duels finished so far (exit status 130).

    python -m benchmarks.strength.ceiling 66-3 --deals 100 --seed 1 --bots expert
    python -m benchmarks.strength.ceiling 66 --deals 200 --seed 1 --bots expert,@hard --json
    python -m benchmarks.strength.ceiling 66-4 --matches 10 --seed 1 --bots expert
    python -m benchmarks.strength.ceiling 66-3 --deals 200 --seed 1 --bots expert --parts
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.strength._all_seeing import AllSeeing
from benchmarks.strength._share import (
    DealFigures,
    Share,
    per_deal,
    per_match,
    script_parser,
    share_of_way,
)
from benchmarks.strength._split import ExpertAt
from benchmarks.strength._watched import Watched
from sixtysix.bots.levels import resolve_player
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import (
    Contestant,
    DealResult,
    DuelSummary,
    arrangements,
    iter_deals,
    summarize,
)
from sixtysix.sim.match_duel import DuelMatch, MatchDuelSummary, iter_matches, summarize_matches
from sixtysix.sim.stats import Estimate

CEILING = "all-seeing"


def split_bots(text: str) -> list[str]:
    """``expert:samples=8,margin=0,@hard`` -> ``["expert:samples=8,margin=0", "@hard"]``: a
    comma starts a new bot unless what follows is one more ``key=value`` of the one before."""
    bots: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        if bots and "=" in item and ":" not in item and ":" in bots[-1]:
            bots[-1] += "," + item
        else:
            bots.append(item)
    return bots


@dataclass(frozen=True)
class Run:
    """One duel against the opponent: its summary (per deal, and in matches when played in
    matches) and its figures by deal (or by match)."""

    label: str
    summary: DuelSummary
    units: dict[int, DealFigures]
    matches: MatchDuelSummary | None = None


def play(
    variant: Variant, label: str, players: Sequence[Contestant], args: argparse.Namespace
) -> tuple[Run, bool]:
    """One duel, in deals or (``--matches``) in matches; whether it was interrupted (then
    with what finished before Ctrl-C)."""
    labels = (players[0].label, players[1].label)
    seed = Seed(args.seed)
    start = time.perf_counter()
    interrupted = False
    if args.matches:
        matches: list[DuelMatch] = []
        try:
            matches.extend(iter_matches(variant, players, seed, args.matches, args.jobs))
        except KeyboardInterrupt:
            interrupted = True
        seconds = time.perf_counter() - start
        found = summarize_matches(variant.name, labels, matches, args.seed, seconds, interrupted)
        return Run(label, found.deals, per_match(matches), found), interrupted
    played: list[DealResult] = []
    try:
        played.extend(iter_deals(variant, players, seed, args.deals, args.jobs))
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    summary = summarize(variant.name, labels, played, args.seed, seconds, interrupted)
    return Run(label, summary, per_deal(played)), interrupted


def points(e: Estimate) -> str:
    """``+0.186 (+0.136 to +0.237)``; without an interval (too few deals), the figure alone."""
    if e.low is None or e.high is None:
        return f"{e.value:+.3f}"
    return f"{e.value:+.3f} ({e.low:+.3f} to {e.high:+.3f})"


def line(run: Run) -> str:
    """A duel's figures in one line (in matches: the matches won first)."""
    s = run.summary
    matches = ""
    if run.matches is not None:
        matches = f"matches won {run.matches.win_rate[0].percent()} of {run.matches.games}; "
    return (
        f"{run.label:<24} {matches}games won {s.win_rate[0].percent()} of {s.games},"
        f" {points(s.margin)} game points per deal,"
        f" {1000 * s.times[0].median:.1f} ms median per move, {s.seconds:.0f} s"
    )


def shares(run: Run, base: Run, ceiling: Run, seed: int) -> tuple[Share, Share]:
    """The run's share of the way in games (matches) won and in game points per deal."""
    return (
        share_of_way(run.units, base.units, ceiling.units, "won", seed=seed),
        share_of_way(run.units, base.units, ceiling.units, "points", seed=seed),
    )


def parser() -> argparse.ArgumentParser:
    p = script_parser(__doc__)
    p.add_argument("--deals", type=int, default=100, help="deals to play (default 100)")
    p.add_argument(
        "--matches", type=int, default=0, help="play whole matches instead of --deals deals"
    )
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    p.add_argument("--bots", default="", help="bots measured, comma-separated (NAME:k=v, @level)")
    p.add_argument("--opponent", default="heuristic", help="the level measured from")
    p.add_argument("--nodes", type=int, default=None, help="the all-seeing player's nodes a move")
    p.add_argument(
        "--level", type=int, default=None, help="the all-seeing player's nested play-outs (1-3)"
    )
    p.add_argument(
        "--parts",
        action="store_true",
        help="split the ceiling's edge (and each expert's) between the calls and the card play",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    reg = get_registry()
    try:
        variant = reg.variant(args.variant)()
        opponent = Contestant(*resolve_player(args.opponent, reg, seats=variant.seats))
        if args.level is not None:
            AllSeeing(0, Seed(0), {"level": str(args.level)})  # a bad level fails here
        bots = [
            Contestant(*resolve_player(s, reg, seats=variant.seats)) for s in split_bots(args.bots)
        ]
    except (UnknownVariantError, UnknownBotError) as exc:
        p.error(str(exc))
    if min(args.deals, args.jobs, args.nodes or 1) < 1 or args.matches < 0:
        p.error("--deals, --jobs and --nodes must be at least 1, --matches at least 0")
    nodes = {} if args.nodes is None else {"nodes": str(args.nodes)}
    if args.level is not None:
        nodes["level"] = str(args.level)
    plan: list[tuple[Variant, str, Contestant]] = [
        (variant, f"{opponent.label} (itself)", opponent),
        (Watched(variant), f"{CEILING} (ceiling)", Contestant(CEILING, AllSeeing, nodes)),
        *((variant, b.label, b) for b in bots),
    ]
    if args.parts:
        if variant.seats < 3:
            p.error("--parts needs three or four players (two have no calls)")
        for part in ("calls", "play"):
            where = "at the calls" if part == "calls" else "in the play"
            sees = Contestant(CEILING, AllSeeing, {**nodes, "sees": part})
            plan.append((Watched(variant), f"{CEILING} {where}", sees))
            for b in bots:
                if issubclass(b.cls, ExpertBot):
                    split = Contestant(f"{b.label} {where}", ExpertAt, {**b.params, "at": part})
                    plan.append((variant, split.label, split))
    if not args.json:
        seatings = len(arrangements(variant.seats))
        units = f"{args.matches} matches" if args.matches else f"{args.deals} deals"
        print(
            f"{variant.name}: against {opponent.label}, {units}"
            f" ({seatings} seatings each), seed {args.seed}"
        )
    runs: list[Run] = []
    status = 0
    for table, label, who in plan:
        run, interrupted = play(table, label, (who, opponent), args)
        runs.append(run)
        if not args.json:
            print(line(run), flush=True)
            if len(runs) > 2:
                won, points = shares(run, runs[0], runs[1], args.seed)
                what = "matches" if args.matches else "games"
                print(
                    f"{'':<24} share of the way: {what} {won.text()}, game points {points.text()}"
                )
        if interrupted:
            print(f"interrupted: {len(run.units)} finished of {label}", file=sys.stderr)
            status = 130
            break
    if args.json:
        print(json.dumps(report(runs, args), indent=2))
    return status


def report(runs: Sequence[Run], args: argparse.Namespace) -> dict[str, object]:
    """Every duel's summary and, for the bots, their shares of the way."""
    out: dict[str, object] = {"variant": args.variant, "seed": args.seed}
    out["matches" if args.matches else "deals"] = args.matches or args.deals
    out["duels"] = [
        {"label": r.label, **(r.summary if r.matches is None else r.matches).as_json()}
        for r in runs
    ]
    if len(runs) > 2:
        found = {}
        for run in runs[2:]:
            won, points = shares(run, runs[0], runs[1], args.seed)
            what = "matches" if args.matches else "games"
            found[run.label] = {what: won.as_json(), "game_points": points.as_json()}
        out["share_of_the_way"] = found
    return out


if __name__ == "__main__":
    raise SystemExit(main())
