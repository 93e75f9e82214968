"""Output rows: their schema in JSON Lines and Parquet, resuming, and replaying a row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.records import parse_record
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import Registry
from sixtysix.sim.backends import LocalBackend, StopFlag
from sixtysix.sim.errors import OutputError
from sixtysix.sim.jobs import RunReport, SimJob, run_simulation
from sixtysix.sim.readers import find_row, read_rows
from sixtysix.sim.regenerate import row_record
from sixtysix.sim.rows import FIELDS
from sixtysix.sim.simulate import BotSpec
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from tests.sim.bots_for_tests import FirstBot
from tests.sim.conftest import rows_of

RANDOM2: tuple[BotSpec, ...] = ((RandomBot, {}), (RandomBot, {}))


def run(job: SimJob, games: int, out: Path, resume: bool = False, workers: int = 1) -> RunReport:
    with StopFlag() as stop, LocalBackend(workers) as backend:
        return run_simulation(job, games, backend, stop, out=out, resume=resume)


def test_jsonl_rows_of_a_seeded_run(tmp_path: Path) -> None:
    v = SixtySix.configure(None, {"claim": "manual"})
    out = tmp_path / "g.jsonl"
    run(SimJob(v, ((FirstBot, {}), (RandomBot, {"seed": "2"})), Seed(9)), 50, out)
    lines = out.read_text().splitlines()
    assert len(lines) == 50
    first = json.loads(lines[0])
    assert tuple(first) == FIELDS
    assert first["index"] == 0 and first["path"] == "game/0"
    assert first["variant"] == "sixtysix" and first["options"] == {"claim": "manual"}
    assert first["seed"] == 9 and first["key"] is None
    assert first["seats"] == 2 and first["bots"] == ["first", "random:seed=2"]
    assert first["dealer"] == 0 and first["reason"] in {
        "reached_66",
        "false_claim",
        "failed_close",
        "last_trick",
        "played_out",
        "draw",
    }
    for name in ("game_points", "points", "tricks"):
        assert len(first[name]) == 2 and all(isinstance(x, int) for x in first[name])
    assert isinstance(first["duration"], float) and first["duration"] >= 0
    rows = rows_of(out)
    assert [r["dealer"] for r in rows] == [i % 2 for i in range(50)]
    assert sum(1 for r in rows if max(r["game_points"]) > 0) > 40


def test_unseeded_rows_carry_each_games_key(tmp_path: Path) -> None:
    master = Seed()
    out = tmp_path / "u.jsonl"
    run(SimJob(SixtySix(), RANDOM2, master), 30, out)
    for row in rows_of(out):
        assert row["seed"] is None
        assert row["key"] == master.child(("game", row["index"])).key.hex()


def test_parquet_holds_the_same_rows(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    job = SimJob(Schnapsen(), RANDOM2, Seed(4))
    run(job, 300, tmp_path / "g.jsonl")
    run(job, 300, tmp_path / "g.parquet", workers=2)
    table = pq.read_table(tmp_path / "g.parquet")
    assert tuple(table.column_names) == (*FIELDS, "faults")
    assert table.schema.metadata[b"format"] == b"sixtysix-sim/1"
    assert str(table.schema.field("game_points").type) == "list<element: int64>"
    assert str(table.schema.field("duration").type) == "double"
    assert not (tmp_path / "g.parquet.partial").exists()
    from_parquet = sorted(read_rows(tmp_path / "g.parquet"), key=lambda r: r["index"])
    for row in from_parquet:
        del row["duration"]
    assert from_parquet == rows_of(tmp_path / "g.jsonl")


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_resume_continues_without_repeating_or_losing_a_game(tmp_path: Path, suffix: str) -> None:
    if suffix == "parquet":
        pytest.importorskip("pyarrow", reason="Parquet output needs pyarrow")
    job = SimJob(SixtySix(), RANDOM2, Seed(6))
    full = run(job, 2000, tmp_path / f"full.{suffix}")
    out = tmp_path / f"part.{suffix}"
    first = run(job, 700, out)
    assert first.played == 700
    again = run(job, 2000, out, resume=True)
    assert again.resumed == 700 and again.played == 1300
    assert again.summary.wins == full.summary.wins
    assert again.summary.reasons == full.summary.reasons
    assert again.summary.game_points_sq == full.summary.game_points_sq
    rows = sorted(read_rows(out), key=lambda r: r["index"])
    expected = sorted(read_rows(tmp_path / f"full.{suffix}"), key=lambda r: r["index"])
    for r in rows + expected:
        del r["duration"]
    assert rows == expected
    done = run(job, 2000, out, resume=True)
    assert done.played == 0 and done.resumed == 2000


def test_resume_fills_gaps_left_by_an_interrupted_pool(tmp_path: Path) -> None:
    job = SimJob(SixtySix(), RANDOM2, Seed(6), use_fast=False)
    out = tmp_path / "gaps.jsonl"
    run(job, 600, out, workers=2)
    lines = out.read_text().splitlines(keepends=True)
    kept = [line for line in lines if json.loads(line)["index"] % 7 != 3]
    out.write_text("".join(kept))
    again = run(job, 600, out, resume=True)
    assert again.played == len(lines) - len(kept)
    assert [r["index"] for r in rows_of(out)] == list(range(600))


def test_resume_drops_a_cut_last_line(tmp_path: Path) -> None:
    job = SimJob(SixtySix(), RANDOM2, Seed(2))
    run(job, 100, tmp_path / "full.jsonl")
    out = tmp_path / "cut.jsonl"
    run(job, 40, out)
    with out.open("ab") as f:
        f.write(b'{"index":40,"variant":"six')  # a hard kill in the middle of a write
    report = run(job, 100, out, resume=True)
    assert report.dropped_bytes > 0 and report.resumed == 40 and report.played == 60
    assert rows_of(out) == rows_of(tmp_path / "full.jsonl")


@pytest.mark.parametrize(
    ("other", "message"),
    [
        (SimJob(SixtySix(), RANDOM2, Seed(2)), "--seed 1, not --seed 2"),
        (SimJob(SixtySix(), RANDOM2, Seed()), "--seed 1, not no seed"),
        (SimJob(SixtySix(), ((FirstBot, {}), (RandomBot, {})), Seed(1)), "bots random,random"),
        (SimJob(Schnapsen(), RANDOM2, Seed(1)), "variant 'sixtysix'"),
        (
            SimJob(SixtySix.configure(None, {"claim": "manual"}), RANDOM2, Seed(1)),
            'options {}, not {"claim":"manual"}',
        ),
    ],
)
def test_resume_refuses_another_runs_file(tmp_path: Path, other: SimJob, message: str) -> None:
    out = tmp_path / "g.jsonl"
    run(SimJob(SixtySix(), RANDOM2, Seed(1)), 20, out)
    with pytest.raises(OutputError, match=r"cannot resume .*written with") as info:
        run(other, 40, out, resume=True)
    assert message in str(info.value)


def test_resume_refuses_broken_files(tmp_path: Path) -> None:
    job = SimJob(SixtySix(), RANDOM2, Seed(1))
    out = tmp_path / "g.jsonl"
    run(job, 20, out)
    with pytest.raises(OutputError, match="already exists: add --resume"):
        run(job, 20, out)
    with pytest.raises(OutputError, match="already holds game 10, beyond --games 10"):
        run(job, 10, out, resume=True)
    text = out.read_text()
    out.write_text(text + text.splitlines(keepends=True)[3])
    with pytest.raises(OutputError, match="game 3 appears twice"):
        run(job, 40, out, resume=True)
    out.write_text(text + "not json\n")
    with pytest.raises(OutputError, match=r"g.jsonl, line 21: not valid JSON"):
        run(job, 40, out, resume=True)
    out.write_text('{"index": 1}\n')
    with pytest.raises(OutputError, match="line 1: not a sixtysix simulation row"):
        run(job, 40, out, resume=True)
    with pytest.raises(OutputError, match="name it"):
        run(job, 40, tmp_path / "g.csv")


@pytest.mark.parametrize("seed", [7, None])
def test_rows_regenerate_into_records_that_replay(
    tmp_path: Path, test_registry: Registry, seed: int | None
) -> None:
    bots: tuple[BotSpec, ...] = ((FirstBot, {}), (RandomBot, {}))
    out = tmp_path / "g.jsonl"
    run(SimJob(Schnapsen.configure(None, {"claim": "manual"}), bots, Seed(seed)), 25, out)
    for row in rows_of(out):
        record = row_record(row, test_registry)
        assert record.seed == seed and record.options == {"claim": "manual"}
        assert record.deals[0].setup.dealer == row["dealer"]
        result = replay(parse_record(record.as_json()), test_registry)
        outcome = result.deals[0].result
        assert outcome is not None
        assert str(outcome.reason) == row["reason"]
        assert list(outcome.game_points) == row["game_points"]
        assert list(outcome.points) == row["points"]
        assert list(outcome.tricks) == row["tricks"]
    assert find_row(out, 17)["index"] == 17


def test_a_tampered_row_does_not_regenerate(tmp_path: Path, test_registry: Registry) -> None:
    out = tmp_path / "g.jsonl"
    run(SimJob(SixtySix(), RANDOM2, Seed(7)), 5, out)
    row = find_row(out, 3)
    row["points"] = [row["points"][1], row["points"][0] + 1]
    with pytest.raises(OutputError, match="game 3 does not regenerate"):
        row_record(row, test_registry)
    with pytest.raises(OutputError, match="has no game 99"):
        find_row(out, 99)
