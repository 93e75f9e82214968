"""Helpers for the variants scored by side with pooled points (three- and four-player 66)."""

from __future__ import annotations

from sixtysix.core.outcome import schneider_scale
from sixtysix.core.state import DealState


def side_scale(state: DealState, losing_side: int, card_points_only: bool = False) -> int:
    """The 1/2/3 scale from the losing side's pooled points (or card points) and tricks."""
    seats = state.seats_of_side(losing_side)
    if card_points_only:
        points = sum(state.card_points[s] for s in seats)
    else:
        points = state.side_points(losing_side)
    return schneider_scale(points, sum(state.tricks[s] for s in seats))


def valid_points(state: DealState) -> tuple[int, ...]:
    """Each seat's valid points, as a result reports them."""
    return tuple(state.valid_points(s) for s in range(state.n))
