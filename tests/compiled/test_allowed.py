"""The compiled rules' one allow-list: every :class:`Rules` field is decided, and a knob (or a
value) they do not implement sends the game to the generic engine, everywhere."""

from __future__ import annotations

import dataclasses

import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.compiled.allowed import RULES, deals_supported, rules_allowed, supports
from sixtysix.compiled.layout import CARDS_OUT, FALSE_CLAIM, REACHED, RUNNING
from sixtysix.core.options import Options
from sixtysix.core.outcome import EndCode, EndKind
from sixtysix.core.rules import Rules
from sixtysix.sim.simulate import BotSpec, fast_path
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.two_hand import TwoHandScoring

BOTS: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]

#: Rules with one knob more than the engine's, as a future change would add it.
ExtendedRules = dataclasses.make_dataclass(
    "ExtendedRules",
    [("double_marriages", bool, dataclasses.field(default=False))],
    bases=(Rules,),
    frozen=True,
)


class SixtySixWithKnob(SixtySix):
    """66 whose rules carry a knob the compiled rules know nothing of, switched on."""

    def make_rules(self, options: Options) -> Rules:
        base = super().make_rules(options)
        values = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
        rules: Rules = ExtendedRules(**values, double_marriages=True)
        return rules


def test_every_rules_field_is_decided() -> None:
    """Adding a Rules field fails here until the allow-list says what the compiled rules do
    with it (an entry with the values they implement, or ``_one_of(default)``)."""
    assert set(RULES) == {f.name for f in dataclasses.fields(Rules)}


def test_the_shipped_two_hand_games_are_compiled() -> None:
    for variant in (
        SixtySix(),
        Schnapsen(),
        SixtySix.configure("classic"),
        SixtySix.configure(None, {"talonless": True}),
        Schnapsen.configure(None, {"claim": "manual"}),
    ):
        assert supports(variant) and deals_supported(variant)


def test_an_unknown_knob_sends_every_fast_path_to_the_engine() -> None:
    variant = SixtySixWithKnob()
    assert dataclasses.asdict(variant.rules)["double_marriages"] is True
    assert not rules_allowed(variant.rules)
    assert not supports(variant)
    from sixtysix.compiled.position import knobs

    with pytest.raises(ValueError, match="do not play"):
        knobs(variant)
    # The simulation driver plays such a game on the generic engine.
    assert fast_path(variant, BOTS) is None


@pytest.mark.parametrize(
    "change",
    [
        {"trump_call": True},
        {"partner_call": True},
        {"concession": True},
        {"exchange_anytime": True},
        {"seats": 3},
        {"sides": "declarer"},
        {"exchange_rank": 6},
        {"deal_rounds": (3, 30)},
        {"turnup_after_round": 2},  # after a round that is not dealt
        {"turnup_after_round": None},  # no turn-up and no shown trump
        {"winning_points": 2**40},
        {"deck": 1 << 30},
        {"last_trick_bonus": 256},
        {"last_trick_bonus": -1},
    ],
)
def test_a_value_outside_the_allowed_set_is_refused(change: dict[str, object]) -> None:
    rules = dataclasses.replace(SixtySix().rules, **change)  # type: ignore[arg-type]
    assert not rules_allowed(rules)


def test_one_end_code_per_end_kind() -> None:
    """The compiled rules' integer end kinds are EndCode's, one for each EndKind."""

    assert [code.kind for code in EndCode if code != EndCode.RUNNING] == list(EndKind)
    assert (RUNNING, REACHED, FALSE_CLAIM, CARDS_OUT) == (
        EndCode.RUNNING,
        EndCode.REACHED,
        EndCode.FALSE_CLAIM,
        EndCode.CARDS_OUT,
    )


def test_each_two_hand_variant_builds_one_frozen_scoring() -> None:
    assert SixtySix().scoring == TwoHandScoring(failed_close_2or3=False)
    assert SixtySix.configure("classic").scoring == TwoHandScoring(tie_draw=True)
    assert SixtySix.configure(None, {"schneider_card_points_only": True}).scoring == (
        TwoHandScoring(card_points_only=True, failed_close_2or3=False)
    )
    assert Schnapsen().scoring == TwoHandScoring(
        scale_at_close=True, false_claim_three=True, played_out_last_trick=True
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        SixtySix().scoring.tie_draw = True  # type: ignore[misc]
