"""A browser page's seat: the ``board`` the server words for it, over loopback.

Each board shows exactly its seat's view (compared, at every decision, with the view rebuilt
from the table's saved record), never a card the seat may not know (every card anywhere in a
board during a deal is the seat's own, played, the turn-up or known to all), in the page's
language; and a page can act only for its own seat, like any client."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import CARD_NAMES, NUM_CARDS
from sixtysix.core.records import parse_record
from sixtysix.core.replay import replay
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.service.facts import hand_order
from sixtysix.table import wire
from sixtysix.table.server import HINTS_AT_ONCE
from sixtysix.table.settings import Settings
from tests.table.server_helpers import OPERATOR, Conn, P, create, running

VARIANTS = [
    ("66", ["human", "@random"]),
    ("schnapsen", ["human", "@random"]),
    ("66-3", ["human", "@random", "@random"]),
    ("66-4", ["human", "@random", "@random", "@random"]),
]


#: Short matches: two game points win.
SHORT: dict[str, dict[str, Any]] = {v: {"target": 2} for v, _ in VARIANTS}


async def page(url: str, table: str, name: str, lang: str = "en") -> Conn:
    conn = await Conn.open(url, origin=url.replace("ws://", "http://"))
    await conn.send(
        {"type": "join", "protocol": P, "table": table, "name": name, "lang": lang, "screen": True}
    )
    welcome = await conn.expect("welcome", "error")
    assert welcome["type"] == "welcome", welcome
    return conn


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a board."""
    found: set[str] = set()
    if isinstance(value, dict):
        code = value.get("code")
        if isinstance(code, str) and "suit" in value:
            found.add(code)
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


def saved_deal(data: Path, table: str, number: int) -> DealState:
    """Deal ``number`` (from 1; 0: the last) as the table's saved record has it."""
    saved = json.loads((data / "tables" / f"{table}.json").read_text())
    replayed = replay(parse_record(saved["record"]), get_registry())
    return replayed.deals[number - 1].state


def saved_view(data: Path, table: str, seat: int) -> View:
    """The seat's view of the running deal, rebuilt from the table's saved record."""
    return saved_deal(data, table, 0).view(seat)


def public_cards(view: View) -> set[str]:
    """What the seat may know: its hand, the cards played, the turn-up, cards known to all."""
    codes = {int(c) for c in view.hand} | {int(c) for c in view.played}
    codes |= {int(c) for s in range(view.seats) for c in view.known[s]}
    if view.turnup is not None:
        codes.add(int(view.turnup))
    if view.called_ace is not None:
        codes.add(int(view.called_ace))  # the called ace is named, not placed
    return {CARD_NAMES[c] for c in codes}


def check_board(board: dict[str, Any], view: View) -> None:
    """The board draws ``view``: hand, legal moves, trick, trump, talon, tricks and sides."""
    table = board["board"]
    assert [h["card"]["code"] for h in table["hand"]] == [CARD_NAMES[c] for c in hand_order(view)]
    legal = {wire_name(a) for a in view.legal_actions}
    assert {h["action"] for h in table["hand"] if h["legal"]} | {
        a["action"] for a in table["actions"]
    } == legal
    assert [(p["seat"], p["card"]["code"]) for p in table["trick"]] == [
        (s, CARD_NAMES[c]) for s, c in view.trick
    ]
    assert (table["trump"] or {}).get("suit") == (
        None if view.trump is None else "CDHS"[view.trump]
    )
    if table["talon"] is not None:
        assert table["talon"]["size"] == view.talon_size
        turnup = table["talon"]["turnup"]
        assert (turnup or {}).get("code") == (
            None if view.turnup is None else CARD_NAMES[view.turnup]
        )
    assert [int(r["cells"][1]) for r in table["scores"]["rows"]] == list(view.tricks)
    assert table["my_turn"] is True and table["to_act"] == view.seat


def wire_name(action: int) -> str:
    return ACTION_NAMES[action]


@pytest.mark.parametrize(("variant", "seats"), VARIANTS)
def test_every_board_shows_the_seats_view_and_nothing_hidden(
    tmp_path: Path, variant: str, seats: list[str]
) -> None:
    data = tmp_path / "data"

    async def main() -> None:
        async with running(data) as (url, _):
            table = await create(url, variant, seats, options=SHORT[variant], seed=7)
            conn = await page(url, table, "ayse")
            decisions = results = 0
            while True:
                message = await conn.expect("board")
                result = message["result"]
                if result is not None and result["deal"] > results:
                    results = result["deal"]
                    state = saved_deal(data, table, results)
                    assert [cards_in(h) for h in result["hands"]] == [
                        {CARD_NAMES[c] for c in range(NUM_CARDS) if state.hands[s] >> c & 1}
                        for s in range(len(seats))
                    ]
                if message["over"] is not None:
                    break
                board = message["board"]
                if board is None or not board["my_turn"]:
                    continue
                view = saved_view(data, table, 0)
                check_board(message, view)
                shown = cards_in({k: v for k, v in message.items() if k != "result"})
                last = message["result"]
                assert shown <= public_cards(view) | (cards_in(last) if last else set())
                decisions += 1
                cards = [h["action"] for h in board["hand"] if h["legal"]]
                choice = cards[0] if cards else board["actions"][0]["action"]
                await conn.send({"type": "action", "action": choice})
            assert decisions >= 3 and results >= 1
            await conn.close()

    asyncio.run(main())


def test_a_page_acts_for_its_own_seat_only_and_gets_hints_at_a_test_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, server):
            table = await create(url, "66-3", ["human", "human", "@random"], seed=3)
            first = await page(url, table, "ayse", "tr")
            second = await page(url, table, "mehmet")
            pages = {0: first, 1: second}
            board = await first.expect("board")
            while board["board"] is None or board["board"]["to_act"] is None:
                board = await first.expect("board")
            mover = board["board"]["to_act"]
            assert mover in pages  # a bot calls no trump in 66-3 before seat 1: dealer 2
            other = pages[1 - mover]
            before = server.tables[table].record.as_json()
            await other.send({"type": "action", "action": "trump H"})
            refused = await other.expect("error")
            assert refused["code"] == "not_your_turn"
            assert server.tables[table].record.as_json() == before
            await pages[mover].send({"type": "hint"})
            hints = await pages[mover].expect("hints", "error")
            assert hints["type"] == "hints", hints
            assert {row["action"] for row in hints["rows"]} >= {"trump C", "trump S"}
            assert hints["rows"] == sorted(hints["rows"], key=lambda r: -r["value"])
            await other.send({"type": "hint"})
            assert (await other.expect("error"))["code"] == "no_hint"
            server.hints = HINTS_AT_ONCE  # every hint the server computes at once is taken
            await pages[mover].send({"type": "hint"})
            busy = await pages[mover].expect("error")
            assert busy["code"] == "no_hint" and "busy" in busy["message"]
            await first.close()
            await second.close()

    asyncio.run(main())


def test_a_rated_table_gives_no_hints_and_its_board_says_what_leaving_costs(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            table = await create(url, "66", ["human", "@random"], rated=True, move_time=60)
            conn = await page(url, table, "ayse")
            board = await conn.expect("board")
            while board["board"] is None or not board["board"]["my_turn"]:
                board = await conn.expect("board")
            assert board["rated"] and not board["can"]["hint"] and not board["can"]["undo"]
            assert board["timer"] == {"seat": 0, "seconds": 60} or board["timer"]["seat"] == 0
            assert "rated" in board["leave"] and board["leave"].endswith("Leave the table?")
            await conn.send({"type": "hint"})
            assert (await conn.expect("error"))["code"] == "no_hint"
            await conn.close()

    asyncio.run(main())


def test_a_page_that_comes_back_is_drawn_exactly_as_before_in_its_language(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(tmp_path / "data") as (url, _):
            table = await create(url, "schnapsen", ["human", "@random"], seed=11)
            conn = await page(url, table, "ayse")
            welcome = next(m for m in conn.seen if m["type"] == "welcome")
            board = await conn.expect("board")
            while board["board"] is None or not board["board"]["my_turn"]:
                board = await conn.expect("board")
            assert board["can"]["undo"]  # a person alone with the server's bots
            await conn.close()
            again = await Conn.open(url)
            await again.send(
                {
                    "type": "join",
                    "protocol": P,
                    "table": table,
                    "name": "ayse",
                    "token": welcome["token"],
                    "lang": "tr",
                    "screen": True,
                }
            )
            back = await again.expect("board")
            while back["board"] is None:
                back = await again.expect("board")
            assert back["lang"] == "tr"
            assert back["board"]["hand"] == [
                dict(h, card=dict(h["card"], name=t["card"]["name"]))
                for h, t in zip(board["board"]["hand"], back["board"]["hand"], strict=True)
            ]
            assert back["board"]["scores"]["headings"][0] == "oyuncu"
            await again.close()

    asyncio.run(main())


def test_only_a_page_is_sent_boards(tmp_path: Path) -> None:
    settings = Settings(operator_token=OPERATOR)

    async def main() -> None:
        async with running(tmp_path / "data", settings=settings) as (url, _):
            table = await create(url, "66", ["human", "@random"], seed=1)
            conn = await Conn.open(url)
            await conn.send(
                {"type": "join", "protocol": P, "table": table, "name": "prog", "lang": "en"}
            )
            await conn.expect("decide", "update")
            await conn.send({"type": "hint"})
            assert (await conn.expect("error"))["code"] == "no_hint"
            assert not [m for m in conn.seen if m["type"] in ("board", "hints")]
            await conn.send({"type": "join", "screen": "yes"})  # garbage, seated
            code, _ = await conn.closed()
            assert code == wire.CLOSE_POLICY

    asyncio.run(main())
