"""Match equity (bots.match_equity): chances to win a match from a score, by recursion over the
deals to come, checked against hand-worked cases and against matches drawn at random."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.bots.deal_results import DEAL_RESULTS
from sixtysix.bots.match_equity import (
    Distribution,
    MatchEquity,
    arrays_available,
    deal_result,
    equity_for,
    rules_key,
)
from sixtysix.core.match_view import MatchView
from sixtysix.core.rules import MatchFormat
from sixtysix.plugins.manager import build_registry, variant_from

COIN: Distribution = {(1, 0): 0.5, (0, 1): 0.5}
#: A two-player distribution that favours the dealer's opponent and has drawn deals.
SKEWED: Distribution = {
    (1, 0): 0.20,
    (0, 1): 0.25,
    (2, 0): 0.12,
    (0, 2): 0.14,
    (3, 0): 0.04,
    (0, 3): 0.05,
    (0, 0): 0.20,
}
REGISTRY = build_registry()


def test_a_coin_flip_match_by_hand() -> None:
    table = MatchEquity(2, MatchFormat(7), COIN)
    assert table.chances((0, 0), 0) == pytest.approx((0.5, 0.5))
    assert table.chances((6, 6), 1) == pytest.approx((0.5, 0.5))
    # Seat 1 must win seven deals in a row.
    assert table.chances((6, 0), 1) == pytest.approx((1 - 2**-7, 2**-7))
    # Two seats one short of the target: the next deal decides.
    assert table.chances((5, 6), 0) == pytest.approx((0.25, 0.75))
    assert table.chances((7, 3), 0) == (1.0, 0.0)  # over: the winner has it all


def test_a_fixed_number_of_deals_ends_after_the_last_and_ties_share() -> None:
    table = MatchEquity(2, MatchFormat(7, 4), COIN)
    assert table.chances((1, 0), 1, played=3) == pytest.approx((0.75, 0.25))
    assert table.chances((0, 0), 0, played=4) == (0.5, 0.5)  # a tie after four: shared
    assert table.chances((9, 0), 0, played=1) == pytest.approx((1.0, 0.0))


def test_drawn_deals_only_pass_the_deal_on() -> None:
    """With results that do not depend on the dealer, deals that score nothing change no
    chance: the table equals the one of the same distribution without them."""
    drawn: Distribution = {**COIN, (0, 0): 0.3}
    with_draws = MatchEquity(2, MatchFormat(7), drawn)
    without = MatchEquity(2, MatchFormat(7), COIN)
    for totals in [(0, 0), (6, 2), (3, 5), (4, 4)]:
        for dealer in (0, 1):
            assert with_draws.chances(totals, dealer) == pytest.approx(
                without.chances(totals, dealer), abs=1e-12
            )


@given(a=st.integers(0, 6), b=st.integers(0, 6), dealer=st.integers(0, 1))
def test_chances_sum_to_one_and_grow_with_ones_total(a: int, b: int, dealer: int) -> None:
    table = MatchEquity(2, MatchFormat(7), SKEWED)
    mine = table.chances((a, b), dealer)
    assert sum(mine) == pytest.approx(1.0)
    if a < 6:
        assert table.chances((a + 1, b), dealer)[0] > mine[0]
    if b < 6:
        assert table.chances((a, b + 1), dealer)[0] < mine[0]


def _simulated(
    results: dict[tuple[int, ...], float],
    seats: int,
    totals: list[int],
    dealer: int,
    fmt: MatchFormat,
    played: int,
    games: int,
) -> list[float]:
    """Each seat's share of ``games`` matches played on from the score by drawing results."""
    rng = random.Random(7)
    keys, weights = list(results), list(results.values())
    won = [0.0] * seats
    for _ in range(games):
        t, d, p = list(totals), dealer, played
        while not (winners := fmt.winners(t, p if fmt.deals is not None else None)):
            result = rng.choices(keys, weights)[0]
            for i, points in enumerate(result):
                t[(d + i) % seats] += points
            d, p = (d + 1) % seats, p + 1
        for w in winners:
            won[w] += 1 / len(winners)
    return [w / games for w in won]


@pytest.mark.parametrize(
    ("name", "totals", "dealer"),
    [
        ("sixtysix", [2, 4], 0),
        ("sixtysix", [5, 0], 1),
        ("sixtysix-3", [3, 1, 5], 2),
        ("sixtysix-4", [4, 4, 2, 2], 1),
    ],
)
def test_the_table_agrees_with_matches_drawn_at_random(
    name: str, totals: list[int], dealer: int
) -> None:
    _, _, counts = DEAL_RESULTS[name]
    results = {r: float(c) for r, c in counts.items()}
    seats = len(totals)
    fmt = MatchFormat(7)
    table = MatchEquity(seats, fmt, results)
    games = 20_000
    drawn = _simulated(results, seats, totals, dealer, fmt, 0, games)
    for s, chance in enumerate(table.chances(totals, dealer)):
        spread = (max(chance * (1 - chance), 0.01) / games) ** 0.5
        assert abs(drawn[s] - chance) < 5 * spread, (s, drawn, table.chances(totals, dealer))


def test_after_a_deal_the_score_moves_and_the_deal_passes_on() -> None:
    table = MatchEquity(2, MatchFormat(7), SKEWED)
    match = MatchView((3, 5), 7, None, 4, 0)
    assert table.after(match, (2, 0)) == table.chances((5, 5), 0)


def test_a_deals_result_is_counted_from_its_dealer() -> None:
    assert deal_result((0, 2, 0), 1) == (2, 0, 0)
    assert deal_result((1, 0, 1, 0), 3) == (0, 1, 0, 1)


def test_bad_distributions_are_refused() -> None:
    with pytest.raises(ValueError, match="positive weights"):
        MatchEquity(2, MatchFormat(7), {})
    three: Distribution = {(1, 0, 0): 1.0}
    with pytest.raises(ValueError, match="2 game points"):
        MatchEquity(2, MatchFormat(7), three)
    nothing: Distribution = {(0, 0): 1.0}
    with pytest.raises(ValueError, match="no match ever ends"):
        MatchEquity(2, MatchFormat(7), nothing)
    with pytest.raises(ValueError, match="2 totals"):
        MatchEquity(2, MatchFormat(7), COIN).chances((0, 0, 0), 0)


@pytest.mark.parametrize("name", ["66", "schnapsen", "66-3", "66-4"])
def test_every_built_in_variant_has_its_table_for_any_match_format(name: str) -> None:
    plain = equity_for(variant_from(REGISTRY, name, {}))
    assert plain is not None and sum(plain.chances((0,) * plain.seats, 0)) == pytest.approx(1)
    target = 11 if plain.seats == 2 else 5  # a whole four-seat table to 11 takes seconds
    other = equity_for(variant_from(REGISTRY, name, {"target": target}))
    assert other is not None and other.fmt.target == target
    assert sum(other.chances((0,) * plain.seats, 1)) == pytest.approx(1)


def test_no_table_where_an_option_changes_how_deals_end() -> None:
    assert equity_for(variant_from(REGISTRY, "66", {"tie": "draw"})) is None
    four = equity_for(variant_from(REGISTRY, "66", {"match": "four_deals"}))
    assert four is not None and four.fmt.deals == 4


def test_a_rule_set_measured_with_its_options_has_its_own_table() -> None:
    """Schnapsen without closing (the `schnapsen` package's rules) was measured on its own:
    its table is built from those deals, not from Schnapsen's defaults."""
    assert rules_key("schnapsen", {"closing": False, "target": 9}) == "schnapsen closing=false"
    assert rules_key("66", {"tie": "draw", "marriages": False}) == '66 marriages=false tie="draw"'
    closed = variant_from(REGISTRY, "schnapsen", {"closing": False, "target": 9})
    table = equity_for(closed)
    assert table is not None and table.fmt.target == 9
    _, games, counts = DEAL_RESULTS["schnapsen closing=false"]
    assert table.results == pytest.approx({r: c / games for r, c in counts.items()})
    default = equity_for(variant_from(REGISTRY, "schnapsen", {}))
    assert default is not None and table.results != default.results


@pytest.mark.skipif(not arrays_available(), reason="needs numpy")
@pytest.mark.parametrize(
    ("name", "target"), [("sixtysix", 7), ("sixtysix-3", 9), ("sixtysix-4", 6)]
)
def test_the_arrays_give_the_recursion_score_by_score(name: str, target: int) -> None:
    """The array tabulation (equity_arrays) is a second statement of the recursion, for speed:
    every score below the target and every dealer, measured results with drawn deals."""
    _, _, counts = DEAL_RESULTS[name]
    seats = len(next(iter(counts)))
    results = {r: float(c) for r, c in counts.items()}
    fmt = MatchFormat(target)
    arrays = MatchEquity(seats, fmt, results, arrays=True)
    recursion = MatchEquity(seats, fmt, results, arrays=False)
    for totals in itertools.product(range(target), repeat=seats):
        for dealer in range(seats):
            assert arrays.chances(totals, dealer) == pytest.approx(
                recursion.chances(totals, dealer), abs=1e-12
            )
    # Past the target both say who won.
    over = (target,) + (0,) * (seats - 1)
    assert arrays.chances(over, 0) == recursion.chances(over, 0)


@pytest.mark.skipif(not arrays_available(), reason="needs numpy")
def test_the_arrays_with_a_skewed_two_player_distribution() -> None:
    fmt = MatchFormat(9)
    arrays = MatchEquity(2, fmt, SKEWED, arrays=True)
    recursion = MatchEquity(2, fmt, SKEWED, arrays=False)
    for totals in itertools.product(range(9), repeat=2):
        for dealer in (0, 1):
            assert arrays.chances(totals, dealer) == pytest.approx(
                recursion.chances(totals, dealer), abs=1e-12
            )
