"""The two-player rules (66, Schnapsen and every option set :mod:`~sixtysix.compiled.allowed`
admits) compiled once with numba: one statement of them under the simulator's random play, the
expert's search and the batched environments for learning.

The engine (:mod:`sixtysix.core` with :mod:`sixtysix.variants.two_hand`) is the rules' first
statement; this layer is the one other, kept for speed and held to the engine game by game
(``tests/compiled/``). A rule set outside :data:`~sixtysix.compiled.allowed.RULES` goes to the
engine everywhere.

Modules: :mod:`~.layout` (where each field of a packed position lies), :mod:`~.allowed` (the
allow-list), :mod:`~.position` (packing a deal and a variant's knobs), :mod:`~.rules` (legal
actions, applying one, settling: numba), :mod:`~.shake` (the engine's SHAKE-256 draws, numba),
:mod:`~.games` (random games dealt and played from a seed, numba) and :mod:`~.batch` (many
deals stepped at once for learning, over :mod:`~.batch_layout`, :mod:`~.dealing`,
:mod:`~.encoding` and :mod:`~.stepping`). Importing this package imports neither numpy nor numba.
"""

from __future__ import annotations

import importlib.util
import os


def available() -> bool:
    """Whether numba and numpy are installed (the ``fast`` extra) and not disabled by
    ``SIXTYSIX_NO_NUMBA``. Only looked up, not imported: numba is imported on first use."""
    if os.environ.get("SIXTYSIX_NO_NUMBA"):
        return False
    return all(importlib.util.find_spec(m) is not None for m in ("numba", "numpy"))
