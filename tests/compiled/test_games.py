"""The compiled random games are exactly the engine's games.

Every test compares :class:`RandomGames` with ``play_game`` game by game (the whole
:class:`GameResult`: index, dealer, reason, game points, points, tricks), over many option
combinations of 66 and Schnapsen, several seeds and ranges; a game the compiled rules do not
deal or play is played by the engine.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from typing import ClassVar

import pytest

from sixtysix.compiled import available

if not available():
    pytest.skip("needs numba (the fast extra)", allow_module_level=True)

import numpy as np

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.compiled.allowed import deals_supported
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.options import Options
from sixtysix.core.outcome import DealEnd, Outcome, Reason
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.sim.random_games import RandomGames, applies
from sixtysix.sim.simulate import BotSpec, GameResult, Summary, iter_chunks, play_game, simulate
from sixtysix.variants.schnapsen import Schnapsen, SchnapsenOptions
from sixtysix.variants.sixtysix import SixtySix, SixtySixOptions
from sixtysix.variants.two_hand import TwoHandScoring, TwoHandVariant

BOTS: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]


def generic(variant: Variant, master: Seed, start: int, stop: int) -> list[GameResult]:
    return [play_game(variant, BOTS, master, i) for i in range(start, stop)]


def assert_same(variant: Variant, seed: int, start: int, stop: int) -> list[GameResult]:
    master = Seed(seed)
    assert applies(variant, BOTS)
    fast = RandomGames(variant, BOTS).results(master, start, stop)
    slow = generic(variant, master, start, stop)
    assert len(fast) == len(slow) == stop - start
    for f, g in zip(fast, slow, strict=True):
        assert f == g, f"game {g.index}: compiled {f} != engine {g}"
    return fast


def assert_engine_plays(variant: Variant, seed: int, games: int = 200) -> None:
    """A variant the compiled games refuse: the simulator's games are the engine's."""
    assert not applies(variant, BOTS)
    master = Seed(seed)
    played = [g for chunk in iter_chunks(variant, BOTS, master, 0, games) for g in chunk]
    assert played == generic(variant, master, 0, games)


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
    assert_same(variant, seed=1000 + index, start=index * 97, stop=index * 97 + 1000)


@pytest.mark.parametrize(("index", "options"), list(enumerate(SCHNAPSEN_CASES)))
def test_schnapsen_options(index: int, options: dict[str, object]) -> None:
    variant = Schnapsen.configure(None, options)
    assert_same(variant, seed=2000 + index, start=index * 53, stop=index * 53 + 1000)


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


def test_ranges_are_slices_of_one_run() -> None:
    """A game's result depends on its index alone: any range is a slice of a longer one."""
    variant = SixtySix()
    master = Seed(9)
    fast = RandomGames(variant, BOTS)
    big = fast.results(master, 11, 5011)
    for start, stop in ((11, 12), (700, 711), (4093, 5011)):
        assert fast.results(master, start, stop) == big[start - 11 : stop - 11]
    assert fast.results(master, 5, 5) == []
    assert_same(Schnapsen(), seed=6, start=10**12, stop=10**12 + 50)


def test_a_players_stream_is_the_engines_word_for_word() -> None:
    """Past the first squeeze (17 words) and the first block (32) of a stream: games rarely
    draw that many words, so the stream is compared alone."""
    from sixtysix.compiled.dealing import PATH_BYTES, stream_word

    seed = Seed(5).child(("game", 3)).child(("bot", 1))
    key = np.frombuffer(seed.key, dtype=np.uint64).copy()
    lanes = np.zeros(25, dtype=np.uint64)
    path = np.zeros(PATH_BYTES, dtype=np.uint8)
    got = [int(stream_word(lanes, key, i, 1, path)) for i in range(100)]
    stream = seed.stream(("bot", 1))
    assert got == [stream.next_word() for _ in range(100)]


def test_totals_are_the_engines() -> None:
    """The simulator's totals from the compiled rows equal the engine's, game for game."""
    variant = Schnapsen.configure(None, {"claim": "manual"})
    master = Seed(12)
    fast = simulate(variant, BOTS, 3000, master)
    slow = Summary(2)
    slow.add_outcomes(g.outcome for g in generic(variant, master, 0, 3000))
    assert (fast.games, fast.wins, fast.game_points, fast.game_points_sq, fast.reasons) == (
        slow.games,
        slow.wins,
        slow.game_points,
        slow.game_points_sq,
        slow.reasons,
    )


def test_seed_subclass_is_played_by_the_engine() -> None:
    class MySeed(Seed):
        __slots__ = ()

    master = MySeed(21)
    for variant in (SixtySix(), Schnapsen.configure(None, {"claim": "manual"})):
        assert RandomGames(variant, BOTS).results(master, 3, 103) == generic(
            variant, master, 3, 103
        )


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
    """A variant that deals itself: the engine plays its games."""

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
    ],
    ids=lambda v: f"{type(v).__name__}{v.options.diff()}",
)
def test_other_two_hand_variants(variant: Variant) -> None:
    assert_same(variant, seed=31, start=100, stop=900)


def test_a_variant_that_deals_itself_is_played_by_the_engine() -> None:
    assert not deals_supported(ReversedDeal())
    assert_engine_plays(ReversedDeal(SchnapsenOptions(claim="manual")), seed=32)


class FixedSchnapsenRules(Schnapsen):
    """Schnapsen stating its fixed rules as overrides (the games reaching them use them)."""

    def _failed_close(self, state: DealState, opponent: int) -> int:
        return 3 if state.close_tricks[opponent] == 0 else 2

    def _tie_reason(self, state: DealState, gp: list[int]) -> Reason:
        gp[state.last_winner] = 1
        return Reason.LAST_TRICK


class OddScales66(SixtySix):
    """Overridden helpers that differ from the base: the engine plays its games."""

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
    """A settle reading the history."""

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        base = super().settle(state, end)
        return Outcome(base.reason, base.game_points, base.points, (len(state.history), 0))


@pytest.mark.parametrize(
    "variant",
    [
        FixedSchnapsenRules(),
        OddScales66(SixtySixOptions(claim="manual", failed_close="2or3")),
        StateReadingSettle(SixtySixOptions(claim="manual", exchange_needs_trick=False)),
        HistoryReadingSettle(),
    ],
    ids=lambda v: f"{type(v).__name__}{v.options.diff()}",
)
def test_overridden_scoring_is_played_by_the_engine(variant: Variant) -> None:
    assert_engine_plays(variant, seed=41)


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
    assert applies(SixtySix(), plain)
    assert applies(SixtySix.configure("classic"), plain)
    assert applies(Schnapsen(), plain)
    assert not applies(ReversedDeal(), plain)
    assert isinstance(SchnapsenFlags66(), TwoHandVariant)
    assert applies(SchnapsenFlags66(), plain)
    assert not applies(StateReadingSettle(), plain)
    # Bots: exactly two plain random bots without a seed of their own.
    assert not applies(SixtySix(), [(RandomBot, {"seed": "3"}), (RandomBot, {})])
    assert not applies(SixtySix(), [(RandomBot, {}), (SeededRandom, {})])
    assert not applies(SixtySix(), [(RandomBot, {})] * 3)
    # Variants: two-hand games on the generic engine with known rules.
    assert not applies(NewEngine66(), plain)
    assert not applies(CalledTrump66(), plain)
    assert not applies(NotTwoHand(), plain)


def test_without_numba_the_engine_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(os.environ, "SIXTYSIX_NO_NUMBA", "1")
    assert not applies(SixtySix(), BOTS)
    monkeypatch.delitem(os.environ, "SIXTYSIX_NO_NUMBA")
    assert applies(SixtySix(), BOTS)


def with_rules(variant: Variant, **knobs: object) -> Variant:
    """``variant`` with its Rules knobs replaced directly (no option parsing in between)."""
    variant.rules = dataclasses.replace(variant.rules, **knobs)  # type: ignore[arg-type]
    return variant


HUGE = [2**63 - 1, 2**63, 2**64, -(2**63), 2**31 + 1, -(2**31) - 1]


@pytest.mark.parametrize("bonus", [*HUGE, 256, -1])
def test_numbers_beyond_the_compiled_ranges_go_to_the_engine(bonus: int) -> None:
    """A last-trick bonus outside 0..255 is refused by the compiled rules, and the
    simulator's games are the engine's, game by game."""
    variant = with_rules(SixtySix(), last_trick_bonus=bonus)
    assert not applies(variant, BOTS)
    with pytest.raises(ValueError, match="do not play"):
        RandomGames(variant, BOTS).rows(Seed(1), 0, 10)
    master = Seed(1)
    played = [g for chunk in iter_chunks(variant, BOTS, master, 0, 300) for g in chunk]
    assert played == generic(variant, master, 0, 300)
    # The bonus really counts in these games: they are not the games without it.
    assert played != generic(SixtySix(), master, 0, 300)


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
    assert not applies(with_rules(SixtySix(), **knobs), BOTS)


@pytest.mark.parametrize("bonus", [0, 255])
def test_the_edges_of_the_ranges_stay_fast_and_exact(bonus: int) -> None:
    variant = with_rules(SixtySix(), last_trick_bonus=bonus)
    played = assert_same(variant, seed=7, start=0, stop=400)
    assert any(p >= 255 for g in played for p in g.outcome.points) == (bonus == 255)
    assert_same(
        with_rules(Schnapsen(), winning_points=2**31, exchange_min_talon=-(2**31)), 8, 0, 200
    )
