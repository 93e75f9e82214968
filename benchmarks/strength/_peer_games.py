"""What a game and a Bummerl in a peer's engine come to, from our bot's side: shared by both
peer yardsticks (the ``schnapsen`` package, ``_peer_adapter.py``; cpatrasciuc/schnapsen-card-game,
``_patrasciuc_adapter.py``), and importing neither peer, as each lives in its own environment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sixtysix.sim.stats import TimeStats


@dataclass(frozen=True)
class Game:
    """One deal played in a peer's engine."""

    deal: int
    #: Our bot led the deal's first trick.
    ours_led: bool
    won: bool
    #: The game points the deal's winner scored.
    game_points: int
    our_times: tuple[float, ...]
    their_times: tuple[float, ...]


@dataclass(frozen=True)
class Bummerl:
    """One Bummerl in one seating: its deals, in order, and who won it."""

    bummerl: int
    #: Our bot led the first deal (or sat in the seat that does).
    ours_first: bool
    games: tuple[Game, ...]
    #: Game points: ours, theirs.
    totals: tuple[int, int]

    @property
    def won(self) -> bool:
        return self.totals[0] > self.totals[1]


def move_times(games: Sequence[Game]) -> dict[str, Any]:
    """Each side's time per move over ``games`` (mean, median, p95), as the reports give it."""
    return {
        "ours": TimeStats.of([t for g in games for t in g.our_times]).as_json(),
        "theirs": TimeStats.of([t for g in games for t in g.their_times]).as_json(),
    }
