"""The fast paths' allow-list of rule knobs: every :class:`Rules` field is decided, and a knob
(or a value) the fast paths do not implement sends the game to the generic engine."""

from __future__ import annotations

import dataclasses

import pytest

from sixtysix.bots import compiled
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.options import Options
from sixtysix.core.outcome import EndCode, EndKind
from sixtysix.core.rng import Seed, child_keys, keys_bytes
from sixtysix.core.rules import Rules
from sixtysix.sim.simulate import BotSpec, fast_path
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.two_hand import (
    COMPILED_RULES,
    FAST_RULES,
    TwoHandScoring,
    fast_rules,
    plain_two_hand,
)

BOTS: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]

#: Rules with one knob more than the engine's, as a future change would add it.
ExtendedRules = dataclasses.make_dataclass(
    "ExtendedRules",
    [("double_marriages", bool, dataclasses.field(default=False))],
    bases=(Rules,),
    frozen=True,
)


class SixtySixWithKnob(SixtySix):
    """66 whose rules carry a knob the fast paths know nothing of, switched on."""

    def make_rules(self, options: Options) -> Rules:
        base = super().make_rules(options)
        values = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
        rules: Rules = ExtendedRules(**values, double_marriages=True)
        return rules


def test_every_rules_field_is_decided() -> None:
    """Adding a Rules field fails here until the allow-list says what the fast paths do with
    it (an entry with the values they implement, or ``_one_of(default)``)."""
    names = {f.name for f in dataclasses.fields(Rules)}
    assert set(FAST_RULES) == names
    assert set(COMPILED_RULES) == names


def test_the_shipped_two_hand_games_keep_their_fast_paths() -> None:
    for variant in (SixtySix(), Schnapsen(), SixtySix.configure("classic")):
        assert plain_two_hand(variant)
        assert compiled.supports(variant)
    assert plain_two_hand(SixtySix.configure(None, {"talonless": True}))


def test_an_unknown_knob_sends_both_fast_paths_to_the_engine() -> None:
    variant = SixtySixWithKnob()
    assert dataclasses.asdict(variant.rules)["double_marriages"] is True
    assert not fast_rules(variant.rules)
    assert not plain_two_hand(variant)
    assert not compiled.supports(variant)
    fast = pytest.importorskip("sixtysix.sim.fast_two_hand")
    assert not fast.supports(variant, BOTS)
    with pytest.raises(ValueError, match="does not play"):
        fast.simulate_batch(variant, Seed(1), 0, 4)
    # The simulation driver plays such a game on the generic engine.
    assert fast_path(variant, BOTS) is None
    assert fast_path(SixtySix(), BOTS) is fast.simulate_batch


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
    ],
)
def test_a_value_outside_the_allowed_set_is_refused(change: dict[str, object]) -> None:
    rules = dataclasses.replace(SixtySix().rules, **change)  # type: ignore[arg-type]
    assert not fast_rules(rules)
    assert not fast_rules(rules, COMPILED_RULES)


def test_the_compiled_search_has_narrower_sets() -> None:
    rules = dataclasses.replace(SixtySix().rules, last_trick_bonus=300)
    assert fast_rules(rules)
    assert not fast_rules(rules, COMPILED_RULES)


def test_one_end_code_per_end_kind() -> None:
    """The fast paths' integer end kinds are EndCode's, one for each EndKind."""
    from sixtysix.bots._layout import CARDS_OUT, FALSE_CLAIM, REACHED, RUNNING

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


def test_bulk_hashing_gives_the_seeds_bytes() -> None:
    """The vectorised simulator hashes through core.rng's bulk helpers: the same bytes as
    Seed.child and Seed.bytes."""
    master = Seed(7)
    keys = child_keys(master.key, ("game",), range(3, 6))
    assert keys == [master.child(("game", i)).key for i in range(3, 6)]
    assert keys_bytes(keys, ("bot", 1, 0), 24) == [
        Seed.from_key(k).bytes(("bot", 1, 0), 24) for k in keys
    ]
    assert keys_bytes(keys, ("child", "bot", 0), 32) == [
        Seed.from_key(k).child(("bot", 0)).key for k in keys
    ]
