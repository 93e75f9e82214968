"""A Ctrl-C that Python notes without interrupting a wait, on demand, for the tests of waits
that must still act on it at once (the terminal's prompt, the wait for an external player)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def sigint_beside_the_wait(after: float = 0.3) -> Iterator[None]:
    """SIGINT handled on a helper thread ``after`` seconds in. Python then raises
    ``KeyboardInterrupt`` in the main thread at its next chance, but a blocking read or
    ``select`` there goes on waiting, exactly as when a Ctrl-C lands just before the wait
    begins: what a terminal does now and then, this does every time."""

    def interrupt() -> None:
        time.sleep(after)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    helper = threading.Thread(target=interrupt)
    helper.start()
    try:
        yield
    finally:
        helper.join()
