"""What ``strength_vs_patrasciuc.py --shadow`` counts (``_patrasciuc_shadow.py`` asks): how
often each answer to their player's decisions agreed with its choice, by phase. Imports none of
their code, so the counting is tested where theirs is not installed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The phases agreement is counted in, in the order reported.
PHASES = ("talon 9", "talon 7", "talon 5", "talon 3", "talon 1", "closed", "talon gone")


@dataclass(frozen=True)
class Choice:
    """One decision of their player with a choice: its phase and each answer, as the first of
    our engine's steps (a marriage: ``marry`` of its suit)."""

    phase: str
    theirs: int
    twin: int
    shadows: tuple[int, ...]


def agreement(choices: Sequence[Choice], names: Sequence[str]) -> dict[str, Any]:
    """How often each answer agreed with their player's, by phase and over all."""
    by_phase: dict[str, list[Choice]] = defaultdict(list)
    for c in choices:
        by_phase[c.phase].append(c)
        by_phase["all"].append(c)
    out: dict[str, Any] = {}
    for phase in (*PHASES, "all"):
        rows = by_phase.get(phase, [])
        if not rows:
            continue
        agreed = {"theirs asked again": sum(c.twin == c.theirs for c in rows)}
        for i, name in enumerate(names):
            agreed[name] = sum(c.shadows[i] == c.theirs for c in rows)
        out[phase] = {"decisions": len(rows), "agreed": agreed}
    return out


def agreement_lines(data: dict[str, Any]) -> list[str]:
    """The agreement as a table: a row a phase, a column an answer, the share agreed."""
    if not data:
        return []
    names = list(next(iter(data.values()))["agreed"])
    lines = ["agreement with their player's choice, by phase (decisions with a choice):"]
    lines.append("  phase        decisions  " + "  ".join(names))
    for phase, row in data.items():
        shares = "  ".join(
            f"{100 * row['agreed'][n] / row['decisions']:.1f}%".rjust(len(n)) for n in names
        )
        lines.append(f"  {phase:<12} {row['decisions']:>9}  {shares}")
    return lines
