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
