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


#: What a rule or an option is read from: a getattr with a default on one of these is a rule
#: the variant never stated, with a default no declaration holds.
RULE_HOLDERS = frozenset({"options", "opts", "rules", "match_format", "scoring", "variant"})


def _defaulted_rule_reads(source: str) -> list[int]:
    """The lines of ``source`` that call ``getattr(x, name, default)`` on a rule holder
    (``options``, ``self.options``, ``variant.rules``, ...)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) == 3
        ):
            continue
        target = node.args[0]
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in RULE_HOLDERS:
            lines.append(node.lineno)
    return lines


def test_the_scan_finds_a_defaulted_rule_read() -> None:
    source = (
        "a = getattr(self.options, 'target', 7)\n"
        "b = getattr(options, 'tie', 'draw')\n"
        "c = getattr(variant.rules, 'open_scores', False)\n"
        "d = getattr(options, spec.name)\n"
        "e = getattr(parameter, 'help', None)\n"
    )
    assert _defaulted_rule_reads(source) == [1, 2, 3]


def test_rules_and_options_are_read_as_declared() -> None:
    """Every rule is read from the variant's Rules, match format or declared options: a
    getattr with a default of its own would hide a rule the variant does not have."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in _defaulted_rule_reads(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"getattr with a default on options or rules: {', '.join(found)}"
