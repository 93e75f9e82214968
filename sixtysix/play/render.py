"""Rich rendering of what one seat sees, and only that.

Everything here is drawn from a :class:`~sixtysix.core.view.View` (plus public match facts:
totals, target, names), never from a :class:`DealState`, so hidden cards cannot reach the
screen by mistake. Running points are shown only where the rules allow it: with automatic
claims, or with ``open_scores`` (RULES.md: manual claims are a memory game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sixtysix.core.actions import MARRY
from sixtysix.core.cards import NUM_CARDS, SUIT_SYMBOLS, Card, marriage_points
from sixtysix.core.outcome import Outcome
from sixtysix.core.rules import Sides
from sixtysix.core.state import Phase
from sixtysix.core.tricks import trick_winner
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.terms import (
    action_text,
    announcement,
    bot_label,
    card_text,
    card_words,
    command_text,
    news_list,
    reason_text,
    seat_name,
    suit_label,
)

SUIT_STYLES = ("green", "dark_orange", "red", "blue")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The public facts about the match that a view does not hold."""

    variant: str
    deal_number: int
    totals: tuple[int, ...]
    target: int
    #: Who sits where: the bot's name, or "" for the person.
    players: tuple[str, ...]
    show_points: bool
    rated: bool
    #: Deals in a match of a fixed length (None: the match is played to ``target``).
    deals: int | None = None


def hand_order(view: View) -> list[Card]:
    """The hand as displayed and numbered: trumps first, then clubs, diamonds, hearts, spades;
    high to low within a suit."""
    trump = view.trump

    def key(card: Card) -> tuple[int, int, int]:
        return (0 if card.suit == trump else 1, card.suit, -card.rank)

    return sorted(view.hand, key=key)


def card(card: int, *, bold: bool = False) -> Text:
    """A card in its suit's colour."""
    style = SUIT_STYLES[card // 6] + (" bold" if bold else "")
    return Text(card_text(card), style=style)


def suit_text(tr: Translator, suit: int) -> Text:
    return Text(suit_label(tr, suit), style=SUIT_STYLES[suit] + " bold")


def hand_text(view: View, tr: Translator, order: Sequence[Card]) -> Text:
    """``♥ 1 A♥  2 10♥ │ ♣ 3 K♣``: grouped by suit, numbered as the input reads them."""
    out = Text()
    current: int | None = None
    for number, c in enumerate(order, 1):
        if c.suit != current:
            if current is not None:
                out.append("  │  ", style="dim")
            current = c.suit
            out.append(SUIT_SYMBOLS[c.suit] + " ", style=SUIT_STYLES[c.suit] + " bold")
            if c.suit == view.trump:
                out.append(tr._("(trump)") + " ", style="italic")
        else:
            out.append("  ")
        out.append(f"{number}:", style="dim")
        out.append_text(card(c, bold=int(c) in {int(a) for a in view.legal_actions}))
    if not order:
        out.append(tr._("(no cards)"), style="dim")
    return out


def sides_known(view: View) -> list[int] | None:
    """Each seat's side as far as this seat knows it, or None while a partner is hidden."""
    n = view.seats
    rules = view.rules
    if rules.sides == Sides.SEATS or view.declarer is None:
        return list(range(n))
    if rules.sides == Sides.DECLARER:
        return [0 if s == view.declarer else 1 for s in range(n)]
    if view.solo:
        return [0 if s == view.declarer else 1 for s in range(n)]
    if view.partner is not None:
        return [0 if s in (view.declarer, view.partner) else 1 for s in range(n)]
    return None


def seat_points(view: View, seat: int) -> tuple[int, int]:
    """(points known to count, marriage points still pending) for a seat: card points, plus
    its marriages once its side (as far as this seat knows) has won a trick."""
    trump = view.trump
    married = sum(marriage_points(s, -1 if trump is None else trump) for s in view.marriages[seat])
    sides = sides_known(view)
    if sides is None:
        has_trick = view.tricks[seat] > 0
    else:
        has_trick = any(view.tricks[t] for t in range(view.seats) if sides[t] == sides[seat])
    if has_trick:
        return view.card_points[seat] + married, 0
    return view.card_points[seat], married


def _tricks_played(view: View) -> list[list[tuple[int, int]]]:
    plays = [(s, int(a)) for s, a in view.history if a < NUM_CARDS]
    n = view.seats
    return [plays[i : i + n] for i in range(0, len(plays) - len(plays) % n, n)]


def _cards_line(tr: Translator, view: View, plays: Sequence[tuple[int, int]]) -> Text:
    out = Text()
    for i, (s, c) in enumerate(plays):
        if i:
            out.append("   ")
        out.append(seat_name(tr, s, view.seat) + " ")
        out.append_text(card(c, bold=True))
    return out


def render_view(view: View, info: TableInfo, tr: Translator) -> RenderableType:
    """The whole table as this seat sees it."""
    parts: list[RenderableType] = []
    me = view.seat
    head = Table.grid(padding=(0, 2))
    head.add_column()
    head.add_column()
    trump = Text()
    if view.trump is not None:
        trump.append_text(suit_text(tr, view.trump))
    else:
        trump.append(tr._("not named yet"), style="dim")
    head.add_row(Text(tr._("Trump"), style="bold"), trump)
    if view.rules.turnup_after_round is not None:
        talon = Text(str(view.talon_size))
        if view.turnup is not None:
            talon.append("   " + tr._("turn-up") + " ")
            talon.append_text(card(view.turnup, bold=True))
        if view.closed_by is not None:
            talon.append(
                "   " + tr._("closed by: {who}").format(who=seat_name(tr, view.closed_by, me)),
                style="yellow",
            )
        elif view.talon_size == 0:
            talon.append("   " + tr._("used up"), style="dim")
        head.add_row(Text(tr._("Talon"), style="bold"), talon)
    head.add_row(Text(tr._("Dealer"), style="bold"), Text(seat_name(tr, view.dealer, me)))
    if view.declarer is not None and view.rules.sides != Sides.SEATS:
        role = Text(seat_name(tr, view.declarer, me))
        if view.rules.sides == Sides.DECLARER or view.solo:
            if view.declarer == me:  # "you play alone": the verb agrees with the person
                role = Text(tr._("you play alone"), style="italic")
            else:
                role.append("  " + tr._("plays alone"), style="italic")
        if view.called_ace is not None:
            role.append("  " + tr._("called") + " ")
            role.append_text(card(view.called_ace, bold=True))
            partner = (
                tr._("partner: unknown")
                if view.partner is None
                else tr._("partner: {who}").format(who=seat_name(tr, view.partner, me))
            )
            role.append("  " + partner, style="italic")
        head.add_row(Text(tr._("Declarer"), style="bold"), role)
    if info.deals is None:
        title = tr._("{variant} · deal {number} · you are seat {seat}")
    else:
        title = tr._("{variant} · deal {number} of {deals} · you are seat {seat}")
    title = title.format(variant=info.variant, number=info.deal_number, deals=info.deals, seat=me)
    if info.rated:
        title += " · " + tr._("rated")
    parts.append(Panel(head, title=title, title_align="left", expand=False))

    tricks = _tricks_played(view)
    if tricks:
        last = tricks[-1]
        line = Text(tr._("Last trick") + ": ", style="bold")
        line.append_text(_cards_line(tr, view, last))
        winner = trick_winner(last, -1 if view.trump is None else view.trump)
        line.append("  → " + seat_name(tr, winner, me), style="italic")
        parts.append(line)
    table_line = Text(tr._("On the table") + ": ", style="bold")
    if view.trick:
        table_line.append_text(_cards_line(tr, view, view.trick))
    else:
        table_line.append(tr._("nothing yet"), style="dim")
    parts.append(table_line)

    news = [
        announcement(tr, s, me, a, view.trump if MARRY <= a < MARRY + 4 else None)
        for s, a in view.history
        if a >= NUM_CARDS
    ]
    if news:
        parts.append(Text(tr._("Announcements") + ": " + news_list(tr, news)))

    parts.append(_scores(view, info, tr))
    if view.phase == Phase.TRUMP_CALL and view.my_turn:
        parts.append(
            Text(
                tr._("You see your first {n} cards; name trump.").format(n=len(view.hand)),
                style="italic",
            )
        )
    line = Text(tr._("Your hand") + ": ", style="bold")
    line.append_text(hand_text(view, tr, hand_order(view)))
    parts.append(line)
    return Group(*parts)


def _scores(view: View, info: TableInfo, tr: Translator) -> Table:
    table = Table(box=None, padding=(0, 2), show_edge=False)
    table.add_column(tr._("player"))
    table.add_column(tr._("tricks"), justify="right")
    if info.show_points:
        table.add_column(tr._("points"), justify="right")
    if info.deals is None:
        goal = tr._("game points ({target} wins)").format(target=info.target)
    else:
        goal = tr._("game points (most after {deals} deals wins)").format(deals=info.deals)
    table.add_column(goal, justify="right")
    for s in range(view.seats):
        name = seat_name(tr, s, view.seat)
        if info.players[s]:
            name += f" ({bot_label(tr, info.players[s])})"
        row = [name, str(view.tricks[s])]
        if info.show_points:
            valid, pending = seat_points(view, s)
            row.append(f"{valid}" + (f" (+{pending} " + tr._("pending") + ")" if pending else ""))
        row.append(str(info.totals[s]))
        table.add_row(*row, style="bold" if s == view.seat else None)
    return table


def render_choices(view: View, tr: Translator) -> Text:
    """The special actions on offer besides the cards, as words and as notation."""
    out = Text()
    specials = [a for a in view.legal_actions if a >= NUM_CARDS]
    legal = {int(a) for a in view.legal_actions}
    plays = [c for c in hand_order(view) if int(c) in legal]
    if plays:
        example = card_words(tr, plays[0])
        out.append(
            tr._("Play a card: its number or its name (e.g. {example}).").format(
                example=example.lower() if tr.lang == "en" else example
            )
        )
    for a in specials:
        if out:
            out.append("\n")
        out.append(f"  {command_text(tr, a)}", style="bold")
        out.append(f"  {action_text(tr, a)}", style="dim")
    return out


def render_outcome(
    outcome: Outcome,
    seats: int,
    me: int,
    totals: Sequence[int],
    tr: Translator,
    headline: str = "",
) -> RenderableType:
    """A finished deal: how it ended, game points, points and tricks, match totals."""
    table = Table(box=None, padding=(0, 2), show_edge=False)
    for col in (tr._("player"), tr._("game points"), tr._("points"), tr._("tricks")):
        table.add_column(col, justify="right" if col != tr._("player") else "left")
    table.add_column(tr._("match"), justify="right")
    for s in range(seats):
        table.add_row(
            seat_name(tr, s, me),
            str(outcome.game_points[s]),
            str(outcome.points[s]),
            str(outcome.tricks[s]),
            str(totals[s]),
            style="bold" if s == me else None,
        )
    title = tr._("Deal over: {reason}").format(reason=reason_text(tr, outcome.reason))
    body: list[RenderableType] = []
    if headline:
        body.append(Text(headline, style="bold yellow"))
    body.append(table)
    return Panel(Group(*body), title=title, title_align="left", expand=False)
