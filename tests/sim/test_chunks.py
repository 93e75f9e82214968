"""Chunk planning: every remaining game is handed out exactly once, in bounded chunks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sixtysix.sim.chunks import ChunkPlan, missing_intervals


def test_missing_intervals_from_indices_and_bitmap() -> None:
    assert missing_intervals(10, [0, 1, 5, 9]) == [(2, 5), (6, 9)]
    assert missing_intervals(4, []) == [(0, 4)]
    assert missing_intervals(3, [0, 1, 2]) == []
    assert missing_intervals(5, bytes([1, 0, 7, 0, 0])) == [(1, 2), (3, 5)]
    assert missing_intervals(0, []) == []


@given(
    total=st.integers(0, 300),
    done=st.sets(st.integers(0, 299)),
    first=st.integers(1, 64),
    workers=st.integers(1, 4),
    rates=st.lists(st.floats(1.0, 1e6), min_size=1, max_size=5),
)
def test_plan_hands_out_every_missing_game_once(
    total: int, done: set[int], first: int, workers: int, rates: list[float]
) -> None:
    todo = missing_intervals(total, done)
    plan = ChunkPlan(todo, first=first, min_size=1, max_size=50, workers=workers)
    seen: list[int] = []
    k = 0
    while (chunk := plan.next()) is not None:
        lo, hi = chunk
        assert 1 <= hi - lo <= 50
        # A chunk never spans a game that is already done.
        assert any(a <= lo and hi <= b for a, b in todo)
        seen.extend(range(lo, hi))
        plan.observe(hi - lo, (hi - lo) / rates[k % len(rates)])
        k += 1
    assert seen == sorted(set(range(total)) - done)
    assert plan.remaining == 0


def test_plan_sizes_chunks_from_the_measured_rate() -> None:
    plan = ChunkPlan([(0, 1_000_000)], first=4, max_size=8192, target_seconds=0.5, workers=2)
    assert plan.next() == (0, 4)
    plan.observe(1000, 1.0)  # 1000 games/s: half a second is 500 games
    assert plan.next() == (4, 504)
    plan.observe(1_000_000, 1.0)  # very fast: capped at max_size
    lo, hi = plan.next() or (0, 0)
    assert hi - lo == 8192


def test_plan_shares_the_tail_between_workers() -> None:
    plan = ChunkPlan([(0, 100)], first=1000, max_size=1000, workers=4)
    assert plan.next() == (0, 25)
    sizes = [hi - lo for lo, hi in plan]
    assert sum(sizes) == 75 and max(sizes) <= 19
