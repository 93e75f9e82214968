"""Shared fixtures: a fresh plugin registry built without third-party autoload."""

from __future__ import annotations

import os

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
