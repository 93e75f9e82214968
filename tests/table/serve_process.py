"""``sixtysix serve`` as a process of its own on a free loopback port, for the tests that meet
it as people do (from a terminal): started, stopped and started again on the same data."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.table.server_helpers import free_port

TIMEOUT = 30


def server_env(home: Path) -> dict[str, str]:
    """The server's environment: its own data directory, English, UTC."""
    env = dict(os.environ)
    env.update({"SIXTYSIX_DATA_DIR": str(home), "LANG": "C.UTF-8", "TZ": "UTC"})
    for name in ("SIXTYSIX_SERVER", "SIXTYSIX_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    return env


class ServeProcess:
    """One server on one port; :meth:`start` again after :meth:`stop` is a restart."""

    def __init__(self, data: Path, home: Path, *options: str) -> None:
        self.data, self.home, self.options = data, home, options
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "sixtysix", "serve", "--port", str(self.port)),
                *("--lang", "en", "--data", str(self.data), "--reconnect-time", "60"),
                *self.options,
            ],
            env=server_env(self.home),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "Serving tables on" in line, line

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(TIMEOUT)
            self.proc = None


@contextlib.contextmanager
def serving(data: Path, home: Path, *options: str) -> Iterator[str]:
    """A server for the duration: its URL."""
    server = ServeProcess(data, home, *options)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
