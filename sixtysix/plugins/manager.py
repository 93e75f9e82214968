"""Build the plugin manager and collect what plugins register.

The manager is made by a factory, never at import time, so tests can build fresh ones. Plugins
come from the ``sixtysix`` entry-point group, the built-ins included (see ``pyproject.toml``);
when entry points are unavailable (a source checkout that was never installed) or autoloading is
disabled with ``SIXTYSIX_DISABLE_PLUGIN_AUTOLOAD``, the built-ins are registered directly from
:data:`DEFAULT_PLUGINS`. A plugin that fails to import or registers something invalid is
reported by name and left out; the rest keeps working.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import TYPE_CHECKING

import pluggy

from sixtysix.core.errors import PluginError, UnknownBotError, UnknownVariantError
from sixtysix.plugins import PROJECT, hookspecs

if TYPE_CHECKING:
    from sixtysix.bots.base import Bot
    from sixtysix.core.variant import Variant

#: The built-in plugins, registered exactly like third-party ones.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "sixtysix.variants.sixtysix",
    "sixtysix.variants.schnapsen",
    "sixtysix.variants.sixtysix_3",
    "sixtysix.variants.sixtysix_4",
    "sixtysix.bots.random_bot",
    "sixtysix.bots.heuristic",
    "sixtysix.bots.pimc",
    "sixtysix.bots.expert",
)

DISABLE_AUTOLOAD_ENV = "SIXTYSIX_DISABLE_PLUGIN_AUTOLOAD"


def make_plugin_manager(
    autoload: bool | None = None, extra: tuple[object, ...] = ()
) -> tuple[pluggy.PluginManager, list[str]]:
    """A plugin manager with the built-ins, installed plugins and ``extra`` registered.

    Returns the manager and one error line per plugin that could not be loaded.
    """
    if autoload is None:
        autoload = not os.environ.get(DISABLE_AUTOLOAD_ENV)
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    errors: list[str] = []

    def add(plugin: object, name: str) -> None:
        if pm.is_registered(plugin) or pm.get_plugin(name) is not None:
            return
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # a bad hook signature or an unknown hook
            errors.append(f"plugin {name!r} is broken: {exc}")

    if autoload:
        for ep in entry_points(group=PROJECT):
            try:
                module = ep.load()
            except Exception as exc:
                errors.append(f"plugin {ep.name!r} ({ep.value}) failed to load: {exc}")
                continue
            add(module, ep.name if not isinstance(module, ModuleType) else module.__name__)
    for dotted in DEFAULT_PLUGINS:
        add(importlib.import_module(dotted), dotted)
    for i, plugin in enumerate(extra):
        add(plugin, getattr(plugin, "__name__", f"extra-{i}"))
    while True:  # one line per plugin with an unknown (say, misspelt) hook
        try:
            pm.check_pending()
            break
        except pluggy.PluginValidationError as exc:
            errors.append(f"plugin {pm.get_name(exc.plugin)!r} is broken: {exc}")
            pm.unregister(exc.plugin)
    return pm, errors


@dataclass
class Registry:
    """Everything the installed plugins registered, by name."""

    variants: dict[str, type[Variant]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    bots: dict[str, type[Bot]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: Names of the plugins that loaded, in load order (``sixtysix plugins`` lists them).
    plugins: list[str] = field(default_factory=list)

    def variant(self, name: str) -> type[Variant]:
        """Find a variant by name or alias, case-insensitively."""
        key = name.strip().lower()
        canonical = self.aliases.get(key)
        if canonical is None:
            known = ", ".join(
                f"{v.name} ({', '.join(v.aliases)})" if v.aliases else v.name
                for v in self.variants.values()
            )
            raise UnknownVariantError(f"unknown variant {name!r}; installed: {known}")
        return self.variants[canonical]

    def bot(self, name: str) -> type[Bot]:
        key = name.strip().lower()
        if key not in self.bots:
            raise UnknownBotError(f"unknown bot {name!r}; installed: {', '.join(self.bots)}")
        return self.bots[key]


def build_registry(autoload: bool | None = None, extra: tuple[object, ...] = ()) -> Registry:
    """Load the plugins and collect their registrations into a fresh :class:`Registry`."""
    from sixtysix.bots.base import Bot
    from sixtysix.core.variant import Variant

    pm, errors = make_plugin_manager(autoload, extra)
    reg = Registry(errors=errors, plugins=[name for name, _ in pm.list_name_plugin()])
    for impl in pm.hook.register_variants.get_hookimpls():
        plugin_name = impl.plugin_name
        found: list[type[Variant]] = []
        try:
            impl.function(register=found.append)
            for cls in found:
                _add_variant(reg, cls, plugin_name, Variant)
        except PluginError as exc:
            reg.errors.append(str(exc))
        except Exception as exc:
            reg.errors.append(f"plugin {plugin_name!r} failed in register_variants: {exc}")
    for impl in pm.hook.register_bots.get_hookimpls():
        plugin_name = impl.plugin_name
        bots: list[type[Bot]] = []
        try:
            impl.function(register=bots.append)
            for bot in bots:
                if not (isinstance(bot, type) and issubclass(bot, Bot)):
                    raise PluginError(f"plugin {plugin_name!r} registered {bot!r}, not a Bot")
                key = bot.name.lower()
                if key in reg.bots and reg.bots[key] is not bot:
                    raise PluginError(
                        f"plugin {plugin_name!r}: bot name {bot.name!r} is already taken"
                        f" by plugin {reg.bots[key].plugin!r}"
                    )
                bot.plugin = plugin_name
                reg.bots[key] = bot
        except PluginError as exc:
            reg.errors.append(str(exc))
        except Exception as exc:
            reg.errors.append(f"plugin {plugin_name!r} failed in register_bots: {exc}")
    reg.errors[:] = [" ".join(line.split()) for line in reg.errors]  # one line each
    return reg


def _add_variant(reg: Registry, obj: object, plugin: str, base: type[Variant]) -> None:
    if not (isinstance(obj, type) and issubclass(obj, base)):
        raise PluginError(f"plugin {plugin!r} registered {obj!r}, not a Variant subclass")
    cls: type[Variant] = obj
    if not getattr(cls, "name", None) or not isinstance(getattr(cls, "seats", None), int):
        raise PluginError(f"plugin {plugin!r}: variant {cls.__name__} needs a name and seats")
    names = [cls.name, *cls.aliases]
    for n in names:
        key = n.lower()
        if key in reg.aliases and reg.variants[reg.aliases[key]] is not cls:
            other = reg.variants[reg.aliases[key]]
            raise PluginError(
                f"plugin {plugin!r}: variant name {n!r} is already taken by"
                f" {other.name!r} of plugin {other.plugin!r}"
            )
    cls.plugin = plugin
    reg.variants[cls.name] = cls
    for n in names:
        reg.aliases[n.lower()] = cls.name


_cached: Registry | None = None


def get_registry() -> Registry:
    """The process-wide registry, built on first use."""
    global _cached
    if _cached is None:
        _cached = build_registry()
    return _cached
