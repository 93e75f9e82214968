"""``sixtysix simulate`` through Click's runner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli


def sim(runner: CliRunner, *args: str) -> dict[str, object]:
    result = runner.invoke(cli, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


def test_simulate_totals(runner: CliRunner) -> None:
    data = sim(runner, "66", "--games", "300", "--seed", "1")
    assert data["games"] == 300 and data["deals"] == 300
    reasons = data["reasons"]
    assert isinstance(reasons, dict) and sum(reasons.values()) == 300
    assert set(reasons) <= {"reached_66", "failed_close", "last_trick", "draw"}
    wins = data["wins"]
    assert isinstance(wins, list) and sum(wins) <= 300


def test_same_seed_same_games(runner: CliRunner) -> None:
    a = sim(runner, "66", "--games", "200", "--seed", "42")
    b = sim(runner, "66", "--games", "200", "--seed", "42")
    c = sim(runner, "66", "--games", "200", "--seed", "43")
    for key in ("wins", "game_points", "reasons"):
        assert a[key] == b[key]
    assert (a["game_points"], a["reasons"]) != (c["game_points"], c["reasons"])


def test_simulate_matches(runner: CliRunner) -> None:
    data = sim(runner, "66", "--matches", "5", "--seed", "3", "--preset", "classic")
    assert data["games"] == 5 and data["unit"] == "matches"
    wins = data["wins"]
    assert isinstance(wins, list) and sum(wins) >= 5
    deals = data["deals"]
    assert isinstance(deals, int) and deals >= 5


def test_simulate_table_output(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["simulate", "schnapsen", "--games", "50", "--seed", "1"])
    assert result.exit_code == 0
    assert "games won" in result.output and "How the deals ended" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["poker"], "unknown variant"),
        (["66", "-o", "tie=coin"], "must be one of last_trick_wins, draw"),
        (["66", "--preset", "nope"], "unknown preset"),
        (["66", "--bots", "genius"], "unknown bot 'genius'"),
        (["66", "--bots", "random,random,random"], "has 2 seats"),
        (["66", "--bots", "random:depth=3"], "has no parameter 'depth'"),
        (["66", "--games", "0"], "0 is not in the range"),
    ],
)
def test_simulate_bad_input(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(cli, ["simulate", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
