"""Every driver referees: a bot's fault forfeits that deal by the one rule, is counted and
shown, and the run goes on (simulate, matches, duel, tournament; one worker and two)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.core.faults import FORFEIT_POINTS, FaultKind, PlayerFault
from sixtysix.core.rng import Seed
from sixtysix.core.turn import Turn, describe, tally
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.readers import read_rows
from sixtysix.variants.sixtysix import SixtySix
from tests.sim import bots_for_tests


@pytest.fixture(autouse=True)
def with_test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's registry with the test bots (``sloppy`` among them)."""
    monkeypatch.setattr("sixtysix.plugins.manager._cached", build_registry(extra=(bots_for_tests,)))


def run(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


# ---------------------------------------------------------------------- the turn


def fresh_state() -> Any:
    v = SixtySix()
    return v.new_deal(v.deal(Seed(3), ("deal",), 0))


def test_an_illegal_answer_forfeits_for_the_seat_that_gave_it() -> None:
    state = fresh_state()
    seat = state.to_act
    illegal = next(a for a in range(30) if a not in state.legal_actions())
    with Turn(state, seat) as turn:
        state.apply(illegal)
    assert turn.fault is not None and turn.fault.kind == FaultKind.ILLEGAL
    assert state.is_over and str(state.outcome.reason) == "forfeit"
    assert state.outcome.game_points[seat] == 0
    assert state.outcome.game_points[1 - seat] == FORFEIT_POINTS


def test_an_exception_is_a_crash_and_a_player_fault_keeps_its_kind() -> None:
    state = fresh_state()
    with Turn(state, state.to_act) as turn:
        raise KeyError("bug")
    assert turn.fault is not None and turn.fault.kind == FaultKind.CRASH
    assert "KeyError" in turn.fault.detail and state.is_over
    state = fresh_state()
    with Turn(state, state.to_act) as turn:
        raise PlayerFault(state.to_act, FaultKind.TIMEOUT, "10 s")
    assert turn.fault is not None and turn.fault.kind == FaultKind.TIMEOUT
    state = fresh_state()
    seat = state.to_act
    with Turn(state, seat) as turn:
        raise PlayerFault(-1, FaultKind.GARBAGE, "a wrapper that lost its seat")
    assert turn.fault is not None and turn.fault.seat == seat
    assert state.outcome.game_points[seat] == 0


def test_an_interrupt_is_not_a_fault() -> None:
    state = fresh_state()
    with pytest.raises(KeyboardInterrupt), Turn(state, state.to_act):
        raise KeyboardInterrupt
    assert not state.is_over


def test_tally_and_describe() -> None:
    counts = tally([("a", "illegal"), ("b", "crash"), ("a", "illegal"), ("a", "timeout")])
    assert counts == {"a": {"illegal": 2, "timeout": 1}, "b": {"crash": 1}}
    assert describe(counts["a"]) == "3 (illegal 2, timeout 1)" and describe({}) == "0"


# ---------------------------------------------------------------------- simulate


def check_rows(path: Path) -> int:
    """Every row with a fault is a forfeit scored by the rule; returns the faults seen."""
    faults = 0
    for row in read_rows(path):
        listed = row.get("faults") or []
        assert (row["reason"] == "forfeit") == bool(listed)
        for f in listed:
            faults += 1
            assert f["kind"] in {"illegal", "crash"}
            expected = [0 if s == f["seat"] else FORFEIT_POINTS for s in range(row["seats"])]
            assert row["game_points"] == expected
    return faults


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_simulate_counts_the_faults_and_scores_the_forfeits(
    tmp_path: Path, workers: str, suffix: str
) -> None:
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"games.{suffix}"
    args = ["simulate", "66", "--bots", "sloppy:every=7,first", "--games", "120", "--seed", "4"]
    data = run(*args, "--workers", workers, "--out", str(out))
    assert data["games"] == 120
    faults = data["faults"]
    assert faults[1] == {} and faults[0].get("illegal", 0) > 0
    assert data["reasons"]["forfeit"] == faults[0]["illegal"]
    assert check_rows(out) == faults[0]["illegal"]
    # Seat 1 scored 3 in every forfeit: it is in its game points total.
    assert data["game_points"][1] >= FORFEIT_POINTS * faults[0]["illegal"]


def test_replay_from_a_forfeited_game_shows_it_forfeited(tmp_path: Path) -> None:
    """``replay --from`` regenerates a game a fault ended into a record that ends it so: the
    forfeit after the last action, the result the row has."""
    out = tmp_path / "games.jsonl"
    args = ["simulate", "66", "--bots", "crasher:every=6,first", "--games", "12", "--seed", "4"]
    run(*args, "--out", str(out))
    row = next(r for r in read_rows(out) if r.get("faults"))
    assert row["faults"] == [{"seat": 0, "kind": "crash"}]
    where = ["replay", "--from", str(out), "--game", str(row["index"])]
    result = CliRunner().invoke(cli, [*where, "--json"])
    assert result.exit_code == 0, result.output
    deal = json.loads(result.stdout)["deals"][0]
    assert deal["result"] == {k: row[k] for k in ("reason", "game_points", "points", "tricks")}
    assert deal["result"]["reason"] == "forfeit"
    text = CliRunner().invoke(cli, where, env={"SIXTYSIX_LANG": "en"}).stdout
    assert "  a fault forfeits the deal: seat 0 (crash)\n  result: forfeit;" in text


def test_simulate_results_do_not_depend_on_workers_with_faults() -> None:
    args = ["simulate", "66", "--bots", "crasher:every=6,sloppy:every=9", "--games", "80"]
    one = run(*args, "--seed", "2", "--workers", "1")
    two = run(*args, "--seed", "2", "--workers", "2")
    for key in ("wins", "game_points", "reasons", "faults"):
        assert one[key] == two[key]
    assert one["faults"][0].get("crash", 0) > 0 and one["faults"][1].get("illegal", 0) > 0


def test_simulate_summary_shows_the_faults() -> None:
    args = ["simulate", "66", "--bots", "sloppy:every=7,first", "--games", "40", "--seed", "4"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Faults (each forfeited a deal): seat 0 (sloppy) " in result.output


def test_a_row_without_faults_is_unchanged(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run("simulate", "66", "--bots", "first", "--games", "5", "--seed", "1", "--out", str(out))
    assert all('"faults"' not in line for line in out.read_text().splitlines())


def test_matches_go_on_after_a_forfeited_deal() -> None:
    args = ["simulate", "66", "--bots", "sloppy:every=9,first", "--matches", "6", "--seed", "5"]
    data = run(*args, "--workers", "2")
    assert data["games"] == 6 and sum(data["wins"]) >= 6
    assert data["faults"][0]["illegal"] == data["reasons"]["forfeit"] > 0
    assert data["deals"] > data["reasons"]["forfeit"]


def test_an_old_parquet_file_without_faults_is_read_and_resumed(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "games.parquet"
    args = ["simulate", "66", "--bots", "sloppy:every=7,first", "--seed", "4", "--out", str(out)]
    run(*args, "--games", "30")
    table = pq.read_table(out)
    pq.write_table(table.drop_columns(["faults"]).slice(0, 20), out)  # as an older version wrote
    assert len(list(read_rows(out))) == 20
    data = run(*args, "--games", "30", "--resume")
    assert data["resumed"] == 20 and data["games"] == 30
    rows = sorted(read_rows(out), key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(30))
    assert all("faults" not in r for r in rows[:20])  # an old file does not know its faults
    assert data["faults"][0].get("illegal", 0) == sum(len(r.get("faults", [])) for r in rows[20:])


# ---------------------------------------------------------------------- duel


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_duel_counts_each_contestants_faults(jobs: str) -> None:
    args = ["duel", "66", "sloppy:every=7", "first", "--deals", "20", "--seed", "3"]
    data = run(*args, "--jobs", jobs)
    assert data["deals"] == 20 and data["games"] == 40
    assert data["faults"]["b"] == {} and data["faults"]["a"]["illegal"] > 0


def test_duel_with_faults_is_the_same_with_two_jobs() -> None:
    args = ["duel", "66", "crasher:every=5", "sloppy:every=8", "--deals", "15", "--seed", "7"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    for key in ("games_won", "game_points_per_deal", "faults"):
        assert one[key] == two[key]
    assert one["faults"]["a"]["crash"] > 0 and one["faults"]["b"]["illegal"] > 0


def test_duel_summary_shows_the_faults() -> None:
    args = ["duel", "66", "sloppy:every=7", "first", "--deals", "10", "--seed", "3"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "faults (each forfeited a game): A " in result.output


# ---------------------------------------------------------------------- tournament


@pytest.mark.parametrize("workers", ["1", "2"])
def test_tournament_counts_each_bots_faults(workers: str) -> None:
    args = ["tournament", "66", "--bots", "sloppy:every=7,first,random", "--deals", "10"]
    data = run(*args, "--seed", "3", "--workers", workers)
    by_bot = {s["bot"]: s for s in data["standings"]}
    sloppy = by_bot["sloppy:every=7"]["faults"]
    assert sloppy["illegal"] > 0 and by_bot["first"]["faults"] == {}
    assert data["faults"] == sloppy["illegal"] == data["reasons"]["forfeit"]
    assert all(s["games"] == 40 for s in data["standings"])


def test_tournament_summary_shows_the_faults() -> None:
    args = ["tournament", "66", "--bots", "sloppy:every=7,first", "--deals", "5", "--seed", "3"]
    result = CliRunner().invoke(cli, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Faults (each forfeited a game): sloppy:every=7 " in result.output


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_resume_counts_the_faults_already_in_the_file(tmp_path: Path, suffix: str) -> None:
    """A resumed run's summary holds the faults of the games it found, on every read path
    (a row group or block with a fault is read row by row, the others at once)."""
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"g.{suffix}"
    args = ["simulate", "66", "--bots", "sloppy:every=20,first", "--seed", "2"]
    run(*args, "--games", "30", "--out", str(out))
    whole = run(*args, "--games", "60", "--out", str(tmp_path / f"whole.{suffix}"))
    resumed = run(*args, "--games", "60", "--out", str(out), "--resume")
    assert whole["faults"][0] and resumed["faults"] == whole["faults"]
    assert resumed["reasons"] == whole["reasons"]
