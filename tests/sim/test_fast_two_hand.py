"""The vectorised two-hand simulator plays exactly the generic path's games.

Every test compares :func:`fast_two_hand.simulate_batch` with ``play_game`` game by game (the
whole :class:`GameResult`: index, dealer, reason, game points, points, tricks), over many option
combinations of 66 and Schnapsen, several seeds and ranges that cross batch boundaries.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import Counter
from typing import ClassVar

import pytest

pytest.importorskip("numpy")

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.options import Options
from sixtysix.core.outcome import DealEnd, Outcome, Reason
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.sim import fast_two_hand, fast_two_hand_batch, fast_two_hand_deal
from sixtysix.sim.simulate import BotSpec, GameResult, iter_chunks, play_game
from sixtysix.variants.schnapsen import Schnapsen, SchnapsenOptions
from sixtysix.variants.sixtysix import SixtySix, SixtySixOptions
from sixtysix.variants.two_hand import TwoHandScoring, TwoHandVariant

BOTS: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]


def generic(variant: Variant, master: Seed, start: int, stop: int) -> list[GameResult]:
    return [play_game(variant, BOTS, master, i) for i in range(start, stop)]


def assert_same(
    variant: Variant, seed: int, start: int, stop: int, batch: int = fast_two_hand.DEFAULT_BATCH
) -> list[GameResult]:
    master = Seed(seed)
    assert fast_two_hand.supports(variant, BOTS)
    fast = fast_two_hand.simulate_batch(variant, master, start, stop, batch)
    slow = generic(variant, master, start, stop)
    assert len(fast) == len(slow) == stop - start
    for f, g in zip(fast, slow, strict=True):
        assert f == g, f"game {g.index}: fast {f} != generic {g}"
    return fast


SIXTYSIX_CASES: list[tuple[str | None, dict[str, object]]] = [
    (None, {}),
    ("classic", {}),
    (None, {"talonless": True}),
    (None, {"talonless": True, "claim": "manual", "marriage_after_close": False}),
    (None, {"talonless": True, "marriage_after_close": False, "tie": "draw"}),
    (None, {"claim": "manual"}),
    (None, {"marriages": False}),
    (None, {"marriages": False, "claim": "manual"}),
    (None, {"marriage_after_close": False}),
    (None, {"exchange": False}),
    (None, {"exchange_needs_trick": False}),
    (None, {"exchange_needs_trick": False, "exchange_min_talon": 1}),
    (None, {"exchange_min_talon": 12}),
    (None, {"exchange_min_talon": 13}),
    (None, {"exchange_min_talon": 5, "claim": "manual"}),
    (None, {"closing": False}),
    (None, {"close_needs_trick": True}),
    (None, {"closing": False, "exchange": False, "claim": "manual"}),
    (None, {"tie": "draw"}),
    (None, {"tie": "draw", "last_trick_bonus": 1}),
    (None, {"last_trick_bonus": 1}),
    (None, {"last_trick_bonus": 40}),
    (None, {"last_trick_bonus": 40, "claim": "manual"}),
    (None, {"failed_close": "2or3"}),
    (None, {"schneider_card_points_only": True}),
    ("classic", {"schneider_card_points_only": True, "close_needs_trick": True}),
    ("classic", {"exchange_needs_trick": False, "marriage_after_close": False}),
]

SCHNAPSEN_CASES: list[dict[str, object]] = [
    {},
    {"claim": "manual"},
    {"claim": "manual", "schneider_card_points_only": True},
    {"schneider_card_points_only": True},
    {"exchange_needs_trick": True, "exchange_min_talon": 4},
    {"exchange": False, "claim": "manual"},
    {"exchange_min_talon": 10},
    {"closing": False},
    {"close_needs_trick": True, "claim": "manual"},
    {"marriages": False},
    {"marriage_after_close": False, "claim": "manual"},
]


@pytest.mark.parametrize(
    ("index", "preset", "options"),
    [(i, p, o) for i, (p, o) in enumerate(SIXTYSIX_CASES)],
)
def test_sixtysix_options(index: int, preset: str | None, options: dict[str, object]) -> None:
    variant = SixtySix.configure(preset, options)
    assert_same(variant, seed=1000 + index, start=index * 97, stop=index * 97 + 1000, batch=4096)


@pytest.mark.parametrize(("index", "options"), list(enumerate(SCHNAPSEN_CASES)))
def test_schnapsen_options(index: int, options: dict[str, object]) -> None:
    variant = Schnapsen.configure(None, options)
    assert_same(variant, seed=2000 + index, start=index * 53, stop=index * 53 + 1000, batch=4096)


@pytest.mark.parametrize("seed", [0, 1, 12345])
@pytest.mark.parametrize("variant", [SixtySix(), Schnapsen()], ids=["sixtysix", "schnapsen"])
def test_default_variants_several_seeds(variant: Variant, seed: int) -> None:
    results = assert_same(variant, seed=seed, start=0, stop=1500)
    # The comparison must have covered the common endings.
    reasons = Counter(str(r.outcome.reason) for r in results)
    assert {"reached_66", "failed_close"} <= set(reasons)


def test_every_reason_is_covered() -> None:
    """Across these option sets each reason of the two-hand games occurs and matches."""
    seen: Counter[str] = Counter()
    for variant in (
        SixtySix.configure("classic"),
        SixtySix.configure(None, {"tie": "draw", "last_trick_bonus": 1}),
        Schnapsen.configure(None, {"claim": "manual"}),
    ):
        for r in assert_same(variant, seed=77, start=0, stop=1500):
            seen[str(r.outcome.reason)] += 1
    assert {
        "reached_66",
        "false_claim",
        "failed_close",
        "last_trick",
        "played_out",
        "draw",
    } <= set(seen)


def test_batch_boundaries() -> None:
    """A start not at 0 and ranges that are not a multiple of the batch."""
    for variant in (SixtySix.configure("classic"), Schnapsen()):
        assert_same(variant, seed=5, start=4093, stop=5400, batch=512)
        assert_same(variant, seed=6, start=1, stop=2, batch=512)


def test_batch_size_does_not_change_games() -> None:
    variant = SixtySix()
    master = Seed(9)
    big = fast_two_hand.simulate_batch(variant, master, 11, 5011)
    for batch, stop in ((1, 61), (7, 711), (1000, 5011), (4096, 5011)):
        assert fast_two_hand.simulate_batch(variant, master, 11, stop, batch) == big[: stop - 11]
    assert list(fast_two_hand.iter_games(variant, master, 11, 5011, 999)) == big
    assert fast_two_hand.simulate_batch(variant, master, 5, 5) == []


def test_long_bot_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat needing more words than made up front gets the rest of its 32-word block."""
    for module in (fast_two_hand_deal, fast_two_hand_batch):  # where the block size is read
        monkeypatch.setattr(module, "_FIRST_WORDS", 2)
    assert_same(SixtySix.configure("classic"), seed=3, start=0, stop=600)
    assert_same(Schnapsen(), seed=3, start=0, stop=600)


def test_seed_subclass_uses_its_methods() -> None:
    class MySeed(Seed):
        __slots__ = ()

    master = MySeed(21)
    for variant in (SixtySix(), Schnapsen.configure(None, {"claim": "manual"})):
        fast = fast_two_hand.simulate_batch(variant, master, 3, 503, 128)
        assert fast == generic(variant, master, 3, 503)


# ----------------------------------------------------------------- other TwoHandVariants


class SchnapsenFlags66(SixtySix):
    """66 with Schnapsen's scoring switches: the fast path reads the variant's scoring."""

    def make_scoring(self, options: Options) -> TwoHandScoring:
        return dataclasses.replace(
            super().make_scoring(options),
            scale_at_close=True,
            false_claim_three=True,
            played_out_last_trick=True,
        )


class Plain66Schnapsen(Schnapsen):
    def make_scoring(self, options: Options) -> TwoHandScoring:
        return dataclasses.replace(
            super().make_scoring(options),
            scale_at_close=False,
            false_claim_three=False,
            played_out_last_trick=False,
        )


class LowGoal66(SixtySix):
    """Rules knobs beyond the options: a lower winning total."""

    def make_rules(self, options: Options) -> Rules:
        return dataclasses.replace(super().make_rules(options), winning_points=51)


class ReversedDeal(Schnapsen):
    """A variant that deals itself (the fast path calls its ``deal`` per game)."""

    def deal(self, seed: Seed, path: tuple[int | str, ...], dealer: int) -> DealSetup:
        order = seed.shuffled(list(range(24)), (*path, "own-shuffle"))
        order = [c for c in reversed(order) if c % 6 != 0]
        return deal_from_order(self.rules, order, dealer)


@pytest.mark.parametrize(
    "variant",
    [
        SchnapsenFlags66(SixtySixOptions(claim="manual")),
        SchnapsenFlags66(SixtySixOptions(failed_close="2or3", schneider_card_points_only=True)),
        Plain66Schnapsen(SchnapsenOptions(claim="manual")),
        Plain66Schnapsen(),
        LowGoal66(),
        LowGoal66(SixtySixOptions(claim="manual", talonless=True)),
        ReversedDeal(),
        ReversedDeal(SchnapsenOptions(claim="manual")),
    ],
    ids=lambda v: f"{type(v).__name__}{v.options.diff()}",
)
def test_other_two_hand_variants(variant: Variant) -> None:
    assert_same(variant, seed=31, start=100, stop=900, batch=300)


# ----------------------------------------------------------------- overridden scoring


class FixedSchnapsenRules(Schnapsen):
    """Schnapsen stating its fixed rules as overrides (the games reaching them use them)."""

    def _failed_close(self, state: DealState, opponent: int) -> int:
        return 3 if state.close_tricks[opponent] == 0 else 2

    def _tie_reason(self, state: DealState, gp: list[int]) -> Reason:
        gp[state.last_winner] = 1
        return Reason.LAST_TRICK


class OddScales66(SixtySix):
    """Overridden helpers that differ from the base: the fast path must use them."""

    def _scale(self, state: DealState, loser: int, points: tuple[int, ...]) -> int:
        return 1 + (points[loser] + state.tricks[loser]) % 3

    def _closing_scale(self, state: DealState, loser: int, points: tuple[int, ...]) -> int:
        return 4 + state.close_tricks[loser] + state.close_points[1 - loser] % 2

    def _failed_close(self, state: DealState, opponent: int) -> int:
        return 7 + state.close_card_points[opponent] % 3

    def _tie_reason(self, state: DealState, gp: list[int]) -> Reason:
        gp[1 - state.last_winner] = 5
        return Reason.DRAW


class StateReadingSettle(SixtySix):
    """A settle that reads much of the final state: the rebuilt state must match it."""

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        base = super().settle(state, end)
        facts = (
            state.hands,
            state.won,
            state.marriages,
            state.talon,
            state.turnup,
            state.lead_marry,
            state.leader,
            state.played,
            state.closed_by,
            state.close_points,
            state.close_tricks,
            state.setup,
            end,
        )
        extra = hash(repr(facts)) % 1000
        return Outcome(base.reason, (*base.game_points, extra), base.points, base.tricks)


class HistoryReadingSettle(Schnapsen):
    """A settle reading what the fast path does not rebuild: those games are replayed."""

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        base = super().settle(state, end)
        return Outcome(base.reason, base.game_points, base.points, (len(state.history), 0))


@pytest.mark.parametrize(
    "variant",
    [
        FixedSchnapsenRules(),
        FixedSchnapsenRules(SchnapsenOptions(claim="manual")),
        OddScales66(),
        OddScales66(SixtySixOptions(claim="manual", failed_close="2or3")),
        OddScales66(SixtySixOptions(talonless=True, last_trick_bonus=1)),
        StateReadingSettle(),
        StateReadingSettle(SixtySixOptions(claim="manual", exchange_needs_trick=False)),
    ],
    ids=lambda v: f"{type(v).__name__}{v.options.diff()}",
)
def test_overridden_scoring(variant: Variant) -> None:
    assert_same(variant, seed=41, start=7, stop=707, batch=256)


def test_settle_reading_history_replays() -> None:
    assert_same(HistoryReadingSettle(), seed=43, start=0, stop=150)


def test_state_reading_settle_sees_a_custom_deal() -> None:
    class StateReadingOwnDeal(StateReadingSettle):
        def deal(self, seed: Seed, path: tuple[int | str, ...], dealer: int) -> DealSetup:
            order = seed.shuffled(list(range(24)), (*path, "mine"))
            return deal_from_order(self.rules, order, dealer)

    assert_same(StateReadingOwnDeal(SixtySixOptions(claim="manual")), seed=44, start=0, stop=300)


# ----------------------------------------------------------------- when it applies


class NewEngine66(SixtySix):
    def new_deal(self, setup: DealSetup) -> DealState:
        return super().new_deal(setup)


class CalledTrump66(SixtySix):
    def make_rules(self, options: Options) -> Rules:
        return dataclasses.replace(super().make_rules(options), trump_call=True)


class NotTwoHand(Variant):
    name = "not-two-hand"
    seats = 2
    options_class = SixtySixOptions

    def make_rules(self, options: Options) -> Rules:
        return SixtySix(SixtySixOptions()).rules


class SeededRandom(RandomBot):
    parameters: ClassVar[dict[str, str]] = {}


def test_supports() -> None:
    plain: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]
    assert fast_two_hand.supports(SixtySix(), plain)
    assert fast_two_hand.supports(SixtySix.configure("classic"), plain)
    assert fast_two_hand.supports(Schnapsen(), plain)
    assert fast_two_hand.supports(ReversedDeal(), plain)
    assert isinstance(SchnapsenFlags66(), TwoHandVariant)
    assert fast_two_hand.supports(SchnapsenFlags66(), plain)
    assert fast_two_hand.supports(StateReadingSettle(), plain)
    # Bots: exactly two plain random bots without a seed of their own.
    assert not fast_two_hand.supports(SixtySix(), [(RandomBot, {"seed": "3"}), (RandomBot, {})])
    assert not fast_two_hand.supports(SixtySix(), [(RandomBot, {}), (SeededRandom, {})])
    assert not fast_two_hand.supports(SixtySix(), [(RandomBot, {})] * 3)
    # Variants: two-hand games on the generic engine with known rules.
    assert not fast_two_hand.supports(NewEngine66(), plain)
    assert not fast_two_hand.supports(CalledTrump66(), plain)
    assert not fast_two_hand.supports(NotTwoHand(), plain)


def test_without_numpy_the_module_does_not_import() -> None:
    code = (
        "import sys\n"
        "sys.modules['numpy'] = None\n"
        "try:\n"
        "    import sixtysix.sim.fast_two_hand\n"
        "except ImportError:\n"
        "    print('fallback')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "fallback"


def with_rules(variant: Variant, **knobs: object) -> Variant:
    """``variant`` with its Rules knobs replaced directly (no option parsing in between)."""
    variant.rules = dataclasses.replace(variant.rules, **knobs)  # type: ignore[arg-type]
    return variant


HUGE = [2**63 - 1, 2**63, 2**64, -(2**63), 2**31 + 1, -(2**31) - 1]


@pytest.mark.parametrize("bonus", HUGE)
def test_numbers_beyond_int64s_exact_range_go_to_the_engine(bonus: int) -> None:
    """A last-trick bonus int64 cannot carry is refused by the fast path, and the simulator's
    games are the engine's, game by game (the fast path once wrapped 2**63-1 round to a
    negative score, and 2**64 raised OverflowError)."""
    variant = with_rules(SixtySix(), last_trick_bonus=bonus)
    assert not fast_two_hand.supports(variant, BOTS)
    with pytest.raises(ValueError, match="does not play"):
        fast_two_hand.simulate_batch(variant, Seed(1), 0, 10)
    master = Seed(1)
    played = [g for chunk in iter_chunks(variant, BOTS, master, 0, 300) for g in chunk]
    assert played == generic(variant, master, 0, 300)
    # The bonus really counts in these games: some scores carry it.
    assert any(abs(p) > 2**30 for g in played for p in g.outcome.points)


@pytest.mark.parametrize(
    "knobs",
    [
        {"winning_points": 2**63 - 1},
        {"winning_points": -(2**64)},
        {"exchange_min_talon": 2**64},
        {"exchange_rank": -1},
        {"exchange_rank": 6},
        {"deal_rounds": (3, 2**63)},
        {"turnup_after_round": 2},
    ],
    ids=str,
)
def test_every_integer_knob_is_bounded(knobs: dict[str, object]) -> None:
    assert not fast_two_hand.supports(with_rules(SixtySix(), **knobs), BOTS)


@pytest.mark.parametrize("bonus", [2**31, -(2**31)])
def test_the_edges_of_the_ranges_stay_fast_and_exact(bonus: int) -> None:
    variant = with_rules(SixtySix(), last_trick_bonus=bonus)
    played = assert_same(variant, seed=7, start=0, stop=400)
    assert any(abs(p) >= 2**30 for g in played for p in g.outcome.points)
    assert_same(
        with_rules(Schnapsen(), winning_points=2**31, exchange_min_talon=-(2**31)), 8, 0, 200
    )
