"""Fixtures for the simulator tests: a registry with the test bots, a helper to read rows."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sixtysix.plugins.manager import Registry, build_registry
from tests.sim import bots_for_tests


@pytest.fixture(scope="session")
def test_registry() -> Registry:
    """The built-ins plus the test bots (``first``, ``closer``)."""
    return build_registry(extra=(bots_for_tests,))


@pytest.fixture(scope="session")
def ray_instance() -> Iterator[Any]:
    """One small local Ray instance for the session (2 CPUs, no dashboard), shut down after.

    Skipped only when Ray is not installed (the ``ray`` extra).
    """
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield ray
    finally:
        ray.shutdown()


def rows_of(path: Path) -> list[dict[str, Any]]:
    """A JSON Lines output's rows by index, without the timing (the only field that varies)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        del row["duration"]
    return sorted(rows, key=lambda r: int(r["index"]))
