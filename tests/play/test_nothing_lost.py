"""Nothing lost, nothing overwritten: game records, their paths and the standings database.

Records go only to regular files, each game to a file of its own, each write through a
temporary file of its own; a damaged standings database is kept aside and the new result
recorded in a fresh one. No test here writes to a device: the device cases use a FIFO and a
symlink to ``/dev/null``, with ``os.replace`` made to fail the test if it is ever reached.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sixtysix.core import files
from sixtysix.core.files import FileTargetError, check_writable, write_text_atomic
from sixtysix.core.records import Record, load_record_file
from sixtysix.play.autosave import default_save_path
from sixtysix.service.standings import DB_NAME, Standings, StandingsError
from tests.play.test_cli_play import run

RESULT: dict[str, object] = {
    "variant": "sixtysix",
    "level": "random",
    "seats": 2,
    "seat": 0,
    "ending": "finished",
    "score": 1,
    "deals": 5,
    "totals": [7, 2],
}


@pytest.fixture
def no_replace(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, object]]:
    """``os.replace`` fails the test when called (the calls are kept to be shown)."""
    calls: list[tuple[object, object]] = []

    def refuse(src: object, dst: object) -> None:
        calls.append((src, dst))
        raise AssertionError(f"os.replace({src!r}, {dst!r}) reached")

    monkeypatch.setattr(os, "replace", refuse)
    return calls


# ----------------------------------------------------------------------------- files


def test_a_write_replaces_the_whole_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    write_text_atomic(target, "one\n")
    write_text_atomic(target, "two\n")
    assert target.read_text() == "two\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_a_symlink_to_a_regular_file_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def special_paths(tmp_path: Path) -> dict[str, Path]:
    """Paths that are not regular files (none of them a real device)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    null_link = tmp_path / "null.json"
    null_link.symlink_to(os.devnull)
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    folder = tmp_path / "folder"
    folder.mkdir()
    return {
        "fifo": fifo,
        "symlink to /dev/null": null_link,
        "folder is a file": blocker / "g.json",
        "directory": folder,
        "missing folder": tmp_path / "missing" / "g.json",
        "/proc file": Path("/proc/version"),
    }


MESSAGES = {
    "fifo": "it is a FIFO, not a regular file",
    "symlink to /dev/null": "it is a device, not a regular file",
    "folder is a file": "a part of its folder is a file",
    "directory": "it is a directory, not a regular file",
    "missing folder": "does not exist",
    "/proc file": "cannot create a file in /proc",
}


@pytest.mark.parametrize("case", sorted(MESSAGES))
def test_only_regular_files_are_written(
    case: str, tmp_path: Path, no_replace: list[tuple[object, object]]
) -> None:
    path = special_paths(tmp_path)[case]
    if case == "/proc file" and not path.exists():
        pytest.skip("no /proc here")
    with pytest.raises(FileTargetError, match=MESSAGES[case]):
        check_writable(path)
    with pytest.raises(FileTargetError, match=MESSAGES[case]):
        Record("sixtysix").save(path)
    assert no_replace == []
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)
    assert os.readlink(tmp_path / "null.json") == os.devnull


def test_the_target_is_checked_again_just_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A target that stops being a regular file while the text is written is not replaced."""
    target = tmp_path / "r.json"
    target.write_text("old")
    checks = 0
    original = files.regular_target
    replaced: list[object] = []
    monkeypatch.setattr(os, "replace", lambda src, dst: replaced.append(dst))

    def swap_after_first_check(path: Path) -> Path:
        nonlocal checks
        checks += 1
        if checks == 2:  # the check before the rename: the file has become a FIFO
            target.unlink()
            os.mkfifo(target)
        return original(path)

    monkeypatch.setattr(files, "regular_target", swap_after_first_check)
    with pytest.raises(FileTargetError, match="FIFO"):
        write_text_atomic(target, "new")
    assert replaced == [] and stat.S_ISFIFO(os.lstat(target).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


@pytest.mark.parametrize("case", ["fifo", "symlink to /dev/null", "folder is a file", "/proc file"])
def test_play_refuses_a_save_path_that_is_not_a_regular_file_before_the_game(
    case: str, tmp_path: Path, no_replace: list[tuple[object, object]]
) -> None:
    path = special_paths(tmp_path)[case]
    if case == "/proc file" and not path.exists():
        pytest.skip("no /proc here")
    code, out = run(["play", "66", "--vs", "random", "--save", str(path)], "1\nquit\n")
    assert code == 2, out
    assert out.count("\n") == 1 and MESSAGES[case] in out and "Your hand" not in out
    assert no_replace == []
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# ----------------------------------------------------------------------------- own files


def test_games_started_in_the_same_second_get_files_of_their_own(tmp_path: Path) -> None:
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    barrier = threading.Barrier(20)
    paths: list[Path] = []

    def claim() -> None:
        barrier.wait()
        paths.append(default_save_path(tmp_path, "sixtysix", now))

    threads = [threading.Thread(target=claim) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(paths)) == 20 and all(p.exists() for p in paths)
    assert {p.name for p in paths} == {"sixtysix-20260102-030405.json"} | {
        f"sixtysix-20260102-030405-{n}.json" for n in range(2, 21)
    }


def test_saves_at_the_same_moment_never_share_a_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    barrier = threading.Barrier(16)
    errors: list[BaseException] = []

    def save(seed: int) -> None:
        barrier.wait()
        try:
            for _ in range(20):
                Record("sixtysix", seed=seed).save(target)
        except BaseException as exc:  # pragma: no cover - the failure shown
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert json.loads(target.read_text())["seed"] in range(16)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


GAMES_AT_ONCE = 12

#: Wait for the start signal after the imports, so the games really start together.
_PLAYER = """
import os, sys, time
from sixtysix.cli import cli
go = sys.argv[1]
while not os.path.exists(go):
    time.sleep(0.005)
cli.main(args=["play", "66", "--rated", "--vs", "random", "--lang", "en"], prog_name="sixtysix")
"""


def test_rated_games_started_at_once_all_keep_their_record_and_result(tmp_path: Path) -> None:
    data = tmp_path / "data"
    go = tmp_path / "go"
    env = {**os.environ, "SIXTYSIX_DATA_DIR": str(data), "COLUMNS": "100", "LANG": "C.UTF-8"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _PLAYER, str(go)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            text=True,
        )
        for _ in range(GAMES_AT_ONCE)
    ]
    # Everyone waits for the signal once imported; the games then start in the same second.
    time.sleep(0.5)
    go.touch()
    outputs = [p.communicate("quit\ny\n", timeout=240)[0] for p in procs]
    for p, out in zip(procs, outputs, strict=True):
        assert p.returncode == 0, out
        assert "Traceback" not in out
    records = sorted(p for p in (data / "games").glob("*.json") if ".session." not in p.name)
    assert len(records) == GAMES_AT_ONCE
    for record in records:
        assert load_record_file(record).variant == "sixtysix"
        assert record.with_name(record.stem + ".session.json").exists()
    assert not list((data / "games").glob("*.tmp"))
    [row] = Standings(data / DB_NAME).table()
    assert (row.games, row.losses) == (GAMES_AT_ONCE, GAMES_AT_ONCE)


# ----------------------------------------------------------------------------- standings


def _not_a_database(path: Path) -> None:
    path.write_text("these are my notes, not a database\n" * 20)


def _truncated(path: Path) -> None:
    book = Standings(path)
    for _ in range(200):
        book.add(**RESULT)  # type: ignore[arg-type]
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _foreign_results_table(path: Path) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE results (race TEXT, runner TEXT, seconds REAL)")
        conn.execute("INSERT INTO results VALUES ('5k', 'me', 1500.0)")
    conn.close()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "not a database": (_not_a_database, "file is not a database"),
    "truncated": (_truncated, "malformed"),
    "foreign results table": (_foreign_results_table, "not one of sixtysix's standings"),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_database_is_kept_aside_and_the_result_recorded(
    case: str, tmp_path: Path
) -> None:
    path = tmp_path / DB_NAME
    make, reason = DAMAGE[case]
    make(path)
    damaged = path.read_bytes()
    book = Standings(path, warn=(said := []).append)
    with pytest.raises(StandingsError, match=reason):
        book.table()
    assert path.read_bytes() == damaged  # reading reports, never moves
    book.add(**RESULT)  # type: ignore[arg-type]
    [line] = said
    [aside] = tmp_path.glob(f"{DB_NAME}.damaged-*")
    assert aside.read_bytes() == damaged
    assert str(path) in line and str(aside) in line and reason in line
    [row] = book.table()
    assert (row.games, row.wins, row.score) == (1, 1, 1)
    book.add(**RESULT)  # type: ignore[arg-type]
    assert said == [line] and book.table()[0].games == 2


def test_standings_on_a_damaged_database_is_one_line_and_status_2(_data_dir: Path) -> None:
    _data_dir.mkdir(parents=True)
    _not_a_database(_data_dir / DB_NAME)
    code, out = run(["standings"])
    assert code == 2 and out.count("\n") == 1
    assert f"the standings database {_data_dir / DB_NAME} is damaged" in out
    assert "file is not a database" in out and "keeps it aside" in out
    code, out = run(["standings", "--json"])
    assert code == 2


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_rated_game_ending_on_a_damaged_database_keeps_its_result(
    case: str, _data_dir: Path
) -> None:
    _data_dir.mkdir(parents=True)
    make, reason = DAMAGE[case]
    make(_data_dir / DB_NAME)
    code, out = run(["play", "66", "--rated", "--vs", "random", "--lang", "en"], "quit\ny\n")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "was damaged" in flat and reason in flat and "-1" in out
    assert len(list(_data_dir.glob(f"{DB_NAME}.damaged-*"))) == 1
    code, out = run(["standings", "--json"])
    assert code == 0, out
    [row] = json.loads(out)
    assert (row["games"], row["losses"]) == (1, 1)


def test_a_failing_record_write_on_leaving_keeps_the_rated_result(
    _data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sixtysix.play.autosave import AutoSave
    from sixtysix.play.session import Session

    real_save, real_leave = AutoSave.save, Session._leave
    leaving: list[bool] = []

    def save(self: AutoSave, record: Record) -> None:
        if leaving:
            raise FileTargetError(f"cannot write {self.path}: No space left on device")
        real_save(self, record)

    def leave(self: Session, *args: object) -> object:
        leaving.append(True)
        return real_leave(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(AutoSave, "save", save)
    monkeypatch.setattr(Session, "_leave", leave)
    code, out = run(["play", "66", "--rated", "--vs", "random", "--lang", "en"], "quit\ny\n")
    assert leaving and code == 2 and "No space left on device" in out
    code, out = run(["standings", "--json"])
    assert code == 0, out
    [row] = json.loads(out)
    assert (row["games"], row["losses"]) == (1, 1)
