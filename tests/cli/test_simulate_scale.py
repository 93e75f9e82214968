"""``simulate`` at scale through Click's runner: workers, --out, --resume, replay --from."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.readers import read_rows
from sixtysix.sim.simulate import play_game
from tests.sim.conftest import rows_of


def sim_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(cli, ["simulate", *args, "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_summary_has_intervals_and_shares(runner: CliRunner) -> None:
    data = sim_json(runner, "66", "--games", "2000", "--seed", "5")
    for est in data["win_rate"] + data["mean_game_points"]:
        assert est["low"] <= est["value"] <= est["high"]
    assert data["win_rate"][0]["value"] == pytest.approx(data["wins"][0] / 2000, abs=1e-4)
    assert sum(data["reason_shares"].values()) == pytest.approx(1, abs=1e-3)
    assert data["played"] == 2000 and data["resumed"] == 0 and data["backend"] == "local"


def test_workers_do_not_change_the_totals(runner: CliRunner) -> None:
    args = ("66", "--games", "3000", "--seed", "9", "--bots", "random,random:seed=2")
    one = sim_json(runner, *args, "--workers", "1")
    two = sim_json(runner, *args, "--workers", "2")
    assert one["workers"] == 1 and two["workers"] == 2
    for key in ("wins", "game_points", "reasons", "win_rate", "mean_game_points"):
        assert one[key] == two[key]


def test_table_shows_the_intervals(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["simulate", "66", "--games", "400", "--seed", "1"])
    assert result.exit_code == 0
    assert "95% CI" in result.output and "game pts/deal" in result.output


def test_out_rows_add_up_to_the_summary(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    data = sim_json(runner, "schnapsen", "--games", "700", "--seed", "2", "--out", str(out))
    rows = rows_of(out)
    assert [r["index"] for r in rows] == list(range(700))
    assert sum(1 for r in rows if r["game_points"][0] > 0) == data["wins"][0]
    assert data["out"] == str(out)


def test_parquet_out(runner: CliRunner, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="Parquet output needs pyarrow")
    out = tmp_path / "g.parquet"
    sim_json(runner, "66", "--games", "300", "--seed", "2", "--out", str(out))
    assert sorted(r["index"] for r in read_rows(out)) == list(range(300))


def test_resume_through_the_cli(runner: CliRunner, tmp_path: Path) -> None:
    args = ("66", "--seed", "4", "--bots", "random,random:seed=1")
    out, whole = tmp_path / "part.jsonl", tmp_path / "whole.jsonl"
    sim_json(runner, *args, "--games", "300", "--out", str(out))
    data = sim_json(runner, *args, "--games", "800", "--out", str(out), "--resume")
    assert data["resumed"] == 300 and data["played"] == 500 and data["games"] == 800
    full = sim_json(runner, *args, "--games", "800", "--out", str(whole))
    assert data["wins"] == full["wins"] and data["reasons"] == full["reasons"]
    assert rows_of(out) == rows_of(whole)


def test_replay_from_a_row(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    sim_json(runner, "66", "--games", "40", "--out", str(out))  # unseeded: rows carry keys
    row = next(r for r in rows_of(out) if r["index"] == 31)
    result = runner.invoke(cli, ["replay", "--from", str(out), "--game", "31", "--json"])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.stdout)
    deal = replayed["deals"][0]
    assert deal["result"] == {
        "reason": row["reason"],
        "game_points": row["game_points"],
        "points": row["points"],
        "tricks": row["tricks"],
    }
    assert deal["steps"][0]["action"] in deal["steps"][0]["legal"]
    text = runner.invoke(cli, ["replay", "--from", str(out), "--game", "31"])
    assert text.exit_code == 0 and "Deal 1" in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "{out}"], "--from and --game go together"),
        (["{out}", "--from", "{out}", "--game", "1"], "give a record FILE, or --from"),
        ([], "give a record FILE, or --from"),
        (["--from", "{out}", "--game", "99"], "has no game 99"),
        (["--from", "{missing}", "--game", "0"], "does not exist"),
        (["--from", "{bad}", "--game", "0"], "line 1: not valid JSON"),
    ],
)
def test_replay_from_bad_input(
    runner: CliRunner, tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "g.jsonl"
    sim_json(runner, "66", "--games", "5", "--seed", "1", "--out", str(out))
    (tmp_path / "bad.jsonl").write_text("{oops\n")
    paths = {
        "out": str(out),
        "missing": str(tmp_path / "no.jsonl"),
        "bad": str(tmp_path / "bad.jsonl"),
    }
    result = runner.invoke(cli, ["replay", *(a.format(**paths) for a in args)])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume"], "--resume needs --out FILE"),
        (["--matches", "3", "--out", "{dir}/m.jsonl"], "cannot be used with --matches"),
        (["--address", "localhost:1"], "--address is only for --backend ray"),
        (["--out", "{dir}/g.csv"], "name it *.jsonl or *.parquet"),
        (["--out", "{dir}/exists.jsonl"], "already exists: add --resume"),
        (["--out", "{dir}/exists.jsonl", "--resume", "--seed", "2"], "--seed 1, not --seed 2"),
        (["--workers", "0"], "0 is not in the range"),
        (["--backend", "spark"], "'spark' is not one of"),
    ],
)
def test_simulate_scale_bad_input(
    runner: CliRunner, tmp_path: Path, args: list[str], message: str
) -> None:
    sim_json(runner, "66", "--games", "5", "--seed", "1", "--out", str(tmp_path / "exists.jsonl"))
    result = runner.invoke(
        cli, ["simulate", "66", "--games", "10", *(a.format(dir=tmp_path) for a in args)]
    )
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_ctrl_c_keeps_every_finished_game(tmp_path: Path) -> None:
    """A real SIGINT to the whole process group, as a terminal's Ctrl-C sends it."""
    out = tmp_path / "big.jsonl"
    command = [sys.executable, "-m", "sixtysix", "simulate", "66", "--games", "2000000"]
    command += ["--seed", "6", "--bots", "random,random:seed=3", "--workers", "2"]
    command += ["--out", str(out), "--no-progress", "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr.decode()
    assert b"Traceback" not in stderr and b"Kept" in stderr
    data = json.loads(stdout)
    assert data["interrupted"] is True
    rows = rows_of(out)
    assert len(rows) == data["games"] == len({r["index"] for r in rows}) < 2_000_000
    reg = build_registry()
    variant = reg.variant("66")()
    bots = [(reg.bot("random"), {}), (reg.bot("random"), {"seed": "3"})]
    for row in rows[:: max(1, len(rows) // 200)]:
        game = play_game(variant, bots, Seed(6), row["index"])
        assert (row["reason"], row["game_points"]) == (
            str(game.outcome.reason),
            list(game.outcome.game_points),
        )


def test_progress_bar_shows_rate_and_eta(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    args = ["simulate", "66", "--seed", "1", "--bots", "random,random:seed=1", "--out", str(out)]
    runner.invoke(cli, [*args, "--games", "100", "--no-progress"])
    env = {"TTY_COMPATIBLE": "1", "COLUMNS": "120"}  # let Rich draw as on a terminal
    result = runner.invoke(cli, [*args, "--games", "1500", "--resume", "--progress"], env=env)
    assert result.exit_code == 0, result.output
    bar = result.stderr
    assert "games/s" in bar and "ETA" in bar and "1500/1500" in bar


@pytest.mark.parametrize(
    ("args", "end"),
    [
        (["simulate", "66", "--games", "2000", "--seed", "1", "--workers", "1"], "(1 worker)"),
        (["tournament", "66", "--bots", "heuristic,random", "--deals", "4"], "(1 worker)"),
        (["duel", "66", "heuristic", "random:seed=12345678", "--deals", "4"], " s"),
    ],
    ids=["simulate", "tournament", "duel"],
)
def test_summary_line_does_not_wrap_when_not_a_terminal(
    runner: CliRunner, args: list[str], end: str
) -> None:
    """Not a terminal, Rich assumes 80 columns; the first line is longer and stays one line."""
    result = runner.invoke(cli, [*args, "--seed", "123456789"], env={"COLUMNS": None})
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert len(first) > 80 and first.endswith(end), first


def test_progress_bar_rate_is_the_summarys(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar's games/s counts from where the summary's does, not from before the set-up.

    The set-up is made slow; the bar's last rate (up to the last chunk) can then only be at
    least the summary's (up to the end of the run), never the set-up-diluted figure.
    """
    import sixtysix.sim.jobs as jobs

    slow_plan = jobs.chunk_plan

    def chunk_plan(*args: Any) -> Any:
        time.sleep(0.5)
        return slow_plan(*args)

    monkeypatch.setattr(jobs, "chunk_plan", chunk_plan)
    env = {"TTY_COMPATIBLE": "1", "COLUMNS": "120"}
    args = ["simulate", "66", "--games", "2000", "--seed", "1", "--workers", "1", "--progress"]
    result = runner.invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output

    def rate(text: str) -> int:
        found = re.findall(r"([\d,]+) games/s", text)
        assert found, text
        return int(found[-1].replace(",", ""))

    assert rate(result.stderr) >= rate(result.stdout.splitlines()[0]) > 0
