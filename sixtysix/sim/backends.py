"""Where chunks of games are played: this process, a pool of local processes, or Ray.

A backend runs a *kernel* — a module-level function ``fn(job, start, stop)`` that plays games
``start..stop-1`` of ``job`` and returns a chunk result with ``start``, ``stop`` and
``seconds`` — over the chunks a :class:`~sixtysix.sim.chunks.ChunkPlan` hands out, and yields
the results as they finish. Kernel and job travel by pickle, so both must be importable by
name in the workers (a class defined in a test module is fine; a lambda is not).

Results never depend on the backend: a game's randomness comes from its index alone. The
backend only decides how fast they arrive. Ctrl-C is handled by :class:`StopFlag`: the first
one stops handing out chunks and lets the running ones finish (so every finished game is
kept); a second one aborts at once.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from types import FrameType, TracebackType
from typing import Any, Protocol, TypeVar

from sixtysix.sim.chunks import ChunkPlan
from sixtysix.sim.errors import BackendError

#: Chunks in flight per worker: one running, one queued, so a worker never waits for work.
IN_FLIGHT_PER_WORKER = 2
#: An automatic local run plays in this process first, for about this long, to measure.
PROBE_SECONDS = 0.2
#: ... and starts a process pool only if the rest would take longer than this.
POOL_WORTH_SECONDS = 1.0


class ChunkResult(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def stop(self) -> int: ...
    @property
    def seconds(self) -> float: ...


J = TypeVar("J")
R = TypeVar("R", bound=ChunkResult)
Kernel = Callable[[J, int, int], R]
#: What :meth:`Backend.run` returns: chunk results as they finish (close it to stop early).
Chunks = Generator[R, None, None]


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class StopFlag:
    """Turns Ctrl-C into a polite request to stop; a second Ctrl-C aborts.

    Used as a context manager around a run, it replaces the SIGINT handler (in the main
    thread only) and restores it afterwards. :attr:`requested` is what backends check
    between chunks. A SIGINT the process was started ignoring (a shell's background job)
    stays ignored, as Python itself leaves it: whoever started the run asked for that.
    """

    def __init__(self, notice: Callable[[], None] | None = None) -> None:
        self.requested = False
        self._notice = notice
        self._previous: Any = None
        self._installed = False

    def request(self) -> None:
        self.requested = True

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        if self._notice is not None:
            self._notice()

    def __enter__(self) -> StopFlag:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
        ):
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False


class Backend:
    """Runs a kernel over a plan's chunks; see the module docstring."""

    name = "backend"
    #: Workers used (known once :meth:`run` has decided, for an automatic local backend).
    workers = 1

    def run(self, fn: Kernel[J, R], job: J, plan: ChunkPlan, stop: StopFlag) -> Chunks[R]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend started (processes, a local Ray instance)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _in_process(
    fn: Kernel[J, R], job: J, plan: ChunkPlan, stop: StopFlag, until: float | None = None
) -> Iterator[R]:
    """Chunks played here, one after another (until ``until`` on the monotonic clock)."""
    while not stop.requested and (until is None or time.monotonic() < until):
        chunk = plan.next()
        if chunk is None:
            return
        result = fn(job, *chunk)
        plan.observe(result.stop - result.start, result.seconds)
        yield result


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops them in order."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _exit_with_parent(alive: Connection) -> None:
    """Block until the pool's process is gone (its end of the pipe closed), then end."""
    with contextlib.suppress(EOFError, OSError):
        alive.recv_bytes()
    os._exit(1)


def _bound_worker(
    alive: Connection, inherited: int | None, initializer: Callable[[], None]
) -> None:
    """A pool worker's start: watch the pipe whose other end only the pool's process holds.

    A forked worker got a copy of that other end (``inherited``) and closes it, so the pipe
    reports end-of-file exactly when the pool's process is gone, however it ended.
    """
    if inherited is not None:
        os.close(inherited)
    threading.Thread(
        target=_exit_with_parent, args=(alive,), name="sixtysix-parent-watch", daemon=True
    ).start()
    initializer()


class BoundPool(ProcessPoolExecutor):
    """A process pool whose workers never outlive the process that made it, even one ended
    by ``kill -9``: each watches a pipe that only that process writes to, and ends when the
    pipe closes.

    Without it, ``SIGKILL`` left the workers waiting for work for ever (each holds a copy of
    its task queue's write end), and with them the forkserver and the resource tracker, which
    end only once every worker is gone. ``PR_SET_PDEATHSIG`` is not enough: a forkserver
    worker's parent is the forkserver, and the signal follows the thread that forked.
    """

    def __init__(
        self,
        max_workers: int,
        mp_context: multiprocessing.context.BaseContext | None = None,
        initializer: Callable[[], None] = _ignore_sigint,
    ) -> None:
        ctx = mp_context or multiprocessing.get_context()
        self._watch, self._alive = ctx.Pipe(duplex=False)
        inherited = self._alive.fileno() if ctx.get_start_method() == "fork" else None
        super().__init__(
            max_workers,
            mp_context=ctx,
            initializer=_bound_worker,
            initargs=(self._watch, inherited, initializer),
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        if wait:  # the workers have ended; without waiting they end with this process
            self._watch.close()
            self._alive.close()

    def abort(self) -> None:
        """End the workers now and drop the queued work, waiting until all is gone.

        The queued futures are cancelled by the pool's own thread (``cancel_futures``), never
        from here: a future cancelled from another thread while the workers die is still in
        the pool's books, and its thread then fails marking it broken (``InvalidStateError``,
        a traceback on stderr, up to Python 3.11).
        """
        processes = list((self._processes or {}).values())
        manager: threading.Thread | None = getattr(self, "_executor_manager_thread", None)
        super().shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        if manager is not None:
            manager.join()
        for process in processes:
            process.join()
        self._watch.close()
        self._alive.close()


def _pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where there is one: workers start from a clean process that has already
    imported the simulator (fast, and safe with the progress bar's thread, unlike ``fork``);
    ``spawn`` elsewhere."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # Imported once in the server, not in every worker (a missing module is skipped).
        ctx.set_forkserver_preload(
            [
                "sixtysix.sim.jobs",
                "sixtysix.sim.tournament",
                "sixtysix.sim.duel",
                "sixtysix.compiled.games",
            ]
        )
        _start_forkserver_ignoring_sigint()
        return ctx
    return multiprocessing.get_context("spawn")


def _start_forkserver_ignoring_sigint() -> None:
    """Start the fork server with SIGINT ignored, if it is not running yet.

    The server gives each worker the handlers it was itself started with, so its workers then
    ignore Ctrl-C from their first instruction: a Ctrl-C while a worker starts, before the
    pool's initializer, would otherwise kill it there and break the pool (a traceback, exit 1).
    """
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


class LocalBackend(Backend):
    """This machine: ``workers`` processes (1 = this process); by default every CPU.

    With ``workers=None`` a run starts in this process and measures; it moves to a pool of
    one process per CPU only when the remaining games would take longer than
    :data:`POOL_WORTH_SECONDS`, so small runs never pay for starting processes.
    """

    name = "local"

    def __init__(
        self,
        workers: int | None = None,
        mp_context: multiprocessing.context.BaseContext | None = None,
    ) -> None:
        if workers is not None and workers < 1:
            raise BackendError("--workers must be at least 1")
        self.requested = workers
        self.workers = workers or 1
        #: How the pool's workers start (None: :func:`_pool_context`, a preloaded forkserver).
        self.mp_context = mp_context

    def run(self, fn: Kernel[J, R], job: J, plan: ChunkPlan, stop: StopFlag) -> Chunks[R]:
        if self.requested is None:
            yield from _in_process(fn, job, plan, stop, time.monotonic() + PROBE_SECONDS)
            cpus = available_cpus()
            rate = plan.rate
            if stop.requested or plan.remaining == 0:
                return
            if cpus == 1 or (rate is not None and plan.remaining / rate < POOL_WORTH_SECONDS):
                yield from _in_process(fn, job, plan, stop)
                return
            self.workers = cpus
        if self.workers == 1:
            yield from _in_process(fn, job, plan, stop)
            return
        plan.workers = self.workers
        yield from self._pool(fn, job, plan, stop)

    def _pool(self, fn: Kernel[J, R], job: J, plan: ChunkPlan, stop: StopFlag) -> Chunks[R]:
        executor = BoundPool(self.workers, mp_context=self.mp_context or _pool_context())
        pending: set[Future[R]] = set()
        finished = False
        try:
            while True:
                while not stop.requested and len(pending) < IN_FLIGHT_PER_WORKER * self.workers:
                    chunk = plan.next()
                    if chunk is None:
                        break
                    pending.add(executor.submit(fn, job, *chunk))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    plan.observe(result.stop - result.start, result.seconds)
                    yield result
            finished = True
        finally:
            if finished:
                executor.shutdown(wait=True)
            else:  # aborted (a second Ctrl-C, or an error): drop the queue, end the workers
                executor.abort()


def _ray_call(fn: Kernel[J, R], job: J, start: int, stop: int) -> R:
    return fn(job, start, stop)


class RayBackend(Backend):
    """A Ray cluster at ``address``, or a local Ray instance started for the run.

    An instance that is already running in this process (``ray.init`` called by the caller)
    is used as it is and left running. Every node must have the same version of sixtysix
    (and of any bot plugin used) installed, since workers import the kernel by name.
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray  # the ray extra
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'sixtysix[ray]'") from None
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.ERROR,
            }
            if address:
                _check_reachable(address)
            try:
                if address:
                    ray.init(address=address, **options)
                else:
                    ray.init(num_cpus=workers or available_cpus(), **options)
            except Exception as exc:
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise BackendError(f"cannot start {where}: {first}") from None
            self._started = True
        cpus = int(self._ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers, cpus) if workers else cpus)
        self._remote: Any = self._ray.remote(num_cpus=1)(_ray_call)

    def run(self, fn: Kernel[J, R], job: J, plan: ChunkPlan, stop: StopFlag) -> Chunks[R]:
        ray = self._ray
        plan.workers = self.workers
        job_ref = ray.put(job)
        pending: dict[Any, tuple[int, int]] = {}
        finished = False
        try:
            while True:
                while not stop.requested and len(pending) < IN_FLIGHT_PER_WORKER * self.workers:
                    chunk = plan.next()
                    if chunk is None:
                        break
                    pending[self._remote.remote(fn, job_ref, *chunk)] = chunk
                if not pending:
                    break
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    del pending[ref]
                    try:
                        result: R = ray.get(ref)
                    except Exception:
                        if stop.requested:
                            continue  # a worker ended by the same Ctrl-C: its games never finished
                        raise
                    plan.observe(result.stop - result.start, result.seconds)
                    yield result
            finished = True
        finally:
            if not finished:
                for ref in pending:
                    ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def _check_reachable(address: str) -> None:
    """Fail in seconds, not minutes, when nothing listens at a ``host:port`` address.

    Ray keeps retrying an unreachable cluster for a long time before giving up; a plain TCP
    connection tells at once. Other address forms (``auto``, ``local``) are left to Ray.
    """
    rest = address.split("://", 1)[-1]
    host, sep, port = rest.rpartition(":")
    if not sep or not host or rest.endswith("]"):  # no port (a bare IPv6 address too)
        return
    if not (port.isascii() and port.isdigit()) or len(port) > 5 or int(port) > 65535:
        raise BackendError(f"{address} names no port: a port is a number from 0 to 65535")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise BackendError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}"
        ) from None


def make_backend(name: str, workers: int | None = None, address: str | None = None) -> Backend:
    """The backend the CLI's ``--backend``, ``--workers`` and ``--address`` ask for."""
    if name == "local":
        if address:
            raise BackendError("--address is only for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise BackendError(f"unknown backend {name!r}; backends: local, ray")


def stop_notice() -> None:
    """What the first Ctrl-C prints."""
    print(
        "\nStopping after the games in progress (Ctrl-C again to stop at once)...",
        file=sys.stderr,
        flush=True,
    )
