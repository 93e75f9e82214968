"""sixtysix: the card games of the Sixty-six family.

The package is deliberately light at import time: the command line's ``--version`` must answer
in well under a quarter of a second, so nothing heavy is imported here.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
