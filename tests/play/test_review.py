"""``sixtysix analyse``: every decision of a seat valued from its own view."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.core.cards import NUM_CARDS, POINTS
from sixtysix.core.records import load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.view import View
from sixtysix.service import review as review_module
from sixtysix.service.review import review
from tests.cli.conftest import played_record
from tests.play.conftest import REGISTRY

SEEN: list[View] = []


def greedy(view: View) -> Iterable[tuple[int, float]]:
    """A stand-in analyser: a card is worth its points / 10, anything else 0.05."""
    SEEN.append(view)
    return [(a, POINTS[a] / 10 if a < NUM_CARDS else 0.05) for a in view.legal_actions]


def record_json() -> dict[str, object]:
    return played_record("66", seed=8)


def test_review_values_each_decision_of_the_seat_from_its_view() -> None:
    SEEN.clear()
    data = record_json()
    replayed = replay(load_record_text(json.dumps(data)), REGISTRY)
    moves = review(replayed, 1, greedy)
    deal_actions = [d["actions"] for d in data["deals"]]  # type: ignore[index]
    mine = [
        (i + 1, j + 1)
        for i, acts in enumerate(deal_actions)
        for j, a in enumerate(acts)
        if a["seat"] == 1
    ]
    assert [(m.deal, m.step) for m in moves] == mine
    assert all(v.seat == 1 and v.my_turn for v in SEEN)  # only seat 1's own views
    for m in moves:
        if m.forced:
            assert m.loss == 0 and m.value is None
            continue
        assert m.best_value is not None and m.value is not None
        assert m.loss == pytest.approx(m.best_value - m.value)
        assert m.loss >= 0
        if m.loss == 0:
            assert m.mark == ""
    assert any(m.loss > 0 for m in moves) and any(m.mark for m in moves)


def test_review_of_one_deal_only() -> None:
    replayed = replay(load_record_text(json.dumps(record_json())), REGISTRY)
    moves = review(replayed, 0, greedy, deals=[2])
    assert moves and {m.deal for m in moves} == {2}


def test_analyse_command_with_an_analyser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_json()))
    monkeypatch.setattr(review_module, "load_analyser", lambda: greedy)
    result = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "0", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seat"] == 0 and data["moves"]
    assert data["total_loss"] == pytest.approx(sum(m["loss"] for m in data["moves"]))
    result = CliRunner().invoke(
        cli,
        ["analyse", str(path), "--seat", "0", "--deal", "1", "--lang", "tr"],
        env={"COLUMNS": "120"},
    )
    assert (
        result.exit_code == 0
        and "uzmana karşı" in result.output
        and "hamle incelendi" in result.output
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "5"], "no seat 5"),
        (["--seat", "0", "--deal", "99"], "there is no deal 99"),
    ],
)
def test_analyse_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_json()))
    result = CliRunner().invoke(cli, ["analyse", str(path), *args])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_analyse_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    result = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "0"])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_analyse_without_the_expert_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_json()))
    monkeypatch.setattr(review_module, "load_analyser", lambda: None)
    result = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "0"])
    assert result.exit_code == 1
    assert "expert analysis" in result.output and "Traceback" not in result.output
