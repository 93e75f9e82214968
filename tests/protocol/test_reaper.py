"""Every descendant of an ``exec:`` player ends with it, even one that left the player's
process group (``setsid``) or lost its parent (a double fork): closed, killed after a fault,
ended by itself, at the end of a CLI run, at Ctrl-C and when the referee is killed outright.
The launcher passes the program's exit status and the start-up errors through unchanged."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sixtysix.core.faults import FaultKind, PlayerFault
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry
from sixtysix.protocol import referee
from sixtysix.protocol.referee import ExternalPlayer, PlayerStartError, live_players
from tests.protocol.scripts import alive, gone, misbehaving, write_player

pytestmark = pytest.mark.skipif(
    referee.REAPER is None or not Path("/proc/self/stat").exists(),
    reason="the launcher is Linux's (a child subreaper)",
)

LONG = 30.0  # seconds: every deadline that only a broken test reaches
ROOT = Path(__file__).resolve().parents[2]
REAPER_PY = ROOT / "sixtysix" / "protocol" / "reaper.py"


@pytest.fixture
def variant(registry: Registry) -> Variant:
    return registry.variant("66")()


def escaping(log: Path) -> str:
    """Code that starts two descendants that leave the program's process group: a child that
    calls ``setsid()``, and a grandchild whose parent exits at once (a double fork) and that
    moves to a process group of its own. Each ignores the polite signals, writes ``escaped
    PID`` to ``log`` and sleeps far beyond the test; the program writes ``program PID``, and
    waits for both to have written theirs before it talks: a referee that closes it at once
    would otherwise end an escapee before it is counted."""
    return textwrap.dedent(
        f"""
        import signal
        LOG = {str(log)!r}

        def note(what):
            with open(LOG, "a") as fh:
                fh.write(f"{{what}} {{os.getpid()}}\\n")

        def escape(double):
            ready, noted = os.pipe()
            middle = os.fork()
            if middle == 0:
                os.close(ready)
                if double and os.fork() != 0:
                    os._exit(0)  # the middle process: its child is an orphan
                if double:
                    os.setpgid(0, 0)
                else:
                    os.setsid()
                for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                    signal.signal(sig, signal.SIG_IGN)
                note("escaped")
                os.write(noted, b"!")
                time.sleep(300)
                os._exit(0)
            os.close(noted)
            os.read(ready, 1)  # it has written its pid before the program says a word
            os.close(ready)
            if double:
                os.waitpid(middle, 0)

        note("program")
        escape(double=False)
        escape(double=True)
        """
    )


def logged(log: Path, what: str, count: int) -> list[int]:
    """The pids ``log`` names as ``what``, once there are ``count`` of them."""
    deadline = time.monotonic() + LONG
    while True:
        lines = log.read_text().split("\n") if log.exists() else []
        pids = [int(line.split()[1]) for line in lines if line.startswith(what + " ")]
        if len(pids) >= count:
            return pids
        if time.monotonic() >= deadline:
            raise AssertionError(f"{count} {what} processes did not start: {lines}")
        time.sleep(0.02)


@contextlib.contextmanager
def no_leftovers(log: Path) -> Iterator[None]:
    """Kill whatever the test's players left behind (only when a test failed)."""
    try:
        yield
    finally:
        if log.exists():
            for line in log.read_text().split("\n"):
                if line.strip():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(line.split()[1]), signal.SIGKILL)


def hostile(tmp_path: Path, body: str) -> tuple[list[str], Path]:
    log = tmp_path / "pids"
    return write_player(tmp_path, escaping(log) + textwrap.dedent(body), "hostile.py"), log


def player(argv: list[str], **kwargs: float) -> ExternalPlayer:
    kwargs.setdefault("start_timeout", LONG)
    kwargs.setdefault("move_timeout", LONG)
    return ExternalPlayer(argv, **kwargs)  # type: ignore[arg-type]


def decide(ext: ExternalPlayer, variant: Variant) -> int:
    """Start a match and a deal and ask ``ext`` for its first action."""
    ext.new_match(variant, 0)
    ext.new_deal(1, 1)
    state = variant.new_deal(variant.deal(Seed(1), ("deal", 1), 1))
    return ext.choose(state.view(state.to_act))


def assert_all_gone(pids: list[int]) -> None:
    assert pids
    left = [pid for pid in pids if not gone(pid)]
    assert not left, f"descendants outlived their player: {left}"


# ---------------------------------------------------------------------- every way a player ends


def test_closing_a_player_ends_its_escaped_descendants(tmp_path: Path, variant: Variant) -> None:
    argv, log = hostile(tmp_path, misbehaving("first_legal(msg)"))
    with no_leftovers(log):
        ext = player(argv)
        ext.start(variant)
        escaped = logged(log, "escaped", 2)
        [program] = logged(log, "program", 1)
        assert program != ext.pid  # the program runs under the launcher
        assert all(alive(pid) for pid in escaped)
        assert decide(ext, variant) >= 0
        ext.close()
        assert_all_gone([*escaped, program, ext.pids[0]])
        assert ext not in live_players()


def test_a_player_killed_for_a_fault_takes_its_descendants_along(
    tmp_path: Path, variant: Variant
) -> None:
    body = misbehaving('sys.stdout.write("not json\\n"); sys.stdout.flush(); time.sleep(300)')
    argv, log = hostile(tmp_path, body)
    with no_leftovers(log), player(argv) as ext:
        ext.start(variant)
        escaped = logged(log, "escaped", 2)
        with pytest.raises(PlayerFault) as caught:
            decide(ext, variant)
        assert caught.value.kind == FaultKind.GARBAGE
        assert not ext.running
        assert_all_gone([*escaped, *logged(log, "program", 1)])


def test_a_player_that_ignores_quit_and_sigterm_is_ended_with_its_descendants(
    tmp_path: Path, variant: Variant
) -> None:
    body = """
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    next(messages())
    hello()
    for msg in messages():
        pass
    time.sleep(300)
    """
    argv, log = hostile(tmp_path, body)
    with no_leftovers(log):
        ext = player(argv)
        ext.start(variant)
        escaped = logged(log, "escaped", 2)
        started = time.monotonic()
        ext.close()
        assert time.monotonic() - started < 10  # the quit grace and a kill, not a timeout
        assert_all_gone([*escaped, *logged(log, "program", 1)])


def test_a_player_that_exits_by_itself_crashed_with_its_status_and_its_descendants_end(
    tmp_path: Path, variant: Variant
) -> None:
    # The escaped descendants hold the output pipe: only their end lets the referee see it.
    argv, log = hostile(tmp_path, misbehaving('sys.stderr.write("bye\\n"); sys.exit(3)'))
    with no_leftovers(log), player(argv) as ext:
        ext.start(variant)
        escaped = logged(log, "escaped", 2)
        started = time.monotonic()
        with pytest.raises(PlayerFault) as caught:
            decide(ext, variant)
        assert time.monotonic() - started < 10  # not the 30 s move deadline
        assert caught.value.kind == FaultKind.CRASH
        assert caught.value.detail == "exited with status 3 (stderr: bye)"
        assert_all_gone(escaped)


def test_the_fallback_without_the_launcher_leaves_escaped_descendants(
    tmp_path: Path, variant: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process group alone, as on other systems: what the launcher is there for (and
    proof that the tests above can fail)."""
    monkeypatch.setattr(referee, "REAPER", None)
    argv, log = hostile(tmp_path, misbehaving("first_legal(msg)"))
    with no_leftovers(log):
        ext = player(argv)
        ext.start(variant)
        escaped = logged(log, "escaped", 2)
        assert logged(log, "program", 1) == [ext.pid]  # no launcher: the program itself
        ext.close()
        assert all(alive(pid) for pid in escaped)


def test_a_duel_from_the_command_line_leaves_no_descendant(tmp_path: Path) -> None:
    argv, log = hostile(tmp_path, misbehaving("first_legal(msg)"))
    spec = f"exec:{sys.executable} {argv[1]}"
    command = [sys.executable, "-m", "sixtysix", "duel", "66", spec, "random", "--deals", "2"]
    with no_leftovers(log):
        done = subprocess.run(
            [*command, "--seed", "1", "--no-progress"],
            cwd=ROOT,
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        programs = logged(log, "program", 1)
        escaped = logged(log, "escaped", 2 * len(programs))
        assert_all_gone([*programs, *escaped])


REFEREE = """
import sys, time
from sixtysix.plugins.manager import build_registry
from sixtysix.protocol.referee import ExternalPlayer
variant = build_registry(autoload=False).variant("66")()
player = ExternalPlayer({argv!r}, start_timeout=30)
player.start(variant)
print(player.pid, flush=True)
time.sleep(300)
"""


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_a_referee_stopped_or_killed_leaves_no_descendant(
    tmp_path: Path, how: signal.Signals
) -> None:
    # The program does not even exit at the end of its input: the launcher sees its referee
    # die and ends everything.
    body = """
    next(messages())
    hello()
    for msg in messages():
        pass
    time.sleep(300)
    """
    argv, log = hostile(tmp_path, body)
    script = tmp_path / "referee.py"
    script.write_text(REFEREE.format(argv=argv), encoding="utf-8")
    with no_leftovers(log):
        proc = subprocess.Popen(
            [sys.executable, str(script)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            text=True,
            # Ctrl-C must reach the referee even when pytest runs with SIGINT ignored.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            assert proc.stdout is not None
            launcher = int(proc.stdout.readline())
            escaped = logged(log, "escaped", 2)
            [program] = logged(log, "program", 1)
            proc.send_signal(how)
            proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert_all_gone([launcher, program, *escaped])


# ---------------------------------------------------------------------- what the referee sees


@pytest.mark.parametrize("launcher", [True, False], ids=["launcher", "direct"])
@pytest.mark.parametrize("sig", [signal.SIGUSR1, signal.SIGKILL, signal.SIGSEGV])
def test_a_player_killed_by_a_signal_reports_that_signal(
    tmp_path: Path,
    variant: Variant,
    monkeypatch: pytest.MonkeyPatch,
    launcher: bool,
    sig: signal.Signals,
) -> None:
    if not launcher:
        monkeypatch.setattr(referee, "REAPER", None)
    body = misbehaving(
        f"import resource; resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
        f"os.kill(os.getpid(), {int(sig)})"
    )
    with player(write_player(tmp_path, body)) as ext:
        ext.start(variant)
        with pytest.raises(PlayerFault) as caught:
            decide(ext, variant)
    assert caught.value.kind == FaultKind.CRASH
    assert caught.value.detail == f"exited with status {-int(sig)}"


@pytest.mark.parametrize("launcher", [True, False], ids=["launcher", "direct"])
def test_a_program_that_cannot_be_run_is_refused_as_before(
    tmp_path: Path, variant: Variant, monkeypatch: pytest.MonkeyPatch, launcher: bool
) -> None:
    if not launcher:
        monkeypatch.setattr(referee, "REAPER", None)
    program = tmp_path / "bad-interpreter"
    program.write_text("#!/no/such/interpreter\n", encoding="utf-8")
    program.chmod(0o755)
    ext = player([str(program)])
    with pytest.raises(PlayerStartError) as caught:
        ext.start(variant)
    assert str(caught.value).endswith(f"cannot run {program}: No such file or directory")
    assert not ext.running


def run_reaper(command: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """The launcher run by hand, as the referee runs it (its parent: this process)."""
    status_r, status_w = os.pipe()
    try:
        return subprocess.run(
            [sys.executable, "-I", "-S", str(REAPER_PY), str(os.getpid()), str(status_w), *command],
            pass_fds=(status_w,),
            input=stdin,
            capture_output=True,
            timeout=LONG,
            check=False,
        )
    finally:
        os.close(status_r)
        os.close(status_w)


@pytest.mark.parametrize(
    ("script", "status"),
    [
        ("exit 0", 0),
        ("exit 7", 7),
        ("exit 255", 255),
        ("kill -TERM $$", -signal.SIGTERM),
        ("kill -USR2 $$", -signal.SIGUSR2),
    ],
)
def test_the_launcher_exits_as_its_program_did(script: str, status: int) -> None:
    assert run_reaper(["/bin/sh", "-c", script]).returncode == status


def test_the_program_owns_its_input_and_output() -> None:
    """The launcher keeps no copy of stdin or stdout: when the program closes them and runs
    on, the referee reads the end of its output and cannot write to its input (as without a
    launcher), and nothing but the program's own lines is on the output."""
    status_r, status_w = os.pipe()
    launcher = [sys.executable, "-I", "-S", str(REAPER_PY), str(os.getpid()), str(status_w)]
    program = "import os, sys, time; print('got', input()); sys.stdout.flush(); "
    program += "os.close(0); os.close(1); time.sleep(300)"
    proc = subprocess.Popen(
        [*launcher, sys.executable, "-c", program],
        pass_fds=(status_w,),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"hello\n")
        proc.stdin.flush()
        assert proc.stdout.read() == b"got hello\n"  # to the end while the program sleeps
        assert proc.poll() is None
        with pytest.raises(BrokenPipeError):
            proc.stdin.write(b"more\n")
            proc.stdin.flush()
    finally:
        proc.terminate()  # the launcher's SIGTERM: it kills the program
        proc.wait(timeout=LONG)
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()  # type: ignore[union-attr]
        os.close(status_r)
        os.close(status_w)


def test_sigterm_reaches_the_launcher_even_blocked_and_the_program_keeps_its_mask() -> None:
    """A referee thread with SIGTERM blocked passes that mask on: the launcher unblocks it
    for itself (or the referee's SIGTERM would never reach it) and not for the program."""
    status_r, status_w = os.pipe()
    program = (
        "import signal, time; print(*signal.pthread_sigmask(0, ()), flush=True); time.sleep(300)"
    )
    launcher = [sys.executable, "-I", "-S", str(REAPER_PY), str(os.getpid()), str(status_w)]
    proc = subprocess.Popen(
        [*launcher, sys.executable, "-c", program],
        pass_fds=(status_w,),
        stdout=subprocess.PIPE,
        preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}),
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().split() == [str(int(signal.SIGTERM)).encode()]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=LONG) == -signal.SIGKILL  # the program, killed by the launcher
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=LONG)
        os.close(status_r)
        os.close(status_w)
