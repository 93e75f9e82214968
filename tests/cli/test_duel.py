"""``sixtysix duel`` through Click's runner."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.sim import duel as duel_module


def run_json(runner: CliRunner, *args: str) -> dict[str, object]:
    result = runner.invoke(cli, ["duel", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


def test_json_report(runner: CliRunner) -> None:
    data = run_json(runner, "66", "heuristic", "random", "--deals", "20", "--seed", "1")
    assert data["variant"] == "sixtysix"
    assert data["bots"] == {"a": "heuristic", "b": "random"}
    assert data["deals"] == 20 and data["games"] == 40
    won = data["games_won"]
    assert isinstance(won, dict) and won["a"] + won["b"] + won["draws"] == 40
    rate = data["win_rate"]
    assert isinstance(rate, dict)
    a = rate["a"]
    assert a["low"] <= a["estimate"] <= a["high"]
    assert a["estimate"] == won["a"] / 40
    points = data["game_points_per_deal"]
    assert isinstance(points, dict) and set(points) == {"a", "b", "difference"}
    times = data["time_per_move"]
    assert isinstance(times, dict) and times["a"]["moves"] > 0
    assert set(times["a"]) == {"moves", "mean_ms", "median_ms", "p95_ms"}
    assert data["interrupted"] is False


def test_four_players_rotate_over_every_seat(runner: CliRunner) -> None:
    data = run_json(runner, "66-4", "heuristic", "random", "--deals", "3", "--seed", "2")
    assert data["games"] == 3 * 8


def test_same_seed_same_result(runner: CliRunner) -> None:
    def key(data: dict[str, object]) -> object:
        return data["games_won"], data["game_points_per_deal"], data["win_rate"]

    args = ("schnapsen", "heuristic:noise=0.4", "random", "--deals", "15")
    a = run_json(runner, *args, "--seed", "7")
    b = run_json(runner, *args, "--seed", "7")
    c = run_json(runner, *args, "--seed", "8")
    assert key(a) == key(b)
    assert key(a) != key(c)


def test_table_output(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["duel", "66", "@medium", "@easy", "--deals", "10", "--seed", "3", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "@medium vs @easy" in out
    for words in ("games won", "win rate", "game points per deal", "time per move"):
        assert words in out


def test_options_and_presets_reach_the_game(runner: CliRunner) -> None:
    data = run_json(
        runner, "66", "heuristic", "random", "--deals", "5", "--preset", "classic", "-o", "target=3"
    )
    assert data["options"] == {
        "claim": "manual",
        "failed_close": "2or3",
        "tie": "draw",
        "target": 3,
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["poker", "heuristic", "random"], "unknown variant 'poker'"),
        (["66", "genius", "random"], "unknown bot 'genius'"),
        (["66", "heuristic", "random:depth=3"], "has no parameter 'depth'"),
        (["66", "heuristic:noise=2", "random"], "noise must be a number from 0 to 1"),
        (["66", "@impossible", "random"], "unknown level '@impossible'"),
        (["66", "heuristic", "random", "-o", "tie=coin"], "must be one of last_trick_wins, draw"),
        (["66", "heuristic", "random", "-o", "colour=red"], "colour"),
        (["66", "heuristic", "random", "--deals", "0"], "0 is not in the range"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    runner: CliRunner, args: list[str], message: str
) -> None:
    result = runner.invoke(cli, ["duel", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    if not args[-1].isdigit():  # Click's usage errors print the usage line too
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_ctrl_c_reports_the_finished_deals(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = duel_module.iter_deals

    def interrupted(*args: object, **kwargs: object) -> Iterator[duel_module.DealResult]:
        for number, result in enumerate(real(*args, **kwargs)):  # type: ignore[arg-type]
            if number == 3:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(duel_module, "iter_deals", interrupted)
    result = runner.invoke(cli, ["duel", "66", "heuristic", "random", "--deals", "50", "--json"])
    assert result.exit_code == 130
    data = json.loads(result.output)
    assert data["deals"] == 3 and data["games"] == 6 and data["interrupted"] is True


def test_ctrl_c_before_any_deal_writes_valid_json(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> Iterator[duel_module.DealResult]:
        raise KeyboardInterrupt
        yield  # a generator, as iter_deals is

    monkeypatch.setattr(duel_module, "iter_deals", interrupted)
    result = runner.invoke(cli, ["duel", "66", "heuristic", "random", "--deals", "5", "--json"])
    assert result.exit_code == 130
    assert "NaN" not in result.output
    data = json.loads(result.output, parse_constant=lambda name: pytest.fail(name))
    assert data["deals"] == 0 and data["win_rate"]["a"]["estimate"] is None


def test_help_documents_the_design(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["duel", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "seats swapped" in text and "Wilson" in text and "@hard" in text
    assert "With --matches, whole matches are played instead" in text and "Bummerl" in text


# ---------------------------------------------------------------------- --matches


def test_deals_and_matches_together_is_one_line_and_status_2(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["duel", "66", "heuristic", "random", "--deals", "5", "--matches", "2"]
    )
    assert result.exit_code == 2
    assert result.output.strip() == (
        "Error: --deals and --matches cannot be used together: give one of them"
    )


def test_matches_json_report(runner: CliRunner) -> None:
    data = run_json(runner, "schnapsen", "heuristic", "random", "--matches", "4", "--seed", "3")
    matches = data["matches"]
    assert isinstance(matches, dict)
    assert set(matches) == {"played", "games", "won", "win_rate", "deals_per_match"}
    assert matches["played"] == 4 and matches["games"] == 8
    won = matches["won"]
    assert won["a"] + won["b"] + won["draws"] == 8
    rate = matches["win_rate"]["a"]
    assert rate["low"] <= rate["estimate"] == won["a"] / 8 <= rate["high"]
    # The per-deal figures are over every deal of those matches: at least 4 per Bummerl of 7.
    assert data["games"] >= 8 * 3 and data["games"] == round(
        matches["deals_per_match"]["estimate"] * 8
    )
    for key in ("games_won", "win_rate", "game_points_per_deal", "time_per_move", "faults"):
        assert key in data
    assert data["interrupted"] is False


def test_matches_are_reproducible_whatever_the_jobs(runner: CliRunner) -> None:
    def key(data: dict[str, object]) -> object:
        return data["matches"], data["games_won"], data["game_points_per_deal"]

    args = ("66", "heuristic:noise=0.3", "random", "--matches", "5")
    one = run_json(runner, *args, "--seed", "4", "--jobs", "1")
    two = run_json(runner, *args, "--seed", "4", "--jobs", "2")
    other = run_json(runner, *args, "--seed", "5", "--jobs", "1")
    assert key(one) == key(two)
    assert key(one) != key(other)


def test_matches_table_output(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["duel", "66", "heuristic", "random", "--matches", "3", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "3 matches in every seating (6 in all)" in out
    for words in ("matches won", "match win rate", "games won", "deals per match"):
        assert words in out


def test_ctrl_c_reports_the_finished_matches(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sixtysix.sim import match_duel

    real = match_duel.iter_matches

    def interrupted(*args: object, **kwargs: object) -> Iterator[match_duel.DuelMatch]:
        for number, result in enumerate(real(*args, **kwargs)):  # type: ignore[arg-type]
            if number == 2:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(match_duel, "iter_matches", interrupted)
    result = runner.invoke(cli, ["duel", "66", "heuristic", "random", "--matches", "50", "--json"])
    assert result.exit_code == 130
    data = json.loads(result.output)
    assert data["matches"]["played"] == 2 and data["matches"]["games"] == 4
    assert data["interrupted"] is True


# ---------------------------------------------------------------------- backends


def test_workers_is_the_jobs_option_and_is_reported(runner: CliRunner) -> None:
    args = ("66", "heuristic", "random", "--deals", "6", "--seed", "2")
    jobs = run_json(runner, *args, "--jobs", "2")
    workers = run_json(runner, *args, "--workers", "2")
    alone = run_json(runner, *args)
    assert (jobs["backend"], jobs["workers"], alone["workers"]) == ("local", 2, 1)
    assert jobs["games_won"] == workers["games_won"] == alone["games_won"]


def test_an_address_without_ray_is_one_line_and_status_2(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["duel", "66", "heuristic", "random", "--address", "h:1"])
    assert result.exit_code == 2
    assert result.output.strip() == "Error: --address is only for --backend ray"


def test_an_unreachable_ray_cluster_is_reported_as_simulate_reports_it(
    runner: CliRunner,
) -> None:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    if ray.is_initialized():
        pytest.skip("a Ray instance runs in this process: the address would not be used")
    where = ["--backend", "ray", "--address", "127.0.0.1:1"]
    duel = runner.invoke(cli, ["duel", "66", "heuristic", "random", "--deals", "2", *where])
    simulate = runner.invoke(cli, ["simulate", "66", "--games", "2", *where])
    assert duel.exit_code == simulate.exit_code == 2
    assert duel.output == simulate.output
    assert duel.output.startswith("Error: cannot reach the Ray cluster at 127.0.0.1:1")
    assert len(duel.output.strip().splitlines()) == 1


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_first_ctrl_c_finishes_the_deals_in_progress(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    """A real SIGINT once the first deal is in: no deal is handed out after it, those in
    progress finish and are reported (one process: only the deal it was playing)."""
    real = duel_module.iter_deals

    def interrupted(*args: Any, **kwargs: Any) -> Iterator[duel_module.DealResult]:
        for number, result in enumerate(real(*args, **kwargs)):
            if number == 0:
                os.kill(os.getpid(), signal.SIGINT)
            yield result

    monkeypatch.setattr(duel_module, "iter_deals", interrupted)
    args = ["duel", "66", "heuristic", "random", "--deals", "100000", "--json"]
    result = runner.invoke(cli, [*args, "--workers", workers, "--no-progress"])
    assert result.exit_code == 130, result.output
    assert "Ctrl-C again to stop at once" in result.stderr
    data = json.loads(result.stdout)
    assert data["interrupted"] is True
    assert data["deals"] == 1 if workers == "1" else 1 <= data["deals"] < 100000
