"""numba's ``njit`` as every compiled kernel uses it: cached on disk where it can be, typed for
mypy. Imports numba (the ``fast`` extra)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

_F = TypeVar("_F", bound=Callable[..., Any])

_njit = numba.njit(cache=True, nogil=True)


def jit(fn: _F) -> _F:
    """numba's ``njit``, typed for mypy (the kernels keep their Python signatures); cached on
    disk where numba finds a writable cache directory, else compiled anew in each process
    (numba refuses ``cache=True`` outright when neither the source's ``__pycache__``, the user
    cache directory nor ``NUMBA_CACHE_DIR`` can be written)."""
    try:
        return cast(_F, _njit(fn))
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return cast(_F, numba.njit(nogil=True)(fn))


def inlined(kernel: _F) -> _F:
    """``kernel`` compiled into each kernel that calls it (numba's ``inline="always"``), for
    the hottest loops: numba does not inline one kernel's call to another, and such a call
    passes each array argument as a handful of values."""
    return cast(_F, numba.njit(inline="always")(getattr(kernel, "py_func", kernel)))
