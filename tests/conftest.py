"""Shared fixtures: a fresh plugin registry built without third-party autoload."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from sixtysix.plugins.manager import Registry, build_registry

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: no error where it is absent
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one test process more than the cores this process may use. Much of the
    suite waits on the processes, pseudo-terminals and servers it starts, so a core would
    otherwise idle (docs/development.md has the figures)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


@pytest.fixture(scope="session")
def registry() -> Registry:
    return build_registry()


@pytest.fixture
def sigint_as_at_a_terminal() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt here and kills a child, whatever pytest inherited.

    A suite started with SIGINT ignored (a background job, ``nohup ... &``) passes the ignore
    on to every process it starts, so a test that sends SIGINT sets Python's own handler for
    its duration. A caught signal is reset to the default by ``exec``, so the subprocesses and
    pseudo-terminal children the test starts get SIGINT's default action, as at a terminal.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
