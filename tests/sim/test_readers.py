"""Reading big simulation files a part at a time: one row, the finished games, bad files."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.cli import cli
from sixtysix.core.rng import Seed
from sixtysix.sim import output, readers, resume
from sixtysix.sim.backends import LocalBackend, StopFlag
from sixtysix.sim.errors import OutputError
from sixtysix.sim.jobs import RunReport, SimJob, run_simulation
from sixtysix.sim.readers import find_row, read_rows
from sixtysix.sim.resume import load_for_resume
from sixtysix.sim.rows import FAULTS, FIELDS, RunInfo, parquet_schema
from sixtysix.sim.simulate import BotSpec, Summary
from sixtysix.variants.sixtysix import SixtySix

pa = pytest.importorskip("pyarrow", reason="Parquet output needs pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pc = pytest.importorskip("pyarrow.compute")

RANDOM2: tuple[BotSpec, ...] = ((RandomBot, {}), (RandomBot, {}))
JOB = SimJob(SixtySix(), RANDOM2, Seed(3))
INFO = JOB.info()


def run(out: Path, games: int, resume_it: bool = False, workers: int = 1) -> RunReport:
    with StopFlag() as stop, LocalBackend(workers) as backend:
        return run_simulation(JOB, games, backend, stop, out=out, resume=resume_it)


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Parquet file of games 0..1199 as ``simulate`` writes it (two workers)."""
    out = tmp_path_factory.mktemp("full") / "g.parquet"
    run(out, 1200, workers=2)
    return out


def rewrite(
    source: Path,
    dest: Path,
    keep: Callable[[int], bool] = lambda i: True,
    *,
    row_group_size: int = 100,
    statistics: bool = True,
    shuffle: bool = False,
) -> list[int]:
    """``source``'s rows whose index passes ``keep`` written to ``dest`` in index order (or
    shuffled); their indices."""
    table = pq.read_table(source)
    indices = sorted(i for i in table.column("index").to_pylist() if keep(i))
    if shuffle:
        random.Random(5).shuffle(indices)
    position = {i: p for p, i in enumerate(table.column("index").to_pylist())}
    table = table.take(pa.array([position[i] for i in indices], pa.int64()))
    if dest.suffix == ".parquet":
        pq.write_table(table, dest, row_group_size=row_group_size, write_statistics=statistics)
    else:
        with dest.open("w") as f:
            for batch in table.to_batches():
                for row in readers.parquet_rows(batch, "x"):
                    f.write(json.dumps(row, separators=(",", ":")) + "\n")
    return indices


def reference(rows: Iterator[dict[str, Any]], total: int) -> tuple[bytearray, Counter[Any]]:
    """The finished games and the tally of their results, row by row (as before)."""
    done = bytearray(total)
    tally: Counter[Any] = Counter()
    for row in rows:
        done[row["index"]] = 1
        tally[(row["reason"], tuple(row["game_points"]))] += 1
    return done, tally


def without_duration(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "duration"}


class GroupSpy:
    """Records the row groups every ``ParquetFile.iter_batches`` call reads."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[tuple[int, ...] | None, tuple[str, ...]]] = []
        real = pq.ParquetFile.iter_batches

        def spy(pf: Any, *args: Any, **kwargs: Any) -> Any:
            groups = kwargs.get("row_groups")
            self.calls.append((None if groups is None else tuple(groups), tuple(kwargs["columns"])))
            return real(pf, *args, **kwargs)

        monkeypatch.setattr(pq.ParquetFile, "iter_batches", spy)

    @property
    def groups(self) -> set[int]:
        return {g for groups, _ in self.calls for g in groups or ()}


# --------------------------------------------------------------------------- writing


def test_the_writer_writes_whole_row_groups_with_index_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(output, "ROW_GROUP", 100)
    out = tmp_path / "g.parquet"
    run(out, 1050, workers=2)
    md = pq.ParquetFile(out).metadata
    sizes = [md.row_group(g).num_rows for g in range(md.num_row_groups)]
    assert sizes == [100] * 10 + [50]
    seen = []
    for g in range(md.num_row_groups):
        stats = md.row_group(g).column(0).statistics
        assert stats is not None and stats.has_min_max
        indices = pq.ParquetFile(out).read_row_group(g, columns=["index"]).column(0).to_pylist()
        assert (stats.min, stats.max) == (min(indices), max(indices))
        seen += indices
    assert sorted(seen) == list(range(1050))


# --------------------------------------------------------------------------- one row


def test_one_row_reads_only_the_row_group_that_holds_it(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = tmp_path / "small.parquet"
    rewrite(full, small, row_group_size=50)
    expected = {r["index"]: r for r in read_rows(full)}
    spy = GroupSpy(monkeypatch)
    for index in (0, 377, 1199):
        spy.calls.clear()
        assert find_row(small, index) == expected[index]
        assert spy.groups == {index // 50}
        assert spy.calls[0][1] == ("index",)  # the index column alone first
    spy.calls.clear()
    with pytest.raises(OutputError, match="has no game 1200"):
        find_row(small, 1200)
    assert spy.groups == set()  # no row group can hold it: nothing read


def test_one_row_without_statistics_or_order(full: Path, tmp_path: Path) -> None:
    expected = {r["index"]: r for r in read_rows(full)}
    for name, stats, shuffle in [("nostats", False, False), ("shuffled", True, True)]:
        path = tmp_path / f"{name}.parquet"
        rewrite(full, path, row_group_size=64, statistics=stats, shuffle=shuffle)
        if not stats:
            assert pq.ParquetFile(path).metadata.row_group(0).column(0).statistics is None
        for index in (5, 640, 1199):
            assert find_row(path, index) == expected[index]
        with pytest.raises(OutputError, match="has no game 5000"):
            find_row(path, 5000)


def test_one_jsonl_row_stops_reading_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "g.jsonl"
    run(out, 30)
    lines = out.read_bytes().splitlines(keepends=True)
    with out.open("ab") as f:
        f.write(b"not json\n")
    # Found before the broken line, which is never read.
    assert find_row(out, 12) == json.loads(lines[12])
    with pytest.raises(OutputError, match="line 31: not valid JSON"):
        find_row(out, 99)
    # Read block by block (no guess), in many small blocks: lines cut across them, the line
    # numbers still right.
    with monkeypatch.context() as patch:
        patch.setattr(readers, "WINDOW", 0)
        patch.setattr(readers, "BLOCK", 700)
        for index in (0, 1, 17, 29):
            assert find_row(out, index) == json.loads(lines[index])
        with pytest.raises(OutputError, match="line 31: not valid JSON"):
            find_row(out, 99)
        lines[20] = b"{oops\n"
        out.write_bytes(b"".join(lines))
        with pytest.raises(OutputError, match="line 21: not valid JSON"):
            find_row(out, 25)
    # A line of another layout is parsed to learn its index.
    other = tmp_path / "other.jsonl"
    row = json.loads(lines[7])
    other.write_text("\n" + json.dumps(dict(reversed(list(row.items())))) + "\n")
    assert find_row(other, 7) == row


@pytest.mark.parametrize("shuffle", [False, True])
def test_one_jsonl_row_near_its_guessed_place(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shuffle: bool
) -> None:
    path = tmp_path / "g.jsonl"
    rewrite(full, path, shuffle=shuffle)
    lines = path.read_bytes().splitlines(keepends=True)
    order = [json.loads(line)["index"] for line in lines]
    monkeypatch.setattr(readers, "GUESS", 300)
    monkeypatch.setattr(readers, "WINDOW", 2000)  # a few lines either side of the guess
    scans: list[Path] = []
    real = readers.jsonl_blocks

    def counted(p: Path) -> Any:
        scans.append(p)
        return real(p)

    monkeypatch.setattr(readers, "jsonl_blocks", counted)
    for index in (0, 1, 600, 1199):
        assert find_row(path, index) == json.loads(lines[order.index(index)])
    # In index order every row is found near the guess; shuffled, by reading the file.
    assert len(scans) == (4 if shuffle else 0)
    with pytest.raises(OutputError, match="has no game 1200"):
        find_row(path, 1200)
    # A broken line found near the guess is reported with its line number.
    at = order.index(600)
    lines[at] = lines[at].replace(b'"variant"', b'"variant', 1)
    path.write_bytes(b"".join(lines))
    with pytest.raises(OutputError, match=f"line {at + 1}: not valid JSON"):
        find_row(path, 600)


# --------------------------------------------------------------------------- --resume


@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
@pytest.mark.parametrize("layout", ["gaps", "shuffled", "nostats"])
def test_resume_finds_the_same_games_as_row_by_row(
    full: Path, tmp_path: Path, suffix: str, layout: str
) -> None:
    path = tmp_path / f"g.{suffix}"
    kept = rewrite(
        full,
        path,
        lambda i: i % 7 != 3 and not 400 <= i < 650,
        row_group_size=70,
        statistics=layout != "nostats",
        shuffle=layout == "shuffled",
    )
    done, tally = reference(read_rows(path), 1500)
    summary = Summary(2)
    resumed = load_for_resume(path, INFO, 1500, summary)
    assert resumed.done == done and resumed.count == len(kept)
    expected = Summary(2)
    for (reason, gps), n in tally.items():
        expected.add_game(reason, gps, n)
    assert summary == expected
    report = run(path, 1500, resume_it=True)
    assert report.played == 1500 - len(kept) and report.resumed == len(kept)
    rows = sorted(map(without_duration, read_rows(path)), key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(1500))
    assert rows[:1200] == sorted(map(without_duration, read_rows(full)), key=lambda r: r["index"])


def test_resume_of_a_simulate_file_goes_column_by_column(
    full: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_rows(*args: Any) -> Any:
        raise AssertionError("a plain batch was turned into rows")

    monkeypatch.setattr(resume, "parquet_rows", no_rows)
    summary = Summary(2)
    resumed = load_for_resume(full, INFO, 1200, summary)
    assert resumed.count == 1200 and summary.games == 1200


def test_resume_of_a_simulate_jsonl_file_goes_block_by_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in (Seed(4), Seed()):
        job = SimJob(SixtySix(), RANDOM2, seed)
        path = tmp_path / f"g{seed.value}.jsonl"
        with StopFlag() as stop, LocalBackend(2) as backend:
            run_simulation(job, 900, backend, stop, out=path)
        done, tally = reference(read_rows(path), 900)
        with monkeypatch.context() as patch:

            def no_lines(*args: Any) -> Any:
                raise AssertionError("a plain line was parsed on its own")

            patch.setattr(resume, "parse_line", no_lines)
            patch.setattr(readers, "BLOCK", 5000)  # many blocks, lines cut across them
            found, cut = resume.scan_jsonl(path, job.info(), 900)
        assert found.done == done and found.tally == tally and cut == 0


def test_resuming_a_finished_parquet_file_leaves_it_untouched(full: Path, tmp_path: Path) -> None:
    path = tmp_path / "g.parquet"
    path.write_bytes(full.read_bytes())
    report = run(path, 1200, resume_it=True)
    assert report.played == 0 and report.resumed == 1200
    assert path.read_bytes() == full.read_bytes()
    assert not path.with_name("g.parquet.partial").exists()


def test_resume_adding_games_copies_the_file_a_row_group_at_a_time(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.parquet"
    rewrite(full, path, row_group_size=100)
    spy = GroupSpy(monkeypatch)
    report = run(path, 1300, resume_it=True)
    assert report.resumed == 1200 and report.played == 100
    assert spy.calls and all(groups is not None and len(groups) == 1 for groups, _ in spy.calls)
    assert spy.groups == set(range(12))
    indices = sorted(r["index"] for r in read_rows(path))
    assert indices == list(range(1300))


def test_resume_of_a_run_with_different_bots_per_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.sim.bots_for_tests import FirstBot

    job = SimJob(SixtySix(), ((FirstBot, {}), (RandomBot, {"seed": "2"})), Seed(8))
    path = tmp_path / "g.parquet"
    with StopFlag() as stop, LocalBackend(1) as backend:
        run_simulation(job, 300, backend, stop, out=path)
    done, tally = reference(read_rows(path), 300)
    with monkeypatch.context() as patch:
        patch.setattr(resume, "parquet_rows", None)  # never needed: column by column
        found = resume.scan_parquet(path, job.info(), 300)
    assert found.done == done and found.tally == tally
    swapped = RunInfo(INFO.variant, INFO.options, 8, ("random:seed=2", "first"))
    with pytest.raises(OutputError, match="bots first,random:seed=2, not random:seed=2,first"):
        load_for_resume(path, swapped, 300, Summary(2))


@pytest.mark.parametrize("batch", [readers.BATCH, 64])
def test_resume_checks_parquet_rows_as_before(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    monkeypatch.setattr(readers, "BATCH", batch)  # 64: a row group goes on row by row midway
    table = pq.read_table(full)
    path = tmp_path / "g.parquet"

    def resume_with(t: Any, info: RunInfo = INFO, total: int = 1200) -> None:
        pq.write_table(t, path, row_group_size=500)
        load_for_resume(path, info, total, Summary(2))

    where = table.column("index").to_pylist().index(3)
    with pytest.raises(OutputError, match=r"cannot resume .*: game 3 appears twice"):
        resume_with(pa.concat_tables([table, table.slice(where, 1)]))
    twice = pa.concat_tables([table.slice(0, 650), table.slice(where, 1), table.slice(650)])
    with pytest.raises(OutputError, match=r"cannot resume .*: game 3 appears twice"):
        resume_with(twice)
    with pytest.raises(OutputError, match="already holds game 1100, beyond --games 1100"):
        resume_with(table.filter(pc.less_equal(table["index"], 1100)), total=1100)
    other = RunInfo(INFO.variant, INFO.options, 4, INFO.bots)
    with pytest.raises(OutputError, match="written with --seed 3, not --seed 4"):
        resume_with(table, other)
    reasons = table["reason"].to_pylist()
    reasons[600] = None
    broken = table.set_column(table.schema.get_field_index("reason"), "reason", pa.array(reasons))
    with pytest.raises(OutputError, match="row 601: 'reason' must be a string"):
        resume_with(broken)
    # Another writer's types (32-bit integers) are still read, row by row.
    narrow = table.set_column(0, "index", pc.cast(table["index"], pa.int32()))
    resume_with(narrow)


# --------------------------------------------------------------------------- bad files


def broken_files(full: Path, tmp_path: Path) -> Iterator[Path]:
    data = full.read_bytes()
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(data[: len(data) // 2])
    yield cut
    garbled = tmp_path / "garbled.parquet"
    middle = len(data) // 2
    garbled.write_bytes(data[:4] + bytes(b ^ 0x5A for b in data[4:middle]) + data[middle:])
    yield garbled
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"index": [1, 2]}), foreign)
    yield foreign


def test_broken_parquet_files_give_one_line_and_status_2(full: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    for path in broken_files(full, tmp_path):
        for args in (
            ["replay", "--from", str(path), "--game", "1"],
            ["simulate", "66", "--games", "1200", "--seed", "3", "--out", str(path), "--resume"],
        ):
            result = runner.invoke(cli, [*args, "--no-progress"] if args[0] == "simulate" else args)
            assert result.exit_code == 2, (path.name, result.output)
            assert "Traceback" not in result.output
            assert len(result.output.strip().splitlines()) == 1, result.output
            assert str(path) in result.output


def test_parquet_schema_is_the_fields_then_the_faults() -> None:
    assert parquet_schema().names == [*FIELDS, FAULTS]
