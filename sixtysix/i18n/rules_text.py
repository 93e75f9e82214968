"""Translated pieces of ``sixtysix rules``: how an option's values are described.

The option docs and rule summaries themselves are translated by their English text
(:meth:`Translator.text`); this module covers the generated parts.
"""

from __future__ import annotations

from sixtysix.core.options import OptionSpec
from sixtysix.i18n import Translator


def values_text(tr: Translator, spec: OptionSpec) -> str:
    """``true or false`` / ``a positive integer up to 1000`` / ``one of auto, manual``."""
    if spec.kind == "bool":
        return tr._("true or false")
    if spec.kind == "int":
        return tr._("a positive integer up to {maximum}").format(maximum=spec.maximum)
    return tr._("one of {choices}").format(choices=", ".join(spec.choices or ()))
