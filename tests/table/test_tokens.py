"""The client's token file: per server and name, atomic, private, damage not fatal."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from sixtysix.i18n import Translator
from sixtysix.table import tokens
from sixtysix.table.tokens import TokenFile, TokenFileError, server_key


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(path))
    return path


def test_save_and_load_in_the_data_dir(_data_dir: Path) -> None:
    assert tokens.load("ws://club:6666", "Ayşe") is None
    tokens.save("ws://club:6666", "Ayşe", "secret-1")
    path = _data_dir / "tokens.json"
    assert json.loads(path.read_text()) == {"ws://club:6666": {"Ayşe": "secret-1"}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert tokens.load("ws://club:6666", "Ayşe") == "secret-1"
    assert tokens.load("ws://club:6666", "AYŞE") == "secret-1"
    assert tokens.load("ws://CLUB:6666/", "ayşe") == "secret-1"
    assert tokens.load("ws://other:6666", "Ayşe") is None
    assert tokens.load("ws://club:6666", "Mehmet") is None


def test_tokens_of_several_servers_and_names_are_kept_apart(_data_dir: Path) -> None:
    tokens.save("ws://a", "x", "1")
    tokens.save("ws://a", "y", "2")
    tokens.save("wss://b", "x", "3")
    tokens.save("ws://a", "X", "4")  # the same name in another case replaces it
    assert tokens.load("ws://a", "x") == "4"
    assert tokens.load("ws://a", "y") == "2"
    assert tokens.load("wss://b", "x") == "3"
    data = json.loads((_data_dir / "tokens.json").read_text())
    assert data["ws://a"] == {"y": "2", "X": "4"}


def test_server_key() -> None:
    assert server_key(" WS://Club.Example:6666/ ") == "ws://club.example:6666"
    assert server_key("wss://h/path/") == "wss://h/path"


def test_a_wide_umask_still_gives_a_private_file(_data_dir: Path) -> None:
    old = os.umask(0)
    try:
        tokens.save("ws://a", "x", "1")
    finally:
        os.umask(old)
    assert stat.S_IMODE((_data_dir / "tokens.json").stat().st_mode) == 0o600
    assert not list(_data_dir.glob(".tokens.json.*.tmp"))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe\x00", "not JSON"),
        (b'["a list"]', "not a map"),
        (b'{"ws://a": {"x": 5}}', "not a map"),
        (b'{"ws://a": "x"}', "not a map"),
    ],
)
def test_a_damaged_file_is_reported_once_and_not_fatal(
    _data_dir: Path, content: bytes, reason: str
) -> None:
    _data_dir.mkdir(parents=True)
    path = _data_dir / "tokens.json"
    path.write_bytes(content)
    lines: list[str] = []
    file = TokenFile(warn=lines.append)
    assert file.load("ws://a", "x") is None
    assert len(lines) == 1 and reason in lines[0] and str(path) in lines[0]
    assert "\n" not in lines[0]
    file.save("ws://a", "x", "new")
    assert len(lines) == 2 and "kept as" in lines[1]
    assert file.load("ws://a", "x") == "new"
    kept = list(_data_dir.glob("tokens.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == content


def test_the_damage_line_in_turkish(_data_dir: Path) -> None:
    _data_dir.mkdir(parents=True)
    (_data_dir / "tokens.json").write_text("{oops")
    lines: list[str] = []
    TokenFile(warn=lines.append, tr=Translator("tr")).load("ws://a", "x")
    assert len(lines) == 1 and "bozuk" in lines[0] and "JSON" in lines[0]


def test_a_damaged_file_on_load_goes_to_stderr_by_default(
    _data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _data_dir.mkdir(parents=True)
    (_data_dir / "tokens.json").write_text("[]")
    assert tokens.load("ws://a", "x") is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "damaged" in err


def test_an_unwritable_place_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(TokenFileError, match="cannot"):
        TokenFile(blocker / "tokens.json").save("ws://a", "x", "1")


def test_concurrent_saves_keep_every_token(_data_dir: Path) -> None:
    barrier = threading.Barrier(8)

    def save(i: int) -> None:
        barrier.wait()
        tokens.save("ws://a", f"n{i}", f"t{i}")

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(tokens.load("ws://a", f"n{i}") == f"t{i}" for i in range(8))
