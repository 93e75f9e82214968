"""A table server and a client on another machine, for real: two network namespaces.

The server (``sixtysix serve``) runs in namespace A at ``198.18.66.1``; the remote client runs
in namespace B at ``198.18.66.2`` and reaches it over a veth pair, so the server sees a peer
that is not on its machine, exactly as across a network. What a remote peer may do (play, list,
open tables of people and built-in bots) works; what runs programs on the server's machine (an
``exec:`` seat, however it is spelled, or the operator's token) is refused, and nothing is run.
From loopback inside A, the operator's token (``DATA/operator.token``) is what lets an
``exec:`` seat in. See ``tests/table/netns.py`` for the namespaces, servers and client.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from sixtysix.table import wire
from tests.table.netns import (
    CLIENT_ADDRESS,
    PORT,
    SERVER_ADDRESS,
    Namespaces,
    Servers,
    run_client,
)

LOOPBACK = "127.0.0.1"
#: Test tables of two-player 66, short and reproducible.
TABLE: dict[str, Any] = {"variant": "66", "seed": 1, "options": {"target": 2}}
#: The ways of writing a seat that would run ``touch FILE`` on the server's machine.
EXEC_SPELLINGS = ["exec:{}", "@exec:{}", "@ exec:{}"]


def ask(namespace: str, url: str, first: dict[str, Any], moves: int = 0) -> dict[str, Any]:
    """One connection from ``namespace``: ``first`` sent, then ``moves`` moves (else read to
    the close)."""
    spec = {"url": url, "first": {"protocol": wire.PROTOCOL, **first}, "moves": moves}
    return run_client(namespace, spec)


def create(namespace: str, url: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    return ask(namespace, url, {"type": "create", **TABLE, "seats": seats, **extra})


def touch_seat(spelling: str, marker: Path) -> str:
    """A seat that, if the server ever ran it, leaves ``marker`` behind."""
    return spelling.format(shlex.join(["touch", str(marker)]))


def assert_refused(result: dict[str, Any], marker: Path) -> None:
    """A refusal with a code and a reason, the connection closed for policy, nothing run."""
    assert not marker.exists(), f"the server ran the program: {result}"
    assert "connect_error" not in result, result
    messages = result["messages"]
    assert [m["type"] for m in messages] == ["error"], result
    error = messages[0]
    assert error["code"] in wire.HARD_ERRORS, result
    assert error["message"].strip(), result
    assert result["close"][0] == wire.CLOSE_POLICY, result


def opened(result: dict[str, Any]) -> str:
    """The id of the table a ``create`` opened."""
    assert [m["type"] for m in result["messages"]] == ["created"], result
    return str(result["messages"][0]["table"])


def play(namespace: str, url: str, table: str, name: str, moves: int) -> dict[str, Any]:
    """Join ``table`` as ``name`` and make ``moves`` moves; the client's result, checked: a
    welcome with a token, the moves made and nothing refused."""
    result = ask(namespace, url, {"type": "join", "table": table, "name": name}, moves=moves)
    kinds = [m["type"] for m in result["messages"]]
    assert kinds and kinds[0] == "welcome" and result["messages"][0]["token"], result
    assert result["moves"] == moves and "error" not in kinds and kinds[-1] == "update", result
    return result


def events(result: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The actions of ``seat`` the client was told of."""
    return [m for m in result["messages"] if m["type"] == "event" and m["seat"] == seat]


#: A program that plays by the player protocol (a random bot), as a command line.
PROGRAM = shlex.join([sys.executable, "-m", "sixtysix", "player", "random"])


def listing(namespace: str, url: str) -> list[dict[str, Any]]:
    result = ask(namespace, url, {"type": "list"})
    assert [m["type"] for m in result["messages"]] == ["tables"], result
    tables: list[dict[str, Any]] = result["messages"][0]["tables"]
    return tables


# ---------------------------------------------------------------------- a remote peer


def test_a_remote_client_lists_joins_and_plays(
    namespaces: Namespaces, table_servers: Servers
) -> None:
    server = table_servers.start(SERVER_ADDRESS)
    away = namespaces.client
    # B's own loopback has no server: the client is not on the server's machine.
    alone = ask(away, f"ws://{LOOPBACK}:{PORT}", {"type": "list"})
    assert "connect_error" in alone, alone

    answer = create(away, server.url, ["human", "@random"])
    assert answer["local"][0] == CLIENT_ADDRESS and answer["remote"][0] == SERVER_ADDRESS
    table = opened(answer)
    assert [(t["table"], t["status"]) for t in listing(away, server.url)] == [(table, "open")]

    played = play(away, server.url, table, "uzak", moves=3)
    assert played["local"][0] == CLIENT_ADDRESS, played
    assert len(events(played, 0)) == 3, played

    [entry] = listing(away, server.url)
    assert entry["status"] == "running" and entry["seats"][0]["name"] == "uzak", entry


def test_a_remote_client_seats_a_program_the_operator_named(
    namespaces: Namespaces, table_servers: Servers
) -> None:
    """Programs are the operator's choice, not the peer's address: a remote table may seat
    one the operator named (``serve --player NAME=COMMAND``) as ``@NAME``, and it plays."""
    server = table_servers.start(SERVER_ADDRESS, ("--player", f"clubbot={PROGRAM}"))
    away = namespaces.client
    table = opened(create(away, server.url, ["human", "@clubbot"]))
    played = play(away, server.url, table, "uzak", moves=2)
    assert events(played, 1), f"the program made no move: {played}"


@pytest.mark.parametrize("spelling", EXEC_SPELLINGS)
def test_a_remote_exec_seat_is_refused_and_nothing_runs(
    spelling: str, namespaces: Namespaces, table_servers: Servers, tmp_path: Path
) -> None:
    server = table_servers.start(SERVER_ADDRESS)
    marker = tmp_path / "ran"
    result = create(namespaces.client, server.url, ["human", touch_seat(spelling, marker)])
    assert_refused(result, marker)
    assert listing(namespaces.client, server.url) == []


def test_a_remote_operator_token_is_refused(
    namespaces: Namespaces, table_servers: Servers, tmp_path: Path
) -> None:
    """The operator's real token, sent from elsewhere: operator requests come only from the
    server's own machine, so even the right token opens nothing remotely."""
    server = table_servers.start(SERVER_ADDRESS)
    token = server.operator_token()
    marker = tmp_path / "ran"
    seats = ["human", touch_seat("exec:{}", marker)]
    result = create(namespaces.client, server.url, seats, operator=token)
    assert_refused(result, marker)
    assert listing(namespaces.client, server.url) == []


# ---------------------------------------------------------------------- the server's machine


@pytest.mark.parametrize("spelling", EXEC_SPELLINGS)
def test_a_loopback_exec_seat_without_the_token_is_refused(
    spelling: str, namespaces: Namespaces, table_servers: Servers, tmp_path: Path
) -> None:
    """On the server's own machine too, programs are the operator's choice alone."""
    server = table_servers.start(LOOPBACK)
    marker = tmp_path / "ran"
    result = create(namespaces.server, server.url, ["human", touch_seat(spelling, marker)])
    assert result["local"][0] == LOOPBACK, result
    assert_refused(result, marker)
    assert listing(namespaces.server, server.url) == []


def test_a_loopback_exec_seat_with_the_token_is_seated_and_plays(
    namespaces: Namespaces, table_servers: Servers
) -> None:
    server = table_servers.start(LOOPBACK)
    token = server.operator_token()
    here = namespaces.server
    table = opened(create(here, server.url, ["human", f"exec:{PROGRAM}"], operator=token))
    played = play(here, server.url, table, "sahip", moves=2)
    assert played["local"][0] == LOOPBACK, played
    assert events(played, 1), f"the program made no move: {played}"
