"""The simulator's errors: bad output files, backends that cannot start.

They derive from :class:`~sixtysix.core.errors.SixtySixError`, so the CLI reports them in one
line with exit status 2, like every other bad input.
"""

from __future__ import annotations

from sixtysix.core.errors import SixtySixError


class SimulationError(SixtySixError):
    """A simulation or tournament that cannot be run as asked."""


class OutputError(SimulationError, ValueError):
    """An output file that cannot be written, read, resumed or replayed from."""


class BackendError(SimulationError, RuntimeError):
    """A backend that is not installed or cannot start (say, no Ray cluster at an address)."""
