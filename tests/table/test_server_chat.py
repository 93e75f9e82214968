"""Chat over loopback: two people at one table talk both ways, in texts and quick phrases; a
muted seat is hidden on one screen only; the refusals (too fast, too long, chat off) keep the
connection and never count as flooding; chat goes on at a paused table, and is never saved."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from sixtysix.i18n import Translator
from sixtysix.play.remote import RemoteTable
from sixtysix.plugins.manager import get_registry
from sixtysix.table import wire
from sixtysix.table.incoming import check_message
from sixtysix.table.saving import Pause
from sixtysix.table.settings import Settings
from tests.play.scripted import RecordingScreen
from tests.table.server_helpers import OPERATOR, Conn, create, join, running

#: A seat's chat limit that refills too slowly to matter during a test.
SLOW = {"chat_every": 3600.0}


def settings(**chat: Any) -> Settings:
    return Settings(operator_token=OPERATOR, **{**SLOW, **chat})


async def two_at_a_table(url: str) -> tuple[str, Conn, Conn]:
    """ayse (seat 0) and mehmet (seat 1) at a 66 table whose first deal is dealt."""
    table = await create(url, "66", ["human", "human"], seed=3)
    ayse, welcome = await join(url, table, "ayse")
    mehmet, _ = await join(url, table, "mehmet")
    assert welcome["chat"] is True
    for conn in (ayse, mehmet):  # the deal is told once the table's file is written
        await conn.expect("deal")
    return table, ayse, mehmet


async def said(conn: Conn) -> dict[str, Any]:
    """The next chat (or refusal) the connection receives."""
    return await conn.expect("chat", "error")


def test_two_people_chat_both_ways_and_nothing_is_saved(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, settings=settings()) as (url, server):
            table, ayse, mehmet = await two_at_a_table(url)
            version = server.tables[table].version
            await ayse.send({"type": "chat", "text": " Merhaba\x1b[31m\n  dünya\u202e "})
            text = {"type": "chat", "seat": 0, "name": "ayse", "text": "Merhaba[31m dünya"}
            assert await said(ayse) == text  # the speaker's own line comes back too
            assert await said(mehmet) == text
            await mehmet.send({"type": "chat", "phrase": "good_luck"})
            phrase = {"type": "chat", "seat": 1, "name": "mehmet", "phrase": "good_luck"}
            assert await said(mehmet) == phrase
            assert await said(ayse) == phrase
            assert server.tables[table].version == version  # nothing written for a chat
            # a move writes the file again: the chat is in neither the file nor the record
            to_act = ayse if "decide" in [m["type"] for m in ayse.seen] else mehmet
            decide = next(m for m in to_act.seen if m["type"] == "decide")
            await to_act.send({"type": "action", "action": decide["legal"][0]})
            await ayse.expect("event")
            await mehmet.expect("event")
            saved = (tmp_path / "tables" / f"{table}.json").read_text(encoding="utf-8")
            assert server.tables[table].version > version
            record = json.dumps(server.tables[table].record.as_json())
            for trace in ("Merhaba", "dünya", "good_luck", "chat"):
                assert trace not in saved and trace not in record

    asyncio.run(main())


def test_refusals_keep_the_connection_and_chat_is_never_flooding(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, settings=settings(chat_burst=5)) as (url, _):
            table, ayse, mehmet = await two_at_a_table(url)
            for n in range(5):
                await ayse.send({"type": "chat", "text": f"message {n}"})
            for n in range(5):
                assert (await said(mehmet))["text"] == f"message {n}"
            await ayse.send({"type": "chat", "phrase": "thanks"})
            for n in range(5):  # her own five lines come back to her first
                assert (await said(ayse))["text"] == f"message {n}"
            assert (await said(ayse))["code"] == "chat_rate"
            # the limit is the seat's: joining again does not start it afresh
            await ayse.close()
            back, welcome = await join(url, table, "ayse", _token(ayse))
            assert welcome["reconnected"]
            await back.send({"type": "chat", "text": "again"})
            assert (await back.expect("error"))["code"] == "chat_rate"
            # too long, nothing to show, an unknown phrase: refused, the connection stays
            for bad in ({"text": "x" * 201}, {"text": "\x1b\x07 \u200b"}, {"phrase": "rude"}):
                await mehmet.send({"type": "chat", **bad})
                assert (await mehmet.expect("error"))["code"] == "bad_chat"
            await mehmet.send({"type": "chat", "text": "still here"})
            assert (await said(back))["text"] == "still here"
            # a message that is no chat at all ends the connection, as garbage does
            await mehmet.send({"type": "chat", "text": "a", "phrase": "thanks"})
            assert (await mehmet.expect("error"))["code"] == "garbage"
            assert (await mehmet.closed())[0] == wire.CLOSE_POLICY

    asyncio.run(main())


def _token(conn: Conn) -> str | None:
    return next((m["token"] for m in conn.seen if m["type"] == "welcome"), None)


def test_chat_passed_on_is_not_counted_as_flooding(tmp_path: Path) -> None:
    async def main() -> None:
        many = wire.BURST + 20  # past the flood limit, were chat counted
        async with running(tmp_path, settings=settings(chat_burst=many + 1)) as (url, _):
            _, ayse, mehmet = await two_at_a_table(url)
            for n in range(many):
                await ayse.send({"type": "chat", "text": f"line {n}"})
            for n in range(many):
                assert (await said(mehmet))["text"] == f"line {n}"
            await ayse.send({"type": "chat", "text": "the last"})
            assert (await said(mehmet))["text"] == "the last"

    asyncio.run(main())


def test_no_chat_at_a_server_without_it(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, settings=settings(chat=False)) as (url, _):
            table = await create(url, "66", ["human", "@random"], seed=3)
            ayse, welcome = await join(url, table, "ayse")
            assert welcome["chat"] is False
            for _ in range(3):
                await ayse.send({"type": "chat", "phrase": "hello"})
                error = await ayse.expect("error", "chat")
                assert error["type"] == "error" and error["code"] == "chat_off"
            await ayse.send({"type": "undo"})  # the connection goes on
            assert (await ayse.expect("error"))["code"] in ("no_undo", "not_started")

    asyncio.run(main())


def test_rated_partners_have_the_quick_phrases_only(tmp_path: Path) -> None:
    """At a rated 66-4 table free text would let partners tell each other their cards."""

    async def main() -> None:
        async with running(tmp_path, settings=settings()) as (url, _):
            table = await create(url, "66-4", ["human", "human", "@random", "@random"], rated=True)
            ayse, _ = await join(url, table, "ayse")
            mehmet, _ = await join(url, table, "mehmet")
            await ayse.send({"type": "chat", "text": "I have the ace of hearts"})
            error = await ayse.expect("error", "chat")
            assert error["type"] == "error" and error["code"] == "chat_phrases"
            await ayse.send({"type": "chat", "phrase": "good_luck"})
            told = {"type": "chat", "seat": 0, "name": "ayse", "phrase": "good_luck"}
            assert await said(mehmet) == told
            assert all(m.get("text") != "I have the ace of hearts" for m in mehmet.seen)

    asyncio.run(main())


def test_a_paused_table_still_chats(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, settings=settings()) as (url, server):
            table, ayse, mehmet = await two_at_a_table(url)
            server.paused[table] = Pause(server.clock(), [])  # as a full disk pauses it
            try:
                await ayse.send({"type": "action", "action": "play AS"})
                assert (await ayse.expect("error"))["code"] == "paused"
                await ayse.send({"type": "chat", "text": "is the disk full?"})
                assert (await said(mehmet))["text"] == "is the disk full?"
            finally:
                del server.paused[table]

    asyncio.run(main())


def test_a_turkish_screen_words_the_phrase_and_hides_a_muted_seat(tmp_path: Path) -> None:
    async def main() -> None:
        screen = RecordingScreen()
        remote = RemoteTable(Translator("tr"), screen, get_registry(), lambda _: None)
        async with running(tmp_path, settings=settings()) as (url, _):
            _, ayse, mehmet = await two_at_a_table(url)

            async def show(conn: Conn) -> None:
                message = await said(conn)
                checked = check_message(message)
                assert checked is not None
                remote.on_message(checked)

            for message in mehmet.seen:
                checked = check_message(message)
                if checked is not None:
                    remote.on_message(checked)
            await ayse.send({"type": "chat", "phrase": "good_game"})
            await show(mehmet)
            assert "ayse (oyuncu 0): İyi oyundu!" in screen.text
            assert remote.on_line("sustur ayse").send == []
            await ayse.send({"type": "chat", "text": "sırdır"})
            await show(mehmet)
            assert "sırdır" not in screen.text  # hidden on this screen alone
            assert (await said(ayse))["phrase"] == "good_game"
            assert (await said(ayse))["text"] == "sırdır"  # sent to all: muting is the screen's
            assert remote.on_line("sesini aç 0").send == []
            await ayse.send({"type": "chat", "text": "tekrar"})
            await show(mehmet)
            assert "ayse (oyuncu 0): tekrar" in screen.text
            reply = remote.on_line("söyle duydum")
            assert reply.send == [{"type": "chat", "text": "duydum"}]
            await mehmet.send(reply.send[0])
            await show(mehmet)
            assert "mehmet (sen): duydum" in screen.text

    asyncio.run(main())
