"""The game a view belongs to, rebuilt from the view alone.

A view names its variant and carries its option values (the rules are public), so a bot can
rebuild the game it is playing without being handed anything else, and without the plugin
registry: the variant's class is already loaded (the driver that made the game loaded it), so
it is found among the loaded subclasses of :class:`~sixtysix.core.variant.Variant` and built
by :func:`~sixtysix.plugins.manager.variant_from`, as every other caller builds one.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sixtysix.core.errors import SixtySixError
from sixtysix.core.rules import Rules
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, variant_from


class InconsistentViewError(SixtySixError):
    """A view that no deal of its variant could produce (a hand-made or corrupted view)."""


def _loaded(cls: type[Variant]) -> Iterator[type[Variant]]:
    """Every loaded subclass of ``cls``, parents before children, in definition order."""
    for sub in cls.__subclasses__():
        yield sub
        yield from _loaded(sub)


@lru_cache(maxsize=32)
def _variant_from(
    name: str, options: tuple[tuple[str, bool | int | str], ...], rules: Rules
) -> Variant:
    """The first loaded variant called ``name`` that makes ``rules`` with ``options``."""
    named = False
    for cls in _loaded(Variant):
        if vars(cls).get("name") != name:  # its own name, not one inherited
            continue
        named = True
        variant = variant_from(Registry.holding(cls), name, dict(options))
        if variant.rules == rules:
            return variant
    if not named:
        raise InconsistentViewError(f"no loaded variant is called {name!r}")
    raise InconsistentViewError(
        f"the installed variant {name!r} does not make the rules this view was played under"
    )


def variant_of(view: View) -> Variant:
    """The variant a view belongs to, with its options, found among the loaded variants."""
    return _variant_from(view.variant, view.options, view.rules)
