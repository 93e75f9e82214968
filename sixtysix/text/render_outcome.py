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
from rich.text import Text

from sixtysix.core.faults import forfeit
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import DealRecord
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.scoring_words import (
    pooled_points,
    why_line,
    winners_line,
)
from sixtysix.service.terms import reason_text, seat_name
from sixtysix.text.layout import Flow, Responsive, phrase
from sixtysix.text.public import hands_left, labels


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
    keep = labels(tr, seats, me)
    body: list[RenderableType] = []
    if headline:
        body.append(Flow(phrase(headline, keep, "bold yellow"), gap=" "))
    won = winners_line(outcome, view, tr)
    if won:
        body.append(Flow(phrase(won, keep, "bold"), gap=" "))
    body.append(Flow(phrase(why_line(outcome, view, variant, tr), keep, "italic"), gap=" "))
    left = hands_left(hands, me, tr)
    title = tr._("Deal over: {reason}").format(reason=reason_text(tr, outcome.reason))
    columns = [tr._("game points"), tr._("points")]
    if pooled is not None:
        columns.append(tr._("side"))
    columns += [tr._("tricks"), tr._("match")]

    def cells(s: int) -> list[str]:
        row = [str(outcome.game_points[s]), str(outcome.points[s])]
        if pooled is not None:
            row.append(str(pooled[s]))
        return [*row, str(outcome.tricks[s]), str(totals[s])]

    def wide() -> RenderableType:
        table = Table(box=None, padding=(0, 2), show_edge=False)
        table.add_column(tr._("player"), no_wrap=True)
        for col in columns:
            table.add_column(col, justify="right", no_wrap=True)
        for s in range(seats):
            table.add_row(seat_name(tr, s, me), *cells(s), style="bold" if s == me else None)
        parts = [*body, table] + ([left] if left is not None else [])
        return Panel(Group(*parts), title=title, title_align="left", expand=False)

    def compact() -> RenderableType:
        # One line per seat, "game points 2 · points 70 · ...", each pair never cut.
        rows: list[RenderableType] = []
        name_width = max(len(seat_name(tr, s, me)) for s in range(seats)) + 2
        for s in range(seats):
            style = "bold" if s == me else ""
            pairs = zip(columns, cells(s), strict=True)
            pieces = [Text(f"{col} {cell}", style=style) for col, cell in pairs]
            head = Text(seat_name(tr, s, me).ljust(name_width), style=style)
            rows.append(Flow(pieces, head=head, gap=" · "))
        parts = [Text(title, style="bold"), *body, *rows] + ([left] if left is not None else [])
        return Group(*parts)

    return Responsive(wide, compact)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One finished deal of a match, for the summary at its end."""

    number: int
    dealer: int
    reason: str
    game_points: tuple[int, ...]


def match_deals(
    variant: Variant, records: Sequence[DealRecord], played: Sequence[DealSummary]
) -> list[DealSummary]:
    """Every finished deal of a match: the ``played`` ones of this session, after those of a
    resumed game, which are replayed from their ``records`` (the first of ``records``)."""
    earlier: list[DealSummary] = []
    for number, deal in enumerate(records[: len(records) - len(played)], 1):
        state = variant.new_deal(deal.setup)
        for _, action in deal.actions:
            state.apply_legal(action)
        if deal.forfeit is not None and not state.is_over:
            forfeit(state, deal.forfeit.seat)
        if state.outcome is not None:
            o = state.outcome
            earlier.append(DealSummary(number, state.dealer, o.reason, o.game_points))
    return [*earlier, *played]


def render_match_summary(
    deals: Sequence[DealSummary], seats: int, me: int, tr: Translator
) -> RenderableType:
    """The match deal by deal: dealer, game points each (with the running totals), reason."""
    title = tr._("The match, deal by deal")
    totals: list[list[int]] = []
    running = [0] * seats
    for deal in deals:
        running = [running[s] + deal.game_points[s] for s in range(seats)]
        totals.append(running)

    def score(deal: DealSummary, after: list[int], s: int) -> str:
        gained = deal.game_points[s]
        return f"+{gained} ={after[s]}" if gained else f"={after[s]}"

    def wide() -> RenderableType:
        table = Table(title=title, box=None, padding=(0, 1))
        table.add_column(tr._("deal"), justify="right", no_wrap=True)
        table.add_column(tr._("dealer"), no_wrap=True)
        for s in range(seats):
            table.add_column(seat_name(tr, s, me), justify="right", no_wrap=True)
        table.add_column(tr._("how it ended"))
        for deal, after in zip(deals, totals, strict=True):
            cells = [str(deal.number), seat_name(tr, deal.dealer, me)]
            cells += [score(deal, after, s) for s in range(seats)]
            table.add_row(*cells, reason_text(tr, deal.reason))
        return table

    def compact() -> RenderableType:
        lines: list[RenderableType] = [Text(title, style="bold")]
        for deal, after in zip(deals, totals, strict=True):
            head = Text(f"{deal.number}. ", style="bold")
            pieces = [
                Text(tr._("dealer") + " " + seat_name(tr, deal.dealer, me)),
                Text(reason_text(tr, deal.reason), style="italic"),
            ]
            pieces += [
                Text(seat_name(tr, s, me) + " " + score(deal, after, s)) for s in range(seats)
            ]
            lines.append(Flow(pieces, head=head, gap=" · "))
        return Group(*lines)

    legend = tr._("+n: game points won in the deal; =n: the match total after it.")
    return Group(Responsive(wide, compact), Flow(phrase(legend, style="dim"), gap=" "))
