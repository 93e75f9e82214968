"""``python -m sixtysix.bots.warm``: compile the expert's search now, once, after installing.

The compiled two-player search (:mod:`sixtysix.bots.compiled`) and the simulator's compiled
random games (:mod:`sixtysix.compiled.games`) are compiled by numba on their first use and kept
in numba's on-disk cache; from then on every process loads them in a fraction of a second. Run
this right after installing (the install instructions do) so that even the first game against
the expert starts without that wait; ``sixtysix play`` otherwise starts the same preparation in
the background (:func:`~sixtysix.bots.compiled.warm_up`). Without numba, or with
``SIXTYSIX_NO_NUMBA`` set, there is nothing to prepare.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from sixtysix.bots import compiled
from sixtysix.bots.base import Bot
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.core.variant import Variant
from sixtysix.i18n import translator
from sixtysix.variants.sixtysix import SixtySix


def for_game(variant: Variant, bots: Sequence[Bot | None], hints: bool) -> bool:
    """Start preparing the compiled search in the background for a game of ``variant`` where
    it will be needed: an expert plays, or the person may ask for hints (the expert's view).
    True if a preparation was started."""
    if hints or any(isinstance(b, ExpertBot) for b in bots):
        return compiled.warm_up(variant)
    return False


def main() -> int:
    """Prepare the kernels and say how long it took; status 1 if numba failed."""
    tr = translator(None)
    if not compiled.available():
        print(tr._("numba is not installed (or SIXTYSIX_NO_NUMBA is set): nothing to prepare."))
        return 0
    # Every game the compiled search plays calls the same kernels with the same argument types:
    # preparing one prepares them all.
    variant = SixtySix.configure(None, {})
    start = time.perf_counter()
    try:
        from sixtysix.compiled import games  # the fast extra

        compiled.prepare(variant)
        games.prepare(variant)
    except Exception as exc:  # numba's own errors have no common base
        line = tr._("numba could not compile the expert's search: {error}")
        print(line.format(error=exc), file=sys.stderr)
        return 1
    print(
        tr._("The expert's compiled search is ready ({seconds:.1f} s).").format(
            seconds=time.perf_counter() - start
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
