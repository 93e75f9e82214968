"""The browser tests' own parts work: Chromium reads a page, people are separate, a phone is
small and touch, a JavaScript error and a CSP violation are caught, axe-core names the rule
and the element, a server is killed and started again on its data. Then the pages
``sixtysix serve`` serves: under a Content-Security-Policy, a title, no error, no WCAG level A
violation."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest

from tests.browser.chromium import accepts
from tests.browser.conftest import Person, PersonFactory, WebServer, run_async
from tests.table.server_helpers import request

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

#: An origin no network has: its pages are answered by the test (Playwright's routing).
ORIGIN = "http://sixtysix.test"


def _serve(someone: Person, html: str, headers: dict[str, str] | None = None) -> None:
    """Answer every request to :data:`ORIGIN` with ``html``, then open it."""

    def answer(route: Route) -> None:
        route.fulfill(
            status=200, content_type="text/html; charset=utf-8", headers=headers, body=html
        )

    someone.context.route(f"{ORIGIN}/**", answer)
    someone.page.goto(f"{ORIGIN}/")


def test_chromium_reads_a_page_with_the_suits(person: PersonFactory) -> None:
    ayse = person("ayse")
    html = "<title>Sixty-six</title><p id=trumps>Trumps: ♠ ♥ ♦ ♣</p>"
    ayse.page.goto("data:text/html;charset=utf-8," + quote(html))
    assert ayse.page.title() == "Sixty-six"
    assert ayse.page.text_content("#trumps") == "Trumps: ♠ ♥ ♦ ♣"


def test_two_people_share_no_storage_and_each_has_a_language(person: PersonFactory) -> None:
    ayse, bora = person("ayse"), person("bora", lang="tr")
    for someone in (ayse, bora):
        _serve(someone, "<title>t</title>")
    ayse.page.evaluate("localStorage.setItem('token', 'ayse')")
    assert ayse.page.evaluate("localStorage.getItem('token')") == "ayse"
    assert bora.page.evaluate("localStorage.getItem('token')") is None
    assert ayse.page.evaluate("navigator.language") == "en"
    assert bora.page.evaluate("navigator.language") == "tr"
    assert ayse.page.evaluate("[innerWidth, innerHeight]") == [1280, 800]


def test_a_phone_is_small_and_touch(person: PersonFactory) -> None:
    cem = person("cem", phone=True)
    _serve(cem, '<meta name="viewport" content="width=device-width"><title>t</title>')
    assert cem.page.evaluate("[innerWidth, innerHeight]") == [360, 740]
    assert cem.page.evaluate("navigator.maxTouchPoints") > 0
    assert cem.page.evaluate("matchMedia('(pointer: coarse)').matches")


def test_a_csp_violation_and_an_uncaught_error_are_caught(person: PersonFactory) -> None:
    ayse = person("ayse")
    csp = {"Content-Security-Policy": "default-src 'self'"}
    _serve(ayse, "<title>before</title><script>document.title = 'after'</script>", csp)
    assert ayse.page.title() == "before"  # the inline script was refused
    assert any("Content Security Policy" in error for error in ayse.errors), ayse.errors
    with ayse.page.expect_event("pageerror"):
        ayse.page.evaluate("setTimeout(() => { throw new TypeError('boom') })")
    assert "uncaught TypeError: boom" in ayse.errors
    ayse.errors.clear()  # expected here: the teardown must not fail this test for them


def test_axe_names_the_rule_and_the_element(
    person: PersonFactory,
    axe_check: Callable[[Page], list[dict[str, Any]]],
    assert_no_violations: Callable[[Page], None],
) -> None:
    ayse = person("ayse")
    gif = "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs="
    _serve(ayse, f'<html lang="en"><title>t</title><main><img id="ace" src="{gif}"></main>')
    assert "image-alt" in {violation["id"] for violation in axe_check(ayse.page)}
    with pytest.raises(AssertionError, match=r"image-alt \(critical\): .*\n    #ace: <img"):
        assert_no_violations(ayse.page)
    ayse.page.evaluate("document.getElementById('ace').alt = 'the ace of spades'")
    assert axe_check(ayse.page) == []
    assert_no_violations(ayse.page)


def test_a_server_killed_and_started_again_keeps_its_port_and_tables(
    web_server: WebServer,
) -> None:
    table = web_server.create_table("66", ["human", "@random"], seed=1)
    assert (web_server.data / "tables" / f"{table}.json").is_file()
    port = web_server.port
    web_server.kill()
    assert not web_server.running and not accepts(port)
    web_server.restart()
    assert web_server.port == port and web_server.running
    listed = run_async(request(web_server.ws_url, {"type": "list"}))
    assert table in {t["table"] for t in listed["tables"]}, listed
    assert web_server.stop() == 130
    assert "every table is saved" in web_server.log()


def test_the_lobby_page_has_a_title_and_no_error_or_violation(
    web_server: WebServer, person: PersonFactory, assert_no_violations: Callable[[Page], None]
) -> None:
    ayse = person("ayse")
    response = ayse.page.goto(web_server.url + "/")
    assert response is not None and response.status == 200, response and response.status
    assert "script-src 'self'" in response.headers["content-security-policy"]
    ayse.page.wait_for_load_state("networkidle")
    assert ayse.page.title().strip()
    assert_no_violations(ayse.page)


def test_a_tables_page_has_a_title_and_no_error_or_violation(
    web_server: WebServer, person: PersonFactory, assert_no_violations: Callable[[Page], None]
) -> None:
    table = web_server.create_table("66", ["human", "@random"], seed=1)
    ayse = person("ayse")
    response = ayse.page.goto(web_server.table_url(table))
    assert response is not None and response.status == 200, response and response.status
    assert "script-src 'self'" in response.headers["content-security-policy"]
    ayse.page.wait_for_load_state("networkidle")
    assert ayse.page.title().strip()
    assert_no_violations(ayse.page)
