"""A club's evening from real terminals: ``sixtysix join`` without ``--table`` shows the lobby and
takes a number, and ``sixtysix standings --server`` shows the club's table at 45, 60 and 120
columns, in English and Turkish (``--lang`` or ``LANG``), against a real ``sixtysix serve`` on
loopback, in pseudo-terminals (Rich draws for a terminal; Ctrl-C is a real SIGINT)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.table.serve_process import serving  # noqa: E402
from tests.table.server_helpers import create  # noqa: E402
from tests.table.test_server_standings import LEVEL, fill  # noqa: E402

TIMEOUT = 30
#: What Rich writes for a terminal beside the text: colours, styles, links.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def _env(data: Path, columns: int = 100, lang: str = "C.UTF-8") -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "SIXTYSIX_DATA_DIR": str(data),
            "TERM": "xterm-256color",
            "COLUMNS": str(columns),
            "LINES": "40",
            "LANG": lang,
            "TZ": "UTC",
        }
    )
    for name in ("NO_COLOR", "SIXTYSIX_SERVER", "SIXTYSIX_LANG", "LANGUAGE", "LC_ALL"):
        env.pop(name, None)
    env.pop("LC_MESSAGES", None)
    return env


def serve(data: Path, home: Path) -> Iterator[str]:
    """``sixtysix serve`` on a free loopback port, as a process of its own."""
    with serving(data, home) as url:
        yield url


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose standings hold three 66-4 matches and one 66 that ayse left."""
    data = tmp_path_factory.mktemp("club")
    fill(data / "server.sqlite3")
    yield from serve(data, data / "home")


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """A fresh server with two open tables: a test 66 and a rated 66-4 (45 s a move)."""
    for url in serve(tmp_path / "server", tmp_path / "server-home"):
        tables = [
            asyncio.run(create(url, "66", ["human", "@random"], seed=3)),
            asyncio.run(
                create(url, "66-4", ["human", "human", "@hard", "@hard"], rated=True, move_time=45)
            ),
        ]
        yield url, tables


def spawn(args: list[str], home: Path, columns: int = 100, lang: str = "C.UTF-8") -> Any:
    return pexpect.spawn(
        sys.executable,
        ["-m", "sixtysix", *args],
        env=_env(home, columns, lang),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, columns),
    )


def test_the_lobby_asks_for_a_number_and_joins_that_table(
    lobby: tuple[str, list[str]], tmp_path: Path
) -> None:
    url, (test, rated) = lobby
    child = spawn(["join", url, "--name", "ayse"], tmp_path)
    try:
        child.expect(f"Tables at {url} to choose from:")
        child.expect(f"1. {test} · sixtysix · test table · free seats: 1 of 2")
        child.expect(f"2. {rated} · sixtysix-4 · rated, 45 s a move · free seats: 2 of 4")
        child.expect(r"Table number \(1-2\): ")
        child.sendline("3")
        child.expect("Give a number from 1 to 2.")
        child.expect(r"Table number \(1-2\): ")
        child.sendline("1")
        child.expect(f"You sit at table {test}, seat 0, as ayse.")
        child.expect("Your move > ")
        child.sendline("quit")
        child.expect(r"\(y/n\) ")
        child.sendline("y")
        child.expect("You have left the table.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_in_turkish_the_end_of_input_in_the_lobby_joins_nothing(
    lobby: tuple[str, list[str]], tmp_path: Path
) -> None:
    url, (test, rated) = lobby
    child = spawn(["join", url, "--name", "ayse"], tmp_path, lang="tr_TR.UTF-8")
    try:
        child.expect(f"{url} adresinde seçebileceğin masalar:")
        child.expect(f"1. {test} · sixtysix · deneme masası · boş yer: 2 yerden 1")
        child.expect(f"2. {rated} · sixtysix-4 · puanlı, hamle başına 45 sn · boş yer: 4 yerden 2")
        child.expect(r"Masa numarası \(1-2\): ")
        child.sendline("iki")
        child.expect("1 ile 2 arasında bir numara ver.")
        child.expect(r"Masa numarası \(1-2\): ")
        child.sendeof()
        child.expect("Masa seçilmedi: hiçbir masaya katılmadın.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 1


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_ctrl_c_in_the_lobby_is_one_line(lobby: tuple[str, list[str]], tmp_path: Path) -> None:
    url, _ = lobby
    child = spawn(["join", url, "--name", "ayse", "--lang", "tr"], tmp_path)
    try:
        child.expect(r"Masa numarası \(1-2\): ")
        child.sendintr()
        child.expect("Yarıda kesildi.")
        child.expect(pexpect.EOF)
        assert "yerin" not in child.before  # no seat to keep: none was taken
    finally:
        child.close()
    assert child.exitstatus == 130


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            ["--lang", "en"],
            ["Club", "standings", "name", "variant", "level", "games", "won", "drawn", "lost",
             "left", "score", "Rated", "matches", "date", "seat", "ending", "game points",
             "finished"],
        ),
        (
            [],  # from LANG
            ["kulübün", "sıralaması", "ad", "oyun", "seviye", "maç", "kazanılan", "berabere",
             "kaybedilen", "bırakılan", "puan", "puanlı", "maçları", "tarih", "yer", "bitiş",
             "oyun puanı", "bitti", "masadan kalktı"],
        ),
    ],
)  # fmt: skip
@pytest.mark.parametrize("columns", [45, 60, 120])
def test_the_clubs_standings_in_a_terminal(
    club: str, tmp_path: Path, lang: list[str], words: list[str], columns: int
) -> None:
    args = ["standings", "--server", club, "--name", "ayse", *lang]
    child = spawn(args, tmp_path, columns, "tr_TR.UTF-8" if not lang else "C.UTF-8")
    try:
        child.expect(pexpect.EOF)
        screen = child.before
    finally:
        child.close()
    assert child.exitstatus == 0, screen
    assert "\x1b[" in screen  # Rich saw a terminal
    lines = [ANSI.sub("", line) for line in screen.split("\r\n")]
    values = ["Ayse", "mehmet", "Çağrı", "sixtysix-4", LEVEL, "@hard", "+1", "-3", "7-3-0-3"]
    values += ["2025-03-09 00:00", "2025-03-01 00:00", club]
    for text in [*words, *values]:
        assert any(text in line for line in lines), f"{text!r} is not whole:\n" + "\n".join(lines)
    assert "…" not in screen
    assert all(len(line) <= columns for line in lines), "\n".join(lines)
    assert ("┃" in screen) == (columns == 120)
