"""The page over TLS: a server started with a certificate serves it at ``https://`` and takes
its WebSockets at ``wss://`` from the page's own ``https`` origin — a table is opened from the
lobby's form and played — in a real browser.

The browser trusts the certificate as it would a CA's (``--ignore-certificate-errors-spki-list``
names its key). Told instead to ignore certificate errors (Playwright's ``ignore_https_errors``),
Chromium accepts the certificate request by request: each request that meets it starts again,
and can be handed another request's connection that met it too. The server answers each page
request on a connection of its own, so on a loaded machine one stylesheet went round 32 times
and failed with ``ERR_TOO_MANY_RETRIES``.
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import Person, ServerFactory, chromium, watch
from tests.browser.pages import play_match

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key (openssl, a day long)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    done = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        capture_output=True,
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.fail(f"openssl could not make a certificate: {done.stderr.decode()[-300:]}")
    return cert, key


def spki_hash(key: Path) -> str:
    """The base64 SHA-256 of the key's public half (its SubjectPublicKeyInfo, DER), as
    Chromium's ``--ignore-certificate-errors-spki-list`` takes it."""
    done = subprocess.run(
        ["openssl", "pkey", "-in", str(key), "-pubout", "-outform", "DER"],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"openssl could not read the key: {done.stderr.decode()[-300:]}")
    return base64.b64encode(hashlib.sha256(done.stdout).digest()).decode()


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    return self_signed(tmp_path)


@pytest.fixture
def trusting(playwright: Playwright, certificate: tuple[Path, Path]) -> Iterator[Browser]:
    """A Chromium of this test's own that trusts the certificate."""
    trusted = f"--ignore-certificate-errors-spki-list={spki_hash(certificate[1])}"
    with chromium(playwright, trusted) as launched:
        yield launched


def test_the_page_over_tls_opens_and_plays_a_table(
    web_server_with: ServerFactory, trusting: Browser, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    server = web_server_with("--certfile", str(cert), "--keyfile", str(key))
    https = f"https://127.0.0.1:{server.port}"
    context = trusting.new_context()
    errors: list[str] = []
    context.on("page", lambda page: watch(page, errors))
    context.add_init_script(
        "if (location.protocol === 'https:') localStorage.setItem('ss.name', 'ayse');"
    )
    page = context.new_page()
    try:
        page.goto(https + "/")
        page.wait_for_selector("body[data-state='lobby'] #create-form")
        page.wait_for_selector("#tables .table-list p")  # listed over wss: nothing yet
        page.select_option("#variant", "schnapsen")
        page.select_option("#seat-1", "@easy")
        page.click("#create-form button[type=submit]")
        page.wait_for_url(https + "/t/*")
        page.wait_for_selector("#table-root[data-board='true']")
        table = page.url.rsplit("/", 1)[1]
        assert (server.data / "tables" / f"{table}.json").exists()
        ayse = Person("ayse", context, page, errors)
        play_match({0: ayse}, server, table, until=lambda views: views[0].boards > 6)
        assert not errors, errors
    finally:
        context.close()
