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
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sixtysix.table.scripted import create_table

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parent.parent
#: Debian's Chromium; Playwright never downloads a browser here.
CHROMIUM = os.environ.get("SIXTYSIX_CHROMIUM", "/usr/bin/chromium")
#: As in tests/browser/conftest.py: headless, and no traffic to anyone but the server.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
#: Seconds the server may take to listen, and to stop after Ctrl-C.
START_WITHIN = 60.0
STOP_WITHIN = 30.0
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


class Server:
    """``sixtysix serve`` as a process of its own on a free loopback port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.log_path = folder / "serve.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def log(self) -> str:
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def start(self) -> None:
        """Listen on a free port (another one if someone took it meanwhile)."""
        for _ in range(5):
            self.port = _free_port()
            if self._launch():
                return
        raise RuntimeError(f"no free port for sixtysix serve after 5 tries:\n{self.log()}")

    def _launch(self) -> bool:
        env = dict(os.environ)
        env.update({"SIXTYSIX_DATA_DIR": str(self.folder / "home"), "LANG": "C.UTF-8", "TZ": "UTC"})
        for name in ("SIXTYSIX_SERVER", "SIXTYSIX_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            env.pop(name, None)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        command = [
            *(sys.executable, "-m", "sixtysix", "serve", "--host", "127.0.0.1"),
            *("--port", str(self.port), "--data", str(self.folder / "data"), "--lang", "en"),
            *LIMITS,
        ]
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                command,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C in the terminal reaches this script alone
            )
        deadline = time.monotonic() + START_WITHIN
        while True:
            said = self.log()[offset:]
            if self.proc.poll() is not None:
                code, self.proc = self.proc.returncode, None
                if code == 2 and "cannot listen" in said:
                    return False
                raise RuntimeError(f"sixtysix serve ended with status {code}:\n{said}")
            if f"://127.0.0.1:{self.port}" in said and _accepts(self.port):
                return True
            if time.monotonic() > deadline:
                raise RuntimeError(f"sixtysix serve did not listen within {START_WITHIN} s")
            time.sleep(0.05)

    def stop(self) -> None:
        """Ctrl-C, then a kill if it has not ended within :data:`STOP_WITHIN` seconds."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(STOP_WITHIN)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            print(f"sixtysix serve did not stop within {STOP_WITHIN} s: killed", file=sys.stderr)

    def create(self, game: Game, seats: Sequence[str] | None = None) -> str:
        """Open a table over the WebSocket protocol; its id.

        On a thread of its own: the sync Playwright API marks its event loop as running in
        this thread, where ``asyncio.run`` then refuses.
        """
        coroutine = create_table(
            self.ws_url, game.variant, list(seats or game.seats), seed=game.seed
        )
        result: list[str] = []
        errors: list[BaseException] = []

        def run() -> None:
            try:
                result.append(asyncio.run(coroutine))
            except BaseException as error:  # handed to the caller's thread
                errors.append(error)

        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
        if errors:
            raise errors[0]
        return result[0]


@contextlib.contextmanager
def serving() -> Iterator[Server]:
    """A server with a temporary data folder, stopped with Ctrl-C when the block ends."""
    with tempfile.TemporaryDirectory(prefix="sixtysix-shots-") as folder:
        server = Server(Path(folder))
        try:
            server.start()
            yield server
        finally:
            server.stop()
            if "Traceback" in server.log():
                print(f"sixtysix serve wrote a traceback:\n{server.log()}", file=sys.stderr)


# ---------------------------------------------------------------- the page

#: True once the page has drawn a board newer than the hand remembered in ``window.__shot``
#: (every board draws the hand's buttons anew) on which it is the person's turn, or once the
#: end-of-deal window is open.
_READY = """() => {
  if (document.querySelector('dialog#result[open]')) return true;
  const root = document.querySelector('#table-root');
  const first = document.querySelector('#hand')?.firstElementChild;
  return !!root && root.dataset.myTurn === 'true' && !!first && first !== window.__shot;
}"""
_REMEMBER = "() => { window.__shot = document.querySelector('#hand')?.firstElementChild; }"
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
    browser: Browser, server: Server, game: Game, path: Path, *, phone: bool, lang: str = "en"
) -> None:
    """The table after :data:`MOVES` of the person's moves, at their turn."""
    table = server.create(game)
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


def _result(browser: Browser, server: Server, game: Game, path: Path) -> None:
    """The end-of-deal window of a deal played out with the first legal moves."""
    table = server.create(game)
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


def _lobby(browser: Browser, server: Server, path: Path) -> None:
    """The lobby with two tables waiting for people."""
    server.create(GAMES[0], ["human", "human"])
    server.create(GAMES[3], ["human", "human", "@random", "@random"])
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
