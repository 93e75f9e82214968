"""The table tests' shared fixtures: network namespaces for the tests of a remote peer."""

from __future__ import annotations

# Fixtures are found by name in a conftest: importing them is what makes them available.
from tests.table.netns import namespaces, table_servers  # noqa: F401
