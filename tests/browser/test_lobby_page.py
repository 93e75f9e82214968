"""The lobby in a real browser: a name picked once, a rated table opened through the form and
played, the club's standings and the person's own matches, the language switched and
remembered; the table played with the keyboard alone; and axe-core's WCAG level A rules on
the lobby, the tables and the windows, at phone and desktop widths, in both languages."""

from __future__ import annotations

from tests.browser.conftest import PersonFactory, WebServer, assert_accessible
from tests.browser.pages import alone_at, next_board, play_match, shown, sit


def test_a_name_a_rated_table_from_the_form_the_standings_and_the_language(
    web_server: WebServer, person: PersonFactory
) -> None:
    ayse = person("ayse")
    page = ayse.page
    page.goto(web_server.url + "/")
    page.wait_for_selector("body[data-state='lobby'] #create-form")
    assert_accessible(page)
    page.click("#name-btn")
    page.fill("#name-input", "ayse")
    assert_accessible(page)  # the name window
    page.click("dialog#name-dialog button.primary")
    page.wait_for_selector("#playing-as")
    page.select_option("#variant", "sixtysix")
    page.click("#new-table details summary")
    page.fill("[data-option='target']", "2")
    page.select_option("#seat-1", "@easy")
    page.check("#rated")
    page.fill("#move-time", "60")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#table-root[data-board='true']")
    assert not page.query_selector("#hint-btn") and not page.query_selector("#undo-btn")
    play_match({0: ayse}, web_server, table, check_every_move=True)
    page.goto(web_server.url + "/")
    row = page.wait_for_selector("#standings tbody tr")
    assert row is not None and "ayse" in (row.text_content() or "")
    mine = page.wait_for_selector("#history tbody tr")
    assert mine is not None
    page.select_option("#lang-select", "tr")
    page.wait_for_selector("html[lang='tr'] #standings-h")
    assert page.text_content("#standings-h") == "Sıralama"
    page.reload()
    page.wait_for_selector("html[lang='tr'] #standings-h")
    assert_accessible(page)


def test_an_invitation_link_asks_a_newcomer_for_a_name_then_seats_them(
    web_server: WebServer, person: PersonFactory
) -> None:
    table = web_server.create_table("66", ["human", "@random"], seed=8)
    cem = person("cem", phone=True)
    cem.page.goto(web_server.table_url(table))
    cem.page.fill("dialog#name-dialog #name-input", "cem")
    cem.page.click("dialog#name-dialog button.primary")
    cem.page.wait_for_selector("#table-root[data-my-turn='true']")
    assert shown(cem.page).seat == 0
    before = shown(cem.page)
    card = next(c for c, ok, _ in before.hand if ok)
    cem.page.tap(f'#hand button.card[data-card="{card}"]')  # a finger, on a phone
    next_board(cem.page, before.boards)
    assert card not in [c for c, _, _ in shown(cem.page).hand]
    assert cem.page.evaluate("localStorage.getItem('ss.token.cem')")  # kept for the next visit
    assert cem.page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_page_speaks_the_browsers_language_until_told_otherwise(
    web_server: WebServer, person: PersonFactory
) -> None:
    deniz = person("deniz", "tr-TR")
    deniz.page.goto(web_server.url + "/")
    deniz.page.wait_for_selector("html[lang='tr'] body[data-state='lobby'] #tables-h")
    assert deniz.page.text_content("#tables-h") == "Masalar"
    deniz.page.select_option("#lang-select", "en")
    deniz.page.wait_for_selector("html[lang='en'] #tables-h")
    deniz.page.reload()
    deniz.page.wait_for_selector("html[lang='en'] #tables-h")  # remembered over the browser's
    assert deniz.page.text_content("#tables-h") == "Tables"


def test_the_table_is_played_with_the_keyboard_alone(
    web_server: WebServer, person: PersonFactory
) -> None:
    ayse, _ = alone_at(person, web_server, "schnapsen", ["human", "@random"], 6)
    page = ayse.page
    for _ in range(80):  # Tab until a playable card has the focus
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => document.activeElement.matches('#hand button.card:not([disabled])')"
        ):
            break
    else:
        raise AssertionError("no playable card could be reached with Tab")
    card = page.evaluate("() => document.activeElement.dataset.card")
    before = shown(page)
    page.keyboard.press("Enter")
    next_board(page, before.boards)
    assert card not in [c for c, _, _ in shown(page).hand]
    page.wait_for_selector("#table-root[data-my-turn='true']")
    before = shown(page)
    number, code = next((i, c) for i, (c, ok, _) in enumerate(before.hand, 1) if ok)
    page.keyboard.press(str(number))  # a card's number plays it
    next_board(page, before.boards)
    assert code not in [c for c, _, _ in shown(page).hand]


def test_the_tables_and_their_windows_pass_the_level_a_rules(
    web_server: WebServer, person: PersonFactory
) -> None:
    table = web_server.create_table("66-4", ["human", "@random", "@random", "@random"], seed=3)
    desk = person("ayse")
    sit(desk, web_server, table)
    desk.page.wait_for_selector("#table-root[data-my-turn='true']")
    assert_accessible(desk.page)
    desk.page.click("#first-btn")
    desk.page.wait_for_selector("dialog#first-tricks[open]")
    assert_accessible(desk.page)
    desk.page.keyboard.press("Escape")
    two = web_server.create_table("66", ["human", "@random"], seed=8)
    phone = person("bora", "tr", phone=True)
    sit(phone, web_server, two, "tr")
    phone.page.wait_for_selector("#table-root[data-my-turn='true']")
    assert_accessible(phone.page)
    phone.page.click("#hint-btn")
    phone.page.wait_for_selector("dialog#hints[open]", timeout=60_000)
    assert_accessible(phone.page)
    phone.page.keyboard.press("Escape")
    play_match(
        {0: phone},
        web_server,
        two,
        until=lambda views: views[0].result > 0,
        check_every_move=False,
    )
    phone.page.wait_for_selector("dialog#result[open]")
    assert_accessible(phone.page)
