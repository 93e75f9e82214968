"""Fixtures for the simulator tests: a registry with the test bots, a helper to read rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sixtysix.plugins.manager import Registry, build_registry
from tests.sim import bots_for_tests


@pytest.fixture(scope="session")
def test_registry() -> Registry:
    """The built-ins plus the test bots (``first``, ``closer``)."""
    return build_registry(extra=(bots_for_tests,))


@pytest.fixture
def with_test_bots(monkeypatch: pytest.MonkeyPatch, test_registry: Registry) -> Registry:
    """Make the CLI's process-wide registry the one with the test bots."""
    import sixtysix.plugins.manager as manager

    monkeypatch.setattr(manager, "_cached", test_registry)
    return test_registry


def rows_of(path: Path) -> list[dict[str, Any]]:
    """A JSON Lines output's rows by index, without the timing (the only field that varies)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        del row["duration"]
    return sorted(rows, key=lambda r: int(r["index"]))
