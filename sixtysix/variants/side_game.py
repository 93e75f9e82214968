"""Helpers for the variants scored by side with pooled points (three- and four-player 66)."""

from __future__ import annotations

from sixtysix.core.cards import FULL_DECK
from sixtysix.core.outcome import schneider_scale
from sixtysix.core.rules import Rules
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


def called_trump_rules(
    *,
    seats: int,
    deal_rounds: tuple[int, ...],
    marriages: bool,
    must_overtrump: bool,
    trump_below: bool,
    sides: str,
    partner_call: bool = False,
    concession: bool = False,
    open_scores: bool = False,
) -> Rules:
    """The engine knobs of a talonless called-trump game (three- and four-player 66).

    The forehand names trump after his first four cards; play is strict from the first trick;
    there is no exchange, closing, manual claim or last-trick bonus (so ``open_scores``
    changes nothing shown, but the rules still state the option).
    """
    return Rules(
        seats=seats,
        deck=FULL_DECK,
        deal_rounds=deal_rounds,
        trump_call=True,
        call_after=4,
        trump_below=trump_below,
        partner_call=partner_call,
        sides=sides,
        strict_always=True,
        marriages=marriages,
        must_overtrump=must_overtrump,
        concession=concession,
        open_scores=open_scores,
    )
