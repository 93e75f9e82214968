"""The launcher of an external player: it runs the player's program as its only child and,
when the program ends, when it is told to stop, or when its referee dies, kills every process
the program left behind before it exits itself.

A process group is not enough for that: a child that calls ``setsid()``, or one whose parent
exits (a double fork), leaves it. So the launcher makes itself a *child subreaper* (Linux's
``PR_SET_CHILD_SUBREAPER``): every orphan below it is re-parented to it instead of to init, and
it kills its children until it has none left.

The referee (:mod:`sixtysix.protocol.referee`) runs this file by path as
``python -I -S reaper.py PARENT STATUS_FD PROGRAM [ARGS...]``; it imports nothing but the
standard library, so it starts in a few milliseconds. Its side of the bargain:

- stdin, stdout and stderr are the program's: the launcher gives up its own stdin and stdout
  once the program runs, so the program alone decides when they end;
- if the program cannot be run, the errno goes to ``STATUS_FD`` (which is otherwise just
  closed) and the launcher exits with status 127;
- SIGTERM (and SIGINT and SIGHUP, unless they were ignored) makes it kill everything and exit;
  so does the death of its parent, the referee process ``PARENT``;
- its exit status is the program's: the same exit code, or the same signal.
"""

from __future__ import annotations

import os
import select
import sys

# Start-up time: the public ``signal`` imports ``enum``, ``ctypes`` has a large Python half and
# ``typing`` is big. The launcher needs only their C modules, which halves its start-up; the
# type checker reads the public modules' stubs.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from types import FrameType
    from typing import NoReturn
else:
    import _signal as signal

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
#: Longest wait for a killed child to be reported before the children are listed again.
REAP_WAKE = 0.05
#: Seconds between checks that the referee still lives, where no pidfd can watch it.
PARENT_POLL = 0.5
#: Signals that stop the player (SIGTERM is the referee's; the others come from a terminal).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
#: Signals Python ignores at start-up: the program gets them back at their defaults, as
#: :class:`subprocess.Popen` gives them.
RESTORED = tuple(getattr(signal, name) for name in ("SIGPIPE", "SIGXFSZ") if hasattr(signal, name))


def prctl(option: int, value: int) -> bool:
    """``prctl(option, value)`` through libc; False where it fails or does not exist."""
    try:
        import _ctypes  # start-up

        address = _ctypes.dlsym(_ctypes.dlopen(None), "prctl")  # type: ignore[arg-type]
        return int(_ctypes.call_function(address, (option, value, 0, 0, 0))) == 0
    except (ImportError, OSError, AttributeError):
        pass
    try:  # the public way, slower to import
        import ctypes  # start-up

        libc = ctypes.CDLL(None)
        zero = ctypes.c_ulong(0)
        return int(libc.prctl(option, ctypes.c_ulong(value), zero, zero, zero)) == 0
    except (ImportError, OSError, AttributeError):
        return False


def children() -> list[int]:
    """The process ids of this process's children (its only thread's), from ``/proc``."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children", "rb") as fh:
            return [int(pid) for pid in fh.read().split()]
    except OSError:
        pass
    found: list[int] = []  # a kernel without the children file: scan every process's parent
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        if int(stat.rpartition(b")")[2].split()[1]) == me:
            found.append(int(name))
    return found


class Launcher:
    """The program's process and everything below it, until none is left."""

    def __init__(self, parent: int) -> None:
        self.parent = parent
        self.stopped = False
        self.program = -1
        #: The program's wait status, once it has been reaped.
        self.status: int | None = None
        # Where this fails, an escaped descendant goes to init: the process group is all the
        # referee can still kill.
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        # A signal writes a byte here, so one select() waits for signals and the parent alike.
        self.wake, wake_w = os.pipe()
        os.set_blocking(self.wake, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        signal.signal(signal.SIGCHLD, self._on_child)
        for sig in STOP_SIGNALS:
            if sig == signal.SIGTERM or signal.getsignal(sig) != signal.SIG_IGN:
                signal.signal(sig, self._on_stop)
        # Blocked in the referee's thread, they would never reach the launcher; the program
        # gets the mask as it was.
        self.mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD, *STOP_SIGNALS})
        self.watch = self._watch_parent()

    def _on_child(self, signum: int, frame: FrameType | None) -> None:
        """Only there so that SIGCHLD wakes the select()."""

    def _on_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopped = True

    def _watch_parent(self) -> int | None:
        """A pidfd that becomes readable when the referee process dies (None where the kernel
        has none: the parent is then polled). Not ``PR_SET_PDEATHSIG``: that fires when the
        referee's *thread* that started the launcher ends, which the table server's threads do
        while the process and the player live on."""
        try:
            return os.pidfd_open(self.parent)
        except (AttributeError, OSError):
            return None

    def parent_gone(self) -> bool:
        """Whether the referee died (the launcher then has another parent)."""
        return os.getppid() != self.parent

    def spawn(self, argv: list[str], status_fd: int) -> None:
        """Start the program, or report its errno on ``status_fd`` and exit 127."""
        os.set_inheritable(status_fd, False)  # the program gets its three pipes, no more
        try:
            self.program = os.posix_spawn(
                argv[0], argv, os.environ, setsigmask=self.mask, setsigdef=RESTORED
            )
        except OSError as exc:
            os.write(status_fd, str(exc.errno or 0).encode("ascii"))
            os._exit(127)
        os.close(status_fd)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)

    def reap(self) -> bool:
        """Reap every child that has exited (keeping the program's status); whether any child
        is left."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return False
            if pid == 0:
                return True
            if pid == self.program:
                self.status = status

    def _sleep(self, timeout: float | None) -> bool:
        """Wait for a signal (or the parent's death) up to ``timeout`` seconds; whether the
        parent's pidfd woke it."""
        fds = [self.wake] if self.watch is None else [self.wake, self.watch]
        ready, _, _ = select.select(fds, [], [], timeout)
        try:
            while os.read(self.wake, 512):
                pass
        except BlockingIOError:
            pass
        return self.watch is not None and self.watch in ready

    def supervise(self) -> None:
        """Wait until the program exits, a stop signal comes or the referee dies."""
        timeout = PARENT_POLL if self.watch is None else None
        while True:
            self.reap()
            if self.status is not None or self.stopped or self.parent_gone():
                return
            if self._sleep(timeout):
                return

    def kill_all(self) -> None:
        """SIGKILL every child until there is none: each one killed hands its own orphans to
        this subreaper, which kills them on the next round."""
        while True:
            for pid in children():
                try:  # noqa: SIM105 (contextlib costs start-up time)
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if not self.reap():
                return
            self._sleep(REAP_WAKE)

    def exit(self) -> NoReturn:
        """Exit as the program did: its exit code, or killed by its signal."""
        status = self.status
        if status is None:  # never reaped: only when it could not be started
            os._exit(127)
        if os.WIFEXITED(status):
            os._exit(os.WEXITSTATUS(status))
        sig = os.WTERMSIG(status)
        prctl(PR_SET_DUMPABLE, 0)  # a program's core dump is not repeated by its launcher
        signal.set_wakeup_fd(-1)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):  # those two cannot be caught
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # a signal that does not end a process by default


def main(args: list[str]) -> NoReturn:
    """``PARENT STATUS_FD PROGRAM [ARGS...]``: run the program as described above."""
    parent, status_fd, argv = int(args[0]), int(args[1]), args[2:]
    if os.getppid() != parent:  # the referee died before the launcher even started
        os._exit(1)
    launcher = Launcher(parent)
    launcher.spawn(argv, status_fd)
    try:
        launcher.supervise()
    finally:
        launcher.kill_all()
    launcher.exit()


if __name__ == "__main__":
    main(sys.argv[1:])
