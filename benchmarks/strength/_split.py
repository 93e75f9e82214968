"""A yardstick for three and four players: the expert at the calls only, or in the card play
only, and the rule player (the heuristic) everywhere else.

With the all-seeing player's ``sees`` (:mod:`_all_seeing`) it says how much of the way to the
ceiling the expert covers at the calls (naming trump, a partner's ace or solo, the concession
before the first card) and how much in the card play. Only the benchmarks construct it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from sixtysix.bots.base import Bot
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.players.heuristic import decide
from sixtysix.bots.players.table_play import is_call
from sixtysix.core.actions import Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.view import View

#: The two parts of a deal: the calls, and the card play.
PARTS = ("calls", "play")


def in_part(view: View, part: str) -> bool:
    """Whether the decision of ``view`` belongs to ``part`` (:data:`PARTS`)."""
    return is_call(view) == (part == "calls")


class ExpertAt(Bot):
    """The expert where ``at`` says, the rule player elsewhere (a benchmark's split; never
    registered as a bot). Every other parameter is the expert's."""

    name = "expert-at"
    description = "a yardstick (benchmarks only): the expert at the calls or in the play only"
    parameters: ClassVar[Mapping[str, str]] = {
        "at": "where the expert decides: calls or play (the rule player's moves elsewhere)",
        **ExpertBot.parameters,
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.at = self.params.get("at", "")
        if self.at not in PARTS:
            raise UnknownBotError(f"at must be one of {', '.join(PARTS)}, not {self.at!r}")
        own = {k: v for k, v in self.params.items() if k != "at"}
        self.expert = ExpertBot(seat, seed, own)

    def choose(self, view: View) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if in_part(view, self.at):
            return self.expert.choose(view)
        return decide(view)
