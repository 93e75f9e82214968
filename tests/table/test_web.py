"""The page a table server serves: its files and headers, and who may load it or open a
WebSocket from it (the Host and Origin rules that keep another site's pages out, DNS
rebinding included), over loopback against a real server."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import socket
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.http11 import Request

from sixtysix.i18n import Translator
from sixtysix.plugins.manager import get_registry
from sixtysix.table.page_setup import WORDS, setup
from sixtysix.table.settings import Settings
from sixtysix.table.web import CSP, Policy, Site, asset, host_name
from tests.table.server_helpers import OPERATOR, running


def fetch(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One GET on loopback: status, headers (lower-case names), body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def test_the_page_its_files_and_its_setup_are_served_with_a_strict_policy(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            port = port_of(url)
            status, headers, body = await asyncio.to_thread(fetch, port, "/")
            assert status == 200
            assert headers["content-type"].startswith("text/html")
            assert headers["content-security-policy"] == CSP
            assert "script-src 'self'" in CSP and "unsafe" not in CSP
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert b"/static/app.js" in body
            # An invitation link is the same page; the page asks the server about the table.
            status, _, same = await asyncio.to_thread(fetch, port, "/t/3f9a1c2b")
            assert (status, same) == (200, body)
            status, headers, _ = await asyncio.to_thread(fetch, port, "/static/app.js")
            assert status == 200 and headers["content-type"].startswith("text/javascript")
            for path in (
                "/t/../server.sqlite3",
                "/static/../web.py",
                "/nothing",
                "/t/a%20b",
                "/t/" + "x" * 41,
            ):
                status, _, _ = await asyncio.to_thread(fetch, port, path)
                assert status == 404, path
            status, headers, raw = await asyncio.to_thread(fetch, port, "/api/setup?lang=tr")
            assert status == 200 and headers["content-type"] == "application/json"
            data = json.loads(raw)
            assert data["lang"] == "tr" and set(data["words"]) == set(WORDS)
            assert {v["name"] for v in data["variants"]} >= {"sixtysix", "schnapsen"}
            status, _, raw = await asyncio.to_thread(fetch, port, "/api/setup?lang=xx")
            assert json.loads(raw)["lang"] == "en"

    asyncio.run(main())


def test_files_are_gzipped_when_asked_and_not_sent_again_when_unchanged(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            port = port_of(url)
            _, plain_headers, body = await asyncio.to_thread(fetch, port, "/static/app.js")
            status, headers, packed = await asyncio.to_thread(
                fetch, port, "/static/app.js", {"Accept-Encoding": "gzip, br"}
            )
            assert status == 200
            if len(body) >= 512:
                assert headers["content-encoding"] == "gzip"
                assert gzip.decompress(packed) == body
            etag = plain_headers["etag"]
            status, _, empty = await asyncio.to_thread(
                fetch, port, "/static/app.js", {"If-None-Match": etag}
            )
            assert (status, empty) == (304, b"")

    asyncio.run(main())


@pytest.mark.parametrize("host", ["evil.example", "attacker.test:6666", "rebind.example:1"])
def test_a_host_name_the_operator_did_not_name_gets_no_page(tmp_path: Path, host: str) -> None:
    """DNS rebinding: a page at evil.example whose name now points at this server."""

    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            status, headers, _ = await asyncio.to_thread(fetch, port_of(url), "/", {"Host": host})
            assert status == 421
            assert headers["content-security-policy"] == CSP

    asyncio.run(main())


def test_the_servers_own_page_may_open_a_websocket_and_no_other_page_may(tmp_path: Path) -> None:
    settings = Settings(operator_token=OPERATOR, origins=("https://club.example",))

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, _):
            port = port_of(url)
            own = [f"http://127.0.0.1:{port}", "https://club.example"]
            for origin in own:
                ws = await connect(url, origin=origin)  # type: ignore[arg-type]
                await ws.close()
            ws = await connect(url)  # a program: no Origin
            await ws.close()
            foreign = [
                "http://evil.example",
                f"http://localhost:{port}",  # not the Host the page was loaded from
                f"https://127.0.0.1:{port}",  # this server speaks no TLS
                "null",
            ]
            for origin in foreign:
                with pytest.raises(InvalidStatus) as caught:
                    await connect(url, origin=origin)  # type: ignore[arg-type]
                assert caught.value.response.status_code == 403, origin
            # Rebinding: the attacker's name in both Host and Origin is still refused.
            with pytest.raises(InvalidStatus):
                await connect(
                    url,
                    origin=f"http://evil.example:{port}",  # type: ignore[arg-type]
                    additional_headers={"Host": f"evil.example:{port}"},
                )

    asyncio.run(main())


def _request(path: str, **headers: str) -> Request:
    return Request(path, Headers(headers))


def test_the_policy_names_the_hosts_the_operator_owns() -> None:
    policy = Policy(origins=("https://club.example",), listen_host="cards.lan")
    for host in ("127.0.0.1:6666", "[::1]:6666", "10.0.0.7", "localhost:6666", "cards.lan"):
        assert policy.host_allowed(host), host
    assert policy.host_allowed("club.example:443")
    for host in ("evil.example", "club.example.evil.test", "", None):
        assert not policy.host_allowed(host), host
    assert host_name("[::1]:6666") == "::1" and host_name("Club.Example:1") == "club.example"
    tls = Policy(tls=True)
    assert tls.origin_allowed("https://127.0.0.1:6666", "127.0.0.1:6666")
    assert not tls.origin_allowed("http://127.0.0.1:6666", "127.0.0.1:6666")


def test_a_file_that_gzip_would_not_shrink_is_sent_as_it_is() -> None:
    small = asset(b"x" * 10, "text/plain")
    assert small.gzipped is None
    big = asset(b"card " * 400, "text/plain")
    assert big.gzipped is not None and gzip.decompress(big.gzipped) == b"card " * 400
    site = Site(Policy(), lambda lang: {"lang": lang}, files={})
    answer = site.answer(_request("/static/app.js", Host="127.0.0.1:1"))
    assert answer is not None and answer.status_code == 404


def test_every_page_word_is_in_both_languages() -> None:
    english = setup("en", get_registry())["words"]
    assert english == WORDS
    turkish = Translator("tr")
    same = {"—", "Talon"}  # the same word in Turkish
    assert not [text for text in WORDS.values() if not turkish.has(text) and text not in same]
    assert setup("tr", get_registry())["words"]["leave"] == "Çık"


def test_a_header_sent_twice_is_one_line_not_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two Hosts or two Origins: which did the browser mean? Refused with 400, nothing logged
    as a failure."""

    def raw(port: int, head: str) -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(f"GET / HTTP/1.1\r\n{head}\r\n".encode())
            return conn.recv(4096)

    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            port = port_of(url)
            for head in (
                f"Host: 127.0.0.1:{port}\r\nHost: evil.example\r\n",
                f"Host: 127.0.0.1:{port}\r\nOrigin: http://a.example\r\nOrigin: http://b\r\n",
            ):
                answer = await asyncio.to_thread(raw, port, head)
                assert answer.startswith(b"HTTP/1.1 400"), answer[:80]

    with caplog.at_level("ERROR"):
        asyncio.run(main())
    assert not [r for r in caplog.records if r.exc_info], caplog.text


def test_every_http_answer_says_the_connection_closes(tmp_path: Path) -> None:
    """The server ends the connection after each plain HTTP answer; each answer says so, or a
    browser sends its next request down the closing socket (Chromium then gives up on a file
    with ERR_TOO_MANY_RETRIES when that keeps happening on a busy machine)."""

    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            port = port_of(url)
            for path in ("/", "/static/app.js", "/api/setup?lang=en", "/nothing"):
                _, headers, _ = await asyncio.to_thread(fetch, port, path)
                assert headers["connection"] == "close", path

            def two_on_one_connection() -> tuple[int, int]:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                try:
                    conn.request("GET", "/")
                    first = conn.getresponse()
                    first.read()
                    conn.request("GET", "/static/app.js")  # http.client reconnects: told to
                    second = conn.getresponse()
                    second.read()
                    return first.status, second.status
                finally:
                    conn.close()

            assert await asyncio.to_thread(two_on_one_connection) == (200, 200)

    asyncio.run(main())
