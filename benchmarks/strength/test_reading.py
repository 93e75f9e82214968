"""``reading.py``: what share of the opponent's hand the kept deals place, and one-line refusals.
Run by ``pytest benchmarks/strength``."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks.strength import reading
from sixtysix.plugins.manager import get_registry


def test_the_share_placed_counts_each_deal_as_often_as_it_was_kept() -> None:
    hand = 0b1111  # four cards
    right_half: Any = SimpleNamespace(hands=[0, 0b0011_0000 | 0b0011])
    all_right: Any = SimpleNamespace(hands=[0, hand])
    assert reading.placed_share([right_half, all_right], [1, 1], 1, hand) == pytest.approx(0.75)
    assert reading.placed_share([right_half, all_right], [3, 1], 1, hand) == pytest.approx(0.625)
    assert reading.placed_share([all_right], [2], 1, hand) == 1.0


def test_reading_a_player_the_model_explains_places_more_than_uniform_draws() -> None:
    """The heuristic read as the heuristic: its plays say something about its hand."""
    heuristic = get_registry().bot("heuristic")
    variant = get_registry().variant("schnapsen")()
    shares, seconds = reading.readings(variant, (heuristic, {}), [1, 8], "heuristic", 8, 3)
    assert len(shares[0]) == len(shares[1]) > 10 and len(seconds) == 2
    assert all(0.0 <= s <= 1.0 for row in shares for s in row)
    assert sum(shares[1]) > sum(shares[0])


def test_each_reading_gets_a_row_beside_the_uniform_draws(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [
        "schnapsen",
        "--deals",
        "1",
        "--read",
        "2",
        "--player",
        "heuristic",
        "--model",
        "fitted",
    ]
    assert reading.main(args) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\| 1 \(uniform\) \| \d+\.\d% .*\| {2}\| \d+\.\d ms \|$", out, re.MULTILINE)
    assert re.search(r"^\| 2 \| \d+\.\d% .*\| [+-]\d+\.\d .*\| \d+\.\d ms \|$", out, re.MULTILINE)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["66-3"], "takes two"),
        (["schnapsen", "--deals", "0"], "at least 1"),
        (["schnapsen", "--read", "0"], "--read from 1 to 64"),
        (["schnapsen", "--read", "65"], "--read from 1 to 64"),
        (["schnapsen", "--player", "nobody"], "nobody"),
        (["schnapsen", "--model", "oracle"], "invalid choice"),
    ],
)
def test_what_it_cannot_measure_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        reading.main(args)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
