"""Two-player 66 (Turkish Altmışaltı), the family's namesake."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from sixtysix.core.cards import FULL_DECK, NINE
from sixtysix.core.options import Options, option
from sixtysix.core.rules import MatchFormat, Rules
from sixtysix.core.variant import Variant
from sixtysix.plugins import hookimpl
from sixtysix.variants.common import FamilyOptions
from sixtysix.variants.two_hand import TwoHandScoring, TwoHandVariant

#: Deals in a match of ``match=four_deals`` ([001]: "4 oyun oynanır").
FOUR_DEALS = 4


@dataclass(frozen=True)
class SixtySixOptions(FamilyOptions):
    variant_name: ClassVar[str] = "sixtysix"

    target: int = option(7, "game points that end a match (the Portal offers 3, 7, 11)")
    failed_close: str = option(
        "flat2",
        "a failed close gives the opponent 2 (flat2), or 3 if he had no trick at the close (2or3)",
        choices=("flat2", "2or3"),
    )
    tie: str = option(
        "last_trick_wins",
        "nobody at 66 when the cards run out: the last trick's winner scores 1, or a draw",
        choices=("last_trick_wins", "draw"),
    )
    last_trick_bonus: int = option(10, "points for the last trick when the talon ran out")
    talonless: bool = option(
        False, "practice game: 12 cards each, trump from the dealer's last card, strict play"
    )
    marriage_after_close: bool = option(True, "marriages are allowed in the strict phase")
    exchange: bool = option(True, "the trump 9 may be exchanged for the turn-up")
    closing: bool = option(True, "the seat on lead may close the talon")
    close_needs_trick: bool = option(False, "closing needs a trick won first")
    exchange_needs_trick: bool = option(True, "the exchange needs a trick won first")
    exchange_min_talon: int = option(3, "the exchange needs at least this talon size")
    exchange_anytime: bool = option(
        False,
        "the trump 9 may be exchanged whenever its holder is to act (following too), not only"
        " on lead",
    )
    match: str = option(
        "target",
        "target: play to the target; four_deals: four deals, the most game points win, a tie"
        " is shared",
        choices=("target", "four_deals"),
    )


class SixtySix(TwoHandVariant):
    """Two-player 66 with a 24-card deck (9 to ace): 6 cards each, the 13th turned up for
    trump under an 11-card talon. Free play while the talon is open; after it is closed or
    exhausted, follow suit and head the trick, else trump. Marriages 20/40, the trump-9
    exchange, closing, the last-trick bonus; 66 wins 1, 2 or 3 game points; a match to 7."""

    name = "sixtysix"
    aliases: ClassVar[tuple[str, ...]] = ("66", "altmisalti")
    description = "two-player 66 (Altmışaltı): 24 cards, talon, marriages, closing"
    options_class = SixtySixOptions
    presets: ClassVar[dict[str, dict[str, object]]] = {
        "portal": {},
        "classic": {"claim": "manual", "failed_close": "2or3", "tie": "draw"},
    }

    def make_rules(self, options: Options) -> Rules:
        assert isinstance(options, SixtySixOptions)
        o = options
        talon = not o.talonless
        return Rules(
            seats=2,
            deck=FULL_DECK,
            deal_rounds=(3, 3) if talon else (3, 3, 3, 3),
            turnup_after_round=1 if talon else None,
            trump_from_dealer_last=not talon,
            strict_always=not talon,
            marriages=o.marriages,
            marriage_after_close=o.marriage_after_close,
            exchange=talon and o.exchange,
            exchange_rank=NINE,
            exchange_min_talon=o.exchange_min_talon,
            exchange_needs_trick=o.exchange_needs_trick,
            exchange_anytime=o.exchange_anytime,
            closing=talon and o.closing,
            close_needs_trick=o.close_needs_trick,
            manual_claim=o.claim == "manual",
            last_trick_bonus=o.last_trick_bonus,
            open_scores=o.open_scores,
        )

    def make_scoring(self, options: Options) -> TwoHandScoring:
        """The family's scale, and 66's ``failed_close`` and ``tie`` options."""
        assert isinstance(options, SixtySixOptions)
        return TwoHandScoring(
            card_points_only=options.schneider_card_points_only,
            failed_close_2or3=options.failed_close == "2or3",
            tie_draw=options.tie == "draw",
        )

    def make_match_format(self, options: Options) -> MatchFormat:
        assert isinstance(options, SixtySixOptions)
        return MatchFormat(options.target, FOUR_DEALS if options.match == "four_deals" else None)


@hookimpl
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(SixtySix)
