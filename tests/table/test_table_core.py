"""The table's synchronous core: seats, refusals that change nothing, leaving and its score,
the timers, restart from the table file, and each seat told only its own view."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.plugins.manager import get_registry
from sixtysix.protocol.messages import encode_view
from sixtysix.table import wire
from sixtysix.table.saving import Results
from sixtysix.table.store import Store, table_from_file
from sixtysix.table.table import Config, Out, Table
from sixtysix.table.wire import WireError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make(
    seats: Sequence[str] = ("human",) * 4,
    variant: str = "66-4",
    clock: Clock | None = None,
    book: Results | None = None,
    **config: Any,
) -> Table:
    config.setdefault("seed", None if config.get("rated") else 11)
    return Table(
        Config(
            id="t1",
            variant=variant,
            options=config.pop("options", {"target": 3}),
            seats=tuple(seats),
            **config,
        ),
        get_registry(),
        standings=book,
        clock=clock or Clock(),
        reconnect_time=5.0,
    )


def seat_all(table: Table) -> Out:
    out: Out = []
    for s in table.free_seats():
        seat, again = table.join(f"p{s}", None)
        assert seat == s and not again
        out += table.connect(seat)
    return out


def snapshot(table: Table) -> str:
    return json.dumps(table.file_data(), sort_keys=True)


def test_the_match_starts_when_every_person_seat_is_taken() -> None:
    table = make()
    assert table.status == "open"
    out = table.join("p0")
    assert out == (0, False)
    assert table.join("P0") == (0, True)  # the same name, any case: the same seat
    table.connect(0)
    assert not table.started
    out = seat_all(table)
    assert table.status == "running"
    types = [m["type"] for s, m in out if s == table.to_act()]
    assert "match" in types and "deal" in types and "update" in types and types[-1] == "decide"
    with pytest.raises(WireError) as err:
        table.join("late")
    assert err.value.code == "table_full"


def test_refused_requests_change_nothing() -> None:
    table = make()
    seat_all(table)
    seat = table.to_act()
    assert seat is not None
    other = (seat + 1) % 4
    before = snapshot(table)
    state = table.state
    assert state is not None
    legal = [ACTION_NAMES[a] for a in state.legal_actions()]
    illegal = next(
        name
        for name in ("play AS", "play 9C", "call hearts", "solo", "exchange")
        if name not in legal
    )
    for who, text, code in (
        (other, legal[0], "not_your_turn"),  # out of turn / for another seat
        (seat, illegal, "illegal"),
        (seat, "nonsense", "illegal"),
        (seat, "x" * 5000, "illegal"),
    ):
        with pytest.raises(WireError) as err:
            table.act(who, text)
        assert err.value.code == code and not err.value.closes
        assert snapshot(table) == before
    with pytest.raises(WireError) as err:
        table.act(seat, illegal)
    assert legal[0] in err.value.message  # the legal list is in the refusal


def test_no_action_before_the_start_or_after_the_end() -> None:
    table = make(seats=("human", "human"), variant="66", options={"target": 1})
    table.join("a")
    with pytest.raises(WireError) as err:
        table.act(0, "play AS")
    assert err.value.code == "not_started"
    seat_all(table)
    play_to_end(table)
    assert table.finished and table.status == "finished"
    with pytest.raises(WireError) as err:
        table.act(0, "play AS")
    assert err.value.code == "not_started"


def play_to_end(table: Table) -> Out:
    out: Out = []
    while not table.finished:
        seat = table.to_act()
        assert seat is not None
        if table.bot_to_act():
            out += table.bot_turn()
        else:
            state = table.state
            assert state is not None
            out += table.act(seat, ACTION_NAMES[state.legal_actions()[0]])
    return out


def test_each_seat_is_told_its_own_view_and_nothing_else() -> None:
    table = make(seats=("human", "@random", "human", "@easy"))
    out = seat_all(table)
    while not table.finished:
        state = table.state
        assert state is not None
        for seat in table.humans():
            updates = [m for s, m in out if s == seat and m["type"] == "update"]
            if updates and not state.is_over:
                assert updates[-1]["view"] == encode_view(state.view(seat))
            for s, m in out:
                if m["type"] == "decide":
                    assert s == state.to_act
        if table.bot_to_act():
            out = table.bot_turn()
        else:
            out = table.act(state.to_act, ACTION_NAMES[state.legal_actions()[-1]])
        for s, m in out:
            if m["type"] in ("update", "decide"):
                assert m["view"]["seat"] == s
            assert s in table.humans()


def test_leaving_a_rated_match_scores_the_leaver_and_ends_it() -> None:
    book = Results()
    clock = Clock()
    table = make(rated=True, move_time=30, clock=clock, book=book)
    seat_all(table)
    out = table.leave(2, "quit")
    assert (2, wire.standings("p2", -1)) in out  # in the first deal: a loss
    assert all((s, wire.left(2, "quit", -1)) in out for s in range(4))
    assert table.finished
    assert [m["type"] for s, m in out if s == 0][-1] == "match_over"
    assert book.rows == [
        {
            "name": "p2",
            "variant": "sixtysix-4",
            "level": "human,human,human",
            "seats": 4,
            "seat": 2,
            "ending": "left",
            "score": -1,
            "deals": 0,
            "totals": [0, 0, 0, 0],
        }
    ]


def test_with_on_leave_bot_a_stand_in_plays_on() -> None:
    book = Results()
    table = make(
        seats=("human", "human"),
        variant="66",
        options={"target": 2},
        rated=True,
        move_time=30,
        book=book,
        on_leave="bot",
    )
    seat_all(table)
    table.leave(1, "quit")
    assert not table.finished and table.bots[1] is not None
    play_to_end(table)
    assert [r["name"] for r in book.rows] == ["p1", "p0"]
    assert book.rows[1]["ending"] == "finished"


def test_a_drop_past_the_limit_leaves_the_table() -> None:
    clock = Clock()
    table = make(clock=clock, rated=True, move_time=600)
    seat_all(table)
    table.disconnect(3)
    assert table.next_deadline() == clock.now + 5.0
    clock.now += 4.9
    assert table.expire() == []
    table.connect(3)  # back in time: nothing happens
    table.disconnect(3)
    clock.now += 5.0
    out = table.expire()
    assert (0, wire.left(3, "disconnected", -1)) in out and table.finished


def test_the_move_timer_of_a_rated_table() -> None:
    clock = Clock()
    table = make(clock=clock, rated=True, move_time=30)
    out = seat_all(table)
    seat = table.to_act()
    assert seat is not None and (0, wire.timer(seat, 30)) in out
    decide = next(m for s, m in out if m["type"] == "decide")
    assert decide["deadline_ms"] == 30_000
    clock.now += 29
    assert table.expire() == []
    clock.now += 1
    out = table.expire()
    assert (0, wire.left(seat, "timeout", -1)) in out


def test_an_open_table_frees_the_seat_of_a_leaver() -> None:
    table = make()
    table.join("p0")
    table.connect(0)
    table.leave(0, "quit")
    assert table.names[0] is None and table.free_seats() == [0, 1, 2, 3] and not table.left[0]


def test_the_table_file_resumes_the_match_exactly() -> None:
    table = make(seats=("human", "@random", "human", "human"), options={"target": 12})
    seat_all(table)
    for _ in range(30):
        if table.bot_to_act():
            table.bot_turn()
        else:
            state = table.state
            assert state is not None
            table.act(state.to_act, ACTION_NAMES[state.legal_actions()[0]])
    data = json.loads(json.dumps(table.file_data()))
    again = table_from_file(copy.deepcopy(data), get_registry(), clock=Clock())
    assert again.file_data() == data
    assert again.totals == table.totals and again.completed == table.completed
    state, other = table.state, again.state
    assert state is not None and other is not None
    for s in range(4):
        assert encode_view(other.view(s)) == encode_view(state.view(s))
    # The rest of the match is dealt from the same seed as it would have been.
    play_to_end(table)
    play_to_end(again)
    deals = [d.setup.as_json() for d in table.record.deals]
    dealt = [d.setup.as_json() for d in again.record.deals]
    common = min(len(deals), len(dealt))
    assert common > len(data["record"]["deals"]) and deals[:common] == dealt[:common]


def test_a_bot_fault_forfeits_and_survives_a_restart() -> None:
    table = make(seats=("human", "@random", "human", "human"))
    seat_all(table)
    bot = table.bots[1]
    assert bot is not None
    bot.choose = lambda view: 999  # type: ignore[method-assign]
    while table.record.deals[0].forfeit is None:
        if table.bot_to_act():
            table.bot_turn()
        else:
            state = table.state
            assert state is not None
            table.act(state.to_act, ACTION_NAMES[state.legal_actions()[0]])
    data = json.loads(json.dumps(table.file_data()))
    assert data["record"]["deals"][0]["forfeit"] == {"seat": 1, "reason": "illegal"}
    assert "forfeits" not in data["table"]
    again = table_from_file(data, get_registry())
    assert again.totals == table.totals and again.completed == 1
    assert again.file_data() == data


def test_a_person_alone_with_bots_takes_a_move_back() -> None:
    table = make(seats=("human", "@random"), variant="66", options={"target": 3})
    seat_all(table)
    with pytest.raises(WireError) as err:
        table.undo(0)
    assert err.value.code == "no_undo"  # nothing to take back yet

    def person_acted_and_to_act() -> bool:
        state = table.state
        assert state is not None
        return state.to_act == 0 and any(s == 0 for s, _ in state.history)

    while not person_acted_and_to_act():
        if table.bot_to_act():
            table.bot_turn()
        else:
            state = table.state
            assert state is not None
            table.act(0, ACTION_NAMES[state.legal_actions()[0]])
    state = table.state
    assert state is not None
    before = len(state.history)
    cut = max(i for i, (s, _) in enumerate(state.history) if s == 0)
    earlier = state.redealt()
    for _, action in state.history[:cut]:
        earlier.apply_legal(action)
    out = table.undo(0)
    # What the person sees after the take-back is what they saw before their move.
    assert table.state is not None and table.state.view(0) == earlier.view(0)
    assert table.state is not None and len(table.state.history) < before
    assert table.state.to_act == 0 and [m["type"] for _, m in out] == ["update", "decide"]
    assert table.record.deals[-1].actions is table.state.history


@pytest.mark.parametrize(
    ("seats", "extra"),
    [(("human", "human"), {}), (("human", "@random"), {"rated": True, "move_time": 30})],
)
def test_no_take_backs_with_other_people_or_rated(
    seats: tuple[str, ...], extra: dict[str, Any]
) -> None:
    table = make(seats=seats, variant="66", **extra)
    seat_all(table)
    with pytest.raises(WireError) as err:
        table.undo(0)
    assert err.value.code == "no_undo" and not err.value.closes


def test_of_two_writes_of_a_table_file_the_newer_stays(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.write("t1", "new", version=2)
    store.write("t1", "old", version=1)
    assert store.path("t1").read_text() == "new"
    assert [p.name for p in store.tables.iterdir()] == ["t1.json"]  # no temporary left


def _to_the_next_deal(table: Table, out: Out) -> Out:
    """Play the first legal move of every decision until the next deal's first decision."""
    dealt = len(table.record.deals)
    while len(table.record.deals) == dealt:
        seat = table.to_act()
        assert seat is not None
        decide = next(m for s, m in reversed(out) if s == seat and m["type"] == "decide")
        out = table.act(seat, decide["legal"][0])
    return out


def test_the_end_of_a_deal_is_read_before_a_rated_timer_runs() -> None:
    """The Portal's end-of-deal window: the next deal's first decision of a person is timed
    from the person's ``ready`` (or after the window), never while the result is read."""
    clock = Clock()
    window = wire.END_OF_DEAL_WINDOW
    table = make(
        ("human", "human"), "66", clock=clock, rated=True, move_time=30, options={"target": 7}
    )  # one deal never ends the match
    out = seat_all(table)
    first = table.to_act()
    assert first is not None and (0, wire.timer(first, 30)) in out  # the first deal: no window
    out = _to_the_next_deal(table, out)
    seat = table.to_act()
    assert seat is not None and (0, wire.timer(seat, 30 + window)) in out
    clock.now += 30 + window - 1  # reading the result: not timed out
    assert table.expire() == []
    assert table.mark_ready(1 - seat) == []  # the other person: nothing to time
    told = table.mark_ready(seat)
    assert (0, wire.timer(seat, 30)) in told and (1, wire.timer(seat, 30)) in told
    assert table.mark_ready(seat) == []  # once
    clock.now += 29
    assert table.expire() == []
    clock.now += 1
    left = [m for _, m in table.expire() if m["type"] == "left"]
    assert left and (left[0]["seat"], left[0]["reason"]) == (seat, "timeout")
