"""Screenshots of the browser page for docs/together.md, from seeded tables.

Starts its own ``sixtysix serve`` on a free loopback port with a temporary data folder, opens
tables over the WebSocket protocol (the person at seat 0, ``@random`` bots at every other seat,
a fixed seed each, so the same game state every run), and drives Debian's Chromium with
Playwright as a person named ``ayse`` who plays the first legal card (else the first special
move). It writes, into ``--out`` (default ``docs/images``):

- ``browser-VARIANT-phone.png`` and ``browser-VARIANT-desktop.png`` for 66, schnapsen, 66-3 and
  66-4: the table after three of the person's moves, at the person's turn (a phone of
  360 x 740 CSS pixels, the whole page; a desktop of 1280 x 800, the window);
- ``browser-lobby-desktop.png``: the lobby with two tables listed;
- ``browser-66-result-desktop.png``: the end-of-deal window of a deal of 66 played out;
- ``browser-66-4-tr-phone.png``: a table of 66-4 in Turkish, on a phone.

    python tools/screenshots.py [--out docs/images]

The server is stopped with Ctrl-C (SIGINT) at the end, whatever happened. Needs the browser
extra (``pip install -e '.[browser]'``) and Chromium (``apt-get install chromium``, or
``SIXTYSIX_CHROMIUM``). A developer tool: nothing in ``sixtysix`` or the tests imports it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: its tests
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.browser.conftest import WebServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parent.parent
#: Milliseconds any one Playwright action or wait may take.
ACTION_TIMEOUT_MS = 30_000
#: Viewports in CSS pixels: a small phone (the whole page is taken) and a desktop (the window).
PHONE = (360, 740)
DESKTOP = (1280, 800)
#: The person's moves before a table is taken.
MOVES = 3
#: A deal has far fewer of the person's moves than this: more means the page is stuck.
MOST_MOVES = 100
NAME = "ayse"
#: More tables than the server's defaults allow one address to open a minute.
LIMITS = ("--creates-per-minute", "100", "--tables-per-address", "100", "--tables-per-name", "100")


@dataclass(frozen=True)
class Game:
    """A variant as the files name it (an alias the server knows), its seats and its seed."""

    variant: str
    players: int
    seed: int

    @property
    def seats(self) -> list[str]:
        return ["human", *["@random"] * (self.players - 1)]


GAMES = (
    Game("66", 2, 1),
    Game("schnapsen", 2, 3),
    Game("66-3", 3, 5),
    Game("66-4", 4, 3),
)
#: A deal of 66 that ends early, with cards left to show in the end-of-deal window.
RESULT = Game("66", 2, 8)

# ---------------------------------------------------------------- the server


@contextlib.contextmanager
def serving() -> Iterator[WebServer]:
    """A server (the browser tests') with a temporary data folder, stopped with Ctrl-C when
    the block ends."""
    with tempfile.TemporaryDirectory(prefix="sixtysix-shots-") as folder:
        root = Path(folder)
        server = WebServer(root / "data", root / "home", root / "serve.log", LIMITS)
        try:
            server.start()
            yield server
        finally:
            problems = server.close()
            if problems:
                print("\n".join(problems), server.log(), sep="\n", file=sys.stderr)


def create(server: WebServer, game: Game, seats: Sequence[str] | None = None) -> str:
    """Open a table of ``game`` (with ``seats``, or the game's); its id."""
    return server.create_table(game.variant, list(seats or game.seats), seed=game.seed)


# ---------------------------------------------------------------- the page

#: True once the page has drawn a board newer than the one counted in ``window.__shot`` on
#: which it is the person's turn, or once the end-of-deal window is open.
_READY = """() => {
  if (document.querySelector('dialog#result[open]')) return true;
  const root = document.querySelector('#table-root');
  return !!root && root.dataset.myTurn === 'true'
    && Number(root.dataset.boards || 0) > (window.__shot || 0);
}"""
_REMEMBER = """() => {
  window.__shot = Number(document.querySelector('#table-root')?.dataset.boards || 0);
}"""
#: The hand's playable cards, then the special moves (the hand comes first on the page).
_MOVES = "#hand button.card[data-legal='true'], #actions button[data-action]"


def _wait_ready(page: Page) -> bool:
    """Waits for the person's turn on a new board, or the end-of-deal window; True for the
    window."""
    page.wait_for_function(_READY)
    return page.locator("dialog#result[open]").count() > 0


def _play_first(page: Page) -> None:
    """Plays the first legal card of the hand, else the first special move."""
    page.evaluate(_REMEMBER)
    page.locator(_MOVES).first.click()


def _settle(page: Page) -> None:
    """Fonts loaded, nothing left to draw, no focus ring (the page puts the focus back on the
    hand after each move), no hover (the mouse is where it last clicked)."""
    page.mouse.move(0, 0)
    page.evaluate("document.fonts.ready.then(() => undefined)")
    page.evaluate(
        "() => { if (!document.querySelector('dialog[open]')) document.activeElement?.blur(); }"
    )
    page.wait_for_timeout(300)


#: The person's token, once the server has given it: every later page shows the same person.
_tokens: dict[str, str] = {}


def _open(browser: Browser, url: str, *, phone: bool, lang: str = "en") -> Page:
    """A page of a browser of its own at ``url``: the person's name (and token, once known)
    and language in its storage."""
    width, height = PHONE if phone else DESKTOP
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1,
        is_mobile=phone,
        has_touch=phone,
        locale=lang,
        timezone_id="UTC",
        color_scheme="light",
        reduced_motion="reduce",
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    kept = {"ss.lang": lang, "ss.name": NAME}
    if NAME in _tokens:
        kept[f"ss.token.{NAME}"] = _tokens[NAME]
    context.add_init_script(
        "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in kept.items())
    )
    page = context.new_page()
    page.goto(url)
    if "/t/" in url:  # seated: the name's token, for the next page
        page.locator("body[data-state='table']").wait_for(state="attached")
        token = page.evaluate(f"localStorage.getItem('ss.token.{NAME}')")
        if token:
            _tokens[NAME] = str(token)
    return page


def _shoot(page: Page, path: Path, *, phone: bool) -> None:
    """Writes the PNG: a phone's whole page, a desktop's window. Says so where the page is
    wider than the window (a phone would scroll sideways)."""
    _settle(page)
    wide, window = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    if wide > window:
        print(f"{path.name}: the page is {wide} px wide in a {window} px window", file=sys.stderr)
    page.screenshot(path=str(path), full_page=phone, type="png", scale="css")
    print(f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}")


def _table(
    browser: Browser, server: WebServer, game: Game, path: Path, *, phone: bool, lang: str = "en"
) -> None:
    """The table after :data:`MOVES` of the person's moves, at their turn."""
    table = create(server, game)
    page = _open(browser, f"{server.url}/t/{table}", phone=phone, lang=lang)
    try:
        for _ in range(MOVES):
            if _wait_ready(page):
                raise RuntimeError(f"{game.variant}: the deal ended within {MOVES} moves")
            _play_first(page)
        if _wait_ready(page):
            raise RuntimeError(f"{game.variant}: the deal ended within {MOVES} moves")
        _shoot(page, path, phone=phone)
    finally:
        page.context.close()


def _result(browser: Browser, server: WebServer, game: Game, path: Path) -> None:
    """The end-of-deal window of a deal played out with the first legal moves."""
    table = create(server, game)
    page = _open(browser, f"{server.url}/t/{table}", phone=False)
    try:
        for _ in range(MOST_MOVES):
            if _wait_ready(page):
                break
            _play_first(page)
        else:
            raise RuntimeError(f"{game.variant}: no end-of-deal window after {MOST_MOVES} moves")
        _shoot(page, path, phone=False)
    finally:
        page.context.close()


def _lobby(browser: Browser, server: WebServer, path: Path) -> None:
    """The lobby with two tables waiting for people."""
    create(server, GAMES[0], ["human", "human"])
    create(server, GAMES[3], ["human", "human", "@random", "@random"])
    page = _open(browser, f"{server.url}/", phone=False)
    try:
        page.locator("#tables .table-entry").nth(1).wait_for()
        _shoot(page, path, phone=False)
    finally:
        page.context.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--out", type=Path, default=REPO / "docs" / "images", help="folder of the PNG files"
    )
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    try:
        from playwright.sync_api import sync_playwright  # the browser extra
    except ImportError:
        print("Playwright is not installed (pip install -e '.[browser]')", file=sys.stderr)
        return 2
    if not os.access(CHROMIUM, os.X_OK):
        print(f"no Chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 2
    with serving() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            _lobby(browser, server, out / "browser-lobby-desktop.png")
            for game in GAMES:
                for device in ("phone", "desktop"):
                    path = out / f"browser-{game.variant}-{device}.png"
                    _table(browser, server, game, path, phone=device == "phone")
            _result(browser, server, RESULT, out / "browser-66-result-desktop.png")
            _table(
                browser, server, GAMES[3], out / "browser-66-4-tr-phone.png", phone=True, lang="tr"
            )
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
