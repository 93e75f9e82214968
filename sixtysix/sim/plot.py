"""A chart of tournament ratings with their intervals (matplotlib, the ``plot`` extra).

The figure is drawn on matplotlib's object API with the Agg canvas, never through pyplot, so
no GUI backend is touched and nothing global changes: it works on a server and in tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sixtysix.sim.errors import OutputError

if TYPE_CHECKING:
    from sixtysix.sim.tournament import BotStanding


def _figure_class() -> type:
    try:
        from matplotlib.figure import Figure  # the plot extra
    except ImportError:
        raise OutputError("--plot needs matplotlib: pip install 'sixtysix[plot]'") from None
    return Figure


def check_plot_path(path: Path) -> None:
    """Fail before a long run when the chart could not be written in the end."""
    figure = _figure_class()
    kinds = figure().canvas.get_supported_filetypes()
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in kinds:
        raise OutputError(
            f"cannot draw {path}: name it *.png (or {', '.join('*.' + k for k in sorted(kinds))})"
        )
    if not path.parent.exists():
        raise OutputError(f"cannot draw {path}: folder {path.parent} does not exist")


def plot_ratings(standings: Sequence[BotStanding], path: Path, title: str) -> None:
    """Ratings as points with 95% interval bars, best at the top."""
    figure = _figure_class()
    fig = figure(figsize=(7, 1.2 + 0.45 * len(standings)), layout="constrained")
    ax = fig.add_subplot()
    rows = list(reversed(standings))
    y = list(range(len(rows)))
    values = [s.rating.value for s in rows]
    low = [
        s.rating.value - (s.rating.low if s.rating.low is not None else s.rating.value)
        for s in rows
    ]
    high = [
        (s.rating.high if s.rating.high is not None else s.rating.value) - s.rating.value
        for s in rows
    ]
    ax.errorbar(values, y, xerr=[low, high], fmt="o", capsize=4, color="tab:blue")
    ax.set_yticks(y, [s.name for s in rows])
    ax.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("rating (Bradley-Terry, Elo scale; bars: 95% bootstrap interval)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
