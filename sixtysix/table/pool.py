"""The bots' own threads: a bounded pool, apart from the server's I/O, that serves the tables
where a person is waiting first.

A bot's turn is CPU work (or a wait on an ``exec:`` program), so bots think here and never in
the threads that write table files or look up names: however many tables' bots are thinking,
a person's join is answered at once. The threads are daemons, and thinking touches no table
(:meth:`sixtysix.table.table.BotQuestion.think`), so a stopping server saves its tables and
exits without waiting for a bot that is still thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: Served before :data:`IDLE`: a table where a person is connected.
WATCHED = 0
#: A table nobody is connected to (bots among themselves).
IDLE = 1


def default_size() -> int:
    """One thread per core the process may use (at least one)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores)


_Job = tuple[int, int, Callable[[], Any], "asyncio.Future[Any]", asyncio.AbstractEventLoop]


class BotPool:
    """Up to ``size`` daemon threads taking jobs by priority (then in order of arrival),
    a thread started only when the jobs waiting outnumber the threads waiting."""

    def __init__(self, size: int | None = None, name: str = "sixtysix-bot") -> None:
        self.size = size or default_size()
        self._jobs: queue.PriorityQueue[_Job | tuple[int, int, None, None, None]] = (
            queue.PriorityQueue()
        )
        self._order = itertools.count()
        self._closed = False
        self._name = name
        self._threads: list[threading.Thread] = []
        #: Threads waiting for a job.
        self._idle = 0
        self._lock = threading.Lock()

    def run(self, fn: Callable[[], T], priority: int = WATCHED) -> asyncio.Future[T]:
        """``fn()`` in a pool thread; awaiting the future gives its result (cancelling it
        drops a job not yet started, and forgets the result of one that has)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._closed:
            future.set_exception(RuntimeError("the bot pool is closed"))
            return future
        self._jobs.put((priority, next(self._order), fn, future, loop))
        with self._lock:
            if self._jobs.qsize() > self._idle and len(self._threads) < self.size:
                thread = threading.Thread(
                    target=self._work, name=f"{self._name}-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                self._idle += 1
                thread.start()
        return future

    def _work(self) -> None:
        while True:
            _, _, fn, future, loop = self._jobs.get()
            with self._lock:
                self._idle -= 1
            if fn is None or future is None or loop is None:
                return
            try:
                self._run(fn, future, loop)
            finally:
                with self._lock:
                    self._idle += 1

    @staticmethod
    def _run(
        fn: Callable[[], Any], future: asyncio.Future[Any], loop: asyncio.AbstractEventLoop
    ) -> None:
        if future.cancelled():
            return
        try:
            result = fn()
        except BaseException as exc:  # handed to the awaiting task, never lost here
            _settle(loop, future, None, exc)
        else:
            _settle(loop, future, result, None)

    def close(self) -> None:
        """Take no more jobs; idle threads end, a thread still thinking is left to finish
        on its own (it is a daemon: the process does not wait for it)."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            count = len(self._threads)
        for _ in range(count):
            self._jobs.put((IDLE + 1, next(self._order), None, None, None))


def _settle(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    def settle() -> None:
        if future.cancelled():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    with contextlib.suppress(RuntimeError):  # a closed loop: the server wants no answer
        loop.call_soon_threadsafe(settle)
