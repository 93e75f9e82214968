"""The one question asked before an irrevocable choice (leaving, conceding), at ``sixtysix
play`` and at a remote seat alike: the question and its ``(y/n)``, what leaving a rated game
costs (said once, before the question), and the answer read by
:func:`~sixtysix.service.input.is_yes`."""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.i18n import Translator
from sixtysix.service.standings import leaving_score


def question(tr: Translator, text: str) -> str:
    """The prompt of a yes/no question: ``Leave the table? (y/n) ``."""
    return text + " " + tr._("(y/n)") + " "


def leave_question(tr: Translator) -> str:
    return tr._("Leave the table?")


def concede_question(tr: Translator, points: tuple[int, ...] | None, me: int) -> str:
    """Concede? with what it costs when the variant says it (``points``: what each seat would
    score, :meth:`~sixtysix.core.variant.Variant.conceded_points`)."""
    paid = sorted({p for s, p in enumerate(points or ()) if s != me and p})
    if len(paid) != 1:
        return tr._("Concede the deal?")
    return tr._("Concede the deal? Each of the others scores {points} game points.").format(
        points=paid[0]
    )


def leaving_warning(tr: Translator, totals: Sequence[int], completed: int, me: int) -> str:
    """What leaving a rated match now would score, by the leaving rules
    (:func:`~sixtysix.service.standings.leaving_score`, on the completed deals' totals)."""
    if leaving_score(totals, completed, me) is None:
        consequence = tr._("you lead on the completed deals, so it would not be scored")
    else:
        consequence = tr._("it would count as a loss (-1)")
    return tr._("Leaving a rated game is leaving the table: {consequence}.").format(
        consequence=consequence
    )
