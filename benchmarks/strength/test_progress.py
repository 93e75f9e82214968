"""The progress line of long benchmark runs: counts what finished and always ends its line."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from benchmarks.strength._progress import Progress, counted


def test_counted_passes_every_item_through_and_counts_each_on_one_line() -> None:
    out = io.StringIO()
    assert list(counted(iter("abc"), 3, "matches", out)) == ["a", "b", "c"]
    text = out.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    steps = [part.split(",")[0] for part in text.strip().split("\r") if part]
    assert steps == ["1/3 matches", "2/3 matches", "3/3 matches"]


def test_a_stopped_run_still_ends_its_line_and_keeps_its_count() -> None:
    out = io.StringIO()

    def stopped() -> Iterator[int]:
        yield 1
        raise KeyboardInterrupt

    kept: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        kept.extend(counted(stopped(), 5, "deals", out))
    assert out.getvalue().endswith("\n")
    assert "1/5 deals" in out.getvalue() and "2/5" not in out.getvalue()


def test_progress_says_the_seconds_since_it_started() -> None:
    out = io.StringIO()
    progress = Progress(2, "Bummerls", out)
    progress.step(2)
    progress.end()
    assert out.getvalue() == "\r2/2 Bummerls, 0 s\n"
