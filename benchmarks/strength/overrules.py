"""Do the expert's overrules pay? Each disagreement with the rule player, played out both ways.

In the two-player games the expert keeps the rule player's move (the ``heuristic``, with the
weights fitted for the game where there are some) unless its values rate another at least
``margin`` game points higher (``sixtysix/bots/players/expert.py``). This script measures what that
threshold should be. It plays the expert against an opponent on the same deals and seatings as
``sixtysix duel``; wherever the expert's values are estimates (a search that did not reach the
end of every imagined deal, blended with play-outs while the talon is open unless ``--open``
says otherwise, exactly where the expert's margin applies) and the expert's favourite differs
from the heuristic's move, the
game is copied twice: one copy plays the search's move, the other the heuristic's, and both are
played to the end by the expert and the opponent, each seeing only its own view. The difference
in the expert's game points (search move minus heuristic move) is the worth of overruling
there, free of the face-up bias of the search's own values. The main game goes on with the
expert's real choice.

Reported by the search's gap (its value of its favourite minus its value of the heuristic's
move), by the kind of move, and for card plays by how much the rule player itself preferred
its card (``rule <1`` and so on: its own score of its card minus that of the search's, in card
points): the mean worth of overruling with its standard error. Positive means overruling pays.

    python -m benchmarks.strength.overrules 66 heuristic --deals 300 --seed 21
    python -m benchmarks.strength.overrules schnapsen random --deals 300

Two-player games; needs numba (the ``fast`` extra) for the compiled search.
"""

from __future__ import annotations

import argparse
import collections
import math
import time

from sixtysix.bots.base import Bot
from sixtysix.bots.players.expert import (
    FACE_UP_METHODS,
    OPEN_BLEND,
    OPEN_METHODS,
    ExpertBot,
    advisor_weights,
)
from sixtysix.bots.players.heuristic import Reading, decide
from sixtysix.core.actions import ACTIONS
from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.duel import deal_path

#: Upper ends of the gap buckets, in game points.
GAPS = (0.1, 0.25, 0.5, 1.0, math.inf)


def play_out(state: DealState, first: int, bots: dict[int, Bot], seat: int) -> int:
    """``first`` then both bots to the end: ``seat``'s game points minus the other's."""
    state.apply(ACTIONS[first])
    while state.phase != Phase.OVER:
        actor = state.to_act
        state.apply(bots[actor].choose(state.view(actor)))
    outcome = state.outcome
    assert outcome is not None
    return outcome.game_points[seat] - outcome.game_points[1 - seat]


#: Upper ends of the buckets of the rule player's own preference for its card over the
#: search's (its card-play score, in card points).
RULE_GAPS = (1.0, 3.0, 6.0, math.inf)


def bucket(value: float, edges: tuple[float, ...] = GAPS) -> tuple[float, float]:
    """The bucket ``[low, high)`` among ``edges`` (upper ends, from 0) that holds ``value``."""
    low = 0.0
    for high in edges:
        if value < high:
            return low, high
        low = high
    raise AssertionError(value)


def gap_label(gap: float) -> str:
    low, high = bucket(gap)
    return f"{low:g} to {high:g}" if high != math.inf else f"{low:g} and more"


def rule_label(doubt: float) -> str:
    low, high = bucket(doubt, RULE_GAPS)
    return f"rule <{high:g}" if high != math.inf else f"rule >={low:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("opponent", help="the other bot, e.g. heuristic or random")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--open",
        choices=OPEN_METHODS,
        default=OPEN_BLEND,
        help="how the expert values open-talon positions (its open parameter; default blend)",
    )
    args = parser.parse_args()
    registry = build_registry()
    variant = registry.variant(args.variant)()
    if variant.seats != 2:
        parser.error("two-player games only")
    opponent = registry.bot(args.opponent)
    seed = Seed(args.seed)
    worth: dict[tuple[str, str], list[int]] = collections.defaultdict(list)
    start = time.perf_counter()
    for deal in range(args.deals):
        for me in (0, 1):

            def bots(tag: int, me: int = me, deal: int = deal) -> dict[int, Bot]:
                expert = ExpertBot(me, seed.child(("expert", deal, me, tag)), {"open": args.open})
                other = opponent(1 - me, seed.child(("opponent", deal, me)), {})
                return {me: expert, 1 - me: other}

            players = bots(0)
            expert = players[me]
            assert isinstance(expert, ExpertBot)
            state = variant.new_deal(variant.deal(seed, deal_path(deal), deal % 2))
            tries = 0
            while state.phase != Phase.OVER:
                seat = state.to_act
                view = state.view(seat)
                action = players[seat].choose(view)
                last = expert.last if seat == me else None
                # Estimates, where the expert's margin applies (as in ExpertBot.choose).
                if last is not None and not last.solved:
                    guarded = last.method in FACE_UP_METHODS
                    favourite = last.best(expert.budget.close_confidence if guarded else 0.0)
                    weights = advisor_weights(view)
                    advice = int(decide(view, weights))
                    if favourite != advice:
                        tries += 1
                        a = play_out(state.copy(), favourite, bots(2 * tries), me)
                        b = play_out(state.copy(), advice, bots(2 * tries + 1), me)
                        kind = "lead" if not state.trick else "follow"
                        if favourite >= NUM_CARDS:
                            kind = str(ACTIONS[favourite]).split()[0]
                        gap = gap_label(last.values[favourite] - last.values[advice])
                        keys = [(kind, gap), ("any", gap), (kind, "any")]
                        if favourite < NUM_CARDS and advice < NUM_CARDS:
                            # How much the rule player itself preferred its card.
                            reading = Reading(view, weights)
                            doubt = reading.play_score(advice) - reading.play_score(favourite)
                            keys += [(rule_label(doubt), gap), (rule_label(doubt), "any")]
                        for key in keys:
                            worth[key].append(a - b)
                expert.last = None
                state.apply(action)
    print(
        f"{variant.name}: expert against {args.opponent}, {args.deals} deals,"
        f" {time.perf_counter() - start:.0f} s; worth of overruling the heuristic"
        " (search move minus heuristic move, game points):"
    )
    for key in sorted(worth):
        values = worth[key]
        n = len(values)
        mean = sum(values) / n
        se = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1) / n)
        print(f"  {key[0]:>9} gap {key[1]:>12}: n={n:5d} mean {mean:+.3f} (se {se:.3f})")


if __name__ == "__main__":
    main()
