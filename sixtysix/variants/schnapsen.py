"""Schnapsen: the Austrian 20-card member of the family."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from sixtysix.core.cards import FULL_DECK, JACK, NINES_MASK
from sixtysix.core.options import Options, option
from sixtysix.core.rules import Rules
from sixtysix.core.variant import Variant
from sixtysix.plugins import hookimpl
from sixtysix.variants.common import FamilyOptions
from sixtysix.variants.two_hand import TwoHandScoring, TwoHandVariant


@dataclass(frozen=True)
class SchnapsenOptions(FamilyOptions):
    variant_name: ClassVar[str] = "schnapsen"

    target: int = option(7, "game points that end a match (a Bummerl)")
    marriage_after_close: bool = option(True, "marriages are allowed in the strict phase")
    exchange: bool = option(True, "the trump jack may be exchanged for the turn-up")
    closing: bool = option(True, "the seat on lead may close the talon (zudrehen)")
    close_needs_trick: bool = option(False, "closing needs a trick won first")
    exchange_needs_trick: bool = option(False, "the exchange needs a trick won first")
    exchange_min_talon: int = option(2, "the exchange needs at least this talon size")


class Schnapsen(TwoHandVariant):
    """Schnapsen with 20 cards (no nines): 5 each, dealt 3, turn-up, 2; a talon of 10 counting
    the turn-up. Play as in 66, but the trump jack is exchanged, a winning closer scores from
    the opponent's position at the moment of closing, there is no last-trick bonus, and when
    nobody reaches 66 the last trick's winner takes the deal. A match (Bummerl) is 7 points."""

    name = "schnapsen"
    aliases: ClassVar[tuple[str, ...]] = ()
    description = "Schnapsen: 20 cards, 5 each, jack exchange, zudrehen, no last-trick bonus"
    options_class = SchnapsenOptions
    # RULES.md defines no preset for Schnapsen (``portal`` and ``classic`` are 66's).
    presets: ClassVar[dict[str, dict[str, object]]] = {}

    def make_scoring(self, options: Options) -> TwoHandScoring:
        """Not options in Schnapsen: a failed close gives 2, or 3 if the opponent had no trick
        at the close; a deal nobody won with 66 goes to the last trick's winner."""
        assert isinstance(options, SchnapsenOptions)
        return TwoHandScoring(
            card_points_only=options.schneider_card_points_only,
            scale_at_close=True,
            failed_close_2or3=True,
            false_claim_three=True,
            played_out_last_trick=True,
            tie_draw=False,
        )

    def make_rules(self, options: Options) -> Rules:
        assert isinstance(options, SchnapsenOptions)
        o = options
        return Rules(
            seats=2,
            deck=FULL_DECK & ~NINES_MASK,
            deal_rounds=(3, 2),
            turnup_after_round=0,
            marriages=o.marriages,
            marriage_after_close=o.marriage_after_close,
            exchange=o.exchange,
            exchange_rank=JACK,
            exchange_min_talon=o.exchange_min_talon,
            exchange_needs_trick=o.exchange_needs_trick,
            closing=o.closing,
            close_needs_trick=o.close_needs_trick,
            manual_claim=o.claim == "manual",
            last_trick_bonus=0,
            open_scores=o.open_scores,
        )


@hookimpl
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(Schnapsen)
