"""Write a new, installable plugin package: a house variant or a bot.

The package is complete from the first minute: a pyproject with the ``sixtysix`` entry point,
a module that subclasses a built-in (or installed) variant or :class:`~sixtysix.bots.base.Bot`,
a README, and tests wired to the conformance kit (:mod:`sixtysix.testing`) that pass as
generated. The author then changes rules one at a time, with the kit watching.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sixtysix import __version__
from sixtysix.core.errors import SixtySixError
from sixtysix.core.variant import Variant
from sixtysix.scaffold import templates

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
#: Class names the generated module imports; a plugin class must not shadow them.
_RESERVED = frozenset({"Action", "Bot", "Options", "Rules", "Seed", "Variant", "View"})


class ScaffoldError(SixtySixError):
    """A name or target directory a package cannot be written to."""


@dataclass(frozen=True)
class Names:
    """The spellings of one plugin name: ``house-rules`` -> package, module, class."""

    name: str
    dist: str
    module: str
    cls: str
    title: str

    @property
    def short(self) -> str:
        """The module name without its ``sixtysix_`` prefix (for test file names)."""
        return self.module.removeprefix("sixtysix_")

    @classmethod
    def of(cls, name: str) -> Names:
        key = name.strip().lower()
        if not NAME_PATTERN.match(key) or len(key) > 40:
            raise ScaffoldError(
                f"invalid name {name!r}: use lower-case letters and digits, words joined by"
                " hyphens, starting with a letter (e.g. house-rules)"
            )
        words = key.split("-")
        class_name = "".join(w.capitalize() for w in words)
        if class_name in _RESERVED:
            raise ScaffoldError(
                f"invalid name {name!r}: its class {class_name} would shadow sixtysix's"
            )
        return cls(
            name=key,
            dist=f"sixtysix-{key}",
            module="sixtysix_" + "_".join(words),
            cls=class_name,
            title=" ".join(words).capitalize(),
        )


def package_dir(names: Names, parent: Path) -> Path:
    target = parent / names.dist
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"{target} already exists and is not empty")
    return target


def _write(target: Path, files: dict[str, str]) -> list[Path]:
    written = []
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _import_lines(base: type[Variant], with_option: bool) -> str:
    """The module's sixtysix imports, sorted as ruff's isort sorts them."""
    options_cls = base.options_class
    modules: dict[str, set[str]] = {
        "sixtysix.core.options": {"Options", "option"} if with_option else {"Options"},
        "sixtysix.core.rules": {"Rules"},
        "sixtysix.core.variant": {"Variant"},
        "sixtysix.plugins": {"hookimpl"},
    }
    modules.setdefault(base.__module__, set()).add(base.__name__)
    modules.setdefault(options_cls.__module__, set()).add(options_cls.__name__)

    def order(name: str) -> tuple[int, str]:
        kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
        return kind, name

    return "\n".join(
        f"from {module} import {', '.join(sorted(names, key=order))}"
        for module, names in sorted(modules.items())
    )


def scaffold_variant(name: str, base: type[Variant], parent: Path) -> list[Path]:
    """Write package ``sixtysix-NAME`` under ``parent``: a variant subclassing ``base``."""
    names = Names.of(name)
    target = package_dir(names, parent)
    target_spec = next((s for s in base.options_class.specs() if s.name == "target"), None)
    values = {
        "name": names.name,
        "dist": names.dist,
        "module": names.module,
        "cls": names.cls,
        "title": names.title,
        "base_name": base.name,
        "base_class": base.__name__,
        "base_options": base.options_class.__name__,
        "imports": _import_lines(base, target_spec is not None),
        "target_field": (
            templates.TARGET_FIELD.substitute(target=target_spec.default) if target_spec else ""
        ),
        "summary": f"{names.title}: a house variant of {base.name} for sixtysix",
        "sixtysix_version": __version__,
    }
    files = {
        "pyproject.toml": templates.PYPROJECT.substitute(values),
        "README.md": templates.VARIANT_README.substitute(values),
        ".gitignore": templates.GITIGNORE,
        f"{names.module}/__init__.py": templates.VARIANT_MODULE.substitute(values),
        "tests/test_conformance.py": templates.VARIANT_CONFORMANCE_TEST.substitute(values),
        f"tests/test_{names.short}.py": templates.VARIANT_TEST.substitute(values),
    }
    return _write(target, files)


def scaffold_bot(name: str, parent: Path) -> list[Path]:
    """Write package ``sixtysix-NAME`` under ``parent``: a bot subclassing ``Bot``."""
    names = Names.of(name)
    target = package_dir(names, parent)
    values = {
        "name": names.name,
        "dist": names.dist,
        "module": names.module,
        "cls": names.cls,
        "title": names.title,
        "summary": f"{names.title}: a computer player for sixtysix",
        "sixtysix_version": __version__,
    }
    files = {
        "pyproject.toml": templates.PYPROJECT.substitute(values),
        "README.md": templates.BOT_README.substitute(values),
        ".gitignore": templates.GITIGNORE,
        f"{names.module}/__init__.py": templates.BOT_MODULE.substitute(values),
        "tests/test_conformance.py": templates.BOT_CONFORMANCE_TEST.substitute(values),
        f"tests/test_{names.short}.py": templates.BOT_TEST.substitute(values),
    }
    return _write(target, files)


__all__ = ["Names", "ScaffoldError", "scaffold_bot", "scaffold_variant"]
