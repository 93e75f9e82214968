"""The Ray backend on a local Ray instance: the same games as the local backend.

The instance comes from the session fixture ``ray_instance`` (tests/sim/conftest.py); these
tests are skipped only when Ray is not installed (the ``ray`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.cli import cli
from sixtysix.core.rng import Seed
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
