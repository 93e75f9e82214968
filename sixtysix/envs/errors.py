"""The errors of the research environments, importable without numpy.

``import sixtysix.envs`` checks for numpy after importing this module, so the error it raises
when an extra is missing can be caught by its class even where numpy is absent.
"""

from __future__ import annotations

from sixtysix.core.errors import SixtySixError


class MissingExtraError(SixtySixError, ImportError):
    """An optional dependency (an extra) is not installed; the message says which to install.

    An :class:`ImportError` too, so code that treats a missing package as "fall back" keeps
    working.
    """


def missing_extra(what: str, extra: str) -> MissingExtraError:
    """The one-line error for ``what`` needing ``extra``: "... needs the rl extra: pip ..."."""
    return MissingExtraError(f"{what} needs the {extra} extra: pip install 'sixtysix[{extra}]'")


class ActionIdError(SixtySixError, ValueError):
    """An action id outside the action-id space (0..41), or not an integer."""


class EncodingError(SixtySixError, ValueError):
    """A view that this encoder cannot encode: another variant's, or a plugin's deal that
    goes beyond what its rules allow (a longer history, an action its rules never offer)."""
