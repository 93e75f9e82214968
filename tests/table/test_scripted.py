"""The scripted person: plays whole matches against the real server and times every action."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from sixtysix.table.scripted import LatencyBook, ScriptedPerson, create_table, list_tables
from tests.table.server_helpers import running


def test_the_book_times_an_action_until_every_seat_has_it() -> None:
    book = LatencyBook()
    book.seat("t", "a")
    book.seat("t", "b")
    book.seat("u", "c")
    book.sent("t", (1, 5), 10.0)
    book.received("t", (1, 5), "a", 10.01)
    assert book.table_latency == [] and book.unanswered == 1
    book.received("t", (1, 4), "b", 10.02)  # another action: not this one
    book.received("u", (1, 5), "c", 10.02)  # another table
    assert book.unanswered == 1
    book.received("t", (1, 5), "b", 10.05)
    assert book.table_latency == pytest.approx([0.05]) and book.unanswered == 0
    book.received("t", (1, 5), "b", 10.09)  # a repeated update is not counted again
    assert len(book.table_latency) == 1


def test_a_seat_that_goes_is_not_waited_for() -> None:
    book = LatencyBook()
    book.seat("t", "a")
    book.seat("t", "b")
    book.sent("t", (0, 1), 1.0)
    book.received("t", (0, 1), "a", 1.5)
    book.unseat("t", "b")
    assert book.unanswered == 0 and len(book.table_latency) == 1


def test_warm_up_actions_are_not_measured() -> None:
    book = LatencyBook(record_from=5.0)
    book.seat("t", "a")
    book.sent("t", (0, 1), 4.0)
    book.received("t", (0, 1), "a", 4.1)
    book.sent("t", (0, 2), 6.0)
    book.received("t", (0, 2), "a", 6.1)
    assert book.table_latency == pytest.approx([0.1])


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        ScriptedPerson("ws://x", "t", "a", policy="best")
    with pytest.raises(ValueError, match="delay"):
        ScriptedPerson("ws://x", "t", "a", delay=(2.0, 1.0))


@pytest.mark.parametrize("policy", ["first", "random"])
def test_two_scripted_people_play_a_whole_match(tmp_path: Path, policy: str) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _server):
            table = await create_table(url, "66", ["human", "human"], options={"target": 3}, seed=3)
            book = LatencyBook()
            rng = random.Random(5)
            people = [
                ScriptedPerson(url, table, f"p{i}", rng=rng, policy=policy, book=book)
                for i in range(2)
            ]
            await asyncio.wait_for(asyncio.gather(*(p.run() for p in people)), 120)
            assert all(p.finished for p in people)
            assert people[0].totals == people[1].totals and max(people[0].totals or [0]) >= 3
            assert sorted(p.seat for p in people) == [0, 1]
            assert all(p.token for p in people) and all(not p.errors for p in people)
            for p in people:
                assert p.actions > 0 and len(p.own_latency) == p.actions
                assert all(x >= 0 for x in p.own_latency)
            assert len(book.table_latency) == sum(p.actions for p in people)
            assert book.unanswered == 0
            (listed,) = [t for t in await list_tables(url) if t["table"] == table]
            assert listed["status"] == "finished"

    asyncio.run(main())


def test_people_and_random_bots_at_a_four_seat_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _server):
            seats = ["human", "@random", "human", "@random"]
            table = await create_table(url, "66-4", seats, options={"target": 3}, seed=11)
            book = LatencyBook()
            people = [
                ScriptedPerson(url, table, name, rng=random.Random(i), book=book)
                for i, name in enumerate(("Ayşe", "Mehmet"))
            ]
            await asyncio.wait_for(asyncio.gather(*(p.run() for p in people)), 120)
            assert all(p.finished for p in people)
            assert sorted(p.seat for p in people) == [0, 2]
            assert len(book.table_latency) == sum(p.actions for p in people) > 0
            assert book.unanswered == 0

    asyncio.run(main())


def test_a_dropped_person_rejoins_with_its_token_and_plays_on(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _server):
            table = await create_table(url, "66", ["human", "human"], options={"target": 3}, seed=1)
            people = [ScriptedPerson(url, table, f"p{i}", policy="first") for i in range(2)]
            other = asyncio.create_task(people[1].run())
            await asyncio.wait_for(people[0].run(stop_after=3), 60)
            assert people[0].actions == 3 and not people[0].finished
            first = people[0].welcomes[0]
            assert first["token"] and not first["reconnected"]
            await asyncio.wait_for(people[0].run(), 120)
            again = people[0].welcomes[1]
            assert again["reconnected"] and again["seat"] == first["seat"]
            assert again["token"] is None and people[0].token == first["token"]
            await asyncio.wait_for(other, 60)
            assert people[0].finished and people[0].totals == people[1].totals

    asyncio.run(main())


def test_someone_else_cannot_join_under_a_claimed_name(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as (url, _server):
            table = await create_table(url, "66", ["human", "human"], seed=1)
            owner = ScriptedPerson(url, table, "Deniz")
            playing = asyncio.create_task(owner.run())
            await asyncio.wait_for(owner.joined.wait(), 30)
            thief = ScriptedPerson(url, table, "DENIZ", token="guess")
            await asyncio.wait_for(thief.run(), 30)
            assert thief.errors == ["token"] and thief.close_code == 1008
            assert thief.seat is None
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)

    asyncio.run(main())
