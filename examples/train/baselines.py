"""Baselines: train a recipe over several seeds, one run at a time, and measure each policy
against ``random``, ``heuristic`` and ``expert``; then the table over seeds.

    python examples/train/baselines.py run maskable_ppo --seeds 1 2 3 4 5 --steps 200000
    python examples/train/baselines.py exploit maskable_ppo --seeds 1 2 3 4 5 --deals 40
    python examples/train/baselines.py table runs/baselines.jsonl --exploit runs/exploit.jsonl

Each run appends one JSON line to ``runs/baselines.jsonl``: the recipe, seed and steps, the
training's wall-clock and CPU seconds, the machine's load average before it, and every duel
(``sixtysix.sim.duel``'s JSON: each deal played twice with the seats swapped). ``table`` prints
per recipe and opponent the mean win rate over seeds with its 95% t interval across seeds and
the mean game points per deal (the policy's minus the opponent's), then each run's win rates
with their Wilson intervals. ``exploit`` measures each run's policy file as ``sixtysix exploit``
does (a local best response's game points per deal taken from it) and appends a line per run to
``runs/exploit.jsonl``; ``table --exploit`` adds its mean over seeds as a column.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from common import OPPONENTS, across_seeds, evaluate, exploitability, log

HERE = Path(__file__).resolve().parent
RECIPES = ("maskable_ppo", "cleanrl_ppo", "rllib_ppo", "nfsp")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    deals = {"random": args.deals, "heuristic": args.deals, "expert": args.expert_deals}
    for seed in args.seeds:
        model = args.out / f"{args.recipe}-{seed}.npz"
        load = os.getloadavg()
        wall, cpu = time.perf_counter(), children_cpu()
        command = [sys.executable, str(HERE / f"{args.recipe}.py"), "--seed", str(seed)]
        command += ["--steps", str(args.steps), "--out", str(model), *args.extra]
        log(" ".join(command))
        subprocess.run(command, check=True)
        trained = {"wall": time.perf_counter() - wall, "cpu": children_cpu() - cpu}
        start = time.perf_counter(), time.process_time()
        duels = evaluate(model, list(deals), deals, args.eval_seed)
        measured = {"wall": time.perf_counter() - start[0], "cpu": time.process_time() - start[1]}
        line = {
            "recipe": args.recipe,
            "seed": seed,
            "steps": args.steps,
            "extra": args.extra,
            "load_before": [round(x, 2) for x in load],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "train_seconds": trained,
            "eval_seconds": measured,
            "duels": [d.as_json() for d in duels],
        }
        with (args.out / "baselines.jsonl").open("a") as f:
            f.write(json.dumps(line) + "\n")
        rates = ", ".join(f"{d.labels[1]} {d.win_rate[0].value:.1%}" for d in duels)
        log(f"{model}: trained in {trained['cpu']:.0f} s CPU; {rates}")


def measure_exploitability(args: argparse.Namespace) -> None:
    for seed in args.seeds:
        model = args.out / f"{args.recipe}-{seed}.npz"
        if not model.is_file():
            raise SystemExit(f"no policy file {str(model)!r}: train it with `run` first")
        load = os.getloadavg()
        summary = exploitability(model, args.deals, args.eval_seed, args.jobs)
        line = {
            "recipe": args.recipe,
            "seed": seed,
            "load_before": [round(x, 2) for x in load],
            "exploit": summary.as_json(),
        }
        with (args.out / "exploit.jsonl").open("a") as f:
            f.write(json.dumps(line) + "\n")
        gain = summary.gain
        log(f"{model}: LBR takes {gain.value:+.2f} ({gain.low:+.2f} to {gain.high:+.2f}) a deal")


def exploit_cells(path: Path | None) -> dict[str, str]:
    """Per recipe, the mean over seeds of what LBR takes per deal, with its t interval."""
    if path is None:
        return {}
    gains: dict[str, list[float]] = defaultdict(list)
    for text in path.read_text().splitlines():
        line = json.loads(text)
        gains[line["recipe"]].append(line["exploit"]["game_points_taken_per_deal"]["estimate"])
    cells = {}
    for recipe, values in gains.items():
        mean = across_seeds(values)
        interval = "" if mean.low is None else f" ({mean.low:+.2f} to {mean.high:+.2f})"
        cells[recipe] = f"**{mean.value:+.2f}**{interval}, {len(values)} seeds"
    return cells


def table(path: Path, exploit_path: Path | None = None) -> str:
    """Two Markdown tables: the mean over seeds per recipe, and every run."""
    runs: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for text in path.read_text().splitlines():
        line = json.loads(text)
        runs[(line["recipe"], line["steps"])].append(line)
    exploited = exploit_cells(exploit_path)
    head = " | ".join(f"against {o}" for o in OPPONENTS)
    extra = " | LBR takes per deal |" if exploited else " |"
    summary = [
        f"| recipe | steps | seeds | training per run, CPU (wall) | {head}{extra}",
        "|---|---:|---:|---|" + "---|" * (len(OPPONENTS) + bool(exploited)),
    ]
    each = [f"| recipe | seed | load before | {head} |", "|---|---:|---|" + "---|" * len(OPPONENTS)]
    for (recipe, steps), lines in runs.items():
        cpu = statistics.fmean(x["train_seconds"]["cpu"] for x in lines)
        wall = statistics.fmean(x["train_seconds"]["wall"] for x in lines)
        cells = []
        for opponent in OPPONENTS:
            duels = [d for x in lines for d in x["duels"] if d["bots"]["b"] == opponent]
            mean = across_seeds([d["win_rate"]["a"]["estimate"] for d in duels])
            interval = "" if mean.low is None else f" ({mean.low:.1%}-{mean.high:.1%})"
            margin = statistics.fmean(
                d["game_points_per_deal"]["difference"]["estimate"] for d in duels
            )
            cells.append(f"**{mean.value:.1%}**{interval}, {margin:+.2f}")
        row = [recipe, f"{steps:,}", str(len(lines)), f"{cpu:.0f} s ({wall:.0f} s)", *cells]
        if exploited:
            row.append(exploited.get(recipe, "-"))
        summary.append("| " + " | ".join(row) + " |")
        for x in lines:
            rates = [d["win_rate"]["a"] for d in x["duels"]]
            cells = [f"{r['estimate']:.1%} ({r['low']:.1%}-{r['high']:.1%})" for r in rates]
            load = ", ".join(f"{v:.1f}" for v in x["load_before"])
            each.append(f"| {recipe} | {x['seed']} | {load} | {' | '.join(cells)} |")
    return "\n".join([*summary, "", *each])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="train and measure a recipe over seeds")
    r.add_argument("recipe", choices=RECIPES)
    r.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    r.add_argument("--steps", type=int, required=True, help="agent steps per run")
    r.add_argument("--deals", type=int, default=500, help="deals against random and heuristic")
    r.add_argument("--expert-deals", type=int, default=50, help="deals against expert (50)")
    r.add_argument("--eval-seed", type=int, default=7, help="seed of the duels' deals (7)")
    r.add_argument("--out", type=Path, default=Path("runs"), help="folder (runs)")
    r.add_argument("extra", nargs="*", help="more options for the recipe, after --")
    e = sub.add_parser("exploit", help="a local best response against each run's policy")
    e.add_argument("recipe", choices=RECIPES)
    e.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    e.add_argument("--deals", type=int, default=40, help="deals per policy (40)")
    e.add_argument("--eval-seed", type=int, default=7, help="seed of the deals (7)")
    e.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    e.add_argument("--out", type=Path, default=Path("runs"), help="folder of the runs (runs)")
    t = sub.add_parser("table", help="the table over seeds, in Markdown")
    t.add_argument("jsonl", type=Path)
    t.add_argument("--exploit", type=Path, default=None, help="the exploit command's JSON lines")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args)
    elif args.command == "exploit":
        measure_exploitability(args)
    else:
        print(table(args.jsonl, args.exploit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
