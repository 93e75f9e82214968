"""Santase passes sixtysix's conformance kit, over its defaults, presets and every option."""

from __future__ import annotations

import pytest
from sixtysix.testing import Check, ConformanceKit

from sixtysix_santase import Santase


@pytest.mark.parametrize("check", ConformanceKit(Santase).checks(), ids=str)
def test_conformance(check: Check) -> None:
    check()
