"""Random-vs-random simulation speed, in games (deals) per second on one core.

For every installed variant (and each of its non-empty presets) this plays ``--games`` games
between random bots on the generic path (``sixtysix.sim.simulate.play_game``) and, where it
applies, on the compiled rules (``sixtysix.sim.random_games``, through ``simulate`` as the
command line runs it: dealing, play and totals), and prints games/s. Before timing the compiled
path it checks that its first ``--verify`` games equal the generic ones.

    python -m benchmarks.speed.throughput                 # 20,000 games per path and variant
    python -m benchmarks.speed.throughput --games 100000 --repeat 3 --variant 66 --variant schnapsen

The process is pinned to one CPU (``--cpu``, Linux only) so the figures are single-core ones.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.simulate import BotSpec, fast_path, play_game, simulate

#: Games/s the issues ask of the best available path on one core, by variant name.
TARGETS: dict[str, int] = {"sixtysix": 500_000, "schnapsen": 500_000}


def best_rate(run: Callable[[], object], games: int, repeat: int) -> float:
    """Games per second of the fastest of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return games / best


def pin_to_one_cpu(cpu: int | None) -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per path (20000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (1)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure, best kept (1)")
    parser.add_argument("--verify", type=int, default=300, help="games compared first (300)")
    parser.add_argument(
        "--variant", action="append", default=None, help="only these variants (repeatable)"
    )
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (first allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    parser.add_argument("--no-generic", action="store_true", help="time the fast path only")
    args = parser.parse_args(argv)

    pinned = "not pinned" if args.no_pin else pin_to_one_cpu(args.cpu)
    reg = build_registry()
    for err in reg.errors:
        print(f"warning: {err}", file=sys.stderr)
    names = [reg.variant(v).name for v in args.variant] if args.variant else sorted(reg.variants)
    try:
        import numba

        numba_version = numba.__version__
    except ImportError:
        numba_version = "not installed (no compiled path)"
    print(
        f"Python {platform.python_version()}, numba {numba_version}, {pinned};"
        f" {args.games} games per figure, seed {args.seed}, best of {args.repeat}"
    )
    header = (
        f"{'variant':<24}{'generic games/s':>17}{'compiled games/s':>18}{'speed-up':>10}"
        f"{'target':>9}  status"
    )
    print(header)
    print("-" * len(header))
    failed = False
    master = Seed(args.seed)
    games = args.games
    for name in names:
        cls = reg.variants[name]
        configs: list[tuple[str, Variant]] = [(name, cls())]
        configs += [
            (f"{name} ({preset})", cls.configure(preset))
            for preset, values in sorted(cls.presets.items())
            if values
        ]
        for label, variant in configs:
            bots: list[BotSpec] = [(RandomBot, {}) for _ in range(variant.seats)]

            def generic(variant: Variant = variant, bots: list[BotSpec] = bots) -> None:
                for i in range(games):
                    play_game(variant, bots, master, i)

            slow = None if args.no_generic else best_rate(generic, games, args.repeat)
            fast_rate = None
            compiled = fast_path(variant, bots)
            if compiled is not None:
                check = args.verify
                expected = [play_game(variant, bots, master, i) for i in range(check)]
                if compiled.results(master, 0, check) != expected:
                    print(f"{label}: the compiled path differs from the generic path!")
                    failed = True
                    continue

                def fast(variant: Variant = variant, bots: list[BotSpec] = bots) -> None:
                    simulate(variant, bots, games, master)

                fast(variant, bots)  # numba compiles or loads its kernels once, untimed
                fast_rate = best_rate(fast, games, args.repeat)
            best = max(r for r in (slow, fast_rate, 0.0) if r is not None)
            target = TARGETS.get(variant.name) if label == name else None
            if target is None:
                status = ""
            elif best >= target:
                status = "meets target"
            else:
                status = "BELOW target"
                failed = True
            print(
                f"{label:<24}"
                f"{'-' if slow is None else f'{slow:,.0f}':>17}"
                f"{'-' if fast_rate is None else f'{fast_rate:,.0f}':>18}"
                f"{f'{fast_rate / slow:.1f}x' if slow and fast_rate else '-':>10}"
                f"{'-' if target is None else f'{target:,}':>9}  {status}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
