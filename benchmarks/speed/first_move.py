"""How long a person waits for the expert in ``sixtysix play 66 --vs expert``, cold and warm.

Each game is the real command in a pseudo-terminal (pexpect), as a person meets it. A scripted
person answers every ``Your move >`` prompt with a legal move of its own seat (read from the
game's saved record, which the session writes after every action; it picks at random among its
card plays and announcements, never ``concede``), and the script times each wait:

- **first**: the wait that holds the expert's first decision: from the line "Deal 1, ..." to
  the first prompt when the expert leads, else from the person's move to the next prompt;
- **later**: every other wait from a move of the person's to the next prompt that holds a
  decision of the expert's (one or two: its reply, and its lead when it took the trick);
- **start**: from starting the command to the line "Deal 1, ...".

**Cold** is a fresh install: ``NUMBA_CACHE_DIR`` points at a new empty directory, which numba
consults before the ``__pycache__`` folders beside the source (its first cache locator), so no
compiled kernel of an earlier run is found. **Warm** plays the same games again with that
directory filled by the cold games. ``--busy`` keeps every other core busy with a spinning
process meanwhile (a busy machine). ``--vs`` names another opponent as ``play --vs`` takes
it, the expert at another effort say.

    python -m benchmarks.speed.first_move                          # seeds 1 and 2, 10 moves
    python -m benchmarks.speed.first_move --seeds 1,2,3,4 --moves 16 --busy
    python -m benchmarks.speed.first_move --think 3        # a person who takes 3 s a move
    python -m benchmarks.speed.first_move --vs expert:effort=8   # eight times the budget

Exit status 1 when a first wait is above the target (2 s) or a later wait above its target
(1 s), cold or warm.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pexpect

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.play.autosave import load_saved_game
from sixtysix.plugins.manager import get_registry

FIRST_TARGET = 2.0
LATER_TARGET = 1.0
PROMPT = "Your move > "
DEAL_LINE = "Deal 1, dealer: "
NEXT_DEAL = "the next deal > "
TIMEOUT = 180
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Game:
    """The waits of one game, in seconds."""

    seed: int
    leads: bool
    start: float
    first: float
    later: list[float] = field(default_factory=list)


def saved(record: Path) -> tuple[list[str], int]:
    """The legal moves of the person's seat (0) in the game saved at ``record``, and how many
    decisions the expert (seat 1) has made so far."""
    replay = load_saved_game(record, get_registry()).replay
    state = replay.deals[-1].state
    assert state.to_act == 0, "the prompt is the person's"
    names = [ACTION_NAMES[a] for a in state.legal_actions()]
    moves = sorted(n for n in names if n != "concede")
    decisions = sum(step.seat == 1 for deal in replay.deals for step in deal.steps)
    return moves, decisions


def play_game(
    seed: int, moves: int, think: float, env: dict[str, str], work: Path, vs: str
) -> Game:
    """One game of ``moves`` moves of the person's against ``vs`` (a spec with the expert's
    name), timed, the person taking ``think`` seconds over each move. A wait in which the expert
    made no decision (the person moves again after announcing a marriage, say) is not
    counted."""
    record = work / f"game-{seed}.json"
    record.unlink(missing_ok=True)
    args = ["-m", "sixtysix", "play", "66", "--vs", vs, "--seed", str(seed)]
    args += ["--lang", "en", "--save", str(record)]
    started = time.perf_counter()
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 100)
    )
    rnd = random.Random(seed)
    try:
        child.expect_exact(DEAL_LINE)
        dealt = time.perf_counter()
        child.expect_exact(PROMPT)
        waited = time.perf_counter() - dealt
        choices, decided = saved(record)
        game = Game(seed, decided > 0, dealt - started, waited if decided else -1.0)
        for _ in range(moves):
            move = rnd.choice(choices)
            time.sleep(think)
            sent = time.perf_counter()
            child.sendline(move)
            if child.expect_exact([PROMPT, NEXT_DEAL, pexpect.EOF]) != 0:
                break  # the deal is over (or the game): its waits so far are the game's
            waited = time.perf_counter() - sent
            choices, now = saved(record)
            if now > decided:
                if game.first < 0:
                    game.first = waited
                else:
                    game.later.append(waited)
            decided = now
    finally:
        child.close(force=True)
    return game


@contextlib.contextmanager
def busy(on: bool) -> Iterator[None]:
    """Every other core kept busy by a spinning process (none when ``on`` is false)."""
    spinners = []
    if on:
        for _ in range(max(1, (os.cpu_count() or 2) - 1)):
            spinners.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()


def report(label: str, games: list[Game]) -> bool:
    """Print the waits of ``games``; whether they met both targets."""
    later = [w for g in games for w in g.later]
    print(f"{label}:")
    for g in games:
        who = "expert leads" if g.leads else "you lead"
        print(f"  seed {g.seed} ({who}): start {g.start:.2f} s, first wait {g.first:.2f} s")
    if later:
        print(
            f"  later waits: {len(later)}, median {statistics.median(later):.2f} s,"
            f" max {max(later):.2f} s, above {LATER_TARGET:g} s: "
            f"{sum(w > LATER_TARGET for w in later)}"
        )
    return all(g.first <= FIRST_TARGET for g in games) and all(w <= LATER_TARGET for w in later)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2", help="game seeds, comma-separated")
    parser.add_argument("--moves", type=int, default=10, help="the person's moves per game")
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds the person takes over each move"
    )
    parser.add_argument("--busy", action="store_true", help="keep the other cores busy")
    parser.add_argument(
        "--vs", default="expert", help="the expert as play --vs names it (default: expert)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the waits here")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    results: dict[str, list[Game]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = dict(os.environ)
        env.update(
            {
                "NUMBA_CACHE_DIR": str(work / "numba"),
                "SIXTYSIX_DATA_DIR": str(work / "data"),
                "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
                "TERM": "xterm-256color",
                "COLUMNS": "100",
                "LINES": "40",
                "LANG": "C.UTF-8",
            }
        )
        with busy(args.busy):
            for seed in seeds:
                # Each seed starts from an empty cache: its first game is a fresh install's.
                for old in (work / "numba").glob("**/*"):
                    if old.is_file():
                        old.unlink()
                results.setdefault("cold", []).append(
                    play_game(seed, args.moves, args.think, env, work, args.vs)
                )
                if not any((work / "numba").glob("**/*.nbi")):
                    raise SystemExit("numba wrote no cache to NUMBA_CACHE_DIR")
                results.setdefault("warm", []).append(
                    play_game(seed, args.moves, args.think, env, work, args.vs)
                )
    load = os.getloadavg()[0]
    busy_text = "yes" if args.busy else "no"
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load:.2f},"
        f" busy: {busy_text}, the person thinks {args.think:g} s a move,"
        f" against {args.vs}"
    )
    ok = all([report(label, games) for label, games in results.items()])
    if args.json is not None:
        args.json.write_text(
            json.dumps({k: [g.__dict__ for g in v] for k, v in results.items()}, indent=2)
        )
    print(
        "targets met"
        if ok
        else f"target missed (first {FIRST_TARGET:g} s, later {LATER_TARGET:g} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
