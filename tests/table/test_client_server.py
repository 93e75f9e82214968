"""The client against the real ``sixtysix serve`` over loopback: two people at one table (each
told whom the table waits for), the server killed and restarted mid-match (the client
reconnects by itself and the match goes on), and a rated move timer that runs out."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.i18n import Translator
from sixtysix.play.join import SeatRequest, SeatResult, sit
from sixtysix.play.remote import RemoteTable
from sixtysix.plugins.manager import build_registry
from sixtysix.table import wire
from sixtysix.table.client import create_table
from tests.play.scripted import RecordingScreen
from tests.table.server_helpers import create, free_port, join, running
from tests.table.test_client_loop import Person, first_legal

REGISTRY = build_registry()
ROOT = Path(__file__).resolve().parents[2]
TR = Translator("en")


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "client"))


class Server:
    """``sixtysix serve`` as a process on a fixed port and data directory, restartable."""

    def __init__(self, tmp_path: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.args = [
            *(sys.executable, "-m", "sixtysix", "serve", "--port", str(self.port)),
            *("--data", str(tmp_path / "server"), "--lang", "en", *extra),
        ]
        self.env = dict(os.environ, PYTHONPATH=str(ROOT), LANG="C.UTF-8")
        self.env["SIXTYSIX_DATA_DIR"] = str(tmp_path / "server-home")
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.args, env=self.env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
        )
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if "Serving tables on" in line:
                break
        else:
            raise AssertionError("the server ended before serving")
        # keep reading its log so that it never blocks on a full pipe
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()


@contextmanager
def serving(tmp_path: Path, *extra: str) -> Iterator[Server]:
    server = Server(tmp_path, *extra)
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()


def new_table(url: str, seats: list[str], **extra: object) -> str:
    request: dict[str, object] = {
        "variant": "sixtysix",
        "options": {"target": 3},
        "seats": seats,
        "rated": False,
        "move_time": None,
        "on_leave": "end",
        "seed": 11,
    }
    request.update(extra)
    return create_table(url, request, TR)


class WatchedScreen(RecordingScreen):
    """A recording screen that tells when it has said a line containing ``watch``."""

    def __init__(self, watch: str) -> None:
        super().__init__()
        self.watch = watch
        self.seen = threading.Event()

    def say(self, text: str, style: str | None = None) -> None:
        super().say(text, style)
        if self.watch in text:
            self.seen.set()


def seat(
    url: str,
    table_id: str,
    name: str,
    person: Person,
    screen: RecordingScreen | None = None,
    **kw: float,
) -> tuple[RemoteTable, RecordingScreen, SeatResult]:
    screen = screen or RecordingScreen()
    table = RemoteTable(TR, screen, REGISTRY, person.prompt)
    person.table = table
    result = sit(SeatRequest(url, name, table_id, **kw), table, person)
    return table, screen, result


def test_two_people_at_one_table_play_the_match(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        table_id = new_table(server.url, ["human", "human"])
        results: dict[str, tuple[RemoteTable, RecordingScreen, SeatResult]] = {}
        waiting = WatchedScreen("Waiting for players")

        def play(name: str, screen: RecordingScreen | None = None) -> None:
            results[name] = seat(server.url, table_id, name, Person(first_legal), screen)

        first = threading.Thread(target=play, args=("ayse", waiting))
        first.start()
        assert waiting.seen.wait(60)  # the second person comes once the first one waits
        play("mehmet")
        first.join(60)
    ayse, mehmet = results["ayse"], results["mehmet"]
    assert ayse[2].ending == mehmet[2].ending == "over"
    assert "Waiting for players: seat 1" in ayse[1].text
    assert "seat 1 (mehmet) has joined the table." in ayse[1].text
    assert ayse[0].totals == mehmet[0].totals and max(ayse[0].totals) >= 3
    assert "Match over. Winner:" in ayse[1].text and "Match over. Winner:" in mehmet[1].text


def test_the_server_killed_and_restarted_mid_match_the_client_comes_back(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as server:
        table_id = new_table(server.url, ["human", "@random"])
        moves = {"n": 0}

        def choose(table: RemoteTable) -> str:
            moves["n"] += 1
            if moves["n"] == 3:  # the third move: the server dies, and comes back
                server.kill()
                server.start()
            return first_legal(table)

        table, screen, result = seat(
            server.url, table_id, "ayse", Person(choose), reconnect_time=60.0
        )
    assert result.ending == "over"
    assert "The connection is lost: reconnecting..." in screen.text
    assert f"Back at table {table_id}, seat 0" in screen.text
    assert "Match over. Winner:" in screen.text and max(table.totals) >= 3


def test_a_rated_move_timer_that_runs_out_leaves_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Portal's shortest move time is 30 s: this server, in this process, takes 2."""
    monkeypatch.setattr(wire, "MOVE_TIME_RANGE", (1, 300))

    class Silent(Person):
        def prompt(self, text: str) -> None:
            self.prompts += 1  # the person never answers

    async def main() -> tuple[RecordingScreen, SeatResult]:
        async with running(tmp_path) as (url, _):
            table_id = await create(url, "66", ["human", "@random"], rated=True, move_time=2)
            _, screen, result = await asyncio.to_thread(
                seat, url, table_id, "ayse", Silent(first_legal)
            )
            return screen, result

    screen, result = asyncio.run(main())
    assert result.ending == "left"
    assert "Rated game: 2 s per move" in screen.text
    assert "Time is up: you have left the table." in screen.text
    assert "Standings:" in screen.text


def test_a_full_table_and_a_taken_name_are_one_line_each(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        table_id = new_table(server.url, ["human", "@random"])

        async def sit_and_run() -> None:
            conn, _ = await join(server.url, table_id, "ayse")  # takes the only person seat
            runner = CliRunner()
            full = await asyncio.to_thread(
                runner.invoke, cli, ["join", server.url, "--table", table_id, "--name", "bob"]
            )
            assert full.exit_code == 2
            assert full.stderr.strip() == f"Error: Table {table_id} has no free seat for a person."
            taken = await asyncio.to_thread(
                runner.invoke, cli, ["join", server.url, "--table", table_id, "--name", "AYSE"]
            )
            assert taken.exit_code == 2
            assert "The server refused the name AYSE" in taken.stderr
            assert len(taken.stderr.strip().splitlines()) == 1
            await conn.close()

        asyncio.run(sit_and_run())


def test_the_program_of_the_docs_plays_a_whole_match(tmp_path: Path) -> None:
    """docs/together.md's minimal player, run as written (its address and table replaced)."""
    page = (ROOT / "docs" / "together.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    assert match is not None
    with serving(tmp_path) as server:
        table_id = new_table(server.url, ["human", "@random"])
        program = match.group(1).replace("ws://127.0.0.1:6666", server.url)
        program = program.replace("3f9a1c2b", table_id)
        done = subprocess.run(
            [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("keep this token: ")
