"""``sixtysix table new``, ``tables`` and ``join`` through Click's runner: what they send, what
they print, and every bad argument or unreachable server as one line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from tests.table.fake_server import TABLE, FakeServer, running
from tests.table.server_helpers import free_port


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("SIXTYSIX_SERVER", raising=False)


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("Error: ")
    return lines[0]


def test_table_new_sends_the_create_request_and_prints_the_join_command() -> None:
    server = FakeServer()
    with running(server) as url:
        code, out, err = invoke(
            "table", "new", "66", "--seats", "human,@hard", "-o", "exchange=no",
            "--seed", "7", "--on-leave", "bot", "--server", url,
        )  # fmt: skip
    assert code == 0, err
    assert f"Table {TABLE} is open" in out
    invitation = out.splitlines()[-1]  # one line to paste into a chat
    assert invitation == (
        f"Join my sixtysix table: sixtysix join {url} --table {TABLE} --name YOURNAME"
    )
    create = server.received[0]
    assert create == {
        "type": "create",
        "protocol": "sixtysix-table/1",
        "variant": "sixtysix",
        "options": {"exchange": False},
        "seats": ["human", "@hard"],
        "rated": False,
        "move_time": None,
        "on_leave": "bot",
        "seed": 7,
    }


def test_a_rated_table_has_a_move_time_and_the_server_from_the_environment(
    tmp_path: Path,
) -> None:
    (tmp_path / "operator.token").write_text("the-token\n")
    server = FakeServer()
    with running(server) as url:
        code, _, err = invoke(
            "table", "new", "66-4", "--seats", "human,HUMAN,@hard,exec:./bot --fast",
            "--rated", "--data", str(tmp_path), env={"SIXTYSIX_SERVER": url},
        )  # fmt: skip
    assert code == 0, err
    create = server.received[0]
    assert create["rated"] is True and create["move_time"] == 60
    assert create["seats"] == ["human", "human", "@hard", "exec:./bot --fast"]
    assert create["operator"] == "the-token"  # an exec: seat is the operator's


def test_the_operators_token_goes_only_where_it_is_needed(tmp_path: Path) -> None:
    (tmp_path / "operator.token").write_text("the-token\n")
    server = FakeServer()
    with running(server) as url:
        code, _, err = invoke(
            "table", "new", "66", "--seats", "human,@hard:seed=2", "--data", str(tmp_path),
            "--server", url,
        )  # fmt: skip
        assert code == 0, err
        assert "operator" not in server.received[0]
        code, _, err = invoke(
            "table", "new", "66", "--seats", "human,exec:./bot", "--data", str(tmp_path / "x"),
            "--server", url,
        )  # fmt: skip
    assert code == 2 and "operator's token is not readable" in err
    assert len(server.received) == 1  # nothing was sent
    code, _, err = invoke(
        "table", "new", "66", "--seats", "human,exec:./bot", "--data", str(tmp_path),
        "--server", "ws://club.example:6666",
    )  # fmt: skip
    assert code == 2 and "on the server's own machine" in err


def test_a_seat_named_in_turkish_goes_to_the_server_as_the_registry_knows_it() -> None:
    server = FakeServer()
    with running(server) as url:
        code, _, err = invoke(
            "table", "new", "66-3", "--seats", "human,@uzman:seed=3,@sezgisel",
            "--lang", "tr", "--server", url,
        )  # fmt: skip
    assert code == 0, err
    assert server.received[0]["seats"] == ["human", "@expert:seed=3", "@heuristic"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["66", "--seats", "human"], "has 2 seats: --seats lists 1"),
        (["66", "--seats", "human,robot"], "'robot' is not a seat"),
        (["66", "--seats", "human,@"], "'@' is not a seat"),
        (["66", "--seats", "human,exec:"], "'exec:' is not a seat"),
        (["66", "--seats", "human,@hard", "--move-time", "30"], "--move-time is for rated"),
        (["66", "--seats", "human,@hard", "--rated", "--move-time", "29"], "30<=x<=300"),
        (["66", "--seats", "human,@hard", "--rated", "--move-time", "301"], "30<=x<=300"),
        (["66", "--seats", "human,@hard", "--rated", "--seed", "1"], "shuffled securely"),
        (["nosuchgame", "--seats", "human,@hard"], "nosuchgame"),
        (["66", "--seats", "human,@hard", "-o", "nosuch=1"], "nosuch"),
        (["66", "--seats", "human,@hard", "--on-leave", "later"], "later"),
        (["66", "--seats", "human,@hard", "--server", "http://x"], "not a table server's address"),
        (["66"], "--seats"),
    ],
)
def test_table_new_refuses_bad_arguments_in_one_line(args: list[str], message: str) -> None:
    code, _, err = invoke("table", "new", *args)
    assert code == 2
    assert message in one_error_line(err)


def test_tables_lists_the_tables_and_as_json() -> None:
    with running(FakeServer()) as url:
        code, out, err = invoke("tables", "--server", url)
        assert code == 0, err
        assert TABLE in out and "(free)" in out and "@random" in out and "open" in out
        code, out, _ = invoke("tables", "--server", url, "--json")
    assert code == 0
    rows = json.loads(out)
    assert rows[0]["table"] == TABLE and rows[0]["status"] == "open"


def test_tables_in_turkish() -> None:
    with running(FakeServer()) as url:
        code, out, _ = invoke("tables", "--server", url, "--lang", "tr")
    assert code == 0
    assert "masalar" in out and "(boş)" in out and "açık" in out


def test_no_server_is_one_line_for_every_command() -> None:
    url = f"ws://127.0.0.1:{free_port()}"
    for args in (
        ["tables", "--server", url],
        ["table", "new", "66", "--seats", "human,@hard", "--server", url],
        ["join", url, "--name", "ayse"],
    ):
        code, _, err = invoke(*args)
        assert code == 2, args
        assert "No table server answers at" in one_error_line(err)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["join", "--name", "a b"], "'a b' is not a name"),
        (["join", "--name", "x" * 33], "is not a name"),
        (["join", "--name", ""], "is not a name"),
        (["join", "ftp://host", "--name", "ayse"], "not a table server's address"),
        (["join", "ws://", "--name", "ayse"], "not a table server's address"),
        (["join"], "--name"),
        (["join", "--name", "ayse", "--seat", "-1"], "--seat"),
    ],
)
def test_join_refuses_bad_arguments_in_one_line(args: list[str], message: str) -> None:
    code, _, err = invoke(*args)
    assert code == 2
    assert message in one_error_line(err)


def test_join_names_the_table_it_cannot_find() -> None:
    with running(FakeServer()) as url:
        code, _, err = invoke("join", url, "--table", "nope", "--name", "ayse")
    assert code == 2
    assert "There is no table nope on this server" in one_error_line(err)


def test_join_without_a_table_and_none_open() -> None:
    server = FakeServer()
    server.name = "mehmet"  # the only seat for a person is taken
    with running(server) as url:
        code, _, err = invoke("join", url, "--name", "ayse")
    assert code == 2
    assert "No table is open" in one_error_line(err)


def test_join_at_the_end_of_input_keeps_the_seat() -> None:
    """Input that ends (Ctrl-D) closes the connection; the seat waits on the server."""
    server = FakeServer()
    with running(server) as url:
        result = CliRunner().invoke(cli, ["join", url, "--name", "ayse"], input="")
    assert result.exit_code == 0, result.stderr
    assert "You sit at table t0000001" in result.stdout
    assert "join again with --name ayse" in result.stdout


def test_the_new_commands_have_help_in_both_languages() -> None:
    runner = CliRunner()
    listing = runner.invoke(cli, ["--help"]).output
    assert "join" in listing and "tables" in listing and "table" in listing
    out = runner.invoke(cli, ["table", "new", "--lang", "tr", "--help"]).output
    assert "VARIANT masası aç" in out and "Puanlı masa" in out
    out = runner.invoke(cli, ["join", "--lang", "tr", "--help"]).output
    assert "masasına otur" in out


def test_a_listing_with_markup_in_it_is_shown_as_it_is() -> None:
    entry = FakeServer()._entry()
    entry["variant"] = "[/bold]66"
    entry["seats"][0]["name"] = "[red]ayse"
    server = FakeServer(script=[json.dumps({"type": "tables", "tables": [entry]})])
    with running(server) as url:
        code, out, err = invoke("tables", "--server", url)
    assert code == 0, err
    assert "[/bold]66" in out and "[red]ayse" in out


def test_join_takes_the_server_from_the_environment() -> None:
    with running(FakeServer()) as url:
        code, _, err = invoke(
            "join", "--table", "nope", "--name", "ayse", env={"SIXTYSIX_SERVER": url}
        )
    assert code == 2
    assert "There is no table nope on this server" in one_error_line(err)
