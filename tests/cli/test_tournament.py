"""``sixtysix tournament`` through Click's runner, with the test bots registered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import sixtysix.plugins.manager as manager
from sixtysix.cli import cli
from sixtysix.plugins.manager import Registry, build_registry
from tests.sim import bots_for_tests


@pytest.fixture
def with_test_bots(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The CLI's registry with the test bots ``first`` and ``closer`` added."""
    reg = build_registry(extra=(bots_for_tests,))
    monkeypatch.setattr(manager, "_cached", reg)
    return reg


def tournament_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(cli, ["tournament", *args, "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_tournament_json(runner: CliRunner, with_test_bots: Registry) -> None:
    args = ("66", "--bots", "random,closer,first", "--deals", "60", "--seed", "3")
    data = tournament_json(runner, *args, "--bootstrap", "40")
    assert data["deals"] == 60 and data["tables"] == 3 and data["games"] == 360
    names = [s["bot"] for s in data["standings"]]
    assert sorted(names) == ["closer", "first", "random"]
    assert names[-1] == "closer"
    for s in data["standings"]:
        assert s["rating"]["low"] <= s["rating"]["value"] <= s["rating"]["high"]
        assert s["games"] == 240
    assert {(p["a"], p["b"]) for p in data["pairs"]} == {
        ("random", "closer"),
        ("random", "first"),
        ("closer", "first"),
    }
    assert sum(data["reasons"].values()) == 360
    again = tournament_json(runner, *args, "--bootstrap", "40", "--workers", "2")
    assert again["standings"] == data["standings"] and again["workers"] == 2


def test_tournament_table_and_plot(
    runner: CliRunner, with_test_bots: Registry, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib")
    chart = tmp_path / "ratings.png"
    result = runner.invoke(
        cli,
        [
            "tournament",
            "schnapsen",
            "--bots",
            "random,first",
            "--deals",
            "30",
            "--seed",
            "1",
            "--bootstrap",
            "20",
            "--plot",
            str(chart),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Ratings (Bradley-Terry" in result.output and "Head to head" in result.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert chart.stat().st_size > 5000


def test_the_same_bot_twice_is_two_entrants(runner: CliRunner) -> None:
    data = tournament_json(runner, "66", "--bots", "random,random", "--deals", "20", "--seed", "2")
    assert [p["a"] for p in data["pairs"]] == ["random"]
    assert {s["bot"] for s in data["standings"]} == {"random", "random#2"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sixtysix-3", "--bots", "random,random"], "needs at least 3 bots"),
        (["66", "--bots", "random"], "needs at least 2 bots"),
        (["66", "--bots", "random,genius"], "unknown bot 'genius'"),
        (["66", "--bots", "random,random", "--deals", "0"], "0 is not in the range"),
        (["66", "--bots", "random,random", "--plot", "{dir}/chart.xyz"], "name it *.png"),
        (["66", "--bots", "random,random", "--plot", "{dir}/no/chart.png"], "does not exist"),
        (["66"], "Missing option '--bots'"),
    ],
)
def test_tournament_bad_input(
    runner: CliRunner, tmp_path: Path, args: list[str], message: str
) -> None:
    if "--plot" in args:
        pytest.importorskip("matplotlib", reason="--plot needs matplotlib")
    result = runner.invoke(cli, ["tournament", *(a.format(dir=tmp_path) for a in args)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
