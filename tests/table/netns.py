"""Two network namespaces joined by a veth pair, table servers in one and clients in either.

A peer's address decides what the table server lets it do, so the tests of a remote peer need
a client that really is elsewhere: namespace A holds the server (``198.18.66.1``), namespace B
the remote client (``198.18.66.2``). The addresses come from the benchmarking range (RFC 2544)
and exist only inside these namespaces; nothing binds an address outside them or loopback, and
the veth pair is created directly inside the namespaces, so the host's own namespace never
holds it.

The fixtures (``namespaces``, ``table_servers``) need root and ``ip`` (iproute2); without them
the tests are skipped with the reason. Every namespace is deleted at teardown, failed or
interrupted tests included, and namespaces left behind by a test process that was killed are
deleted by the next one. Names carry the process id and a counter, so pytest-xdist workers
never clash.

Run as a script, this file is the client: ``python netns.py SPEC`` (see :func:`client_main`).
It imports nothing from the tests, so it runs wherever it is put.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

#: The server's end of the veth pair (namespace A) and the remote client's (namespace B).
SERVER_ADDRESS = "198.18.66.1"
CLIENT_ADDRESS = "198.18.66.2"
PREFIX_LENGTH = 30
#: The veth ends' names, inside their namespaces (fresh ones: nothing else is named so there).
SERVER_DEVICE = "sx66a"
CLIENT_DEVICE = "sx66b"
#: The port every server listens on: its namespace is fresh, so nothing else holds it.
PORT = 6666
#: Every namespace these tests create is named so, then the creating process's id.
NAME_PREFIX = "sixtysix-test-"
#: Seconds a server has to say it is serving, a client to finish, a server to stop, an ``ip``
#: command to run, a stopped server's stderr to end (generous: the machine is shared; nothing
#: here waits by sleeping).
START_TIMEOUT = 60.0
CLIENT_TIMEOUT = 120.0
STOP_TIMEOUT = 30.0
IP_TIMEOUT = 30.0
READER_TIMEOUT = 5.0
#: Seconds the client waits for any one message.
MESSAGE_TIMEOUT = 30.0
#: What ``sixtysix serve --lang en`` says on stderr once it listens.
SERVING = "Serving tables on"
#: The operator's token, in the server's data folder.
OPERATOR_TOKEN = "operator.token"

_counter = itertools.count()
_swept = False


# ---------------------------------------------------------------------- namespaces


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["ip", *args], capture_output=True, text=True, timeout=IP_TIMEOUT, check=check
    )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _delete(name: str) -> None:
    """Kill what still runs in namespace ``name`` (only a test's own processes: the namespace
    is the test's), by id, then delete the namespace (and with it its end of the veth pair)."""
    pids = _ip("netns", "pids", name, check=False).stdout.split()
    for pid in pids:
        with contextlib.suppress(ValueError, ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)
    _ip("netns", "del", name, check=False)


def _sweep_leftovers() -> None:
    """Delete the namespaces of earlier test processes that died before their teardown (a
    ``kill -9`` runs no finalizer); once per process."""
    global _swept
    if _swept:
        return
    _swept = True
    for line in _ip("netns", "list", check=False).stdout.splitlines():
        name = line.split(" ", 1)[0]
        if not name.startswith(NAME_PREFIX):
            continue
        pid = name.removeprefix(NAME_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            _delete(name)


@dataclass(frozen=True)
class Namespaces:
    """Namespace A (``server``) and B (``client``), joined by a veth pair."""

    server: str
    client: str
    server_address: str = SERVER_ADDRESS
    client_address: str = CLIENT_ADDRESS

    @staticmethod
    def inside(name: str, argv: list[str]) -> list[str]:
        """``argv`` run in namespace ``name`` (``ip netns exec`` execs it: same process)."""
        return ["ip", "netns", "exec", name, *argv]


def unavailable(reason: str) -> NoReturn:
    """Skip (fail in CI) for ``reason``; imported here because this file also runs as a
    script, outside the test package."""
    from tests.real_parts import unavailable as skip_or_fail

    skip_or_fail(reason)


def skip_unless_possible() -> None:
    """Skip, with the reason, where namespaces cannot be made."""
    if not sys.platform.startswith("linux"):
        unavailable("network namespaces are Linux only")
    if os.geteuid() != 0:
        unavailable("network namespaces need root (ip netns add)")
    if shutil.which("ip") is None:
        unavailable("no `ip` command (iproute2) to create network namespaces")


def _connect(pair: Namespaces) -> None:
    """The veth pair, born inside the two namespaces, with loopback up in each."""
    _ip(
        "link",
        "add",
        SERVER_DEVICE,
        "netns",
        pair.server,
        "type",
        "veth",
        "peer",
        "name",
        CLIENT_DEVICE,
        "netns",
        pair.client,
    )
    for name, device, address in (
        (pair.server, SERVER_DEVICE, pair.server_address),
        (pair.client, CLIENT_DEVICE, pair.client_address),
    ):
        _ip("-n", name, "link", "set", "lo", "up")
        _ip("-n", name, "addr", "add", f"{address}/{PREFIX_LENGTH}", "dev", device)
        _ip("-n", name, "link", "set", device, "up")


@contextlib.contextmanager
def namespace_pair() -> Iterator[Namespaces]:
    """Two fresh namespaces joined by a veth pair; deleted when the block ends, however."""
    skip_unless_possible()
    _sweep_leftovers()
    base = f"{NAME_PREFIX}{os.getpid()}-{next(_counter)}"
    pair = Namespaces(server=f"{base}-a", client=f"{base}-b")
    made: list[str] = []
    try:
        for name in (pair.server, pair.client):
            added = _ip("netns", "add", name, check=False)
            if added.returncode != 0:
                unavailable(f"cannot create a network namespace: {added.stderr.strip()}")
            made.append(name)
        try:
            _connect(pair)
        except subprocess.CalledProcessError as exc:
            unavailable(f"cannot join the namespaces with a veth pair: {exc.stderr.strip()}")
        yield pair
    finally:
        for name in made:
            _delete(name)


@pytest.fixture
def namespaces() -> Iterator[Namespaces]:
    """Namespaces A (the server's) and B (a remote client's), fresh for each test."""
    with namespace_pair() as pair:
        yield pair


# ---------------------------------------------------------------------- servers


@dataclass
class Server:
    """A ``sixtysix serve`` process in namespace A, and what it has said on stderr."""

    process: subprocess.Popen[str]
    host: str
    data: Path
    lines: list[str] = field(default_factory=list)
    _queue: queue.Queue[str | None] = field(default_factory=queue.Queue)
    _reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{PORT}"

    def _read(self) -> None:
        """Drain stderr (so the server never blocks on a full pipe), line by line."""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)
            self._queue.put(line)
        self._queue.put(None)

    def wait_serving(self) -> None:
        """Wait (bounded) for the line that says the server listens."""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            while True:
                line = self._queue.get(timeout=START_TIMEOUT)
                if line is None:
                    pytest.fail(f"the server ended before serving:\n{self.stderr()}")
                if SERVING in line:
                    return
        except queue.Empty:
            pytest.fail(f"the server did not serve within {START_TIMEOUT} s:\n{self.stderr()}")

    def stderr(self) -> str:
        return "".join(self.lines)

    def operator_token(self) -> str:
        """The operator's token, as the server wrote it into its data folder."""
        path = self.data / OPERATOR_TOKEN
        assert path.is_file(), f"the server wrote no operator token at {path}"
        token = path.read_text(encoding="utf-8").strip()
        assert token, f"the operator token file {path} is empty"
        return token

    def stop(self) -> int:
        """SIGINT (a clean stop, every table saved), then SIGKILL if it does not end in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT)
        if self._reader is not None:
            # Its stderr ends with it, unless a program it started still holds the pipe: that
            # one dies with the namespace, and the pipe is left to it.
            self._reader.join(READER_TIMEOUT)
        if self.process.stderr is not None and not (self._reader and self._reader.is_alive()):
            self.process.stderr.close()
        return self.process.returncode


class Servers:
    """Starts table servers in namespace A; stops every one of them at the end."""

    def __init__(self, pair: Namespaces, root: Path) -> None:
        self.pair = pair
        self.root = root
        self.started: list[Server] = []

    def start(self, host: str = SERVER_ADDRESS, extra: tuple[str, ...] = ()) -> Server:
        """``sixtysix serve --host HOST`` in namespace A with a data folder of its own."""
        data = self.root / f"server-{len(self.started)}"
        argv = [sys.executable, "-m", "sixtysix", "serve", "--lang", "en", "--host", host]
        argv += ["--port", str(PORT), "--data", str(data), *extra]
        env = {**os.environ, "SIXTYSIX_DATA_DIR": str(self.root / "user")}
        process = subprocess.Popen(
            self.pair.inside(self.pair.server, argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            errors="replace",
            cwd=self.root,
            env=env,
        )
        server = Server(process, host, data)
        self.started.append(server)
        server.wait_serving()
        return server

    def stop_all(self) -> None:
        for server in self.started:
            server.stop()


@pytest.fixture
def table_servers(namespaces: Namespaces, tmp_path: Path) -> Iterator[Servers]:
    """A starter of table servers in namespace A (stopped before the namespaces go)."""
    servers = Servers(namespaces, tmp_path)
    try:
        yield servers
    finally:
        servers.stop_all()


# ---------------------------------------------------------------------- clients


def run_client(namespace: str, spec: dict[str, Any]) -> dict[str, Any]:
    """Run this file as the client in ``namespace`` (see :func:`client_main`); its result."""
    argv = [sys.executable, str(Path(__file__).resolve()), json.dumps(spec)]
    done = subprocess.run(
        Namespaces.inside(namespace, argv),
        capture_output=True,
        text=True,
        timeout=CLIENT_TIMEOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, f"the client failed ({done.returncode}):\n{done.stderr}"
    lines = done.stdout.splitlines()
    assert lines, f"the client printed nothing:\n{done.stderr}"
    result: dict[str, Any] = json.loads(lines[-1])
    return result


async def _client(spec: dict[str, Any]) -> dict[str, Any]:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    result: dict[str, Any] = {"messages": [], "moves": 0}
    try:
        ws = await connect(spec["url"], open_timeout=MESSAGE_TIMEOUT, max_size=None)
    except (OSError, TimeoutError) as exc:
        result["connect_error"] = f"{type(exc).__name__}: {exc}"
        return result
    local, remote = ws.local_address, ws.remote_address
    result["local"], result["remote"] = [local[0], local[1]], [remote[0], remote[1]]
    moves = int(spec.get("moves", 0))
    try:
        await ws.send(json.dumps(spec["first"]))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), MESSAGE_TIMEOUT))
            result["messages"].append(message)
            kind = message.get("type")
            if moves and result["moves"] == moves and kind in ("update", "error"):
                break  # the server's answer to the last move
            if kind == "decide" and result["moves"] < moves:
                action = message["legal"][0]
                await ws.send(json.dumps({"type": "action", "action": action}))
                result["moves"] += 1
    except ConnectionClosed:
        pass
    except TimeoutError:
        result["timeout"] = True
    finally:
        await ws.close()
    result["close"] = [ws.close_code, ws.close_reason]
    return result


def client_main(argv: list[str]) -> int:
    """The client: ``SPEC`` is a JSON object ``{"url": ..., "first": MESSAGE, "moves": N}``.

    It sends ``first``, answers the first ``N`` ``decide`` messages with their first legal
    action (then stops at the server's answer to the last one), else reads to the close; it
    prints one JSON line: the messages received, the moves made, the close code and reason,
    and both ends' addresses (or ``connect_error``).
    """
    spec = json.loads(argv[1])
    print(json.dumps(asyncio.run(_client(spec))))
    return 0


if __name__ == "__main__":
    sys.exit(client_main(sys.argv))
