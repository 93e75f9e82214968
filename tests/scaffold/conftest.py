"""The ``integration`` marker: tests that install packages (slower; CI runs them too)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "integration: installs a package into a temporary environment (slower)"
    )
