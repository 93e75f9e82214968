"""Estimates and move times as the reports of ``duel`` and ``exploit`` print them: one wording."""

from __future__ import annotations

import math

from sixtysix.i18n import Translator
from sixtysix.sim.stats import Estimate, TimeStats


def estimate_text(estimate: Estimate, tr: Translator, signed: bool = False) -> str:
    """``value (low to high)``, or the value alone where there is no interval."""
    spec = "+.3f" if signed else ".3f"
    if estimate.low is None or estimate.high is None or math.isnan(estimate.value):
        return format(estimate.value, spec)
    return tr._("{value} ({low} to {high})").format(
        value=format(estimate.value, spec),
        low=format(estimate.low, spec),
        high=format(estimate.high, spec),
    )


def times_text(times: TimeStats, tr: Translator) -> str:
    """Mean, median and 95th percentile of a player's time per move, in milliseconds."""
    if not times.moves:
        return "-"
    return tr._("{mean} / {median} / {p95} ms ({moves} moves)").format(
        mean=f"{1000 * times.mean:.2f}",
        median=f"{1000 * times.median:.2f}",
        p95=f"{1000 * times.p95:.2f}",
        moves=times.moves,
    )
