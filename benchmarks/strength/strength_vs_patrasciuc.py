"""A second peer yardstick: our bot in the engine of cpatrasciuc/schnapsen-card-game (BSD
licence, Python and Cython), in whole Bummerls against its MCTS player (its best honest
settings) or its heuristic player.

Why: ``strength_vs_schnapsen_package.py`` measures against one peer whose game has no closing;
this one plays the full Schnapsen of ours (closing, the jack exchange, Bummerls to 7) inside
another program's rules, against a search player its author tuned for strength. Their code is
never part of this repository: clone it beside ours and build it in a virtual environment of
its own, then name the checkout with ``--source``::

    git clone https://github.com/cpatrasciuc/schnapsen-card-game /tmp/patrasciuc
    python3 -m venv /tmp/pat-venv
    /tmp/pat-venv/bin/pip install -e '.[fast]' 'Cython~=3.2.1' 'setuptools~=80.9.0'
    (cd /tmp/patrasciuc/src && /tmp/pat-venv/bin/python setup.py build_ext --inplace)
    /tmp/pat-venv/bin/python -O -m benchmarks.strength.strength_vs_patrasciuc \\
        --source /tmp/patrasciuc --lockstep 1000
    /tmp/pat-venv/bin/python -O -m benchmarks.strength.strength_vs_patrasciuc \\
        --source /tmp/patrasciuc --bummerl 100 --opponent mcts --jobs 2

``--lockstep N`` first checks the rules: N random deals in both engines side by side
(``_patrasciuc_play.lockstep``). A Bummerl run does a short lockstep of its own first
(``--check``, 200 deals) and refuses to run if it finds a difference. Run with ``python -O``:
their engine validates every state and their MCTS formats every permutation's scores
otherwise (slower, same games). How the rules are matched, and the one rule no option of ours
expresses, is in ``_patrasciuc_adapter.py``'s module doc. ``--told`` is a yardstick, not a
player: our bot is told the opponent's hand before each decision (``_told.py``), which bounds
what reading that hand could add against their player. ``--records DIR`` writes each Bummerl
played as our game record (every deal is played in our engine beside theirs and must score the
same), for ``sixtysix replay`` and ``sixtysix analyse``. ``--shadow SPEC`` (repeatable) asks
their player again and each bot named, in its seat, at each of its decisions, and reports how
often each agreed with its choice, by phase (``_patrasciuc_shadow.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.strength._patrasciuc_rules import (
    OURS,
    PATRASCIUC_RULES,
    THEIRS,
    Pairing,
    rival_of,
    use_source,
)
from benchmarks.strength._peer_games import (
    move_times,
    note_without_numba,
    outcome_lines,
    outcomes,
    time_lines,
)
from benchmarks.strength._progress import Progress
from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import SixtySixError
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.stats import mean_of, wilson

#: The lockstep a Bummerl run does first.
CHECK_DEALS = 200


def _bummerl(source: str, bummerl: int, pairing: Pairing) -> Any:
    """One Bummerl's two seatings, in a worker (their packages imported there)."""
    use_source(source)
    from benchmarks.strength._patrasciuc_play import play_bummerl

    return play_bummerl(bummerl, pairing)


def run_lockstep(args: argparse.Namespace, deals: int) -> dict[str, Any]:
    from benchmarks.strength._patrasciuc_play import lockstep

    return lockstep(deals, args.seed).as_json()


def run_bummerls(args: argparse.Namespace) -> dict[str, Any]:
    from benchmarks.strength._patrasciuc_play import describe

    spec = args.bot
    note_without_numba()
    start = time.perf_counter()
    done: list[Any] = []
    interrupted = False
    pairing = Pairing(
        args.seed,
        spec,
        args.opponent,
        args.permutations,
        args.iterations,
        args.told,
        tuple(args.shadow),
    )
    progress = Progress(args.bummerl, "Bummerls")
    try:
        if args.jobs <= 1:
            for b in range(args.bummerl):
                done.append(_bummerl(args.source, b, pairing))
                progress.step()
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                futures = [
                    pool.submit(_bummerl, args.source, b, pairing) for b in range(args.bummerl)
                ]
                for future in futures:
                    done.append(future.result())
                    progress.step()
    except KeyboardInterrupt:
        interrupted = True
    progress.end()
    bummerls = [b for pair in done for b in pair]
    if args.records is not None:
        write_records(args.records, bummerls)
    return summarize(
        bummerls,
        ours=f"{spec}, told the opponent's hand" if args.told else spec,
        opponent=describe(args.opponent, args.permutations, args.iterations),
        seed=args.seed,
        seconds=time.perf_counter() - start,
        interrupted=interrupted,
        shadows=args.shadow,
    )


def write_records(folder: Path, bummerls: Sequence[Any]) -> None:
    """Each finished Bummerl's record, named by its number and the seat our bot held."""
    for b in bummerls:
        b.record.save(folder / f"bummerl-{b.bummerl:04d}-ours-seat{0 if b.ours_first else 1}.json")


def summarize(
    bummerls: Sequence[Any],
    *,
    ours: str,
    opponent: str,
    seed: int,
    seconds: float,
    interrupted: bool,
    shadows: Sequence[str] = (),
) -> dict[str, Any]:
    """The figures of finished Bummerls (each a ``_patrasciuc_play.Bummerl``)."""
    games = [g for b in bummerls for g in b.games]
    won = sum(b.won for b in bummerls)
    deals_won = sum(g.won for g in games)
    extra: dict[str, Any] = {}
    if shadows:
        from benchmarks.strength._agreement import agreement

        choices = [c for b in bummerls for c in b.choices]
        extra["agreement"] = agreement(choices, shadows)
    return {
        "peer": "cpatrasciuc/schnapsen-card-game",
        "ours": ours,
        "opponent": opponent,
        "rules": PATRASCIUC_RULES,
        "seed": seed,
        "bummerls": len(bummerls) // 2,
        "played": len(bummerls),
        "won": won,
        "win_rate": wilson(won, len(bummerls)).as_json(),
        "deals": len(games),
        "deals_won": deals_won,
        "deal_win_rate": wilson(deals_won, len(games)).as_json(),
        "deals_per_bummerl": mean_of([len(b.games) for b in bummerls]).as_json(),
        **outcomes(games),
        "time_per_move": move_times(games),
        "seconds": round(seconds, 1),
        "interrupted": interrupted,
        **extra,
    }


def report(data: dict[str, Any]) -> str:
    lines = [
        f"{data['peer']}: ours ({data['ours']}) against {data['opponent']} in their engine,"
        f" Bummerls to 7, seats swapped on the same cards; {data['seconds']} s"
        + (" (interrupted)" if data["interrupted"] else "")
    ]
    if not data["played"]:
        return "\n".join([*lines, "no Bummerl finished"])
    rate, deals = data["win_rate"], data["deal_win_rate"]
    lines.append(
        f"{data['bummerls']} Bummerls x 2 seatings: ours won {data['won']} of {data['played']}:"
        f" {100 * rate['value']:.1f}% (95% CI {100 * rate['low']:.1f}-{100 * rate['high']:.1f}%);"
        f" {data['deals_per_bummerl']['value']:.2f} deals per Bummerl"
    )
    lines.append(
        f"deals: ours won {data['deals_won']} of {data['deals']}: {100 * deals['value']:.1f}%"
        f" (95% CI {100 * deals['low']:.1f}-{100 * deals['high']:.1f}%)"
    )
    lines.extend(outcome_lines(data))
    lines.extend(time_lines(data["time_per_move"]))
    if "agreement" in data:
        from benchmarks.strength._agreement import agreement_lines

        lines.extend(agreement_lines(data["agreement"]))
    return "\n".join(lines)


def lockstep_report(data: dict[str, Any]) -> str:
    lines = [
        f"lockstep: {data['deals']} random deals, {data['steps']} steps, {data['views_compared']}"
        f" views compared in {data['seconds']} s: {data['differences']} differences",
        f"  (known, not counted: {data['steps_with_an_unmarried_king_or_queen_lead_of_ours']}"
        " steps where ours also offers a king or queen led unmarried;"
        f" {data['views_without_an_unseen_first_exchange']} views without an exchange their"
        " view cannot show)",
    ]
    for kind, example in data["examples"].items():
        lines.append(f"  {kind} ({data['by_kind'][kind]}), first: {example}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Our bot in cpatrasciuc/schnapsen-card-game's engine, Bummerls against"
        " its MCTS or heuristic player.",
        epilog=__doc__.split("::", 1)[1].split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--source", required=True, help="their checkout (or its src)")
    parser.add_argument("--lockstep", type=int, default=0, metavar="N", help="check N deals")
    parser.add_argument("--bummerl", type=int, default=0, metavar="N", help="play N Bummerls")
    parser.add_argument(
        "--opponent",
        default="mcts",
        metavar="mcts|heuristic|bot:SPEC",
        help="their MCTS (default) or heuristic player, or one of our bots through the adapter",
    )
    parser.add_argument("--bot", default="expert", help="our bot spec or @level")
    parser.add_argument("--permutations", type=int, default=None, help="their MCTS's (150)")
    parser.add_argument("--iterations", type=int, default=None, help="per permutation (667)")
    parser.add_argument(
        "--told",
        action="store_true",
        help="a yardstick: tell our bot the opponent's hand before each decision",
    )
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each Bummerl played as a game record (sixtysix replay / analyse reads it)",
    )
    parser.add_argument(
        "--shadow",
        action="append",
        default=[],
        metavar="SPEC",
        help="also ask this bot of ours (repeatable), and their player again, at each decision"
        " of their player: how often each agrees with it, by phase (their later randomness is"
        " reseeded, so the games differ from a run without)",
    )
    parser.add_argument("--check", type=int, default=CHECK_DEALS, help="lockstep before")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles and bots")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    if args.lockstep < 0 or args.bummerl < 0 or not (args.lockstep or args.bummerl):
        parser.error("give --lockstep N and/or --bummerl N")
    rival = rival_of(args.opponent)
    if rival is None and args.opponent not in THEIRS:
        parser.error(f"--opponent: {', '.join(THEIRS)} or {OURS}SPEC")
    if args.shadow and rival is not None:
        parser.error("--shadow: asks their player again, so --opponent must be one of theirs")
    named = [("--bot", args.bot), ("--opponent", rival), *(("--shadow", s) for s in args.shadow)]
    for flag, spec in named:
        try:
            if spec is not None:
                resolve_player(spec, get_registry(), seats=2)
        except SixtySixError as exc:
            parser.error(f"{flag}: {exc}")
    if args.records is not None:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"--records: cannot make {args.records}: {exc.strerror}")
    use_source(args.source)
    from benchmarks.strength._patrasciuc_play import ITERATIONS, PERMUTATIONS

    args.permutations = args.permutations or PERMUTATIONS
    args.iterations = args.iterations or ITERATIONS
    if __debug__:
        print("note: run with python -O (their engine validates every state)", file=sys.stderr)
    out: dict[str, Any] = {}
    deals = args.lockstep or (args.check if args.bummerl else 0)
    if deals:
        out["lockstep"] = run_lockstep(args, deals)
        if not args.json:
            print(lockstep_report(out["lockstep"]))
        if out["lockstep"]["differences"]:
            print("error: the engines differ; no strength is measured", file=sys.stderr)
            if args.json:
                print(json.dumps(out, indent=2))
            return 1
    if args.bummerl:
        out["bummerls"] = run_bummerls(args)
        if not args.json:
            print(report(out["bummerls"]))
    if args.json:
        print(json.dumps(out, indent=2))
    return 130 if out.get("bummerls", {}).get("interrupted") else 0


if __name__ == "__main__":
    raise SystemExit(main())
