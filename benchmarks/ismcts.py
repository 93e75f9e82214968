"""A prototype measured, not kept: ISMCTS (``_ismcts.py``) in the games of ``sixtysix duel``.

Plays ``ismcts[:k=v,...]`` against any bot on the very deals, seatings and seeds of
``sixtysix duel VARIANT BOT OPPONENT --deals N --seed S`` and prints the duel's summary line
with the time per move; compare with ``sixtysix duel VARIANT expert OPPONENT`` on the same
arguments. Ctrl-C reports the deals finished so far (exit status 130); an unknown bot, variant
or parameter is a one-line error (exit status 2).

    python benchmarks/ismcts.py schnapsen ismcts heuristic --deals 300 --jobs 2
    python benchmarks/ismcts.py schnapsen ismcts:margin=0.3 heuristic --deals 300 --jobs 2
    python benchmarks/ismcts.py schnapsen ismcts:mix=1 random --deals 300 --jobs 2

Two-player games of the compiled search (66, Schnapsen); needs numba (the ``fast`` extra).
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _duels import duel_parser, play_all, resolved, summary_line
from _ismcts import IsmctsBot

from sixtysix.bots.compiled import available, supports
from sixtysix.plugins.manager import get_registry


def main(argv: list[str] | None = None) -> int:
    parser = duel_parser(__doc__, "ismcts with its parameters (ismcts:margin=0.3)")
    args = parser.parse_args(argv)
    reg = get_registry()
    reg = replace(reg, bots={**reg.bots, IsmctsBot.name: IsmctsBot})
    variant, contestants = resolved(parser, args, reg)
    if not available() or not supports(variant):
        parser.error("needs numba and a two-player game of the compiled search (66, schnapsen)")
    start = time.perf_counter()
    played, status = play_all(variant, contestants, args)
    what = f"{contestants[0].label} against {contestants[1].label}"
    print(summary_line(variant, contestants, played, args, time.perf_counter() - start, what))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
