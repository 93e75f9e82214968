"""Confidence intervals, Bradley-Terry ratings and the mergeable simulation totals."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.rng import Seed
from sixtysix.sim.simulate import Summary
from sixtysix.sim.stats import (
    ELO_SCALE,
    Estimate,
    PairTable,
    TimeStats,
    bootstrap_ratings,
    bradley_terry,
    mean_interval,
    mean_of,
    shares,
    wilson,
)


def test_wilson_known_values() -> None:
    # Reference values from the closed form (also given by statsmodels' proportion_confint).
    e = wilson(5, 10)
    assert e.value == 0.5
    assert e.low == pytest.approx(0.236593, abs=1e-6)
    assert e.high == pytest.approx(0.763407, abs=1e-6)
    zero = wilson(0, 10)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.277533, abs=1e-6)
    assert wilson(0, 0).low is None


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_wilson_interval_holds_the_estimate(k: int, n: int) -> None:
    k = min(k, n)
    e = wilson(k, n)
    assert e.low is not None and e.high is not None
    assert 0.0 <= e.low <= e.value <= e.high <= 1.0


def test_mean_interval_matches_the_sample_formula() -> None:
    values = [0, 1, 1, 2, 3, 3, 3, 0, 2, 1]
    e = mean_interval(sum(values), sum(v * v for v in values), len(values))
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert e.value == pytest.approx(mean)
    assert e.high is not None and e.low is not None
    assert e.high - mean == pytest.approx(1.959964 * sd / math.sqrt(len(values)), rel=1e-6)
    assert mean_interval(3, 9, 1).low is None


def test_bradley_terry_recovers_the_odds() -> None:
    # 3:1 odds is 400 * log10(3) = 190.8 Elo points.
    a, b = bradley_terry([[0, 75], [25, 0]], prior=0)
    assert a - b == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert a + b == pytest.approx(0, abs=1e-9)


def test_bradley_terry_on_simulated_comparisons() -> None:
    strengths = [200.0, 0.0, -150.0]
    rng = random.Random(5)
    scores = [[0.0] * 3 for _ in range(3)]
    for _ in range(20_000):
        i, j = rng.sample(range(3), 2)
        p = 1 / (1 + 10 ** ((strengths[j] - strengths[i]) / 400))
        winner, loser = (i, j) if rng.random() < p else (j, i)
        scores[winner][loser] += 1
    fitted = bradley_terry(scores)
    mean = sum(strengths) / 3
    for f, s in zip(fitted, strengths, strict=True):
        assert f == pytest.approx(s - mean, abs=15)


def test_prior_keeps_a_clean_sweep_finite() -> None:
    r = bradley_terry([[0, 10], [0, 0]])
    assert all(math.isfinite(x) for x in r) and r[0] > r[1]
    # One drawn game per pair on top: 10.5 : 0.5, i.e. 21 to 1.
    assert r[0] - r[1] == pytest.approx(ELO_SCALE * math.log(21), rel=1e-6)


def test_pair_table_groups_deals_and_scores() -> None:
    deals = [(2.0,), (1.0,), (2.0,), (0.5,)]
    table = PairTable.build(2, [2], deals)
    assert len(table.patterns) == 3
    assert table.scores() == [[0.0, 5.5], [2.5, 0.0]]
    assert shares(table.scores()) == [5.5 / 8, 2.5 / 8]


def test_bootstrap_is_reproducible_and_brackets_the_estimate() -> None:
    rng = random.Random(1)
    deals = [(float(rng.choice([0, 1, 2, 2])),) for _ in range(400)]
    table = PairTable.build(2, [2], deals)
    a = bootstrap_ratings(table, Seed(3), replicates=100)
    b = bootstrap_ratings(table, Seed(3), replicates=100)
    c = bootstrap_ratings(table, Seed(4), replicates=100)
    assert a == b
    assert a != c
    for est in a.ratings + a.scores:
        assert est.low is not None and est.high is not None
        assert est.low <= est.value <= est.high
    assert a.ratings[0].value > 0 > a.ratings[1].value
    assert a.ratings[0].low is not None and a.ratings[0].low > 0


def test_bootstrap_interval_of_equal_players_covers_zero() -> None:
    deals = [(float(i % 3),) for i in range(300)]  # 0, 1, 2 out of 2: even on average
    boot = bootstrap_ratings(PairTable.build(2, [2], deals), Seed(1), replicates=100)
    low, high = boot.ratings[0].low, boot.ratings[0].high
    assert low is not None and high is not None and low < 0 < high


outcomes = st.builds(
    Outcome,
    st.sampled_from(list(Reason)),
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
    st.tuples(st.integers(0, 120), st.integers(0, 120)),
    st.tuples(st.integers(0, 12), st.integers(0, 12)),
)


@given(st.lists(outcomes, max_size=40), st.integers(0, 40))
def test_summaries_merge_like_one(games: list[Outcome], cut: int) -> None:
    whole = Summary(2)
    for o in games:
        whole.add(o)
    left, right = Summary(2), Summary(2)
    left.add_outcomes(games[:cut])
    right.add_outcomes(games[cut:])
    left.merge(right)
    assert left == whole
    for seat in range(2):
        assert left.win_rate(seat) == whole.win_rate(seat) or not games


def test_wilson_bounds_at_the_extremes() -> None:
    half = wilson(5, 10)
    assert half.value == 0.5
    assert half.low == pytest.approx(0.2366, abs=1e-4)
    assert half.high == pytest.approx(0.7634, abs=1e-4)
    none = wilson(0, 10)
    assert none.low == 0.0 and none.high == pytest.approx(0.2775, abs=1e-4)
    every = wilson(20, 20)
    assert every.high == 1.0 and every.low == pytest.approx(0.8389, abs=1e-4)
    assert math.isnan(wilson(0, 0).value)


def test_mean_of_known_values() -> None:
    i = mean_of([1.0, 2.0, 3.0, 4.0])
    assert i.value == 2.5
    assert i.high is not None and i.low is not None
    assert i.high - 2.5 == pytest.approx(1.959964 * 1.290994 / 2, rel=1e-5)
    single = mean_of([3.0])
    assert single.value == 3.0 and single.low is None


def test_time_stats() -> None:
    t = TimeStats.of([x / 1000 for x in range(1, 101)])
    assert t.moves == 100
    assert t.mean == pytest.approx(0.0505)
    assert t.median == pytest.approx(0.0505)
    assert t.p95 == pytest.approx(0.09505)
    assert t.as_json()["p95_ms"] == pytest.approx(95.05)
    assert TimeStats.of([0.002]).p95 == 0.002


def test_a_rate_is_printed_with_its_interval_or_alone() -> None:
    assert wilson(806, 1000).percent() == "80.6% (78.0-82.9)"
    assert Estimate(0.5, None, None).percent() == "50.0%"
