"""The strongest player: PIMC that plays exactly whenever the seat's information allows.

On top of :mod:`sixtysix.bots.pimc` the expert

- plays *exactly* when its information is complete: when only one layout of the unseen cards
  agrees with the view (two-player strict phase after the talon ran out, where the unseen
  cards are exactly the opponent's hand; late in three- and four-player deals once voids and
  play have located every card), the single deal is solved to the end;
- averages over *every* consistent deal instead of a random sample when there are few of
  them (late in a deal), so its estimate is then exact for the information set;
- spends a larger, still reproducible budget per move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from sixtysix.bots.base import Bot
from sixtysix.bots.pimc import Budget, PimcBot, describe_parameters
from sixtysix.plugins import hookimpl

EXPERT_BUDGET = Budget(samples=16, nodes=20_000, enumerate_up_to=24)


class ExpertBot(PimcBot):
    """PIMC with exact play on complete information and exhaustive small information sets."""

    name = "expert"
    description = "exact play when the hidden cards are known, else PIMC with a larger budget"
    default_budget: ClassVar[Budget] = EXPERT_BUDGET
    parameters: ClassVar[Mapping[str, str]] = describe_parameters(EXPERT_BUDGET)


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(ExpertBot)
