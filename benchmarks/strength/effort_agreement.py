"""Does more time change the expert's moves? Its choice at each effort beside the benchmark level's.

The expert at effort 1 plays both seats of ``--deals`` deals against itself (each deal alone);
at every decision of seat 0 that has more than one legal action, the expert at each
``--effort`` E is asked too, with the same view, and the script counts how often its choice
differs. Effort 1 under another seed is the control: it shows how often the benchmark level
disagrees with itself by the luck of its sampled deals, so a rate at effort E near the
control's means the extra deals only steady the choice. Read beside ``time_curve.py``: a move
that never changes cannot win a Bummerl::

    python -m benchmarks.strength.effort_agreement schnapsen --deals 30 --effort 1 --effort 8
    python -m benchmarks.strength.effort_agreement 66 --deals 20 --effort 28 --seed 3
"""

from __future__ import annotations

import sys
import time

from benchmarks.strength._share import script_parser
from sixtysix.bots.base import Bot
from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import SixtySixError
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry

#: A bot class and its parameters.
Spec = tuple[type[Bot], dict[str, str]]


def unlike(
    variant: Variant, player: Spec, asked: list[Spec], deals: int, seed_value: int
) -> tuple[int, list[int], list[float]]:
    """``player`` on both seats of ``deals`` deals; at each decision of seat 0 with a choice,
    every ``asked`` bot chooses too. The decisions asked, how many choices of each differed
    from the player's, and the seconds each took."""
    seed = Seed(seed_value)
    differ = [0] * len(asked)
    seconds = [0.0] * len(asked)
    decisions = 0
    for deal in range(deals):
        state = variant.new_deal(variant.deal(seed, ("agreement", deal), deal % 2))
        players = [player[0](s, seed.child(("play", deal, s)), player[1]) for s in range(2)]
        others = [cls(0, seed.child(("ask", deal, i)), p) for i, (cls, p) in enumerate(asked)]
        while state.phase != Phase.OVER:
            seat = state.to_act
            view = state.view(seat)
            action = int(players[seat].choose(view))
            if seat == 0 and len(view.legal_actions) > 1:
                decisions += 1
                for i, bot in enumerate(others):
                    start = time.perf_counter()
                    differ[i] += int(bot.choose(view)) != action
                    seconds[i] += time.perf_counter() - start
            state.apply_legal(action)
    return decisions, differ, seconds


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--effort", type=float, action="append", help="an effort to ask beside (repeatable; 8)"
    )
    parser.add_argument("--deals", type=int, default=30, help="deals played (30)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    registry = get_registry()
    try:
        variant = registry.variant(args.variant)()
        if variant.seats != 2:
            parser.error(f"{variant.name} has {variant.seats} seats; this script takes two")
        bots = []
        for effort in args.effort or [8.0]:
            _, cls, params = resolve_player(f"expert:effort={effort:g}", registry, seats=2)
            bots.append((effort, cls, params))
        _, expert, _ = resolve_player("expert", registry, seats=2)
    except SixtySixError as exc:
        parser.error(str(exc))
    asked, differ, seconds = unlike(
        variant, (expert, {}), [(cls, params) for _, cls, params in bots], args.deals, args.seed
    )
    print(
        f"{variant.name}: the expert at effort 1 against itself, {args.deals} deals, seed"
        f" {args.seed}: {asked} decisions of seat 0 with a choice\n"
    )
    print("| effort | choices unlike effort 1's | time per decision |")
    print("|---:|---:|---:|")
    for (effort, _, _), n, secs in zip(bots, differ, seconds, strict=True):
        share = 100 * n / max(1, asked)
        print(f"| {effort:g} | {n} ({share:.1f}%) | {1000 * secs / max(1, asked):.0f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
