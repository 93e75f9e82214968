"""Every hook works as documented, is documented, and has a test (datasette's meta-tests).

Adding a hook to ``sixtysix/plugins/hookspecs.py`` without a docstring, a section in
``docs/plugins/hooks.md`` and a ``test_hook_<name>`` function here fails this module.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest

from sixtysix.bots.base import Bot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import Action
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl, hookspecs
from sixtysix.plugins.manager import build_registry
from sixtysix.variants.schnapsen import Schnapsen, SchnapsenOptions

DOCS = Path(__file__).resolve().parents[2] / "docs"
HOOK_DOC = DOCS / "plugins" / "hooks.md"


def hook_names() -> list[str]:
    return sorted(
        name
        for name, func in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(func, "sixtysix_spec")
    )


def plugin(name: str, **hooks: Callable[..., None]) -> ModuleType:
    module = ModuleType(name)
    for hook_name, func in hooks.items():
        setattr(module, hook_name, hookimpl(func))
    return module


# ------------------------------------------------------------------ the hooks themselves


@dataclass(frozen=True)
class _QuickOptions(SchnapsenOptions):
    variant_name: ClassVar[str] = "quick-schnapsen"


class QuickSchnapsen(Schnapsen):
    """Schnapsen to 3 game points."""

    name = "quick-schnapsen"
    aliases = ("quick",)
    description = "Schnapsen, a short match"
    options_class = _QuickOptions


class FirstBot(Bot):
    name = "first"
    description = "always the first legal action"

    def choose(self, view: View) -> Action:
        return view.legal_actions[0]


def test_hook_register_variants() -> None:
    def register_variants(register: Callable[[Any], None]) -> None:
        register(QuickSchnapsen)

    reg = build_registry(
        autoload=False, extra=(plugin("quick_plugin", register_variants=register_variants),)
    )
    assert not reg.errors
    assert reg.variant("QUICK") is QuickSchnapsen  # aliases resolve case-insensitively
    assert QuickSchnapsen.plugin == "quick_plugin"
    assert reg.variant("schnapsen") is Schnapsen  # the built-ins are still there


def test_hook_register_bots() -> None:
    def register_bots(register: Callable[[Any], None]) -> None:
        register(FirstBot)

    reg = build_registry(
        autoload=False, extra=(plugin("first_plugin", register_bots=register_bots),)
    )
    assert not reg.errors
    assert reg.bot("First") is FirstBot and FirstBot.plugin == "first_plugin"
    assert reg.bot("random") is RandomBot


# ------------------------------------------------------------------ the meta-tests


def test_there_are_hooks() -> None:
    assert hook_names() == ["register_bots", "register_variants"]


@pytest.mark.parametrize("hook", hook_names())
def test_hook_has_a_docstring_with_an_example(hook: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, hook)) or ""
    assert len(doc.split()) >= 8, f"{hook} needs a docstring that says what and why"
    assert "register(" in doc, f"{hook}'s docstring should show the register call"


@pytest.mark.parametrize("hook", hook_names())
def test_hook_is_documented(hook: str) -> None:
    text = HOOK_DOC.read_text(encoding="utf-8")
    assert re.search(rf"^## `{hook}\(", text, re.MULTILINE), f"no section for {hook} in {HOOK_DOC}"


@pytest.mark.parametrize("hook", hook_names())
def test_hook_has_a_test(hook: str) -> None:
    assert callable(getattr(sys.modules[__name__], f"test_hook_{hook}", None)), (
        f"add test_hook_{hook} to {__file__}"
    )
