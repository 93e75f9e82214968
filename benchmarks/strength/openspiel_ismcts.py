"""OpenSpiel's ISMCTS against one of our bots, in the very games of ``sixtysix duel``.

The searcher is OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts``: UCT, a
random-rollout evaluator, the most visited action) as
:class:`sixtysix.envs.openspiel_bots.ISMCTSBot` on our OpenSpiel game
(:mod:`sixtysix.envs.openspiel_game`), resampling its root at every simulation through the
game's ``resample_from_infostate`` (the project's sampler) with its own random state. It plays
as a bot of ours: at each decision it is handed the OpenSpiel state of a deal drawn from its
own view alone (ISMCTS resamples its root from the information state anyway, so which
consistent deal it is handed changes nothing), and its answer is played. Its opponent gets its
own view, as always. The deals, seatings (seats swapped on identical cards) and summary are
those of ``sixtysix duel VARIANT ismcts OPPONENT --deals N --seed S``; Ctrl-C reports the deals
finished so far (exit status 130).

    python -m benchmarks.strength.openspiel_ismcts 66 heuristic --deals 50 --simulations 100
    python -m benchmarks.strength.openspiel_ismcts 66 expert --deals 50 --simulations 100

Needs the ``openspiel`` extra. One process: the searcher is pure Python and slow.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from benchmarks.strength._duels import play_all, summary_line
from sixtysix.bots.base import Bot, float_param, int_param
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.levels import resolve_player
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import UnknownBotError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.envs.openspiel_bots import ISMCTSBot
from sixtysix.envs.openspiel_game import RANDOM_DEALER, openspiel_game
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant

_games: dict[tuple[str, tuple[tuple[str, bool | int | str], ...]], Any] = {}


def game_of(view: View) -> Any:
    """The OpenSpiel game of the view's variant and options (the dealer dealt by chance)."""
    key = (view.variant, view.options)
    if key not in _games:
        options: dict[str, Any] = dict(view.options)
        _games[key] = openspiel_game(view.variant, dealer=RANDOM_DEALER, **options)
    return _games[key]


class OpenSpielISMCTS(Bot):
    """OpenSpiel's ISMCTS bot, asked with an OpenSpiel state drawn from this seat's view."""

    name = "openspiel-ismcts"
    parameters: ClassVar[Mapping[str, str]] = {
        "simulations": "ISMCTS simulations per decision (default 100)",
        "uct_c": "UCT exploration constant (default 2.0)",
        "seed": "the bot's own seed",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.simulations = int_param(self.params, "simulations", 100, low=1, high=100_000)
        self.uct_c = float_param(self.params, "uct_c", 2.0, high=100.0)
        word = self.seed.words(("numpy",), 1)[0]
        self.rng = np.random.RandomState(word % (1 << 32))
        self.stream = self.seed.stream(("deal",))
        self.searcher: ISMCTSBot | None = None

    def choose(self, view: View) -> Action:
        game = game_of(view)
        if self.searcher is None:
            self.searcher = ISMCTSBot(
                game, simulations=self.simulations, uct_c=self.uct_c, random_state=self.rng
            )
        state = game.state_of_deal(Sampler(view).sample(self.stream))
        return ACTIONS[int(self.searcher.step(state))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("variant", help="variant name or alias, as for sixtysix duel")
    parser.add_argument("opponent", help="our bot (NAME:k=v or @level)")
    parser.add_argument("--deals", type=int, default=50, help="deals to play (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument(
        "--simulations", type=int, default=100, help="ISMCTS simulations per decision"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration constant")
    args = parser.parse_args(argv)
    args.jobs = 1
    reg = get_registry()
    try:
        variant = reg.variant(args.variant)()
        opponent = Contestant(*resolve_player(args.opponent, reg, seats=variant.seats))
    except (UnknownVariantError, UnknownBotError) as exc:
        parser.error(str(exc))
    if args.deals < 1 or args.simulations < 1 or args.uct_c < 0:
        parser.error("--deals and --simulations must be at least 1, --uct-c at least 0")
    params = {"simulations": str(args.simulations), "uct_c": str(args.uct_c)}
    label = f"openspiel-ismcts:simulations={args.simulations}"
    contestants = [Contestant(label, OpenSpielISMCTS, params), opponent]
    start = time.perf_counter()
    played, status = play_all(variant, contestants, args)
    what = f"OpenSpiel ISMCTS ({args.simulations} simulations) against {args.opponent}"
    print(summary_line(variant, contestants, played, args, time.perf_counter() - start, what))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
