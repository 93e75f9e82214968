"""A table server's address on the command line: a bad URL, host or port is one line and exit
status 2, before any connection; whatever connecting raises is one line too. And ``player
--seed`` takes ASCII digits only, as every other command's ``--seed``.

Nothing here connects anywhere but to loopback (a port where nobody listens)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import InvalidURI

from sixtysix.cli import cli
from sixtysix.i18n import Translator
from sixtysix.table import client
from sixtysix.table.client import MAX_HOST, TableError, check_url, open_connection
from tests.table.server_helpers import free_port

LONG_HOST = "a" * 300 + ".example"
#: What the URLs of the property test are made of.
URL_PIECES = [
    "ws", "wss", "://", ":", "/", "[", "]", "::1", "@", "#", "?", "%", ".", "..", "a", "é", "ı",
    "ａ", "\x00", " ", "\t", "65536", "0", "1", "-", "[::1]", "127.0.0.1",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("SIXTYSIX_SERVER", raising=False)


def one_error_line(args: list[str], *parts: str, prefix: str = "Error: ") -> str:
    """The one line on stderr of a run refused with exit status 2 (no traceback)."""
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(prefix), lines[0]
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


def commands(url: str) -> list[list[str]]:
    """Every command that takes a server's URL, given ``url``."""
    return [
        ["join", url, "--name", "ayse"],
        ["tables", "--server", url],
        ["table", "new", "66", "--seats", "human,@hard", "--server", url],
    ]


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ws://[::1", "a [ or ] out of place"),
        ("ws://[::1]x:6666", "a [ or ] out of place"),
        ("ws://x[::1]:6666", "a [ or ] out of place"),
        ("ws://[zz]:1", "[zz] is not an IPv6 address"),
        ("ws://[127.0.0.1]:1", "[127.0.0.1] is not an IPv6 address"),
        ("ws://127.0.0.1:99999", "the port must be a number from 1 to 65535"),
        ("ws://127.0.0.1:0", "the port must be a number from 1 to 65535"),
        ("ws://127.0.0.1:x", "the port must be a number from 1 to 65535"),
        ("ws://127.0.0.1:６６", "the port must be a number from 1 to 65535"),
        (f"ws://{LONG_HOST}:1", "the host name is too long"),
        (f"ws://{'a.' * 130}example:1", "the host name is too long"),
        ("ws://a..b:1", "a..b is not a host name"),
        ("ws://exa%20mple:1", "is not a host name"),
        ("ws://:6666", "it names no host"),
        ("ws://", "it names no host"),
        ("http://127.0.0.1:6666", "it does not begin with ws:// or wss://"),
        ("127.0.0.1:6666", "it does not begin with ws:// or wss://"),
        ("ws://127.0.0.1:6666/#top", "fragment"),
    ],
)
def test_a_bad_address_is_one_line_for_every_command(url: str, reason: str) -> None:
    for args in commands(url):
        line = one_error_line(args, "is not a table server's address", reason)
        assert len(line) < 400  # a long URL is cut short


@pytest.mark.parametrize(
    "url",
    ["ws://[::1", "ws://127.0.0.1:99999", f"ws://{LONG_HOST}:1", "ws://[zz]:1"],
)
def test_a_bad_address_in_turkish(url: str) -> None:
    args = ["tables", "--server", url, "--lang", "tr"]
    one_error_line(args, "bir masa sunucusu adresi değil", prefix="Hata: ")


@pytest.mark.parametrize(
    "url",
    [
        "ws://127.0.0.1:{port}",
        "WS://127.0.0.1:{port}/",
        "ws://[::1]:{port}",
        "ws://localhost:{port}",
    ],
)
def test_good_addresses_are_taken_and_only_then_tried(url: str) -> None:
    port = free_port()
    good = url.format(port=port)
    assert check_url(good, Translator()) == good
    one_error_line(["tables", "--server", good], "No table server answers at")


@given(st.lists(st.sampled_from(URL_PIECES), max_size=10).map("".join))
def test_check_url_returns_the_url_or_says_why_not(url: str) -> None:
    try:
        assert check_url(url, Translator()) == url
    except TableError as exc:
        assert "\n" not in str(exc)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("Invalid IPv6 URL"),
        UnicodeError("encoding with 'idna' codec failed (UnicodeError: label too long)"),
        socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
        InvalidURI("ws://elsewhere#x", "fragment identifier is meaningless"),
        OSError("unreachable"),
    ],
)
def test_whatever_connecting_raises_is_one_line(
    monkeypatch: pytest.MonkeyPatch, exc: Exception
) -> None:
    """A failure checking cannot foresee (a redirection, the resolver, a proxy...)."""

    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise exc

    monkeypatch.setattr(client, "connect", failing)
    url = f"ws://127.0.0.1:{free_port()}"
    with pytest.raises(TableError) as refused:
        asyncio.run(open_connection(url, Translator()))
    assert url in str(refused.value) and "\n" not in str(refused.value)
    for args in commands(url):
        one_error_line(args, url)


def test_the_longest_host_name_is_taken() -> None:
    host = ".".join(["a" * 63] * 3 + ["b" * (MAX_HOST - 3 * 64)])
    assert len(host) == MAX_HOST
    check_url(f"ws://{host}:1", Translator())
    with pytest.raises(TableError, match="too long"):
        check_url(f"ws://{host}b:1", Translator())


@pytest.mark.parametrize("seed", ["５", "٣", "²", "1.0", "0x3", "", "9" * 1000])
def test_player_seed_takes_ascii_digits_only(seed: str) -> None:
    one_error_line(["player", "expert", "--seed", seed], "--seed")


def test_player_seed_in_ascii_digits_plays() -> None:
    result = CliRunner().invoke(cli, ["player", "expert", "--seed", "5"], input="")
    assert result.exit_code == 0, result.output
