"""JSON nested tens of thousands deep (well under the 64 KiB frame limit), from either side of a
table connection and in the files beside one: a client's first frame is closed 1008 with a
reason and no traceback in the server's log; a hostile server's answer is one line and status 2
from ``sixtysix tables`` and ``sixtysix join``; a table file or token file nested too deep is
reported as broken, not a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from click.testing import CliRunner
from websockets.asyncio.server import ServerConnection

from sixtysix.cli import cli
from sixtysix.table import scripted, wire
from sixtysix.table.store import Store
from sixtysix.table.tokens import TokenFile
from tests.table.fake_server import TABLE, FakeServer
from tests.table.fake_server import running as fake_running
from tests.table.server_helpers import Conn, running

DEEP = "[" * 50_000


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("SIXTYSIX_SERVER", raising=False)


@pytest.mark.parametrize("frame", [DEEP, '{"type": "join", "protocol": ' + DEEP])
def test_a_deep_first_frame_is_closed_1008_with_a_reason_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, frame: str
) -> None:
    async def main() -> tuple[int | None, str | None, dict[str, object]]:
        async with running(tmp_path / "server") as (url, _):
            conn = await Conn.open(url)
            await conn.send(frame)
            error = await conn.expect("error")
            code, reason = await conn.closed()
            return code, reason, error

    with caplog.at_level(logging.DEBUG, logger="sixtysix.server"):
        code, reason, error = asyncio.run(main())
    assert code == wire.CLOSE_POLICY
    assert reason and "nested too deeply" in reason
    assert error["code"] == "garbage"
    server_records = [r for r in caplog.records if r.name.startswith("sixtysix.server")]
    assert not [r for r in server_records if r.exc_info or r.levelno >= logging.ERROR]


def _one_line(result: object) -> str:
    assert getattr(result, "exit_code", None) == 2, result
    output = getattr(result, "output", "")
    assert "Traceback" not in output and getattr(result, "stdout", "") == ""
    (line,) = getattr(result, "stderr", "").strip().splitlines()
    assert line.startswith("Error: ")
    return str(line)


def test_tables_from_a_server_answering_with_a_deep_nesting_is_one_line() -> None:
    server = FakeServer(script=[DEEP])
    with fake_running(server) as url:
        result = CliRunner().invoke(cli, ["tables", "--server", url])
    assert "nested too deeply" in _one_line(result)
    assert server.received[0]["type"] == "list"


@pytest.mark.parametrize("deep_at", ["list", "join"])
def test_join_with_a_server_answering_with_a_deep_nesting_is_one_line(deep_at: str) -> None:
    """``join`` asks for the listing first, then joins on a second connection: a deep answer
    to either is one line."""
    listing = json.dumps({"type": "tables", "tables": [FakeServer()._entry()]})
    server = FakeServer(script=[DEEP])
    original = server.handler

    async def handler(ws: ServerConnection) -> None:
        server.script = [listing] if deep_at == "join" and not server.received else [DEEP]
        await original(ws)

    server.handler = handler  # type: ignore[method-assign]
    with fake_running(server) as url:
        result = CliRunner().invoke(cli, ["join", url, "--table", TABLE, "--name", "ayse"])
    assert "nested too deeply" in _one_line(result)
    assert [m["type"] for m in server.received] == ["list", "join"][: 1 + (deep_at == "join")]


def test_a_deep_table_file_is_reported_as_broken(tmp_path: Path) -> None:
    store = Store(tmp_path)
    (store.tables / "deep.json").write_text('{"format": ' + "[" * 100 + "]" * 100 + "}")
    (store.tables / "deeper.json").write_text(DEEP)
    loaded = store.load_all(lambda data: pytest.fail("a broken file is not built"))
    assert [(x.path.name, x.table) for x in loaded] == [("deep.json", None), ("deeper.json", None)]
    assert all("nested too deeply" in x.problem for x in loaded)


def test_a_deep_token_file_is_damaged_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(DEEP)
    lines: list[str] = []
    assert TokenFile(path, warn=lines.append).load("ws://127.0.0.1:1", "ayse") is None
    assert len(lines) == 1 and "not JSON" in lines[0]


def test_the_scripted_client_refuses_a_deep_frame_as_a_value_error() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        scripted._message(DEEP)
