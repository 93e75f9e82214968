"""``sixtysix standings`` (local and ``--server``) and the lobby of ``sixtysix join`` through
Click's runner, against a real table server on loopback: what they print, in English and
Turkish, with every heading and value whole at 45, 60 and 120 columns; bad arguments as one
line and exit status 2."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.service.standings import Standings
from sixtysix.table.server import TableServer
from tests.table.server_helpers import create, free_port, running
from tests.table.test_server_standings import LEVEL, fill

T = TypeVar("T")
WIDTHS = (45, 60, 120)
HEADINGS = {
    "en": ["name", "variant", "level", "games", "won", "drawn", "lost", "left", "score"],
    "tr": ["ad", "oyun", "seviye", "maç", "kazanılan", "berabere", "kaybedilen", "bırakılan"],
}
MATCH_HEADINGS = {
    "en": ["date", "variant", "level", "seat", "ending", "score", "game points"],
    "tr": ["tarih", "oyun", "seviye", "yer", "bitiş", "puan", "oyun puanı"],
}


class Served:
    """A real table server in an event loop of its own thread, for commands run here."""

    def __init__(self, url: str, server: TableServer, loop: asyncio.AbstractEventLoop) -> None:
        self.url = url
        self.server = server
        self.loop = loop

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)


@contextlib.contextmanager
def serving(data: Path) -> Iterator[Served]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="club-server", daemon=True)
    thread.start()
    context = running(data)
    try:
        url, server = asyncio.run_coroutine_threadsafe(context.__aenter__(), loop).result(60)
        try:
            yield Served(url, server, loop)
        finally:
            asyncio.run_coroutine_threadsafe(context.__aexit__(None, None, None), loop).result(60)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "home"))
    monkeypatch.delenv("SIXTYSIX_SERVER", raising=False)
    monkeypatch.setenv("TZ", "UTC")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    data = tmp_path_factory.mktemp("club")
    fill(data / "server.sqlite3")
    with serving(data) as served:
        yield served


def invoke(*args: str, columns: int = 120, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": str(columns)}, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(("Error: ", "Hata: "))
    return lines[0]


def whole(out: str, texts: list[str], columns: int) -> None:
    """Each of ``texts`` on one line of ``out`` (none cut, folded or wrapped), no ``…``, and
    no line wider than the screen but one word alone (a path the terminal folds)."""
    lines = out.splitlines()
    assert "…" not in out, out
    for text in texts:
        assert any(text in line for line in lines), f"{text!r} is not whole in:\n{out}"
    assert all(len(line) <= columns or " " not in line.strip() for line in lines), out


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("columns", WIDTHS)
def test_the_clubs_standings_are_whole_at_any_width(club: Served, lang: str, columns: int) -> None:
    code, out, err = invoke(
        "standings", "--server", club.url, "--name", "ayse", "--lang", lang, columns=columns
    )
    assert code == 0, err
    title = "Club standings at" if lang == "en" else "adresindeki kulübün sıralaması"
    history = "Rated matches of ayse" if lang == "en" else "ayse adlı oyuncunun puanlı maçları"
    values = ["Ayse", "mehmet", "Çağrı", "sixtysix-4", LEVEL, "@hard", "+1", "-3"]
    values += ["2025-03-09 00:00", "2025-03-01 00:00", "7-3-0-3", "0-3"]
    values += ["finished" if lang == "en" else "bitti"]
    values += ["left" if lang == "en" else "masadan kalktı"]
    words = [*title.split(), *history.split()]  # titles wrap between words, as text does
    whole(out, [*words, *HEADINGS[lang], *MATCH_HEADINGS[lang], *values], columns)
    order = [title.split()[-1], "mehmet", history.split()[-1], "7-3-0-3"]
    assert [out.index(text) for text in order] == sorted(out.index(text) for text in order)
    wide = columns == 120
    assert ("┃" in out) == wide  # a table when it fits, else a block per row


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("columns", WIDTHS)
def test_the_local_standings_are_whole_at_any_width(lang: str, columns: int) -> None:
    book = Standings()
    for score, level in ((1, "@expert"), (-1, "@expert"), (0, "@random,@hard")):
        book.add(variant="sixtysix-3", level=level, seats=3, seat=0, ending="finished",
                 score=score, deals=4, totals=[7, 3, 3])  # fmt: skip
    book.add(variant="sixtysix", level="@hard", seats=2, seat=0, ending="left", score=None,
             deals=1, totals=[3, 0])  # fmt: skip
    code, out, err = invoke("standings", "--lang", lang, columns=columns)
    assert code == 0, err
    headings = {
        "en": ["variant", "level", "games", "won", "drawn", "lost", "unscored", "score"],
        "tr": ["oyun", "seviye", "maç", "kazanılan", "berabere", "kaybedilen", "puansız", "puan"],
    }[lang]
    values = ["sixtysix-3", "@expert", "@random,@hard", "sixtysix", "@hard", "+0"]
    whole(out, [str(book.path), *headings, *values], columns)
    assert ("┃" in out) == (columns == 120)
    code, out, _ = invoke("standings", "--level", "@hard", "--json")
    assert [r["level"] for r in json.loads(out)] == ["@hard"]


def test_the_club_narrowed_limited_and_as_json(club: Served) -> None:
    code, out, err = invoke("standings", "--server", club.url, "--limit", "2")
    assert code == 0, err
    assert "The first 2 of 4 rows: --limit shows more (at most 500)." in out
    assert "Çağrı" not in out
    code, out, _ = invoke("standings", "--server", club.url, "--variant", "66", "--level", "@hard")
    assert "Ayse" in out and "sixtysix-4" not in out
    code, out, _ = invoke("standings", "--server", club.url, "--variant", "66-3")
    assert code == 0 and f"No rated matches at {club.url} of that variant and level." in out
    code, out, _ = invoke(
        "standings", "--server", club.url, "--name", "mehmet", "--limit", "1", "--json"
    )
    reply = json.loads(out)
    assert reply["type"] == "club_standings" and reply["name"] == "mehmet"
    assert len(reply["rows"]) == 1 and reply["total"] == 4
    assert len(reply["history"]) == 1 and reply["history_total"] == 3
    assert reply["history"][0]["played_at"] == "2025-03-03T00:00:00+00:00"
    code, out, _ = invoke("standings", "--server", club.url, "--name", "nobody", "--lang", "tr")
    assert code == 0 and f"nobody adlı oyuncunun {club.url} adresinde puanlı maçı yok." in out


def test_the_last_matches_of_many(club: Served) -> None:
    code, out, _ = invoke("standings", "--server", club.url, "--name", "ayse", "--limit", "2")
    assert code == 0
    assert "The last 2 of 4 matches: --limit shows more (at most 500)." in out


def test_an_empty_club(tmp_path: Path) -> None:
    with serving(tmp_path / "data") as served:
        code, out, _ = invoke("standings", "--server", served.url, "--lang", "tr")
    assert code == 0 and out == f"{served.url} adresinde henüz puanlı maç yok.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", "ayse"], "--name is for a club's standings: give --server URL too"),
        (["--server", "ws://127.0.0.1:1", "--name", "a b"], "'a b' is not a name"),
        (["--server", "ftp://x", "--name", "ayse"], "not a table server's address"),
        (["--server", "ws://127.0.0.1:1", "--limit", "0"], "--limit"),
        (["--server", "ws://127.0.0.1:1", "--limit", "501"], "--limit"),
        (["--variant", "no-such-game"], "unknown variant"),
    ],
)
def test_bad_arguments_are_one_line(args: list[str], message: str) -> None:
    code, _, err = invoke("standings", *args)
    assert code == 2
    assert message in one_error_line(err)


def test_no_server_is_one_line() -> None:
    url = f"ws://127.0.0.1:{free_port()}"
    code, _, err = invoke("standings", "--server", url, "--lang", "tr")
    assert code == 2
    assert url in one_error_line(err)


# ---------------------------------------------------------------------- the lobby


def test_the_lobby_asks_again_until_a_table_is_chosen(tmp_path: Path) -> None:
    with serving(tmp_path / "data") as served:
        first = served.run(create(served.url, "66", ["human", "@random"]))
        rated = ["human", "human", "@hard", "@hard"]
        second = served.run(create(served.url, "66-4", rated, rated=True, move_time=45))
        code, out, err = invoke("join", served.url, "--name", "ayse", stdin="3\nx\n2\n")
    assert code == 0, err
    lobby = out[: out.index("You sit at")]
    assert f"Tables at {served.url} to choose from:" in lobby
    assert f"1. {first} · sixtysix · test table · free seats: 1 of 2" in lobby
    assert "   (free), @random" in lobby
    assert f"2. {second} · sixtysix-4 · rated, 45 s a move · free seats: 2 of 4" in lobby
    assert lobby.count("Table number (1-2): ") == 3
    assert lobby.count("Give a number from 1 to 2.") == 2
    assert f"You sit at table {second}, seat 0, as ayse." in out


def test_the_end_of_input_in_the_lobby_joins_nothing(tmp_path: Path) -> None:
    with serving(tmp_path / "data") as served:
        served.run(create(served.url, "66", ["human", "@random"]))
        served.run(create(served.url, "66", ["human", "@random"]))
        code, out, err = invoke("join", served.url, "--name", "ayse", "--lang", "tr", stdin="")
        assert all(not any(t.connected) for t in served.server.tables.values())
    assert code == 1
    assert "Masa numarası (1-2): " in out
    assert err == "Masa seçilmedi: hiçbir masaya katılmadın.\n"
