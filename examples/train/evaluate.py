"""Measure a trained policy file as ``sixtysix duel`` does: every deal played twice with the
seats swapped, against each opponent, with the win rate's 95% Wilson interval.

    python examples/train/evaluate.py runs/maskable-1.npz --deals 500 \
        --against random --against heuristic
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from common import describe, evaluate

from sixtysix.core.errors import SixtySixError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="the .npz policy file a recipe wrote")
    parser.add_argument("--deals", type=int, default=500, help="deals per duel (500)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (7)")
    parser.add_argument(
        "--against", action="append", default=None, help="opponent bot spec (repeatable; random)"
    )
    parser.add_argument(
        "--play", choices=("greedy", "sample"), default="greedy", help="greedy or sample"
    )
    parser.add_argument("--json", action="store_true", help="print the duels as JSON lines")
    args = parser.parse_args(argv)
    if not args.model.is_file():
        parser.error(f"no policy file {str(args.model)!r}")
    try:
        duels = evaluate(args.model, args.against or ["random"], args.deals, args.seed, args.play)
    except SixtySixError as err:  # an unknown bot or parameter: one line, status 2
        parser.error(str(err))
    for summary in duels:
        print(json.dumps(summary.as_json()) if args.json else describe(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
