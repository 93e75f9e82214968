"""Importing an optional library (an extra) when an adapter is called, with one clear error.

``import sixtysix.envs`` never imports PettingZoo, Gymnasium or OpenSpiel: each adapter calls
:func:`require` when it is used, so a missing extra costs nothing until then and then says in
one line what to install. Needs no numpy.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from sixtysix.envs.errors import MissingExtraError, missing_extra

__all__ = ["MissingExtraError", "require"]


def require(module: str, extra: str, what: str) -> ModuleType:
    """The imported ``module``, or :class:`MissingExtraError` "``what`` needs the ``extra``
    extra: pip install 'sixtysix[extra]'" when it (or a library it needs) is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise missing_extra(what, extra) from error
