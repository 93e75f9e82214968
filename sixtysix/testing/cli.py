"""Run the real command line against a registry that holds your plugin, installed or not.

A plugin's own tests should not depend on ``pip install -e`` having been run: these helpers
put the plugin module into a fresh registry for the duration of one CLI call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from click.testing import CliRunner, Result

from sixtysix.cli import cli
from sixtysix.plugins import manager
from sixtysix.plugins.manager import Registry, build_registry


def registry_with(*plugins: object) -> Registry:
    """The installed plugins plus ``plugins`` (modules or objects with hook functions)."""
    return build_registry(extra=tuple(plugins))


@contextmanager
def using_registry(registry: Registry) -> Iterator[Registry]:
    """Make ``registry`` the one every CLI command sees, then restore the previous one."""
    previous = manager._cached
    manager._cached = registry
    try:
        yield registry
    finally:
        manager._cached = previous


def invoke_cli(args: Sequence[str], *plugins: object, input: str | None = None) -> Result:
    """``sixtysix ARGS`` through Click's runner, with ``plugins`` registered."""
    with using_registry(registry_with(*plugins)):
        return CliRunner().invoke(cli, list(args), input=input)
