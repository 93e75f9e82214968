"""``effort_agreement.py``: it asks each effort at the decisions with a choice, and refuses what
it cannot measure in one line. Run by ``pytest benchmarks/strength``."""

from __future__ import annotations

import re

import pytest

from benchmarks.strength import effort_agreement
from sixtysix.plugins.manager import get_registry


def test_only_a_bot_that_chooses_otherwise_is_counted() -> None:
    reg = get_registry()
    heuristic, rnd = reg.bot("heuristic"), reg.bot("random")
    decisions, differ, seconds = effort_agreement.unlike(
        reg.variant("schnapsen")(), (heuristic, {}), [(heuristic, {}), (rnd, {})], 3, 1
    )
    assert decisions > 0 and len(seconds) == 2
    assert differ[0] == 0 < differ[1] <= decisions


def test_each_effort_is_asked_at_every_decision_with_a_choice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert effort_agreement.main(["schnapsen", "--deals", "2", "--effort", "0.5"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"(\d+) decisions of seat 0 with a choice", out)
    assert found is not None and int(found.group(1)) > 0
    row = re.search(r"^\| 0\.5 \| (\d+) \((\d+\.\d)%\) \| \d+ ms \|$", out, re.MULTILINE)
    assert row is not None and int(row.group(1)) <= int(found.group(1))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["66-3"], "takes two"),
        (["schnapsen", "--deals", "0"], "at least 1"),
        (["schnapsen", "--effort", "1000"], "effort"),
    ],
)
def test_what_it_cannot_measure_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        effort_agreement.main(args)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
