"""Real-browser tests: ``sixtysix serve`` as a process, Debian's Chromium driven by Playwright,
each person a browser context of their own, axe-core's WCAG level A rules.

Skipped with the reason where Playwright or Chromium is missing (the quick start installs
neither); failed instead where ``SIXTYSIX_REAL_PARTS=1`` promises them (CI).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urlsplit

import pytest

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, accepts
from tests.real_parts import unavailable
from tests.table.serve_process import server_env
from tests.table.server_helpers import create, free_port

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Error,
        Page,
        Playwright,
    )

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a server may take to listen, and to stop after Ctrl-C (the machine is shared).
START_WITHIN = 60.0
STOP_WITHIN = 30.0
#: Milliseconds any one Playwright action or wait may take.
ACTION_TIMEOUT_MS = 15_000
#: A small phone's viewport, in CSS pixels.
PHONE = (360, 740)
#: axe-core's WCAG 2.0 and 2.1 level A rules, and only their violations.
AXE_OPTIONS: dict[str, Any] = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag21a"]},
    "resultTypes": ["violations"],
}

T = TypeVar("T")

#: Every server process still running, killed at exit if a teardown never ran (Ctrl-C).
_live: set[subprocess.Popen[bytes]] = set()


def _ended(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the process ended, without reaping it: until :func:`_kill_group` reaps it, its
    pid, and so its process group's id, can be no one else's."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _kill_group(proc: subprocess.Popen[bytes]) -> int:
    """SIGKILL the server and everything it started (its programs), reap it; its status."""
    if proc.returncode is None:  # not reaped: the group is still its own
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    code = proc.wait()
    _live.discard(proc)
    return code


def _dump_stacks(proc: subprocess.Popen[bytes]) -> None:
    """Have a stuck server write every thread's stack to its log (``PYTHONFAULTHANDLER``
    answers SIGABRT so), so that a stop that hangs says where."""
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGABRT)
    until = time.monotonic() + 5.0
    while not _ended(proc) and time.monotonic() < until:
        time.sleep(0.05)


@atexit.register
def _kill_leftovers() -> None:
    for proc in list(_live):
        _kill_group(proc)


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end on a thread of its own: the sync Playwright API marks its
    event loop as running in the test's thread, where ``asyncio.run`` then refuses."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class WebServer:
    """``sixtysix serve`` as a process on a free loopback port: its pages and WebSockets at
    one address; killed, stopped and started again on the same port and data."""

    def __init__(self, data: Path, home: Path, log: Path, options: Sequence[str] = ()) -> None:
        self.data, self.home, self.log_path, self.options = data, home, log, tuple(options)
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.proc is not None and not _ended(self.proc)

    def table_url(self, table: str) -> str:
        return f"{self.url}/t/{table}"

    def log(self) -> str:
        """Everything the server said (stdout and stderr), over every start."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def start(self) -> None:
        """Listen on a free port (another one if someone took it meanwhile)."""
        for _ in range(5):
            self.port = free_port()
            if self._launch():
                return
        pytest.fail(f"no free port for sixtysix serve after 5 tries:\n{self.log()}")

    def restart(self) -> None:
        """Start again on the same port and data (stopped with Ctrl-C first if running)."""
        if self.proc is not None:
            self.stop()
        if not self._launch():
            pytest.fail(f"port {self.port} was taken before the restart:\n{self.log()}")

    def kill(self) -> None:
        """A crash: SIGKILL, nothing saved beyond what was written."""
        if self.proc is not None:
            _kill_group(self.proc)
            self.proc = None

    def stop(self) -> int | None:
        """Ctrl-C: the server saves every table and ends; its exit status (130)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        proc.send_signal(signal.SIGINT)
        deadline = time.monotonic() + STOP_WITHIN
        while not _ended(proc):
            if time.monotonic() > deadline:
                _dump_stacks(proc)
                _kill_group(proc)
                pytest.fail(f"sixtysix serve did not stop within {STOP_WITHIN} s:\n{self.log()}")
            time.sleep(0.05)
        return _kill_group(proc)  # and whatever it left behind

    def create_table(self, variant: str, seats: Sequence[str], **extra: Any) -> str:
        """Open a table over the WebSocket protocol, as `sixtysix table new` does; its id."""
        return run_async(create(self.ws_url, variant, seats, **extra))

    def _launch(self) -> bool:
        """Start on ``self.port`` and wait until it listens; False if the port was taken."""
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        env = server_env(self.home)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env["PYTHONFAULTHANDLER"] = "1"  # a hung stop's stacks, on SIGABRT (_dump_stacks)
        command = [
            *(sys.executable, "-m", "sixtysix", "serve", "--host", "127.0.0.1"),
            *("--port", str(self.port), "--data", str(self.data), "--lang", "en"),
            *self.options,
        ]
        with self.log_path.open("ab") as log:
            proc = subprocess.Popen(
                command,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: nothing it starts outlives it
            )
        _live.add(proc)
        # The line that says where it serves is written once it listens ("cannot listen on
        # 127.0.0.1:PORT" has no scheme).
        serving = f"://127.0.0.1:{self.port}"
        deadline = time.monotonic() + START_WITHIN
        while True:
            ended = _ended(proc)
            said = self._said_since(offset)  # after the check: all it said, if it ended
            if ended:
                code = _kill_group(proc)
                if code == 2 and "cannot listen" in said:
                    return False
                pytest.fail(f"sixtysix serve ended with status {code} before listening:\n{said}")
            if serving in said and accepts(self.port):
                self.proc = proc
                return True
            if time.monotonic() > deadline:
                _kill_group(proc)
                pytest.fail(f"sixtysix serve did not listen within {START_WITHIN} s:\n{said}")
            time.sleep(0.05)

    def _said_since(self, offset: int) -> str:
        with self.log_path.open("rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", errors="replace")

    def close(self) -> list[str]:
        """Stop it if running; what went wrong (a bad exit status, a traceback)."""
        problems = []
        if self.proc is not None:
            code = self.stop()
            if code != 130:
                problems.append(f"sixtysix serve stopped with status {code}, not 130")
        if self.log_path.exists() and "Traceback" in self.log():
            problems.append("sixtysix serve wrote a traceback")
        return problems


class ServerFactory(Protocol):
    def __call__(self, *options: str) -> WebServer: ...


@pytest.fixture
def web_server_with(tmp_path: Path) -> Iterator[ServerFactory]:
    """Start servers with extra ``serve`` options (``web_server_with("--no-chat")``); each
    stopped with Ctrl-C at teardown, which fails if one crashed or wrote a traceback."""
    servers: list[WebServer] = []

    def start(*options: str) -> WebServer:
        folder = tmp_path / f"serve-{len(servers)}"
        folder.mkdir()
        server = WebServer(folder / "data", folder / "home", folder / "serve.log", options)
        servers.append(server)
        server.start()
        return server

    yield start
    problems: list[str] = []
    for server in servers:
        try:
            found = server.close()
        except pytest.fail.Exception as stuck:  # killed by now: close the others still
            found = [str(stuck)]
        if found:
            problems.extend(found)
            problems.append(server.log())
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def web_server(web_server_with: ServerFactory) -> WebServer:
    """One ``sixtysix serve`` on a free loopback port, with its own data folder."""
    return web_server_with()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """Playwright, started once for this package's tests (a test that needs a Chromium with
    flags of its own launches it from here).

    Not for the whole session: between its calls the sync Playwright API leaves its event
    loop marked as running, and every later ``asyncio.run`` in this worker would refuse.
    """
    try:
        from playwright.sync_api import sync_playwright  # the browser extra
    except ImportError:
        unavailable("Playwright is not installed (pip install -e '.[browser]')")
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as started:
        yield started


@contextlib.contextmanager
def chromium(playwright: Playwright, *flags: str) -> Iterator[Browser]:
    """Debian's Chromium with the tests' flags and ``flags``, closed after."""
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *flags])
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium, started once for this package's tests."""
    with chromium(playwright) as launched:
        yield launched


@dataclass
class Person:
    """Someone at a browser of their own: their own context (storage, cookies) and a page.
    ``errors`` holds what the page logged as an error; a test that expects some clears it."""

    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)


class PersonFactory(Protocol):
    def __call__(
        self,
        name: str,
        lang: str = "en",
        width: int = 1280,
        height: int = 800,
        *,
        phone: bool = False,
    ) -> Person: ...


def watch(page: Page, errors: list[str]) -> None:
    """Collect the page's console errors (a CSP violation is one, and so is a resource of the
    page's that failed to load) and its uncaught exceptions."""

    def console(message: ConsoleMessage) -> None:
        where = message.location
        # The browser asks for /favicon.ico by itself, for any page that names no icon.
        if message.type == "error" and urlsplit(where["url"]).path != "/favicon.ico":
            errors.append(f"console error: {message.text} ({where['url']}:{where['lineNumber']})")

    def uncaught(error: Error) -> None:
        errors.append(f"uncaught {error.name}: {error.message}")

    page.on("console", console)
    page.on("pageerror", uncaught)


_CALL = pytest.StashKey[pytest.TestReport]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep the call's report, for the teardown of :func:`person` to see how it went."""
    report = yield
    if report.when == "call":
        item.stash[_CALL] = report
    return report


@pytest.fixture
def person(browser: Browser, request: pytest.FixtureRequest) -> Iterator[PersonFactory]:
    """``person(name, lang="en", width=1280, height=800, phone=False)``: a new person.

    At teardown a JavaScript error or a CSP violation on any of their pages fails a test that
    passed (so every browser test also proves the page runs under its Content-Security-Policy);
    a test that failed already gets them in its output.
    """
    from playwright.sync_api import Error as PlaywrightError  # the browser extra

    people: list[Person] = []

    def make(
        name: str,
        lang: str = "en",
        width: int = 1280,
        height: int = 800,
        *,
        phone: bool = False,
    ) -> Person:
        w, h = PHONE if phone else (width, height)
        context = browser.new_context(
            viewport={"width": w, "height": h},
            locale=lang,
            timezone_id="UTC",
            is_mobile=phone,
            has_touch=phone,
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        errors: list[str] = []
        # Every page of the context, this one included (the event comes before new_page
        # returns) and any it opens later.
        context.on("page", lambda page: watch(page, errors))
        page = context.new_page()
        someone = Person(name, context, page, errors)
        people.append(someone)
        return someone

    yield make
    for someone in people:
        with contextlib.suppress(PlaywrightError):
            someone.context.close()
    problems = [f"{someone.name}: {error}" for someone in people for error in someone.errors]
    if not problems:
        return
    report = request.node.stash.get(_CALL, None)
    if report is not None and not report.passed:  # failed, or xfailed (an XPASS passed)
        print("The pages logged errors:", *problems, sep="\n", file=sys.stderr)
        return
    pytest.fail(
        "The page logged a JavaScript error or a CSP violation:\n" + "\n".join(problems),
        pytrace=False,
    )


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.0 and 2.1 level A violations on the page as it is now."""
    try:
        from axe_playwright_python.sync_playwright import Axe  # the browser extra
    except ImportError:
        unavailable("axe-playwright-python is not installed (pip install -e '.[browser]')")
    return list(Axe().run(page, options=AXE_OPTIONS).response["violations"])


def violations_report(violations: Sequence[dict[str, Any]]) -> str:
    """One paragraph a violation: the rule, its help, and each element's target."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation.get('impact')}): {violation['help']}")
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            lines.append(f"    {target}: {' '.join(str(node.get('html', '')).split())[:160]}")
    return "\n".join(lines)


def assert_accessible(page: Page) -> None:
    """No axe-core WCAG level A violation on the page; else each rule and element, named."""
    violations = axe_violations(page)
    if violations:
        raise AssertionError(
            f"{len(violations)} WCAG level A rule(s) violated on {page.url}:\n"
            + violations_report(violations)
        )


@pytest.fixture
def axe_check() -> Callable[[Page], list[dict[str, Any]]]:
    """``axe_check(page)``: the page's WCAG level A violations (axe-core's dicts)."""
    return axe_violations


@pytest.fixture
def assert_no_violations() -> Callable[[Page], None]:
    """``assert_no_violations(page)``: fails naming each rule and element violated."""
    return assert_accessible
