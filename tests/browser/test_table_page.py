"""People at the browser page play whole matches of every variant by clicks, two or four of
them, against each other and against bots; before every move every page shows exactly its
seat's view of the saved record;
a page closed and opened again, and a server killed and started again, draw the table as it
was; a rated timer runs out; the page passes axe-core's level A rules at phone and desktop
widths, in both languages."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import PersonFactory, WebServer

if TYPE_CHECKING:
    from playwright.sync_api import Page
from tests.browser.pages import (
    Shown,
    alone_at,
    check,
    click_move,
    next_board,
    play_match,
    saved_deal,
    shown,
    sit,
)

#: Each variant with two people at it (the others bots), short matches.
TABLES = [
    ("66", ["human", "human"], {"target": 2}),
    ("schnapsen", ["human", "human"], {"target": 2}),
    ("66-3", ["human", "human", "@random"], {"target": 2}),
    ("66-4", ["human", "@random", "human", "@random"], {"target": 2}),
    ("66-4", ["human", "human", "human", "human"], {"target": 2}),
]


def drawn_again(before: Shown, page: Page, server: WebServer, table: str) -> Shown:
    """The page, back at the table, shows what it showed ``before`` and the saved record's
    view of its seat; what it shows now."""
    after = shown(page)
    keep = ("hand", "trick", "trump", "talon", "turnup", "deal", "seat")
    assert [getattr(after, k) for k in keep] == [getattr(before, k) for k in keep]
    check(after, saved_deal(server.data, table).view(after.seat))
    return after


@pytest.mark.parametrize(("variant", "seats", "options"), TABLES)
def test_two_people_play_a_whole_match_in_their_browsers(
    web_server: WebServer,
    person: PersonFactory,
    variant: str,
    seats: list[str],
    options: dict[str, int],
) -> None:
    table = web_server.create_table(variant, seats, options=options, seed=5)
    humans = [s for s, spec in enumerate(seats) if spec == "human"]
    names = ["ayse", "bora", "cem", "deniz"]
    langs = ["en", "tr", "en", "tr"]
    people = {seat: person(names[i], langs[i], phone=i % 2 == 1) for i, seat in enumerate(humans)}
    for i, seat in enumerate(humans):  # in turn: each takes the first free seat
        sit(people[seat], web_server, table, langs[i])
        people[seat].page.wait_for_selector(f"#table-root[data-seat='{seat}']")
    moves = play_match(people, web_server, table)
    assert moves >= 6
    for seat, someone in people.items():
        assert shown(someone.page).seat == seat
    assert people[humans[1]].page.evaluate("document.documentElement.lang") == "tr"


def test_one_person_plays_a_match_against_the_bots(
    web_server: WebServer, person: PersonFactory
) -> None:
    table = web_server.create_table("66-4", ["human", "@easy", "@hard", "@easy"], seed=2)
    ayse = person("ayse")
    sit(ayse, web_server, table)
    play_match({0: ayse}, web_server, table, within=400)


def test_a_page_closed_and_opened_again_draws_the_table_as_it_was(
    web_server: WebServer, person: PersonFactory
) -> None:
    ayse, table = alone_at(person, web_server, "66", ["human", "@random"], 9)
    play_match({0: ayse}, web_server, table, until=lambda views: views[0].boards > 8)
    ayse.page.wait_for_selector("#table-root[data-my-turn='true']")
    before = shown(ayse.page)
    ayse.page.close()
    ayse.page = ayse.context.new_page()
    ayse.page.goto(web_server.table_url(table))
    ayse.page.wait_for_selector("#table-root[data-my-turn='true']")
    drawn_again(before, ayse.page, web_server, table)


def test_a_server_killed_mid_deal_comes_back_and_the_page_with_it(
    web_server: WebServer, person: PersonFactory
) -> None:
    ayse, table = alone_at(person, web_server, "schnapsen", ["human", "@random"], 4)
    page = ayse.page
    first = shown(page)
    click_move(page, first)
    next_board(page, first.boards)
    page.wait_for_selector("#table-root[data-my-turn='true']")
    before = shown(page)
    web_server.kill()
    page.wait_for_selector("body[data-state='reconnecting']")
    ayse.errors.clear()  # Chromium logs each refused connection while the server is down
    web_server.restart()
    page.wait_for_selector("body[data-state='table'] #table-root[data-my-turn='true']")
    ayse.errors.clear()
    after = drawn_again(before, page, web_server, table)
    play_match({0: ayse}, web_server, table, until=lambda views: views[0].boards > after.boards + 4)


def test_a_rated_timer_runs_out_and_the_page_says_so(
    web_server: WebServer, person: PersonFactory
) -> None:
    table = web_server.create_table("66", ["human", "@random"], rated=True, move_time=30)
    ayse = person("ayse")
    sit(ayse, web_server, table)
    page = ayse.page
    page.wait_for_selector("#table-root[data-my-turn='true']")
    page.wait_for_selector("#timer:not([hidden]):not(.hurry)")
    seconds = int(page.get_attribute("#timer", "data-seconds") or "99")
    assert 20 < seconds <= 30
    page.wait_for_selector("#timer.hurry", timeout=30_000)  # the last 10 seconds
    assert int(page.get_attribute("#timer", "data-seconds") or "99") <= 10
    page.wait_for_selector("dialog#over[open]", timeout=30_000)
    assert not page.query_selector("#hand button.card:not([disabled])")
    assert shown(page).my_turn is False


def test_leaving_a_rated_match_says_what_it_costs_and_asks_once(
    web_server: WebServer, person: PersonFactory
) -> None:
    table = web_server.create_table("66", ["human", "human"], rated=True, move_time=60)
    ayse, bora = person("ayse"), person("bora")
    sit(ayse, web_server, table)
    sit(bora, web_server, table)
    ayse.page.wait_for_selector("#table-root[data-board='true']")
    ayse.page.click("#leave-btn")
    question = ayse.page.wait_for_selector("dialog#confirm[open]")
    assert question is not None
    assert "it would count as a loss (-1)" in (question.text_content() or "")
    ayse.page.click("dialog#confirm button[value=no]")  # no: nothing happens
    ayse.page.wait_for_selector("dialog#confirm", state="detached")
    assert shown(ayse.page).state == "table"
    ayse.page.click("#leave-btn")
    ayse.page.click("dialog#confirm button[value=yes]")
    ayse.page.wait_for_selector("body[data-state='closed']")
    bora.page.wait_for_selector("dialog#over[open]")  # the match ends for the other (end)
    saved = json.loads((web_server.data / "tables" / f"{table}.json").read_text())
    assert saved["table"]["left"] == [True, False]
