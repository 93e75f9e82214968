"""The referee's side: an external program that plays one seat through ``sixtysix-player/1``.

:class:`ExternalPlayer` starts the program with a minimal environment in an empty working
directory of its own, in its own process group, and talks to it over its stdin and stdout with
a deadline on every read and write and a bound on every line. Whatever the program does wrong
(time out, exit, close its output, write garbage or an illegal action) becomes one
:class:`~sixtysix.core.faults.PlayerFault`; the program and every process it started are then
killed and reaped, and the next match or deal starts a fresh process. Nothing of the
referee's (seed, record file, paths, environment) is handed to the program.

On Linux the program runs under a small launcher (:mod:`sixtysix.protocol.reaper`), a child
subreaper that kills every descendant of the program when the program ends, however it left
the process group; elsewhere the process group is all there is.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn, Protocol, Self

from sixtysix.core.actions import Action
from sixtysix.core.errors import SixtySixError
from sixtysix.core.faults import FaultKind, PlayerFault
from sixtysix.core.outcome import Outcome
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.protocol import messages
from sixtysix.protocol.messages import MAX_LINE, IllegalAnswer, ProtocolError

#: Default seconds for a program to start and answer the hello, and to answer each decision.
DEFAULT_START_TIMEOUT = 10.0
DEFAULT_MOVE_TIMEOUT = 10.0
#: Seconds a program has to exit after ``quit`` before its process group is killed.
QUIT_GRACE = 1.0
#: Seconds to tell an exit from a closed output once the output ended (waited in full only
#: by a program that closed its output and runs on).
EXIT_GRACE = 2.0
#: Longest single wait on a program's pipes: a Ctrl-C that lands just before a wait does not
#: interrupt it, and the next wake-up acts on it.
WAKE = 0.2
#: Bytes of a program's stderr kept for error messages (the last ones).
STDERR_KEEP = 4096
#: Seconds the launcher has to kill the program's descendants and exit before its process
#: group is killed outright (it takes milliseconds).
REAP_GRACE = 1.0
EXEC_PREFIX = "exec:"


def _reaper_command() -> list[str] | None:
    """The launcher's command line before its arguments, or None where it cannot work (not
    Linux, no interpreter to run it, a frozen application): the program is then started
    directly, in its own process group only."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reaper.py")
    if not sys.platform.startswith("linux") or not sys.executable or not os.path.isfile(path):
        return None
    if getattr(sys, "frozen", False):  # its executable is the application, not Python
        return None
    return [sys.executable, "-I", "-S", path]


#: ``python -I -S reaper.py``: isolated from the environment and site-packages, so it starts
#: fast and imports nothing of the referee's.
REAPER: list[str] | None = _reaper_command()


class PlayerStartError(SixtySixError):
    """An external player that cannot be used: missing program, not executable, no or a wrong
    handshake, a variant it does not play. Raised before any game starts."""


class SeatPlayer(Protocol):
    """What a driver asks of every seat's player, in-process or external."""

    def new_match(self, variant: Variant, seat: int) -> None: ...
    def new_deal(self, number: int, dealer: int) -> None: ...
    def event(self, seat: int, action: int) -> None: ...
    def choose(self, view: View) -> int: ...
    def deal_over(self, number: int, outcome: Outcome, hands: Sequence[Iterable[int]]) -> None: ...
    def match_over(self, totals: Sequence[int], winners: Sequence[int]) -> None: ...
    def close(self) -> None: ...


class InProcessPlayer:
    """A ``choose(view)`` function (a bot's) in the shape of :class:`SeatPlayer`: it is told
    nothing but its views, as before."""

    def __init__(self, choose: Callable[[View], int]) -> None:
        self._choose = choose

    def new_match(self, variant: Variant, seat: int) -> None:
        pass

    def new_deal(self, number: int, dealer: int) -> None:
        pass

    def event(self, seat: int, action: int) -> None:
        pass

    def choose(self, view: View) -> int:
        return self._choose(view)

    def deal_over(self, number: int, outcome: Outcome, hands: Sequence[Iterable[int]]) -> None:
        pass

    def match_over(self, totals: Sequence[int], winners: Sequence[int]) -> None:
        pass

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------- exec: specs


def is_exec_spec(spec: str) -> bool:
    """Whether a bot spec names an external program (``exec:PROGRAM [ARGS...]``)."""
    return spec.strip().startswith(EXEC_PREFIX)


def parse_exec_spec(spec: str) -> list[str]:
    """``"exec:node bot.js"`` -> ``["node", "bot.js"]`` (the rest split as a shell would)."""
    text = spec.strip()
    if not text.startswith(EXEC_PREFIX):
        raise PlayerStartError(f"{spec!r} is not an exec: spec (exec:PROGRAM [ARGS...])")
    try:
        argv = shlex.split(text[len(EXEC_PREFIX) :])
    except ValueError as exc:
        raise PlayerStartError(f"cannot read {spec!r}: {exc}") from None
    if not argv:
        raise PlayerStartError(
            f"{spec!r} names no program (write exec:./mybot or 'exec:node bot.js')"
        )
    return argv


def resolve_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` with its program found (on PATH, or a path that must exist and be executable)
    and every argument naming an existing file made absolute: the program runs in an empty
    directory of its own, so ``exec:node bot.js`` must still find ``bot.js``."""
    if not argv or not argv[0]:
        raise PlayerStartError("an external player needs a program")
    program = argv[0]
    if os.sep in program:
        path = os.path.abspath(program)
        if not os.path.exists(path):
            raise PlayerStartError(f"no such program: {program}")
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise PlayerStartError(f"not an executable file: {program}")
    else:
        found = shutil.which(program)
        if found is None:
            raise PlayerStartError(f"program not found on PATH: {program}")
        path = os.path.abspath(found)
    args = [os.path.abspath(a) if os.path.isfile(a) else a for a in argv[1:]]
    return [path, *args]


def player_environment(home: str) -> dict[str, str]:
    """The whole environment of an external player: PATH, a UTF-8 C locale, and HOME and
    TMPDIR in its own empty directory. Nothing else of the referee's."""
    return {
        "PATH": os.environ.get("PATH") or os.defpath,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
    }


# ---------------------------------------------------------------------- live players

_LIVE: set[ExternalPlayer] = set()
_LIVE_LOCK = threading.Lock()


def close_all(grace: float = QUIT_GRACE) -> None:
    """Close every external player this process started (drivers call it in ``finally``, so
    Ctrl-C leaves no child behind; it also runs at exit). All are asked to quit at once and
    share one ``grace`` period (seconds) before they are killed."""
    players = live_players()
    for player in players:
        player._ask_to_quit()
    deadline = time.monotonic() + grace
    for player in players:
        player._exit_status(max(0.0, deadline - time.monotonic()))
    for player in players:  # every launcher cleans up at once; each _finish then waits less
        player._stop_launcher()
    for player in players:
        player._finish()


def live_players() -> list[ExternalPlayer]:
    """The external players of this process that are not closed yet."""
    with _LIVE_LOCK:
        return [p for p in _LIVE if p._owner == os.getpid()]


atexit.register(close_all)


# ---------------------------------------------------------------------- the player


class ExternalPlayer:
    """One seat played by an external program, one process at a time.

    Every method but :meth:`close` may raise :class:`PlayerFault`; the process is then gone,
    and the next :meth:`new_match` or :meth:`new_deal` starts a fresh one (told the match
    again). :meth:`start` raises :class:`PlayerStartError` instead: a player that cannot even
    start is bad input, found before any game.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        move_timeout: float = DEFAULT_MOVE_TIMEOUT,
        max_line: int = MAX_LINE,
        label: str | None = None,
    ) -> None:
        if start_timeout <= 0 or move_timeout <= 0:
            raise PlayerStartError("player deadlines must be positive")
        self.label = label or "exec:" + shlex.join(argv)
        self.argv = resolve_argv(argv)
        self.start_timeout = start_timeout
        self.move_timeout = move_timeout
        self.max_line = max_line
        #: The name the program gave in its hello (empty until it has).
        self.name = ""
        #: The variants it plays (``*``: any), from its hello.
        self.variants: tuple[str, ...] = ()
        self.seat = -1
        #: Process ids of every process started so far (the first, then one after each fault).
        self.pids: list[int] = []
        self._variant: Variant | type[Variant] | str | None = None
        self._match: Variant | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        #: Whether the current process is the launcher (:data:`REAPER`) of the program.
        self._launcher = False
        self._dir: str | None = None
        self._buf = bytearray()
        self._stderr = b""
        self._stderr_thread: threading.Thread | None = None
        self._owner = os.getpid()

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._proc is not None

    @property
    def pid(self) -> int | None:
        """The process id of the current process (None when none runs): the launcher's where
        the program runs under one, whose exit status is the program's."""
        return None if self._proc is None else self._proc.pid

    def start(self, variant: Variant | type[Variant] | str | None = None) -> None:
        """Start the program and shake hands; :class:`PlayerStartError` if it cannot play
        ``variant`` (a variant, or its name or alias; None or ``"*"``: not checked), cannot
        start, or answers wrongly."""
        if self._proc is not None:
            raise RuntimeError("the player is already running")
        self._variant = variant
        try:
            self._launch()
        except PlayerFault as fault:
            raise PlayerStartError(f"{self.label}: {fault.detail}") from None

    def new_match(self, variant: Variant, seat: int) -> None:
        """A new match of ``variant`` in which this player holds ``seat``."""
        self._match = variant
        self.seat = seat
        if self._proc is None:
            self._relaunch()
        else:
            self._send(messages.match_message(variant, seat))

    def new_deal(self, number: int, dealer: int) -> None:
        """Deal ``number`` (from 1 within the match) begins, dealt by ``dealer``."""
        if self._proc is None:
            self._relaunch()
        self._send(messages.deal_message(number, dealer))

    def event(self, seat: int, action: int) -> None:
        """``seat`` did the public ``action`` (the player's own actions too)."""
        if self._proc is not None:
            self._send(messages.event_message(seat, action))

    def choose(self, view: View) -> Action:
        """The player's action for ``view``, checked against the view's legal actions."""
        if self._proc is None:
            self._fail(FaultKind.CRASH, "the program is not running")
        self._check_quiet()
        self._send(messages.decide_message(view, round(self.move_timeout * 1000)))
        message = self._read_message(self.move_timeout, "an action")
        try:
            return messages.check_action(message, view.legal_actions)
        except IllegalAnswer as exc:
            self._fail(FaultKind.ILLEGAL, str(exc))
        except ProtocolError as exc:
            self._fail(FaultKind.GARBAGE, str(exc))

    def deal_over(self, number: int, outcome: Outcome, hands: Sequence[Iterable[int]]) -> None:
        """Deal ``number`` ended with ``outcome``; ``hands``: each seat's cards left."""
        if self._proc is not None:
            self._send(messages.result_message(number, outcome, hands))

    def match_over(self, totals: Sequence[int], winners: Sequence[int]) -> None:
        if self._proc is not None:
            self._send(messages.match_over_message(totals, winners))

    def close(self) -> None:
        """Ask the program to quit, give it :data:`QUIT_GRACE` seconds, then kill its group."""
        self._ask_to_quit()
        self._exit_status(QUIT_GRACE)
        self._finish()

    def _finish(self) -> None:
        """Kill what is left of the program and forget it."""
        self._kill()
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def _ask_to_quit(self) -> None:
        """Send ``quit`` and end the program's input (once; a program that cannot take it
        is killed at once)."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdin.closed:
            return
        try:
            self._write(messages.encode_line(messages.quit_message()), QUIT_GRACE)
            proc.stdin.close()
        except (PlayerFault, OSError):
            pass

    def stderr_tail(self) -> str:
        """The last line the program wrote on stderr (for error messages), or ``""``."""
        lines = self._stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[-1][-200:] if lines else ""

    # ------------------------------------------------------------------ processes

    def _launch(self) -> None:
        """Spawn a process and shake hands; faults as :class:`PlayerFault`."""
        self._dir = tempfile.mkdtemp(prefix="sixtysix-player-")
        # The launcher reports a program it cannot run (its errno) on a pipe of its own.
        status_r, status_w = os.pipe() if REAPER is not None else (-1, -1)
        try:
            self._spawn(status_w)
            try:
                self._send(messages.hello(), self.start_timeout)
                reply = self._read_message(self.start_timeout, "the hello")
            except PlayerFault:
                error = _spawn_error(status_r)
                if error is not None:
                    raise self._cannot_run(error) from None
                raise
        finally:
            if status_r >= 0:
                os.close(status_r)
        try:
            self.name, self.variants = messages.check_hello_reply(reply)
        except ProtocolError as exc:
            self._fail(FaultKind.GARBAGE, str(exc))
        variant = self._variant
        if variant is None or variant == "*":
            return
        if isinstance(variant, str):
            name = variant
            plays = "*" in self.variants or variant.strip().lower() in self.variants
        else:
            name = variant.name
            plays = messages.plays_variant(self.variants, variant)
        if not plays:
            listed = ", ".join(self.variants) or "none"
            self._fail(FaultKind.GARBAGE, f"does not play {name} (it plays: {listed})")

    def _spawn(self, status_fd: int) -> None:
        """Start the process (the launcher where there is one, which starts the program) with
        its pipes, and the thread that drains its stderr."""
        assert self._dir is not None
        command = self.argv
        if REAPER is not None:
            command = [*REAPER, str(os.getpid()), str(status_fd), *self.argv]
        try:
            proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self._dir,
                env=player_environment(self._dir),
                start_new_session=True,
                close_fds=True,
                pass_fds=(status_fd,) if status_fd >= 0 else (),
                bufsize=0,
            )
        except OSError as exc:
            raise self._cannot_run(exc.strerror or str(exc)) from None
        finally:
            if status_fd >= 0:  # the launcher holds the only copy it needs
                os.close(status_fd)
        self._proc = proc
        self._launcher = REAPER is not None
        self.pids.append(proc.pid)
        with _LIVE_LOCK:
            _LIVE.add(self)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._buf.clear()
        self._stderr = b""
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(proc.stderr.fileno(),), daemon=True
        )
        self._stderr_thread.start()

    def _cannot_run(self, error: str) -> PlayerFault:
        """The fault of a program that could not be run at all (everything cleaned up)."""
        self._kill()
        return PlayerFault(self.seat, FaultKind.CRASH, f"cannot run {self.argv[0]}: {error}")

    def _relaunch(self) -> None:
        """A fresh process after a fault, told the current match again."""
        self._launch()
        if self._match is not None:
            self._send(messages.match_message(self._match, self.seat))

    def _drain_stderr(self, fd: int) -> None:
        """Read the program's stderr to its end, keeping only the last bytes: a chatty
        program can neither block on a full pipe nor fill the referee's memory."""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self._stderr = (self._stderr + chunk)[-STDERR_KEEP:]

    def _exit_status(self, within: float) -> int | None:
        """The exit status once the process has exited, waiting up to ``within`` seconds
        (None if it still runs). The process is not reaped, so its group id stays its own
        until :meth:`_kill`."""
        return None if self._proc is None else _wait_status(self._proc, within)

    def _stop_launcher(self) -> None:
        """Tell the launcher to kill the program and all its descendants (it then exits)."""
        proc = self._proc
        if proc is not None and self._launcher and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, signal.SIGTERM)  # the launcher's pid alone, not its group

    def _kill(self) -> None:
        """Kill the program with its descendants (the launcher's work, given
        :data:`REAP_GRACE`) and then its process group, reap the process, close the pipes,
        remove the directory."""
        proc = self._proc
        if proc is not None:
            if self._launcher:
                self._stop_launcher()
                _wait_status(proc, REAP_GRACE)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            self._proc = None  # only now: a Ctrl-C in the waits above leaves it to close_all
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            if self._stderr_thread is not None:  # it reads to the end of the dead group's stderr
                self._stderr_thread.join(timeout=2.0)
            if proc.stderr is not None:
                proc.stderr.close()
        self._stderr_thread = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def _fail(self, kind: FaultKind, detail: str) -> NoReturn:
        """Kill the process and raise the fault (with the last stderr line, if any: read once
        the process is gone, so nothing it wrote before is missed)."""
        self._kill()
        tail = self.stderr_tail()
        if tail:
            detail = f"{detail} (stderr: {tail})"
        raise PlayerFault(self.seat, kind, detail)

    def _ended(self, what: str) -> NoReturn:
        """The pipe ended: an exit (``crash``) or a closed stream of a live program."""
        status = self._exit_status(EXIT_GRACE)
        if status is None:
            self._fail(FaultKind.CLOSED, f"closed its {what}")
        self._fail(FaultKind.CRASH, f"exited with status {status}")

    # ------------------------------------------------------------------ lines

    def _send(self, message: Mapping[str, Any], timeout: float | None = None) -> None:
        self._write(
            messages.encode_line(message), self.move_timeout if timeout is None else timeout
        )

    def _write(self, data: bytes, timeout: float) -> None:
        """Write all of ``data`` within ``timeout`` seconds (a program that stops reading
        times out instead of blocking the referee)."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        fd = proc.stdin.fileno()
        view = memoryview(data)
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while view:
                try:
                    written = os.write(fd, view)
                    view = view[written:]
                    continue
                except BlockingIOError:
                    pass
                except (BrokenPipeError, ConnectionResetError):
                    self._ended("input")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._timed_out("read its input")
                selector.select(min(remaining, WAKE))

    def _timed_out(self, doing: str) -> NoReturn:
        status = self._exit_status(0)
        if status is not None:
            self._fail(FaultKind.CRASH, f"exited with status {status}")
        self._fail(FaultKind.TIMEOUT, f"did not {doing} in time")

    def _read_message(self, timeout: float, wanted: str) -> dict[str, Any]:
        """The next line as a message, within ``timeout`` seconds; never more than
        ``max_line + 1`` bytes are held, however long the line."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        buf = self._buf
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                end = buf.find(b"\n")
                if end >= 0:
                    line = bytes(buf[:end])
                    del buf[: end + 1]
                    try:
                        return messages.parse_line(line, self.max_line)
                    except ProtocolError as exc:
                        self._fail(FaultKind.GARBAGE, str(exc))
                if len(buf) > self.max_line:
                    self._fail(FaultKind.GARBAGE, f"a line of more than {self.max_line} bytes")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._timed_out(f"send {wanted}")
                if not selector.select(min(remaining, WAKE)):
                    continue
                try:
                    chunk = os.read(fd, max(1, min(65536, self.max_line + 1 - len(buf))))
                except BlockingIOError:
                    continue
                if not chunk:
                    self._ended("output")
                buf += chunk

    def _check_quiet(self) -> None:
        """A program speaks only when asked: a line waiting before a decision is garbage."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        try:
            chunk = os.read(proc.stdout.fileno(), max(1, self.max_line + 1 - len(self._buf)))
        except BlockingIOError:
            chunk = None
        if chunk == b"":
            self._ended("output")
        if chunk:
            self._buf += chunk
        if self._buf:
            self._fail(FaultKind.GARBAGE, "wrote a line it was not asked for")


def _wait_status(proc: subprocess.Popen[bytes], within: float) -> int | None:
    """``proc``'s exit status (negative: killed by that signal) once it has exited, waiting up
    to ``within`` seconds; None if it still runs. It is left unreaped (its pid and group id
    stay its own)."""
    deadline = time.monotonic() + within
    while True:
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return proc.returncode
        if info is not None:
            if info.si_code == os.CLD_EXITED:
                return info.si_status
            return -info.si_status
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def _spawn_error(fd: int) -> str | None:
    """What the launcher wrote on its status pipe ``fd``: the error of a program it could not
    run, or None (nothing: the program ran)."""
    if fd < 0:
        return None
    os.set_blocking(fd, False)
    try:
        data = os.read(fd, 64)
    except BlockingIOError:
        return None
    if not data:
        return None
    try:
        return os.strerror(int(data))
    except ValueError:
        return data.decode("ascii", "replace")


def external_player(
    spec: str,
    *,
    start_timeout: float = DEFAULT_START_TIMEOUT,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
    max_line: int = MAX_LINE,
) -> ExternalPlayer:
    """The (not yet started) player of an ``exec:`` spec; :class:`PlayerStartError` for an
    empty spec or a program that cannot be found or run."""
    return ExternalPlayer(
        parse_exec_spec(spec),
        start_timeout=start_timeout,
        move_timeout=move_timeout,
        max_line=max_line,
        label=spec.strip(),
    )
