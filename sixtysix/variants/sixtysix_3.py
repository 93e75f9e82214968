"""Three-player 66 with a called trump: a declarer against two partners, no talon."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from sixtysix.core.options import Options, option
from sixtysix.core.outcome import DealEnd, EndKind, Outcome, Reason
from sixtysix.core.rules import Rules, Sides
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl
from sixtysix.variants.common import FamilyOptions
from sixtysix.variants.side_game import called_trump_rules, side_scale, valid_points

#: What each partner scores when the declarer concedes before any card, and later.
CONCEDE_BEFORE_PLAY = 2
CONCEDE_LATER = 1


def concession_pay(cards_played: int) -> int:
    """What each partner scores when the declarer concedes, after ``cards_played`` cards."""
    return CONCEDE_BEFORE_PLAY if cards_played == 0 else CONCEDE_LATER


@dataclass(frozen=True)
class SixtySix3Options(FamilyOptions):
    variant_name: ClassVar[str] = "sixtysix-3"

    claim: str = option(
        "auto", "the deal ends the moment a side has 66 (auto is the only mode)", choices=("auto",)
    )
    open_scores: bool = option(
        False, "show running points to people (no effect: claims are automatic here)"
    )
    target: int = option(16, "game points that end a match (16, or 21 for a longer one)")
    must_overtrump: bool = option(
        False, "a follower with none of the led suit must beat the highest trump if he can"
    )
    no66: str = option(
        "draw",
        "nobody at 66 when the cards run out: nobody scores (draw), or each seat of the side"
        " that took the last trick scores 1 (last_trick_wins)",
        choices=("draw", "last_trick_wins"),
    )


class SixtySix3(Variant):
    """Three-player 66 with a called trump, 24 cards (9 to ace), no talon: 8 cards each, dealt
    4 and 4. After his first four cards the forehand (the seat after the dealer) names trump,
    or asks for trump from below: his 8th card is shown to all and its suit is trump. He is
    the declarer, plays alone against the other two as partners, and leads. Strict play from
    the first trick: follow suit and beat the highest card of the led suit (not needed once a
    non-trump lead has been trumped), else trump (option must_overtrump), else any card; the
    duties hold even when a partner is winning. Marriages 20/40 count once the side has won a
    trick. Points of the partners are pooled; the first side to 66 wins. A winning declarer
    scores 1, 2 or 3 from the partners' points and tricks; if the partners win, each of them
    scores 1, 2 or 3 from the declarer's. Nobody at 66: nobody scores (option no66). The
    declarer may concede on his turn: before the first card each partner scores 2, later
    (with 33 valid points) each scores 1. The dealer moves one seat on each deal; a match
    is played to 16 (or 21)."""

    name = "sixtysix-3"
    aliases: ClassVar[tuple[str, ...]] = ("66-3",)
    seats = 3
    description = "three-player 66: 8 cards each, called trump, a declarer against two partners"
    options_class = SixtySix3Options

    def make_rules(self, options: Options) -> Rules:
        assert isinstance(options, SixtySix3Options)
        o = options
        return called_trump_rules(
            seats=3,
            deal_rounds=(4, 4),
            marriages=o.marriages,
            must_overtrump=o.must_overtrump,
            trump_below=True,  # always offered with three players
            sides=Sides.DECLARER,
            concession=True,
            open_scores=o.open_scores,
        )

    def conceded_points(self, view: View) -> tuple[int, ...] | None:
        """Each partner's pay if the declarer concedes now; the declarer scores 0."""
        if view.declarer is None:
            return None
        pay = concession_pay(len(view.played))
        return tuple(0 if s == view.declarer else pay for s in range(view.seats))

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        assert isinstance(self.options, SixtySix3Options)
        o = self.options
        n = state.n
        declarer = state.declarer
        declarer_side = state.sides[declarer]
        gp = [0] * n
        kind = end.kind
        winner_side = -1
        if kind == EndKind.REACHED:
            winner_side = end.side
        elif kind == EndKind.CARDS_OUT:
            # Auto claims end the deal the moment a side has 66, so this is nobody at 66;
            # the check keeps the scoring right even if that ever changed.
            reached = [
                side
                for side in sorted(set(state.sides))
                if state.side_points(side) >= state.rules.winning_points
            ]
            if reached:
                winner_side = reached[0]
        elif kind == EndKind.CONCEDED:
            pay = concession_pay(state.played)
            for s in range(n):
                if state.sides[s] != declarer_side:
                    gp[s] = pay
            return Outcome(Reason.CONCEDED, tuple(gp), valid_points(state), tuple(state.tricks))
        else:  # pragma: no cover - claims are automatic in this variant
            raise ValueError(f"unexpected end {kind} in three-player 66")

        if winner_side >= 0:
            losers = next(side for side in state.sides if side != winner_side)
            scale = side_scale(state, losers, o.schneider_card_points_only)
            for s in state.seats_of_side(winner_side):
                gp[s] = scale
            reason = Reason.REACHED_66
        elif o.no66 == "last_trick_wins":
            for s in state.seats_of_side(state.sides[state.last_winner]):
                gp[s] = 1
            reason = Reason.LAST_TRICK
        else:
            reason = Reason.DRAW
        return Outcome(reason, tuple(gp), valid_points(state), tuple(state.tricks))


@hookimpl
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(SixtySix3)
