"""The hostile cases, in a real browser: another site's page cannot open a WebSocket to the
server, a page cannot act for another seat (nor take it), and chat with markup is shown as the
text it is and changes nothing."""

from __future__ import annotations

import json

from tests.browser.conftest import PersonFactory, WebServer
from tests.browser.pages import saved_deal, shown, sit

#: An origin no network has: its page is answered by the test.
FOREIGN = "http://evil.test"


def test_another_sites_page_gets_no_websocket(web_server: WebServer, person: PersonFactory) -> None:
    mallory = person("mallory")
    html = "<title>evil</title><p>hello</p>"
    mallory.context.route(
        f"{FOREIGN}/**",
        lambda route: route.fulfill(status=200, content_type="text/html", body=html),
    )
    mallory.page.goto(f"{FOREIGN}/")
    outcome = mallory.page.evaluate(
        """(url) => new Promise((resolve) => {
             const ws = new WebSocket(url);
             ws.onopen = () => { ws.send(JSON.stringify({type: "list",
                                 protocol: "sixtysix-table/1"})); };
             ws.onmessage = (e) => resolve("answered: " + e.data);
             ws.onclose = (e) => resolve("closed " + e.code);
           })""",
        web_server.ws_url,
    )
    assert outcome == "closed 1006"  # the handshake was refused (403)
    mallory.errors.clear()  # Chromium logs the refused handshake


def test_a_page_can_act_for_its_own_seat_only(web_server: WebServer, person: PersonFactory) -> None:
    table = web_server.create_table("66", ["human", "human"], seed=3)
    ayse, bora = person("ayse"), person("bora")
    sit(ayse, web_server, table)
    sit(bora, web_server, table)
    ayse.page.wait_for_selector("#table-root[data-board='true']")
    bora.page.wait_for_selector("#table-root[data-board='true']")
    mover = ayse if shown(ayse.page).my_turn else bora
    waiter = bora if mover is ayse else ayse
    record = (web_server.data / "tables" / f"{table}.json").read_text()
    legal = [c for c, ok, _ in shown(mover.page).hand if ok]
    # A script in the waiting person's page: the mover's card, a seat of its own, and the
    # other seat taken under the other's name without its token, or under a new name.
    said = waiter.page.evaluate(
        """async ([url, table, card, other]) => {
             const talk = (join, then) => new Promise((resolve) => {
               const ws = new WebSocket(url);
               const got = [];
               ws.onopen = () => ws.send(JSON.stringify(join));
               ws.onmessage = (e) => {
                 const m = JSON.parse(e.data);
                 got.push(m.type === "error" ? "error " + m.code : m.type);
                 if (m.type === "board" && then) { ws.send(JSON.stringify(then)); then = null; }
                 if (m.type === "error") { ws.close(); resolve(got); }
               };
               ws.onclose = () => resolve(got);
             });
             const base = {type: "join", protocol: "sixtysix-table/1", table, lang: "en",
                           screen: true};
             const mine = localStorage.getItem("ss.name");
             return [
               await talk({...base, name: mine, token: localStorage.getItem("ss.token." + mine)},
                          {type: "action", action: "play " + card}),
               await talk({...base, name: other, token: null}, null),
               await talk({...base, name: "mallory", token: null}, null),
             ];
           }""",
        [web_server.ws_url, table, legal[0], mover.name],
    )
    assert said[0][-1] == "error not_your_turn"
    assert said[1] == ["error token"]
    assert said[2] == ["error table_full"]
    assert (web_server.data / "tables" / f"{table}.json").read_text() == record
    assert saved_deal(web_server.data, table).history == []
    waiter.errors.clear()


def test_chat_with_markup_is_shown_as_text(web_server: WebServer, person: PersonFactory) -> None:
    table = web_server.create_table("66", ["human", "human"], seed=3)
    ayse, bora = person("ayse"), person("bora")
    sit(ayse, web_server, table)
    sit(bora, web_server, table)
    for someone in (ayse, bora):
        someone.page.wait_for_selector("#table-root[data-board='true']")
    hostile = "<img src=x onerror=\"document.title='pwned'\"><b>bold</b> [red]x[/red]"
    ayse.page.fill("#chat-text", hostile)
    ayse.page.press("#chat-text", "Enter")
    line = bora.page.wait_for_selector("#chat-list li[data-seat='0']")
    assert line is not None
    assert hostile in (line.text_content() or "")
    assert bora.page.query_selector("#chat-list img") is None
    names = bora.page.query_selector_all("#chat-list li[data-seat='0'] b")  # the speaker's
    assert [b.text_content() for b in names] == ["ayse: "]
    assert bora.page.title() != "pwned" and ayse.page.title() != "pwned"
    bora.page.click("button[data-phrase='good_game']")
    said = ayse.page.wait_for_selector("#chat-list li[data-seat='1']")
    assert said is not None and "Good game!" in (said.text_content() or "")
    record = json.loads((web_server.data / "tables" / f"{table}.json").read_text())
    assert "bold" not in json.dumps(record)  # chat is never saved
