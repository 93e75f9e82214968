"""Generic code reads a rule from the variant's Rules, match format or declared options: a
variant that does not declare an option has the default its declaration states, once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from sixtysix.core.cards import FULL_DECK
from sixtysix.core.options import Options, option
from sixtysix.core.outcome import DealEnd, Outcome, Reason
from sixtysix.core.rules import MatchFormat, Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.service.facts import points_shown
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4
from sixtysix.variants.two_hand import TwoHandScoring, TwoHandVariant


@dataclass(frozen=True)
class BareOptions(Options):
    variant_name: ClassVar[str] = "bare"

    claim: str = option("manual", "manual claims only", choices=("manual",))


@dataclass(frozen=True)
class TargetOptions(Options):
    variant_name: ClassVar[str] = "targeted"

    target: int = option(5, "game points that end a match")


class Bare(TwoHandVariant):
    """A third-party-style two-hand game whose options declare none of the family's."""

    name = "bare"
    options_class = BareOptions

    def make_rules(self, options: Options) -> Rules:
        return Rules(
            seats=2, deck=FULL_DECK, deal_rounds=(3, 3), turnup_after_round=1, manual_claim=True
        )


class Targeted(Variant):
    """A third-party-style variant that declares its own ``target`` and nothing else."""

    name = "targeted"
    seats = 2
    options_class = TargetOptions

    def make_rules(self, options: Options) -> Rules:
        return Rules(seats=2, deck=FULL_DECK, deal_rounds=(3, 3), turnup_after_round=1)

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        return Outcome(Reason.DRAW, (0, 0), (0, 0), (0, 0))


def test_a_variant_without_the_options_has_the_declared_defaults() -> None:
    bare = Bare()
    assert bare.match_format == MatchFormat() == MatchFormat(7)
    assert bare.target == 7
    assert bare.rules.open_scores is False
    assert not points_shown(bare)  # manual claims and no open scores: a memory game
    assert bare.scoring == TwoHandScoring()


def test_a_declared_target_option_is_the_match_target() -> None:
    assert Targeted().match_format == MatchFormat(5)
    assert Targeted.configure(overrides={"target": 9}).target == 9


@pytest.mark.parametrize("cls", [SixtySix, Schnapsen, SixtySix3, SixtySix4])
def test_the_family_states_open_scores_and_the_target_in_its_rules(cls: type[Variant]) -> None:
    assert cls().rules.open_scores is False
    opened = cls.configure(overrides={"open_scores": True, "target": 11})
    assert opened.rules.open_scores is True
    assert opened.match_format.target == opened.target == 11


def test_open_scores_shows_the_points_of_a_manual_claim_game() -> None:
    assert not points_shown(SixtySix.configure(overrides={"claim": "manual"}))
    assert points_shown(SixtySix.configure(overrides={"claim": "manual", "open_scores": True}))
    assert points_shown(SixtySix())
