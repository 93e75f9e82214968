"""How much of the opponent's hand does the expert's reading place? The deals it would search.

The expert plays both seats of ``--deals`` deals against itself (the benchmark level; another
with ``--player SPEC``). At every decision of seat 0 with a choice while the talon is open, once
the opponent has played, the deals the expert would search are drawn as it draws them: with
``--read 1`` uniformly among those consistent with the view, with ``--read K`` K deals per
deal kept, weighed by how well the rule player's choices in each explain the opponent's play
(the expert's default is 3). ``--model fitted`` reads with the rule player the expert's margin
defers to instead of the plain heuristic. Each row gives the mean share of the opponent's true
hand that the kept deals put in its hand, and that share less the uniform draws' on the same
decisions, with 95% intervals over decisions. Told the hand, the share is 100%:
``told_hand.py`` says what that is worth in Bummerls, so the two together say how much of it
a sharper reading could win back::

    python -m benchmarks.strength.reading schnapsen --deals 40 --read 3 --read 16
    python -m benchmarks.strength.reading 66 --deals 40 --read 3 --model fitted
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from benchmarks.strength._share import script_parser
from sixtysix.bots.base import Bot
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.levels import resolve_player
from sixtysix.bots.players.expert import (
    EXPERT_BUDGET,
    RANDOM_PRIOR,
    advisor_weights,
    open_two_player,
    rollout_policy,
    rule_players,
    weighted_deals,
)
from sixtysix.core.errors import SixtySixError
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.stats import Estimate, mean_of

#: A bot class and its parameters.
Spec = tuple[type[Bot], dict[str, str]]
#: Deals kept per decision, as many as the expert searches.
SAMPLES = EXPERT_BUDGET.samples
MODELS = ("heuristic", "fitted")


def placed_share(deals: Sequence[DealState], kept: Sequence[int], seat: int, hand: int) -> float:
    """The share of ``hand`` (a card mask) that the kept ``deals`` put in ``seat``'s hand, each
    deal counted as often as it was kept."""
    cards = hand.bit_count()
    total = sum(kept)
    right = sum(
        times * (deal.hands[seat] & hand).bit_count()
        for deal, times in zip(deals, kept, strict=True)
    )
    return right / (cards * total)


def readings(
    variant: Variant, player: Spec, reads: Sequence[int], model: str, deals: int, seed_value: int
) -> tuple[list[list[float]], list[float]]:
    """``player`` on both seats of ``deals`` deals; at each decision of seat 0 with a choice, the
    talon open and some play of the opponent's to read, the share of its hand placed right by
    each reading in ``reads``, and the seconds each reading took in all."""
    seed = Seed(seed_value)
    shares: list[list[float]] = [[] for _ in reads]
    seconds = [0.0] * len(reads)
    for deal in range(deals):
        state = variant.new_deal(variant.deal(seed, ("reading", deal), deal % 2))
        players = [player[0](s, seed.child(("play", deal, s)), player[1]) for s in range(2)]
        while state.phase != Phase.OVER:
            seat = state.to_act
            view = state.view(seat)
            played = any(s != seat for s, _ in view.history)
            if seat == 0 and len(view.legal_actions) > 1 and open_two_player(view) and played:
                reader = (
                    rollout_policy(2)
                    if model == "heuristic"
                    else rule_players(advisor_weights(view), 2)
                )
                for i, read in enumerate(reads):
                    stream = seed.stream(("read", deal, len(view.history), i))
                    start = time.perf_counter()
                    drawn, kept, _ = weighted_deals(
                        view, Sampler(view, variant), stream, SAMPLES, reader, RANDOM_PRIOR, read
                    )
                    seconds[i] += time.perf_counter() - start
                    shares[i].append(placed_share(drawn, kept, 1, state.hands[1]))
            state.apply_legal(players[seat].choose(view))
    return shares, seconds


def _percent(estimate: Estimate) -> str:
    """``mean% (low-high)``, or the mean alone without an interval."""
    if estimate.low is None or estimate.high is None:
        return f"{100 * estimate.value:.1f}%"
    return f"{100 * estimate.value:.1f}% ({100 * estimate.low:.1f}-{100 * estimate.high:.1f})"


def _points(estimate: Estimate) -> str:
    """A difference of shares in percentage points, signed: ``+2.9 (-0.9 to +6.8)``."""
    if estimate.low is None or estimate.high is None:
        return f"{100 * estimate.value:+.1f}"
    return f"{100 * estimate.value:+.1f} ({100 * estimate.low:+.1f} to {100 * estimate.high:+.1f})"


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--read", type=int, action="append", help="deals drawn per deal kept (repeatable; 3)"
    )
    parser.add_argument("--model", choices=MODELS, default="heuristic", help="the reading's model")
    parser.add_argument("--player", default="expert", help="who plays the deals (expert)")
    parser.add_argument("--deals", type=int, default=40, help="deals played (40)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    reads = args.read or [3]
    if args.deals < 1 or min(reads) < 1 or max(reads) > 64:
        parser.error("--deals must be at least 1, and --read from 1 to 64")
    registry = get_registry()
    try:
        variant = registry.variant(args.variant)()
        if variant.seats != 2:
            parser.error(f"{variant.name} has {variant.seats} seats; this script takes two")
        _, cls, params = resolve_player(args.player, registry, seats=2)
    except SixtySixError as exc:
        parser.error(str(exc))
    rows = [1, *reads]
    shares, seconds = readings(variant, (cls, params), rows, args.model, args.deals, args.seed)
    asked = len(shares[0])
    print(
        f"{variant.name}: {args.player} against itself, {args.deals} deals, seed {args.seed},"
        f" the {args.model} model: {asked} decisions of seat 0 with a choice, the talon open"
        f" and the opponent's play to read\n"
    )
    print(
        "| deals drawn per deal kept | opponent's hand placed | points over uniform draws | time |"
    )
    print("|---:|---:|---:|---:|")
    for read, share, secs in zip(rows, shares, seconds, strict=True):
        gain = mean_of([a - b for a, b in zip(share, shares[0], strict=True)])
        label, less = ("1 (uniform)", "") if read == 1 else (str(read), _points(gain))
        print(
            f"| {label} | {_percent(mean_of(share))} | {less} |"
            f" {1000 * secs / max(1, asked):.1f} ms |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
