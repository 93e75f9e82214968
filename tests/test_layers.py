"""Layering: the core imports nothing above it, and bots never reach for the registry."""

from __future__ import annotations

import ast
from pathlib import Path

import sixtysix

PACKAGE = Path(sixtysix.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_core_imports_nothing_above_it() -> None:
    for path in sorted((PACKAGE / "core").glob("*.py")):
        above = {n for n in _imports(path) if n.startswith("sixtysix.")}
        above = {n for n in above if not n.startswith("sixtysix.core")}
        assert not above, f"{path.name} imports {sorted(above)}"


def _calls(path: Path) -> set[str]:
    """The names ``path`` calls or imports (``get_registry()``, ``x.get_registry()``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name | ast.alias):
            names.add(node.id if isinstance(node, ast.Name) else node.name)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


def test_no_bot_reaches_for_the_plugin_registry() -> None:
    for path in sorted((PACKAGE / "bots").glob("*.py")):
        assert "get_registry" not in _calls(path), f"{path.name} uses get_registry"
