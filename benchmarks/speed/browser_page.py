"""The table in a browser: the page's weight, and the time from opening a link to a playable
table.

- weight: every file the first view loads (the page, its style, each script module it imports,
  and ``/api/setup``), as the server sends them to a browser that takes gzip;
- load: Debian's Chromium (through Playwright, the ``browser`` extra) opens an invitation link
  ``/t/TABLEID`` of a running ``sixtysix serve`` on loopback, for a person whose browser holds a
  name already, until a card of the hand can be played: the median and worst of ``--loads``.

    python -m benchmarks.speed.browser_page
    python -m benchmarks.speed.browser_page --loads 20 --no-load

Exit status 1 when the first view weighs 200 KB or more compressed, or the median load takes
more than 2 s. (The time from a click to every other page having the card is
``python -m benchmarks.speed.table_server --screen``.)
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.speed.table_server import Server
from sixtysix.plugins.manager import get_registry
from sixtysix.table.page_setup import setup
from sixtysix.table.scripted import create_table
from sixtysix.table.web import load_page
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS

WEIGHT_TARGET = 200_000
LOAD_TARGET = 2.0
IMPORT = re.compile(r"""(?:import|from)\s*["']\./([\w.-]+\.js)["']""")


def first_view() -> list[str]:
    """The paths the first view loads: the page, its style and every module it imports."""
    files = load_page()
    paths = ["/static/index.html", "/static/style.css"]
    todo = ["app.js"]
    while todo:
        name = todo.pop()
        path = "/static/" + name
        if path in paths or path not in files:
            continue
        paths.append(path)
        todo += IMPORT.findall(files[path].body.decode())
    return paths


def weight() -> tuple[int, int, list[tuple[str, int, int]]]:
    """(raw bytes, bytes sent gzipped, per file) of the first view, ``/api/setup`` included."""
    files = load_page()
    rows = []
    for path in first_view():
        found = files[path]
        sent = found.gzipped if found.gzipped is not None else found.body
        rows.append((path, len(found.body), len(sent)))
    body = json.dumps(setup("en", get_registry()), separators=(",", ":")).encode()
    packed = gzip.compress(body, 9)
    rows.append(("/api/setup?lang=en", len(body), len(packed)))
    return sum(r[1] for r in rows), sum(r[2] for r in rows), rows


def loads(count: int) -> list[float]:
    """Seconds from opening an invitation link to a playable card, ``count`` times."""
    from playwright.sync_api import sync_playwright  # the browser extra

    out: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), [], shlex.split(f"{shlex.quote(sys.executable)} -m sixtysix"))
        try:
            server.wait_ready()
            http = server.url.replace("ws://", "http://")
            token = (server.data / "operator.token").read_text().strip()
            tables = [  # before the browser: its API holds this thread's event loop
                asyncio.run(create_table(server.url, "66", ["human", "@random"], operator=token))
                for _ in range(count)
            ]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
                for i, table in enumerate(tables):
                    context = browser.new_context()
                    context.add_init_script(f"localStorage.setItem('ss.name', 'load{i}');")
                    page = context.new_page()
                    start = time.perf_counter()
                    page.goto(f"{http}/t/{table}")
                    page.wait_for_selector("#hand [data-legal='true']", timeout=30_000)
                    out.append(time.perf_counter() - start)
                    context.close()
                browser.close()
        finally:
            server.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10, help="page loads timed")
    parser.add_argument("--no-load", action="store_true", help="the weight only (no browser)")
    args = parser.parse_args(argv)
    raw, sent, rows = weight()
    for path, size, packed in rows:
        print(f"  {path:28} {size:8,} bytes, {packed:7,} sent")
    print(f"first view: {raw:,} bytes, {sent:,} sent gzipped (target under {WEIGHT_TARGET:,})")
    ok = sent < WEIGHT_TARGET
    if not args.no_load:
        times = loads(args.loads)
        median = statistics.median(times)
        print(
            f"link to a playable card: median {median * 1000:.0f} ms, worst"
            f" {max(times) * 1000:.0f} ms over {len(times)} loads (target: median under"
            f" {LOAD_TARGET:.0f} s)"
        )
        ok = ok and median < LOAD_TARGET
    print("targets:", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
