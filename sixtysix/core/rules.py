"""The generic knobs of the engine: what a variant turns on, how a deal is dealt, how a match
ends.

A variant translates its named options into one frozen :class:`Rules` and one
:class:`MatchFormat`; the engine and the match loop read only these knobs, never a variant
name. Deal scoring is not a knob: the variant settles each deal itself (see
:meth:`sixtysix.core.variant.Variant.settle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.core.cards import NINE


class Sides:
    """How seats form sides: every seat alone, a declarer against the rest, or a called partner."""

    SEATS = "seats"
    DECLARER = "declarer"
    CALLED_PARTNER = "called_partner"


@dataclass(frozen=True, slots=True)
class Rules:
    seats: int
    deck: int
    #: Cards given to each seat per round, the forehand (the seat after the dealer) first.
    deal_rounds: tuple[int, ...]
    #: After which round (0-based) a card is turned up for trump; None: no turn-up.
    turnup_after_round: int | None = None
    #: Trump is the suit of the dealer's last dealt card, shown to all (practice 66).
    trump_from_dealer_last: bool = False
    #: The forehand names trump after seeing his first ``call_after`` cards.
    trump_call: bool = False
    call_after: int = 0
    #: ``trump below`` is offered: the forehand's last dealt card is shown and names trump.
    trump_below: bool = False
    #: After trump, the forehand calls a partner by an ace, or plays solo.
    partner_call: bool = False
    sides: str = Sides.SEATS
    #: No open phase: duties hold from the first trick.
    strict_always: bool = False
    marriages: bool = True
    marriage_after_close: bool = True
    exchange: bool = False
    exchange_rank: int = NINE
    exchange_min_talon: int = 3
    exchange_needs_trick: bool = True
    #: The exchange is the holder's whenever he is to act (as follower too, before his card),
    #: not only on lead; the other conditions still hold.
    exchange_anytime: bool = False
    closing: bool = False
    close_needs_trick: bool = False
    manual_claim: bool = False
    last_trick_bonus: int = 0
    must_overtrump: bool = False
    #: The declarer may concede (before the first card, or with ``concede_points`` valid points).
    concession: bool = False
    concede_points: int = 33
    winning_points: int = 66
    #: People are shown the running points even with manual claims (RULES.md: otherwise a
    #: manual-claim game is a memory game); with automatic claims they always are. Not read by
    #: the engine, only by the tables that show a game. Default: hidden.
    open_scores: bool = False

    def strict_phase(self, closed: bool, talon_left: int) -> bool:
        """The strict phase (the follower's duties hold): no open phase at all, the talon
        closed, or no card left in it (the turn-up counted)."""
        return self.strict_always or closed or talon_left == 0

    @property
    def hand_size(self) -> int:
        return sum(self.deal_rounds)


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How a match ends: once a seat's total reaches ``target``, or, with ``deals`` set,
    after exactly that many deals (``target`` then plays no part)."""

    #: Game points that end a match. Default: 7, the family's usual match, for a variant
    #: that states no target (:meth:`sixtysix.core.variant.Variant.make_match_format`).
    target: int = 7
    deals: int | None = None

    def winners(self, totals: Sequence[int], deals: int | None = None) -> list[int]:
        """The seats with the highest total once the match is over after ``deals`` finished
        deals (several when tied: a shared win), else an empty list. ``deals`` may be left out
        only in a match to the target."""
        if self.deals is None:
            if max(totals) < self.target:
                return []
        elif deals is None:
            raise ValueError("a match of a fixed number of deals needs the deals played")
        elif deals < self.deals:
            return []
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]
