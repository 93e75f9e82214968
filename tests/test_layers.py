"""Layering: what each part of the package may import (one table), no import circles,
imports inside functions only for start-up speed or an optional extra, the core above
nothing, and bots never reaching for the registry."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import tomllib
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

import sixtysix

PACKAGE = Path(sixtysix.__file__).parent
ROOT = PACKAGE.parent


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


# --------------------------------------------------------------------------- imports

#: What each part of the package may import, at module level or inside a function (a
#: part's own modules are always allowed): each subpackage by its name, each top-level module
#: by its own (``__init__``, ``sixtysix`` itself; ``__main__``). docs/architecture.md shows
#: the same table ("Allowed imports"), and a test keeps the two equal. It states today's
#: edges.
ALLOWED: dict[str, set[str]] = {
    "__init__": set(),
    "__main__": {"cli"},
    "core": set(),
    "i18n": {"core"},
    "plugins": {"core", "i18n", "bots"},
    "variants": {"core", "plugins"},
    "compiled": {"core", "variants"},
    "bots": {"core", "i18n", "plugins", "protocol", "variants", "compiled"},
    "protocol": {"core", "plugins", "bots"},
    "sim": {"core", "plugins", "bots", "variants", "compiled"},
    "scaffold": {"__init__", "core"},
    "service": {"core", "i18n", "plugins", "bots", "variants"},
    "text": {"core", "i18n", "service"},
    "table": {"core", "i18n", "plugins", "bots", "protocol", "service"},
    "envs": {"core", "i18n", "plugins", "bots", "service", "text", "compiled"},
    "play": {"core", "i18n", "plugins", "bots", "protocol", "service", "text", "table"},
    "cli": {
        "__init__",
        "core",
        "i18n",
        "plugins",
        "bots",
        "protocol",
        "sim",
        "scaffold",
        "service",
        "text",
        "play",
        "table",
    },
    "testing": {"core", "plugins", "variants", "compiled", "bots", "sim", "cli"},
}


@dataclass(frozen=True)
class Import:
    """One module that one statement of the package imports."""

    module: str  # the importing module: "sixtysix.cli.common"
    path: Path
    line: int
    target: str  # the imported module: "sixtysix.cli.localized", "numpy"
    in_function: bool
    typing_only: bool  # under ``if TYPE_CHECKING:``
    comment: str  # the comments on the statement's lines

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def module_name(path: Path) -> str:
    names = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(names[:-1] if names[-1] == "__init__" else names)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def part(module: str) -> str:
    """The part of the package ``module`` is in: its subpackage, or the top-level module
    itself (``__init__`` for ``sixtysix``)."""
    names = module.split(".")
    return names[1] if len(names) > 1 else "__init__"


def _is_type_checking(test: ast.expr) -> bool:
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


class _Scan(ast.NodeVisitor):
    """The imports of one module: ``import``, ``from ... import`` (a name that is a module
    counts as that module) and ``import_module("literal")``."""

    def __init__(self, module: str, path: Path, source: str, modules: Collection[str]) -> None:
        self.module = module
        self.package = path.name == "__init__.py"
        self.path = path
        self.modules = modules
        self.comments: dict[int, list[str]] = {}
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                self.comments.setdefault(token.start[0], []).append(token.string)
        self.in_function = False
        self.typing_only = False
        self.found: list[Import] = []

    def _add(self, node: ast.stmt | ast.expr, target: str) -> None:
        end = node.end_lineno or node.lineno
        lines = range(node.lineno, end + 1)
        comment = " ".join(c for n in lines for c in self.comments.get(n, []))
        self.found.append(
            Import(
                self.module,
                self.path,
                node.lineno,
                target,
                self.in_function,
                self.typing_only,
                comment,
            )
        )

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        saved, self.in_function = self.in_function, True
        self.generic_visit(node)
        self.in_function = saved

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        saved, self.typing_only = self.typing_only, True
        for statement in node.body:
            self.visit(statement)
        self.typing_only = saved
        for statement in node.orelse:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            names = self.module.split(".")
            names = names[: len(names) + self.package - node.level]
            base = ".".join([*names, *([node.module] if node.module else [])])
        for alias in node.names:
            child = f"{base}.{alias.name}"
            self._add(node, child if child in self.modules else base)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0] if node.args else None
        if (
            name == "import_module"
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
        ):
            self._add(node, first.value)
        self.generic_visit(node)


def scan(
    source: str, module: str, path: Path, modules: Collection[str] = MODULES.keys()
) -> list[Import]:
    """Every import of ``source``, the text of ``module`` (at ``path``)."""
    visitor = _Scan(module, path, source, modules)
    visitor.visit(ast.parse(source))
    return visitor.found


IMPORTS: list[Import] = [
    imp
    for module, path in MODULES.items()
    for imp in scan(path.read_text(encoding="utf-8"), module, path)
]


def _own(target: str) -> str | None:
    """The module of the package that ``target`` names (itself or the package it is in), or
    None for a module from outside."""
    if target != "sixtysix" and not target.startswith("sixtysix."):
        return None
    while target not in MODULES:
        target = target.rpartition(".")[0]
    return target


def test_every_part_of_the_package_is_in_the_table() -> None:
    parts = {part(module) for module in MODULES}
    assert parts == set(ALLOWED), (
        f"missing from ALLOWED: {sorted(parts - set(ALLOWED))};"
        f" no longer in the package: {sorted(set(ALLOWED) - parts)}"
    )


def _listed(imports: Iterable[tuple[Import, str]]) -> str:
    """One line per statement, in file and line order."""
    lines = {(imp.path, imp.line): f"{imp.where}: {text}" for imp, text in imports}
    return "\n".join(lines[key] for key in sorted(lines))


def test_each_part_imports_only_what_the_table_allows() -> None:
    forbidden = [
        (imp, f"{part(imp.module)} -> {part(target)} ({target})")
        for imp in IMPORTS
        if (target := _own(imp.target)) is not None
        and part(target) != part(imp.module)
        and part(target) not in ALLOWED.get(part(imp.module), set())
    ]
    assert not forbidden, "imports the table (ALLOWED) does not allow:\n" + _listed(forbidden)


def _doc_table() -> dict[str, set[str]]:
    """The table of docs/architecture.md's "Allowed imports": part -> what it may import."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Allowed imports", 1)[1].split("\n## ", 1)[0]
    table: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 2:
            table[cells[0].strip("`")] = set(re.findall(r"`([^`]+)`", cells[1]))
    return table


def test_the_architecture_page_shows_the_table() -> None:
    assert _doc_table() == ALLOWED


# --------------------------------------------------------------------------- circles


def _runs(module: str, target: str) -> list[str]:
    """The modules that importing ``target`` from ``module`` runs: ``target`` and the
    packages above it that are not above ``module`` too (those have already begun)."""
    names = target.split(".")
    above = {".".join(names[:n]) for n in range(1, len(names))}
    begun = {module} | {module.rsplit(".", n)[0] for n in range(1, module.count(".") + 1)}
    return [m for m in sorted(above - begun) if m in MODULES] + [target]


def import_graph(imports: Iterable[Import]) -> dict[str, dict[str, Import]]:
    """Module -> the modules of the package it imports when it runs (at module level or in a
    function; not what only the type checker reads), each with one statement that does. An
    import of ``a.b.c`` also runs the packages ``a`` and ``a.b``."""
    graph: dict[str, dict[str, Import]] = {}
    for imp in imports:
        target = _own(imp.target)
        if target is None or imp.typing_only:
            continue
        for ran in _runs(imp.module, target):
            if ran != imp.module:
                graph.setdefault(imp.module, {}).setdefault(ran, imp)
    return graph


def circles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """One circle through each group of modules that import each other (a strongly
    connected component of more than one module), as the modules in import order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    found = []
    for group in groups:
        start = min(group)
        paths = {start: [start]}
        frontier = [start]
        while frontier:  # the shortest way back to the start, within the group
            node = frontier.pop(0)
            for nxt in sorted(graph[node]):
                if nxt == start:
                    found.append(paths[node])
                    frontier = []
                    break
                if nxt in group and nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    frontier.append(nxt)
    return sorted(found)


def test_no_import_circles() -> None:
    """No module imports itself through others, also by an import inside a function: the
    shared piece belongs in a module below both."""
    graph = import_graph(IMPORTS)
    shown = []
    for circle in circles(graph):
        steps = [
            f"{a} -> {b} ({graph[a][b].where})"
            for a, b in zip(circle, [*circle[1:], circle[0]], strict=True)
        ]
        shown.append("\n  ".join(steps))
    assert not shown, "import circles:\n  " + "\n\n  ".join(shown)


# --------------------------------------------------------------------------- inside functions


def _extras() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return list(tomllib.load(f)["project"]["optional-dependencies"])


#: Why an import may wait inside a function, as its trailing comment says: the start-up of a
#: program (``sixtysix --help`` imports every command's module, none of what the commands
#: run), or an optional extra of pyproject.toml (``# the rl extra``).
REASONS = frozenset({"start-up", *(f"the {extra} extra" for extra in _extras())})
_REASON = re.compile(r"\b(start-up|the [\w-]+ extra)\b")


def reason(imp: Import) -> str | None:
    found = _REASON.search(imp.comment)
    return found.group(1) if found and found.group(1) in REASONS else None


def test_the_scan_sees_imports_in_functions_and_their_reasons() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import json\n"
        "if TYPE_CHECKING:\n"
        "    from sixtysix.core import rules\n"
        "def f():\n"
        "    import numpy  # the fast extra\n"
        "    from sixtysix.core.cards import (  # start-up\n"
        "        Card,\n"
        "    )\n"
        "    return import_module('sixtysix.core.deal')\n"
        "class C:\n"
        "    def g(self):\n"
        "        from . import errors  # why not\n"
    )
    modules = {"sixtysix.core.x", "sixtysix.core.rules", "sixtysix.core.errors"}
    found = scan(source, "sixtysix.core.x", PACKAGE / "core" / "x.py", modules)
    assert [(i.line, i.target, i.in_function, i.typing_only, reason(i)) for i in found] == [
        (1, "typing", False, False, None),
        (2, "json", False, False, None),
        (4, "sixtysix.core.rules", False, True, None),
        (6, "numpy", True, False, "the fast extra"),
        (7, "sixtysix.core.cards", True, False, "start-up"),
        (10, "sixtysix.core.deal", True, False, None),
        (13, "sixtysix.core.errors", True, False, None),
    ]


def test_the_circle_finder_names_the_circle() -> None:
    def graph(*edges: str) -> dict[str, dict[str, Import]]:
        out: dict[str, dict[str, Import]] = {}
        for edge in edges:
            a, b = (f"sixtysix.{name}" for name in edge.split())
            out.setdefault(a, {})[b] = Import(a, PACKAGE / "x.py", 1, b, False, False, "")
        return out

    assert circles(graph("a b", "b c", "c a", "c d")) == [
        ["sixtysix.a", "sixtysix.b", "sixtysix.c"]
    ]
    assert circles(graph("a b", "b c", "c d")) == []
    # Importing bots.base from plugins runs the bots package first; a sibling's, not cli's.
    assert _runs("sixtysix.plugins.manager", "sixtysix.bots.base") == [
        "sixtysix.bots",
        "sixtysix.bots.base",
    ]
    assert _runs("sixtysix.cli.localized", "sixtysix.cli.errors") == ["sixtysix.cli.errors"]


def test_imports_inside_functions_say_why() -> None:
    """An import waits inside a function only to keep a program's start-up fast or for an
    optional extra, and its comment says which (``# start-up``, ``# the parquet extra``);
    anything else is imported at the top of its module."""
    unexplained = [
        (imp, imp.target)
        for imp in IMPORTS
        if imp.in_function and not imp.typing_only and reason(imp) is None
    ]
    assert not unexplained, (
        "imports inside functions without a reason (# start-up, # the <extra> extra):\n"
        + _listed(unexplained)
    )
