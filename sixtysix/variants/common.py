"""The options every variant of the family shares (RULES.md, "Common to all variants").

Variants subclass :class:`FamilyOptions` and redefine a field only where their default or
choices differ (a redefined dataclass field keeps its place, so ``sixtysix rules`` lists the
common options first, in the same order, for every variant).
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtysix.core.options import Options, option


@dataclass(frozen=True)
class FamilyOptions(Options):
    claim: str = option(
        "auto",
        "auto: the deal ends the moment a seat has 66; manual: the seat on lead claims",
        choices=("auto", "manual"),
    )
    open_scores: bool = option(False, "show running points to people in manual-claim games")
    marriages: bool = option(True, "marriages (20, 40 in trumps) may be declared")
    schneider_card_points_only: bool = option(
        False, "the 1/2/3 scale counts the losers' card points only, not marriages"
    )
    target: int = option(7, "game points that end a match")
