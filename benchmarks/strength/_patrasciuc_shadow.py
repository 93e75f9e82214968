"""Shadows of their player in ``strength_vs_patrasciuc.py --shadow SPEC``: at each of its
decisions with a choice, what their player chooses when asked again and what each of our bots
named would choose in its seat, on the same view (import only after
``_patrasciuc_rules.use_source``: it imports their packages at module level).

Why: a Bummerl run says who wins, not whether one of our bots plays like their player. Their
player asked twice (its own randomness reseeded for the second answer) bounds the agreement
any rendition of it can reach; a bot of ours that agrees with it about as often plays like it
on the positions their games reach. The shadows follow the real deal: each observes every view
of their seat and is told the action actually played, so a choice of its own never enters the
game. Their randomness is reseeded after every shadowed decision, so a run with shadows plays
other games than one without (each is reproducible).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ai.player import Player
from model.game_state import GameState
from model.player_action import PlayerAction
from model.player_pair import PlayerPair

from benchmarks.strength._agreement import Choice
from benchmarks.strength._patrasciuc_adapter import SixtySixPlayer, our_steps
from benchmarks.strength._patrasciuc_rules import Pairing, patrasciuc_variant
from sixtysix.bots.levels import resolve_player
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry


def phase_of(view: GameState) -> str:
    """The phase of a decision, by their view: the cards face down in the talon, or why none."""
    if view.is_talon_closed:
        return "closed"
    return f"talon {len(view.talon)}" if view.talon else "talon gone"


class Shadows:
    """Their player asked again, and our bots of ``pairing.shadows``, for one deal of one
    seating: ``seat`` is their player's."""

    def __init__(
        self,
        pairing: Pairing,
        twin: Player,
        seat: int,
        deal: int,
        key: tuple[Any, ...],
        reseed: Callable[[str], None],
    ) -> None:
        self.twin = twin
        #: Seeds their randomness (Python's and their search's) from a string.
        self.reseed = reseed
        self.players: list[SixtySixPlayer] = []
        variant = patrasciuc_variant()
        for i, spec in enumerate(pairing.shadows):
            _, cls, params = resolve_player(spec, get_registry(), seats=2)
            bot = cls(seat, Seed(pairing.seed).child(("patrasciuc/shadow", i, *key)), params)
            self.players.append(SixtySixPlayer(bot, variant, seat, deal))

    def ask(
        self,
        view: GameState,
        points: PlayerPair[int],
        action: PlayerAction,
        choice: bool,
        key: str,
    ) -> Choice | None:
        """Every answer to the decision their player just took (``action``), or None where it
        had no ``choice``; their randomness is reseeded from ``key`` for the second answer and
        after the shadows."""
        steps = our_steps(action)
        answers: list[int] = []
        twin = 0
        if choice:
            self.reseed(f"{key}/twin")
            twin = our_steps(self.twin.request_next_action(view, points))[0]
        for player in self.players:
            ours = player.view(view, points)
            if choice:
                answers.append(int(player.bot.choose(ours)))
            player.tracker.mine(view, steps)
        self.reseed(f"{key}/on")
        return Choice(phase_of(view), steps[0], twin, tuple(answers)) if choice else None
