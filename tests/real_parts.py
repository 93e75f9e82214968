"""Tests that need real parts of the machine (root, network namespaces, a private tmpfs):
skipped with the reason where they are missing, but failed in CI, which promises them."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

#: Set by ``.ci/run``: the machine has every part these tests need, so none may be skipped.
REQUIRED = "SIXTYSIX_REAL_PARTS"


def unavailable(reason: str) -> NoReturn:
    """Skip the test for ``reason``; fail it instead where CI promises the part."""
    if os.environ.get(REQUIRED) == "1":
        pytest.fail(f"CI must run this test, but: {reason}")
    pytest.skip(reason)
