"""Debian's Chromium as the browser tests, the screenshots and the page's benchmark start it,
and the wait for a server's port: stated once for all three."""

from __future__ import annotations

import os
import socket

#: Debian's Chromium (apt-get install chromium); Playwright never downloads a browser here.
CHROMIUM = os.environ.get("SIXTYSIX_CHROMIUM", "/usr/bin/chromium")
#: The network is closed: without the background-networking flags Chromium tries to reach
#: Google. A container's /dev/shm is often 64 MB, too small for Chromium's shared memory.
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


def accepts(port: int) -> bool:
    """Whether something listens on ``127.0.0.1:port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False
