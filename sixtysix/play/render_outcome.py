"""The end of a deal and of a match: how it ended, why these game points, the sides' pooled
points, the cards left face up, and the match deal by deal.

A deal's end is public: the true sides (a hidden partner is revealed), every seat's points
and, here, the cards still in the other hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.rules import Sides
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.layout import Flow, words
from sixtysix.play.public import hands_left
from sixtysix.play.render import sides_known
from sixtysix.play.scoring_words import why_line
from sixtysix.play.terms import reason_text, seat_name


def pooled_points(outcome: Outcome, view: View) -> list[int] | None:
    """Each seat's side's pooled points at the end of a deal, in a game played by sides."""
    sides = sides_known(view)
    if view.rules.sides == Sides.SEATS or sides is None or view.declarer is None:
        return None
    n = len(outcome.points)
    return [sum(outcome.points[t] for t in range(n) if sides[t] == sides[s]) for s in range(n)]


def render_outcome(
    outcome: Outcome,
    view: View,
    totals: Sequence[int],
    tr: Translator,
    variant: Variant,
    headline: str = "",
    hands: Sequence[int] = (),
) -> RenderableType:
    """A finished deal: how it ended and why these game points, game points, points (and the
    sides' pooled points), tricks, match totals, and the other seats' cards left face up.

    ``view`` is the person's view of the finished deal; ``hands`` the seats' cards left (bit
    masks), public once the deal is over.
    """
    me = view.seat
    seats = len(outcome.game_points)
    pooled = pooled_points(outcome, view)
    table = Table(box=None, padding=(0, 2), show_edge=False)
    table.add_column(tr._("player"), no_wrap=True)
    for col in (tr._("game points"), tr._("points")):
        table.add_column(col, justify="right", no_wrap=True)
    if pooled is not None:
        table.add_column(tr._("side"), justify="right", no_wrap=True)
    table.add_column(tr._("tricks"), justify="right", no_wrap=True)
    table.add_column(tr._("match"), justify="right", no_wrap=True)
    for s in range(seats):
        row = [seat_name(tr, s, me), str(outcome.game_points[s]), str(outcome.points[s])]
        if pooled is not None:
            row.append(str(pooled[s]))
        row += [str(outcome.tricks[s]), str(totals[s])]
        table.add_row(*row, style="bold" if s == me else None)
    title = tr._("Deal over: {reason}").format(reason=reason_text(tr, outcome.reason))
    body: list[RenderableType] = []
    if headline:
        body.append(Flow(words(headline, "bold yellow"), gap=" "))
    if outcome.reason == Reason.REACHED_66 and pooled is not None:
        winners = [s for s in range(seats) if outcome.game_points[s]]
        if winners:
            text = tr._("Won by {who} with {points} points together.").format(
                who=" + ".join(seat_name(tr, s, me) for s in winners), points=pooled[winners[0]]
            )
            body.append(Flow(words(text, "bold"), gap=" "))
    body.append(Flow(words(why_line(outcome, view, variant, tr), "italic"), gap=" "))
    body.append(table)
    left = hands_left(hands, me, tr)
    if left is not None:
        body.append(left)
    return Panel(Group(*body), title=title, title_align="left", expand=False)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One finished deal of a match, for the summary at its end."""

    number: int
    dealer: int
    reason: str
    game_points: tuple[int, ...]


def render_match_summary(
    deals: Sequence[DealSummary], seats: int, me: int, tr: Translator
) -> RenderableType:
    """The match deal by deal: dealer, game points each (with the running totals), reason."""
    table = Table(title=tr._("The match, deal by deal"), box=None, padding=(0, 1))
    table.add_column(tr._("deal"), justify="right", no_wrap=True)
    table.add_column(tr._("dealer"), no_wrap=True)
    for s in range(seats):
        table.add_column(seat_name(tr, s, me), justify="right", no_wrap=True)
    table.add_column(tr._("how it ended"))
    running = [0] * seats
    for deal in deals:
        cells = [str(deal.number), seat_name(tr, deal.dealer, me)]
        for s in range(seats):
            running[s] += deal.game_points[s]
            gained = deal.game_points[s]
            cells.append(f"+{gained} ={running[s]}" if gained else f"={running[s]}")
        cells.append(reason_text(tr, deal.reason))
        table.add_row(*cells)
    legend = tr._("+n: game points won in the deal; =n: the match total after it.")
    return Group(table, Flow(words(legend, "dim"), gap=" "))
