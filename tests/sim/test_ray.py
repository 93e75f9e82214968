"""The Ray backend on a local Ray instance: the same games (and duels) as the local backend.

The instance comes from the session fixture ``ray_instance`` (tests/sim/conftest.py); these
tests are skipped only when Ray is not installed (the ``ray`` extra).
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.cli import cli
from sixtysix.core.rng import Seed
from sixtysix.sim import duel as duel_module
from sixtysix.sim import match_duel
from sixtysix.sim.backends import LocalBackend, RayBackend, StopFlag
from sixtysix.sim.jobs import SimJob, run_simulation
from sixtysix.sim.simulate import BotSpec
from sixtysix.sim.tournament import Tournament, TournamentJob, run_tournament
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from tests.sim.conftest import rows_of

RANDOM2: tuple[BotSpec, ...] = ((RandomBot, {}), (RandomBot, {}))


def test_ray_plays_the_same_games_as_one_and_two_local_workers(
    ray_instance: Any, tmp_path: Path
) -> None:
    rows = {}
    for name, workers, use_fast in (("ray", None, True), ("one", 1, True), ("two", 2, False)):
        job = SimJob(SixtySix(), RANDOM2, Seed(12), use_fast=use_fast)
        backend = RayBackend() if name == "ray" else LocalBackend(workers)
        out = tmp_path / f"{name}.jsonl"
        with StopFlag() as stop, backend:
            report = run_simulation(job, 3000, backend, stop, out=out)
        assert report.played == 3000 and not report.interrupted
        rows[name] = rows_of(out)
    assert rows["ray"] == rows["one"] == rows["two"]
    # The instance was started by the fixture, so the backend left it running.
    assert ray_instance.is_initialized()


def test_ray_runs_the_generic_path_and_tournaments(ray_instance: Any) -> None:
    job = TournamentJob.round_robin(Schnapsen(), [RANDOM2[0], (RandomBot, {"seed": "5"})], Seed(3))
    standings = []
    for backend in (RayBackend(workers=2), LocalBackend(1)):
        contest = Tournament(job, ["random", "random:seed=5"])
        with StopFlag() as stop, backend:
            run_tournament(contest, 40, backend, stop)
        standings.append([s.as_json() for s in contest.standings(replicates=20)])
    assert standings[0] == standings[1]


def test_simulate_cli_on_ray(ray_instance: Any, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "ray.jsonl"
    args = ["simulate", "66", "--games", "500", "--seed", "4", "--json", "--no-progress"]
    on_ray = runner.invoke(cli, [*args, "--backend", "ray", "--out", str(out)])
    assert on_ray.exit_code == 0, on_ray.output
    local = runner.invoke(cli, [*args, "--workers", "1", "--out", str(tmp_path / "l.jsonl")])
    assert local.exit_code == 0, local.output
    assert rows_of(out) == rows_of(tmp_path / "l.jsonl")
    assert '"backend": "ray"' in on_ray.output


def duel_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(cli, ["duel", *args, "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    """A duel's JSON without what a clock measured or where it ran."""
    kept = {k: v for k, v in data.items() if k not in ("seconds", "backend", "workers")}
    kept["time_per_move"] = {who: t["moves"] for who, t in data["time_per_move"].items()}
    return kept


@pytest.mark.parametrize(
    "args",
    [
        ["schnapsen", "heuristic:noise=0.3", "random", "--deals", "40"],
        ["66-3", "heuristic", "random:seed=2", "--matches", "2"],
    ],
    ids=["deals", "matches"],
)
def test_duel_cli_on_ray_gives_the_local_results(ray_instance: Any, args: list[str]) -> None:
    runner = CliRunner()
    on_ray = duel_json(runner, *args, "--seed", "5", "--backend", "ray")
    one = duel_json(runner, *args, "--seed", "5")
    two = duel_json(runner, *args, "--seed", "5", "--workers", "2")
    assert (on_ray["backend"], on_ray["workers"]) == ("ray", 2)
    assert (one["backend"], one["workers"], two["workers"]) == ("local", 1, 2)
    assert without_timing(on_ray) == without_timing(one) == without_timing(two)
    assert on_ray["interrupted"] is False


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("unit", ["--deals", "--matches"])
def test_ctrl_c_of_a_duel_on_ray_keeps_the_finished_units(
    ray_instance: Any, unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real SIGINT once the first deal (match) is in: exit status 130, and the report holds
    what finished."""
    module = duel_module if unit == "--deals" else match_duel
    name = "iter_deals" if unit == "--deals" else "iter_matches"
    real = getattr(module, name)

    def interrupted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for number, result in enumerate(real(*args, **kwargs)):
            if number == 0:
                os.kill(os.getpid(), signal.SIGINT)
            yield result

    monkeypatch.setattr(module, name, interrupted)
    args = ["duel", "66", "heuristic", "random", unit, "100000", "--seed", "3", "--json"]
    result = CliRunner().invoke(cli, [*args, "--backend", "ray", "--no-progress"])
    assert result.exit_code == 130, result.output
    assert "Stopping after the games in progress" in result.stderr
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["backend"] == "ray"
    played = data["deals"] if unit == "--deals" else data["matches"]["played"]
    assert 0 < played < 100000
