"""Scoring shared by the two-player talon games (66 and Schnapsen).

The two games settle a deal the same way except for a few switches, held in one frozen
:class:`TwoHandScoring` that each variant builds from its options (:meth:`make_scoring`):
where a winning closer's scale is read (final points or the moment of closing), what a failed
close and a false claim cost, and who takes a deal nobody won with 66. The engine's
:meth:`~TwoHandVariant.settle` and the compiled rules (:mod:`sixtysix.compiled`) both read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtysix.core.options import Options
from sixtysix.core.outcome import DealEnd, EndKind, Outcome, Reason, schneider_scale
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.variants.common import FamilyOptions


@dataclass(frozen=True, slots=True)
class TwoHandScoring:
    """How a two-hand game settles a deal, beyond the :class:`Rules` knobs."""

    #: The 1/2/3 scale counts the loser's card points only (marriages and bonus left out).
    card_points_only: bool = False
    #: A winning closer scores from the opponent's position when the talon was closed.
    scale_at_close: bool = False
    #: A failed close gives 3, not 2, when the opponent had no trick at the close.
    failed_close_2or3: bool = True
    #: A false claim gives 3 instead of 2 when the claimer's opponent has no trick.
    false_claim_three: bool = False
    #: Manual claims, cards out, nobody at 66: the last trick's winner takes 1 point.
    played_out_last_trick: bool = False
    #: Automatic claims, cards out, nobody at 66: a draw (else the last trick's winner takes 1).
    tie_draw: bool = False


class TwoHandVariant(Variant):
    seats = 2

    def __init__(self, options: Options | None = None) -> None:
        super().__init__(options)
        self.scoring: TwoHandScoring = self.make_scoring(self.options)

    def make_scoring(self, options: Options) -> TwoHandScoring:
        """The scoring switches of ``options``: :class:`TwoHandScoring`'s defaults, with the
        family's ``schneider_card_points_only`` for the family's options. A variant whose
        options set more of them (66's ``failed_close`` and ``tie``) states them here."""
        if isinstance(options, FamilyOptions):
            return TwoHandScoring(card_points_only=options.schneider_card_points_only)
        return TwoHandScoring()

    def _scale(self, state: DealState, loser: int, points: tuple[int, ...]) -> int:
        if self.scoring.card_points_only:
            return schneider_scale(state.card_points[loser], state.tricks[loser])
        return schneider_scale(points[loser], state.tricks[loser])

    def _closing_scale(self, state: DealState, loser: int, points: tuple[int, ...]) -> int:
        if not self.scoring.scale_at_close:
            return self._scale(state, loser, points)
        source = state.close_card_points if self.scoring.card_points_only else state.close_points
        return schneider_scale(source[loser], state.close_tricks[loser])

    def _failed_close(self, state: DealState, opponent: int) -> int:
        """What the closer's opponent scores when the close fails."""
        if self.scoring.failed_close_2or3 and state.close_tricks[opponent] == 0:
            return 3
        return 2

    def _tie_reason(self, state: DealState, gp: list[int]) -> Reason:
        """Cards out, automatic claims, nobody at 66 (65-65 with the default bonus)."""
        if self.scoring.tie_draw:
            return Reason.DRAW
        gp[state.last_winner] = 1
        return Reason.LAST_TRICK

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        points = tuple(state.valid_points(s) for s in range(2))
        gp = [0, 0]
        closer = state.closed_by
        goal = state.rules.winning_points
        kind = end.kind
        if kind == EndKind.REACHED:
            w = end.seat
            if closer < 0:
                gp[w] = self._scale(state, 1 - w, points)
                reason = Reason.REACHED_66
            elif w == closer:
                gp[w] = self._closing_scale(state, 1 - w, points)
                reason = Reason.REACHED_66
            else:
                gp[w] = self._failed_close(state, w)
                reason = Reason.FAILED_CLOSE
        elif kind == EndKind.FALSE_CLAIM:
            opponent = 1 - end.seat
            if closer == end.seat:
                gp[opponent] = self._failed_close(state, opponent)
            elif self.scoring.false_claim_three and state.tricks[opponent] == 0:
                gp[opponent] = 3
            else:
                gp[opponent] = 2
            reason = Reason.FALSE_CLAIM
        elif kind == EndKind.CARDS_OUT:
            if closer >= 0:
                if points[closer] >= goal:
                    gp[closer] = self._closing_scale(state, 1 - closer, points)
                    reason = Reason.REACHED_66
                else:
                    gp[1 - closer] = self._failed_close(state, 1 - closer)
                    reason = Reason.FAILED_CLOSE
            elif state.rules.manual_claim:
                at_goal = [s for s in range(2) if points[s] >= goal]
                if at_goal:
                    best = max(points[s] for s in at_goal)
                    for s in at_goal:
                        if points[s] == best:
                            gp[s] = 1
                    reason = Reason.PLAYED_OUT
                elif self.scoring.played_out_last_trick:
                    gp[state.last_winner] = 1
                    reason = Reason.LAST_TRICK
                else:
                    reason = Reason.PLAYED_OUT
            else:
                reason = self._tie_reason(state, gp)
        else:  # pragma: no cover - two-player games have no concession
            raise ValueError(f"unexpected end {kind} in a two-player game")
        return Outcome(reason, tuple(gp), points, tuple(state.tricks))


#: The methods that score a two-hand deal; a subclass that overrides one of them scores
#: differently from the compiled rules' copy of :meth:`TwoHandVariant.settle`.
SCORING_METHODS = ("settle", "_scale", "_closing_scale", "_failed_close", "_tie_reason")


def overridden_scoring(variant: Variant) -> frozenset[str]:
    """The :data:`SCORING_METHODS` that ``variant``'s class overrides."""
    cls = type(variant)
    return frozenset(
        m for m in SCORING_METHODS if getattr(cls, m) is not getattr(TwoHandVariant, m)
    )
