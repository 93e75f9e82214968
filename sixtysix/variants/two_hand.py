"""Scoring shared by the two-player talon games (66 and Schnapsen).

The two games settle a deal the same way except for a few switches, which subclasses set as
class attributes: where a winning closer's scale is read (final points or the moment of
closing), what a false claim costs, and who takes a deal nobody won with 66.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.outcome import DealEnd, EndKind, Outcome, Reason, schneider_scale
from sixtysix.core.rules import Sides
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant


class TwoHandVariant(Variant):
    seats = 2
    #: A winning closer scores from the opponent's position when the talon was closed.
    close_scale_at_close: ClassVar[bool] = False
    #: A false claim gives 3 instead of 2 when the claimer's opponent has no trick.
    false_claim_three_without_trick: ClassVar[bool] = False
    #: Manual claims, cards out, nobody at 66: the last trick's winner takes 1 point.
    played_out_last_trick: ClassVar[bool] = False

    #: Rules a variant fixes instead of offering as options (e.g. Schnapsen's failed close is
    #: always "2 or 3"); read by :meth:`_opt` when the options have no such field.
    fixed_rules: ClassVar[Mapping[str, object]] = {}

    def _opt(self, name: str, default: object) -> object:
        """An option's value, else the variant's fixed rule, else the generic default."""
        return getattr(self.options, name, self.fixed_rules.get(name, default))

    def _scale(self, state: DealState, loser: int, points: tuple[int, ...]) -> int:
        if self._opt("schneider_card_points_only", False):
            return schneider_scale(state.card_points[loser], state.tricks[loser])
        return schneider_scale(points[loser], state.tricks[loser])

    def _closing_scale(self, state: DealState, loser: int, points: tuple[int, ...]) -> int:
        if not self.close_scale_at_close:
            return self._scale(state, loser, points)
        source = (
            state.close_card_points
            if self._opt("schneider_card_points_only", False)
            else state.close_points
        )
        return schneider_scale(source[loser], state.close_tricks[loser])

    def _failed_close(self, state: DealState, opponent: int) -> int:
        """What the closer's opponent scores when the close fails."""
        if self._opt("failed_close", "2or3") == "2or3" and state.close_tricks[opponent] == 0:
            return 3
        return 2

    def _tie_reason(self, state: DealState, gp: list[int]) -> Reason:
        """Cards out, automatic claims, nobody at 66 (65-65 with the default bonus)."""
        if self._opt("tie", "last_trick_wins") == "draw":
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
            elif self.false_claim_three_without_trick and state.tricks[opponent] == 0:
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
                elif self.played_out_last_trick:
                    gp[state.last_winner] = 1
                    reason = Reason.LAST_TRICK
                else:
                    reason = Reason.PLAYED_OUT
            else:
                reason = self._tie_reason(state, gp)
        else:  # pragma: no cover - two-player games have no concession
            raise ValueError(f"unexpected end {kind} in a two-player game")
        return Outcome(reason, tuple(gp), points, tuple(state.tricks))


def plain_two_hand(variant: Variant) -> bool:
    """Whether ``variant`` is a two-hand game that the dedicated copies of the two-player
    rules (the vectorised simulator, the compiled search) can play: a
    :class:`TwoHandVariant` on the generic engine (``new_deal`` not overridden), two seats
    playing alone, a turned-up or shown trump, no trump call, partner call or concession, the
    exchange on lead only (not ``exchange_anytime``), and a deck within the 24 cards.
    """
    if not isinstance(variant, TwoHandVariant) or type(variant).new_deal is not Variant.new_deal:
        return False
    r = variant.rules
    return (
        r.seats == 2
        and r.sides == Sides.SEATS
        and not r.trump_call
        and not r.trump_below
        and not r.partner_call
        and not r.concession
        and not r.exchange_anytime
        and (r.turnup_after_round is not None or r.trump_from_dealer_last)
        and r.deck >> NUM_CARDS == 0
    )
