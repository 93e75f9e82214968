"""Scripted people at the browser page: seat them, read what their page shows, play by clicks,
and compare each page with its seat's view rebuilt from the table's saved record."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import CARD_NAMES, NUM_CARDS
from sixtysix.core.records import parse_record
from sixtysix.core.replay import replay
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.service.facts import hand_order
from tests.browser.conftest import Person, WebServer

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: What a page shows, read in one go from its DOM (the page's test contract).
READ = """() => {
  const root = document.querySelector('#table-root');
  const all = (sel) => [...document.querySelectorAll(sel)];
  const open = (id) => !!document.querySelector(`dialog#${id}[open]`);
  return {
    state: document.body.dataset.state,
    boards: Number(root?.dataset.boards || 0),
    deal: Number(root?.dataset.deal || 0),
    seat: Number(root?.dataset.seat || 0),
    myTurn: root?.dataset.myTurn === 'true',
    hand: all('#hand button.card').map((b) => [b.dataset.card, b.dataset.legal === 'true',
                                                 b.disabled]),
    actions: all('#actions button[data-action]').map((b) => b.dataset.action),
    trick: all('#trick figure.play').map((f) => [Number(f.dataset.seat), f.dataset.card]),
    trump: document.querySelector('#trump')?.dataset.suit ?? null,
    talon: document.querySelector('#talon')?.dataset.size ?? null,
    turnup: document.querySelector('#turnup')?.dataset.card ?? null,
    tricks: all('#scores tbody tr').map((r) => r.cells[1]?.textContent),
    result: open('result') ? Number(document.querySelector('dialog#result').dataset.deal) : 0,
    over: open('over'),
  };
}"""


@dataclass
class Shown:
    """One page's table as read from its DOM."""

    state: str
    boards: int
    deal: int
    seat: int
    my_turn: bool
    hand: list[tuple[str, bool, bool]]
    actions: list[str]
    trick: list[tuple[int, str]]
    trump: str | None
    talon: str | None
    turnup: str | None
    tricks: list[str]
    result: int
    over: bool


def shown(page: Page) -> Shown:
    raw: dict[str, Any] = page.evaluate(READ)
    return Shown(
        raw["state"],
        raw["boards"],
        raw["deal"],
        raw["seat"],
        raw["myTurn"],
        [tuple(x) for x in raw["hand"]],  # type: ignore[misc]
        raw["actions"],
        [tuple(x) for x in raw["trick"]],  # type: ignore[misc]
        raw["trump"],
        raw["talon"],
        raw["turnup"],
        raw["tricks"],
        raw["result"],
        raw["over"],
    )


SENT: dict[int, list[tuple[float, str]]] = {}


def sit(someone: Person, server: WebServer, table: str, lang: str = "en") -> None:
    """Open the table's invitation link for a person whose browser holds a name already."""
    sent = SENT.setdefault(id(someone.page), [])
    someone.page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda f: sent.append((time.monotonic(), str(f)[:60]))),
    )
    someone.context.add_init_script(  # every page of the context, about:blank too
        "if (location.protocol.startsWith('http')) {"
        f"localStorage.setItem('ss.name', {json.dumps(someone.name)});"
        f"localStorage.setItem('ss.lang', {json.dumps(lang)});}}"
    )
    someone.page.goto(server.table_url(table))
    someone.page.wait_for_selector("#table-root")


def alone_at(
    person: Callable[[str], Person], server: WebServer, variant: str, seats: list[str], seed: int
) -> tuple[Person, str]:
    """Ayşe alone at a new table of ``variant`` with bots, at her first move; and the table."""
    table = server.create_table(variant, seats, seed=seed)
    ayse = person("ayse")
    sit(ayse, server, table)
    ayse.page.wait_for_selector("#table-root[data-my-turn='true']")
    return ayse, table


def saved_deal(data: Path, table: str, number: int = 0) -> DealState:
    """Deal ``number`` (from 1; 0: the last) of the table's saved record."""
    saved = json.loads((data / "tables" / f"{table}.json").read_text())
    replayed = replay(parse_record(saved["record"]), get_registry())
    return replayed.deals[number - 1].state


def expected(view: View) -> dict[str, Any]:
    """What a page must show of ``view`` (the contract's fields)."""
    legal = {int(a) for a in view.legal_actions}
    return {
        "hand": [(CARD_NAMES[c], int(c) in legal) for c in hand_order(view)],
        "trick": [(s, CARD_NAMES[c]) for s, c in view.trick],
        "trump": "" if view.trump is None else "CDHS"[view.trump],
        "talon": None if view.rules.turnup_after_round is None else str(view.talon_size),
        "turnup": None if view.turnup is None else CARD_NAMES[view.turnup],
        "tricks": [str(t) for t in view.tricks],
    }


def check(page_view: Shown, view: View) -> None:
    """The page shows exactly ``view`` (at the seat's own move, when the saved record and
    the page agree on the moment)."""
    want = expected(view)
    got = {
        "hand": [(code, legal) for code, legal, _ in page_view.hand],
        "trick": page_view.trick,
        "trump": page_view.trump,
        "talon": page_view.talon,
        "turnup": page_view.turnup,
        "tricks": page_view.tricks,
    }
    assert got == want
    assert all(disabled != legal for _, legal, disabled in page_view.hand)
    specials = {ACTION_NAMES[a] for a in view.legal_actions if a >= NUM_CARDS}
    assert set(page_view.actions) == specials


def check_all(people: dict[int, Person], data: Path, table: str, within: float = 10.0) -> None:
    """Every page shows exactly its own seat's view of the saved record's deal, once the
    last board has reached it (waited for up to ``within`` seconds)."""
    state = saved_deal(data, table)
    for seat, someone in people.items():
        view = state.view(seat)
        deadline = time.monotonic() + within
        while True:
            try:
                check(shown(someone.page), view)
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)


def first_move(page_view: Shown) -> tuple[str, str]:
    """The first playable card's selector, else the first special move's (never a
    concession while something else may be done)."""
    for code, legal, _ in page_view.hand:
        if legal:
            return "#hand", code
    moves = [a for a in page_view.actions if a != "concede"] or page_view.actions
    return "#actions", moves[0]


def click_move(page: Page, page_view: Shown, record: Path | None = None) -> None:
    """Click the first legal move; a page that no longer offers it fails the test with what
    it shows instead."""
    from playwright.sync_api import TimeoutError as Timeout  # the browser extra

    where, what = first_move(page_view)
    if where == "#hand":
        selector = f'#hand button.card[data-card="{what}"]'
    else:
        selector = f'#actions button[data-action="{what}"]'
    try:
        page.click(selector, timeout=5_000)
    except Timeout as exc:
        said = page.evaluate(
            "() => [...document.querySelectorAll('#log li, #status, #notice, #conn')]"
            ".map((e) => e.textContent).slice(-14)"
        )
        saved = json.loads(record.read_text())["record"]["deals"][-1]["actions"] if record else ""
        raise AssertionError(
            f"{selector} is gone: the page read {page_view}, now shows {shown(page)}; {said};"
            f" {exc.message}; the record: {saved}; sent {SENT.get(id(page), [])[-4:]},"
            f" now {time.monotonic()}"
        ) from None


def drawn(page: Page, before: Shown, within: float = 15.0) -> Shown:
    """Wait for the board that answers the seat's own move: its hand, moves, trick, turn or
    deal differ from ``before`` (a board for another reason, such as a timer's, changes none
    of them); what the page shows then."""
    deadline = time.monotonic() + within
    while True:
        now = shown(page)
        if (now.hand, now.actions, now.trick, now.my_turn, now.deal, now.result) != (
            before.hand,
            before.actions,
            before.trick,
            before.my_turn,
            before.deal,
            before.result,
        ):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the page did not draw its move within {within} s: {now}")
        time.sleep(0.02)


def next_board(page: Page, seen: int) -> None:
    """Wait for the page's next board after the ``seen``-th (a function, not an expression:
    the page's policy forbids evaluating strings)."""
    page.wait_for_function(
        f"() => Number(document.querySelector('#table-root').dataset.boards) > {seen}"
    )


def play_match(
    people: dict[int, Person],
    server: WebServer,
    table: str,
    *,
    check_every_move: bool = True,
    within: float = 120.0,
    until: Any = None,
) -> int:
    """Play the match by clicks until every page shows it over (or ``until(views)``): each
    page's first legal move, the end-of-deal window closed with its button. Before every
    move, each page is compared with its own seat's view from the saved record. The number
    of moves clicked."""
    moves = 0
    deadline = time.monotonic() + within
    acknowledged: dict[int, int] = dict.fromkeys(people, 0)
    while time.monotonic() < deadline:
        views = {seat: shown(p.page) for seat, p in people.items()}
        if all(v.over for v in views.values()):
            return moves
        if until is not None and until(views):
            return moves
        acted = False
        for seat, view in views.items():
            page = people[seat].page
            if view.result and view.result > acknowledged[seat] and not view.over:
                acknowledged[seat] = view.result
                page.click("dialog#result button[value=next]")
                acted = True
            elif view.my_turn and view.state == "table" and not view.result and not view.over:
                if check_every_move:
                    check_all(people, server.data, table)
                click_move(page, view, server.data / "tables" / f"{table}.json")
                drawn(page, view)
                moves += 1
                acted = True
        if not acted:
            time.sleep(0.02)
    views = {seat: shown(p.page) for seat, p in people.items()}
    raise AssertionError(
        f"the match was not over within {within} s ({moves} moves clicked): {views}"
    )
