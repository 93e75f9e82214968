"""Four-player 66: trump named after four cards, a partner called by an ace, or solo."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from sixtysix.core.options import Options, option
from sixtysix.core.outcome import DealEnd, EndKind, Outcome, Reason
from sixtysix.core.rules import Rules, Sides
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins import hookimpl
from sixtysix.variants.common import FamilyOptions
from sixtysix.variants.side_game import called_trump_rules, side_scale, valid_points

#: Side numbers set by the engine for ``Sides.CALLED_PARTNER``: the caller's side is 0.
CALLER_SIDE = 0
OTHER_SIDE = 1


@dataclass(frozen=True)
class SixtySix4Options(FamilyOptions):
    variant_name: ClassVar[str] = "sixtysix-4"

    claim: str = option(
        "auto",
        "auto only: the deal ends the moment a side's pooled valid points reach 66",
        choices=("auto",),
    )
    open_scores: bool = option(
        False, "show running points to people (no effect: claims are automatic here)"
    )
    target: int = option(16, "game points that end a match (also played to 21 or 26)")
    must_overtrump: bool = option(
        False, "a follower who trumps must beat a trump already in the trick if he can"
    )
    trump_from_below: bool = option(
        False, "the forehand may take trump from his 6th card, shown to all ('trump below')"
    )
    solo_loss: str = option(
        "single",
        "a failed solo gives each opponent the 1/2/3 scale (single) or twice it (double)",
        choices=("single", "double"),
    )


class SixtySix4(Variant):
    """Four-player 66 with an ace-called partner, 24 cards (9 to ace), no talon.

    Each seat gets 6 cards, 4 then 2. After his first 4 cards the forehand names trump (with
    the option trump_from_below he may instead take the suit of his 6th card, shown to all).
    Holding all 6 cards, he then calls a partner by naming an ace of a suit he holds whose ace
    he does not hold (the trump ace too), or plays solo against the other three; with no such
    ace he must play solo. Nobody but the ace's holder knows the partner until that ace is
    played. The caller leads. From the first trick: follow suit and beat the highest card of
    the led suit if you can, unless a non-trump lead has been trumped; void, trump if you can;
    these duties hold even when your partner is winning. Marriages 20/40, valid once the
    declaring seat's side has a trick. The first side whose pooled valid points reach 66 wins:
    each of its seats scores 1, 2 or 3 from the losers' pooled points and tricks (a winning
    soloist twice that: 2, 4 or 6; a failed solo gives each opponent the single scale, or the
    double with solo_loss=double). Nobody at 66: nobody scores. A match to 16 (21 or 26)."""

    name = "sixtysix-4"
    aliases: ClassVar[tuple[str, ...]] = ("66-4",)
    seats = 4
    description = "four-player 66: trump called after 4 cards, a partner called by an ace, or solo"
    options_class = SixtySix4Options

    def make_rules(self, options: Options) -> Rules:
        assert isinstance(options, SixtySix4Options)
        o = options
        return called_trump_rules(
            seats=4,
            deal_rounds=(4, 2),
            marriages=o.marriages,
            must_overtrump=o.must_overtrump,
            trump_below=o.trump_from_below,
            sides=Sides.CALLED_PARTNER,
            partner_call=True,
            open_scores=o.open_scores,
        )

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        """Score by side from the true sides (the end of a deal may reveal the partner)."""
        assert isinstance(self.options, SixtySix4Options)
        o = self.options
        gp = [0] * state.n
        if end.kind == EndKind.REACHED:
            winners = end.side
            losers = OTHER_SIDE if winners == CALLER_SIDE else CALLER_SIDE
            scale = side_scale(state, losers, o.schneider_card_points_only)
            if state.solo and winners == CALLER_SIDE:
                scale *= 2  # a winning soloist scores double: 2/4/6
            elif state.solo and o.solo_loss == "double":
                scale *= 2  # a failed solo, option solo_loss=double
            for seat in state.seats_of_side(winners):
                gp[seat] = scale
            reason = Reason.REACHED_66
        elif end.kind == EndKind.CARDS_OUT:
            # With automatic claims a side at 66 ends the deal at once, so cards running out
            # means nobody reached 66: nobody scores.
            reason = Reason.DRAW
        else:  # pragma: no cover - no manual claims and no concession in this variant
            raise ValueError(f"unexpected end {end.kind} in four-player 66")
        return Outcome(reason, tuple(gp), valid_points(state), tuple(state.tricks))


@hookimpl
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(SixtySix4)
