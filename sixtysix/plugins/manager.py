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
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import TYPE_CHECKING

import pluggy

from sixtysix.core.errors import PluginError, UnknownBotError, UnknownVariantError
from sixtysix.core.variant import Variant
from sixtysix.i18n import N_
from sixtysix.plugins import PROJECT, hookspecs

if TYPE_CHECKING:
    from sixtysix.bots.base import Bot
    from sixtysix.i18n import Translator

#: The built-in plugins, registered exactly like third-party ones.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "sixtysix.variants.sixtysix",
    "sixtysix.variants.schnapsen",
    "sixtysix.variants.sixtysix_3",
    "sixtysix.variants.sixtysix_4",
    "sixtysix.bots.players.random_bot",
    "sixtysix.bots.players.heuristic",
    "sixtysix.bots.players.pimc",
    "sixtysix.bots.players.expert",
)

DISABLE_AUTOLOAD_ENV = "SIXTYSIX_DISABLE_PLUGIN_AUTOLOAD"


@dataclass(frozen=True)
class Problem:
    """One plugin that could not be loaded, as a message template and its values, so that
    each interface shows it in its own language (``str()``: English, on one line)."""

    template: str
    fields: Mapping[str, str]

    def __str__(self) -> str:
        return self._line(self.template)

    def text(self, tr: Translator) -> str:
        """The message in ``tr``'s language, on one line."""
        return self._line(tr._(self.template))

    def _line(self, template: str) -> str:
        return " ".join(template.format(**self.fields).split())


class _Invalid(PluginError):
    """A registration refused, with its :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def problem(template: str, **fields: str) -> Problem:
    """A :class:`Problem` of ``template`` and its values."""
    return Problem(template, fields)


def make_plugin_manager(
    autoload: bool | None = None, extra: tuple[object, ...] = ()
) -> tuple[pluggy.PluginManager, list[Problem]]:
    """A plugin manager with the built-ins, installed plugins and ``extra`` registered.

    Returns the manager and one problem per plugin that could not be loaded.
    """
    if autoload is None:
        autoload = not os.environ.get(DISABLE_AUTOLOAD_ENV)
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    errors: list[Problem] = []

    def add(plugin: object, name: str) -> None:
        if pm.is_registered(plugin) or pm.get_plugin(name) is not None:
            return
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # a bad hook signature or an unknown hook
            errors.append(
                problem(N_("plugin {name!r} is broken: {error}"), name=name, error=str(exc))
            )

    if autoload:
        for ep in entry_points(group=PROJECT):
            try:
                module = ep.load()
            except Exception as exc:
                errors.append(
                    problem(
                        N_("plugin {name!r} ({value}) failed to load: {error}"),
                        name=ep.name,
                        value=ep.value,
                        error=str(exc),
                    )
                )
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
            name = pm.get_name(exc.plugin) or ""
            errors.append(
                problem(N_("plugin {name!r} is broken: {error}"), name=name, error=str(exc))
            )
            pm.unregister(exc.plugin)
    return pm, errors


@dataclass
class Registry:
    """Everything the installed plugins registered, by name."""

    variants: dict[str, type[Variant]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    bots: dict[str, type[Bot]] = field(default_factory=dict)
    #: One per plugin that could not be loaded, to be shown in the interface's language
    #: (:meth:`Problem.text`; :attr:`errors`: in English).
    problems: list[Problem] = field(default_factory=list)
    #: Names of the plugins that loaded, in load order (``sixtysix plugins`` lists them).
    plugins: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """One English line per plugin that could not be loaded."""
        return [str(p) for p in self.problems]

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

    @classmethod
    def holding(cls, variant: type[Variant]) -> Registry:
        """A registry of ``variant`` alone, under its name and aliases, with no plugin loaded:
        for code that already holds the class (a record's replay in the conformance kit, a
        bot's view) and rebuilds it the way every caller does (:func:`variant_from`)."""
        names = (variant.name, *variant.aliases)
        return cls(
            variants={variant.name: variant}, aliases={n.lower(): variant.name for n in names}
        )

    def bot(self, name: str) -> type[Bot]:
        key = name.strip().lower()
        if key not in self.bots:
            raise UnknownBotError(f"unknown bot {name!r}; installed: {', '.join(self.bots)}")
        return self.bots[key]


def build_registry(autoload: bool | None = None, extra: tuple[object, ...] = ()) -> Registry:
    """Load the plugins and collect their registrations into a fresh :class:`Registry`."""
    from sixtysix.bots.base import Bot  # start-up

    pm, errors = make_plugin_manager(autoload, extra)
    reg = Registry(problems=errors, plugins=[name for name, _ in pm.list_name_plugin()])
    for impl in pm.hook.register_variants.get_hookimpls():
        found: list[type[Variant]] = []
        try:
            impl.function(register=found.append)
            for cls in found:
                _add_variant(reg, cls, impl.plugin_name, Variant)
        except _Invalid as exc:
            reg.problems.append(exc.problem)
        except Exception as exc:
            reg.problems.append(_hook_failed(impl.plugin_name, "register_variants", exc))
    for impl in pm.hook.register_bots.get_hookimpls():
        bots: list[type[Bot]] = []
        try:
            impl.function(register=bots.append)
            for bot in bots:
                _add_bot(reg, bot, impl.plugin_name, Bot)
        except _Invalid as exc:
            reg.problems.append(exc.problem)
        except Exception as exc:
            reg.problems.append(_hook_failed(impl.plugin_name, "register_bots", exc))
    return reg


def _hook_failed(plugin: str, hook: str, exc: Exception) -> Problem:
    return problem(
        N_("plugin {name!r} failed in {hook}: {error}"), name=plugin, hook=hook, error=str(exc)
    )


def _add_bot(reg: Registry, obj: object, plugin: str, base: type[Bot]) -> None:
    if not (isinstance(obj, type) and issubclass(obj, base)):
        raise _Invalid(
            problem(
                N_("plugin {name!r} registered {thing}, not a Bot"), name=plugin, thing=repr(obj)
            )
        )
    bot: type[Bot] = obj
    key = bot.name.lower()
    if key in reg.bots and reg.bots[key] is not bot:
        raise _Invalid(
            problem(
                N_("plugin {name!r}: bot name {bot!r} is already taken by plugin {other!r}"),
                name=plugin,
                bot=bot.name,
                other=reg.bots[key].plugin,
            )
        )
    bot.plugin = plugin
    reg.bots[key] = bot


def _add_variant(reg: Registry, obj: object, plugin: str, base: type[Variant]) -> None:
    if not (isinstance(obj, type) and issubclass(obj, base)):
        raise _Invalid(
            problem(
                N_("plugin {name!r} registered {thing}, not a Variant subclass"),
                name=plugin,
                thing=repr(obj),
            )
        )
    cls: type[Variant] = obj
    if not getattr(cls, "name", None) or not isinstance(getattr(cls, "seats", None), int):
        raise _Invalid(
            problem(
                N_("plugin {name!r}: variant {cls} needs a name and seats"),
                name=plugin,
                cls=cls.__name__,
            )
        )
    names = [cls.name, *cls.aliases]
    for n in names:
        key = n.lower()
        if key in reg.aliases and reg.variants[reg.aliases[key]] is not cls:
            other = reg.variants[reg.aliases[key]]
            raise _Invalid(
                problem(
                    N_(
                        "plugin {name!r}: variant name {variant!r} is already taken by"
                        " {other!r} of plugin {owner!r}"
                    ),
                    name=plugin,
                    variant=n,
                    other=other.name,
                    owner=other.plugin,
                )
            )
    cls.plugin = plugin
    reg.variants[cls.name] = cls
    for n in names:
        reg.aliases[n.lower()] = cls.name


#: Variants built by :func:`variant_from`, by class, preset and options (as JSON); bounded.
_BUILT: dict[tuple[type[Variant], str | None, str], Variant] = {}
_BUILT_MAX = 64


def variant_from(
    registry: Registry,
    name: str,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
) -> Variant:
    """The variant ``name`` (or an alias) of ``registry`` with ``preset`` and then ``options``
    applied (:meth:`Variant.configure`): the one way a variant is rebuilt from its name and
    options, be they a protocol message's, a view's or a command's.

    Cached, as players and bots rebuild it at every move: the same class, preset and options
    give the same object, which is shared and must not be changed. An unknown name, preset or
    option is a one-line :class:`~sixtysix.core.errors.SixtySixError`; a name that is not text
    or options that are not a mapping, a :class:`TypeError`.
    """
    if not isinstance(name, str) or (options is not None and not isinstance(options, Mapping)):
        raise TypeError("a variant is a name and an object of options")
    cls = registry.variant(name)
    values = dict(options or {})
    try:
        key = (cls, preset, json.dumps(values, sort_keys=True))
    except (TypeError, ValueError):  # values no key can hold: built (and refused) uncached
        return cls.configure(preset, values)
    built = _BUILT.get(key)
    if built is None:
        built = cls.configure(preset, values)
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        _BUILT[key] = built
    return built


_cached: Registry | None = None


def get_registry() -> Registry:
    """The process-wide registry, built on first use."""
    global _cached
    if _cached is None:
        _cached = build_registry()
    return _cached
