"""Rich rendering of what one seat sees, and only that.

Everything here is drawn from a :class:`~sixtysix.core.view.View` (plus public match facts:
totals, target, names), never from a :class:`DealState`, so hidden cards cannot reach the
screen by mistake. Running points are shown only where the rules allow it: with automatic
claims, or with ``open_scores`` (RULES.md: manual claims are a memory game). The table is laid
out when the console's width is known (:mod:`sixtysix.text.layout`): compact below 70 columns,
and never cutting a card group, a seat label or an example across lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sixtysix.core.cards import NUM_CARDS, SUIT_SYMBOLS, Card
from sixtysix.core.rules import Sides
from sixtysix.core.state import Phase
from sixtysix.core.tricks import trick_winner
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.facts import (
    TableInfo,
    hand_order,
    restricted,
    seat_points,
    side_points,
    sides_known,
    table_title,
)
from sixtysix.service.narration import announced
from sixtysix.service.terms import (
    action_text,
    bot_label,
    card_text,
    card_words,
    command_text,
    news_list,
    seat_name,
    suit_label,
)
from sixtysix.text.layout import COMPACT_WIDTH, Flow, phrase, words
from sixtysix.text.public import SUIT_STYLES, card_piece, known_line, labels

__all__ = ["SUIT_STYLES", "card", "render_choices", "render_view"]


def card(card: int, *, bold: bool = False) -> Text:
    """A card in its suit's colour."""
    return card_piece(card, "bold" if bold else "")


def suit_text(tr: Translator, suit: int) -> Text:
    return Text(suit_label(tr, suit), style=SUIT_STYLES[suit] + " bold")


def hand_pieces(view: View, tr: Translator, order: Sequence[Card]) -> list[Text]:
    """The hand, one piece per suit: ``♥ 1:A♥  2:10♥``. A card that may not be played now is
    dimmed and bracketed, ``[3:9♥]``, so the mark survives NO_COLOR and monochrome screens."""
    barred = restricted(view)
    groups: list[Text] = []
    current: int | None = None
    for number, c in enumerate(order, 1):
        if c.suit != current:
            current = c.suit
            group = Text()  # a span per part: a base style would apply to the whole group
            group.append(SUIT_SYMBOLS[c.suit] + " ", style=SUIT_STYLES[c.suit] + " bold")
            if c.suit == view.trump:
                group.append(tr._("(trump)") + " ", style="italic")
            groups.append(group)
        else:
            group.append("  ")
        if int(c) in barred:
            group.append(f"[{number}:{card_text(c)}]", style="dim")
        else:
            group.append(f"{number}:", style="dim" if not barred else "")
            group.append_text(card(c, bold=bool(barred)))
    return groups


def hand_line(view: View, tr: Translator) -> RenderableType:
    """``Your hand: ♦ (trump) 1:K♦ │ ♣ 2:10♣ [3:9♣]``, laid out for the width, with the
    legend of the bracket mark when some cards are barred."""
    head = Text(tr._("Your hand") + ": ", style="bold")
    pieces = hand_pieces(view, tr, hand_order(view)) or [Text(tr._("(no cards)"), style="dim")]
    line = Flow(pieces, head=head, gap="  │  ", gap_style="dim")
    if not restricted(view):
        return line
    legend = tr._("Cards in [brackets] may not be played now.")
    return Group(line, Flow(words(legend, "dim"), indent=2, gap=" "))


def _tricks_played(view: View) -> list[list[tuple[int, int]]]:
    plays = [(s, int(a)) for s, a in view.history if a < NUM_CARDS]
    n = view.seats
    return [plays[i : i + n] for i in range(0, len(plays) - len(plays) % n, n)]


def _plays(tr: Translator, view: View, plays: Sequence[tuple[int, int]]) -> list[Text]:
    """``seat 1 A♥``, one unbreakable piece per card played."""
    out = []
    for s, c in plays:
        piece = Text(seat_name(tr, s, view.seat) + " ")
        piece.append_text(card(c, bold=True))
        out.append(piece)
    return out


def sides_line(view: View, tr: Translator) -> list[Text] | None:
    """Who plays with whom as far as this seat knows it, or None in a game of single seats."""
    rules = view.rules
    me = view.seat
    if rules.sides == Sides.SEATS or view.declarer is None:
        return None
    if view.phase == Phase.PARTNER_CALL:
        return None
    sides = sides_known(view)
    if sides is not None:
        mine = [s for s in range(view.seats) if sides[s] == sides[me]]
        others = [s for s in range(view.seats) if sides[s] != sides[me]]
        return [
            Text(" + ".join(seat_name(tr, s, me) for s in mine), style="bold"),
            Text(tr._("against")),
            Text(" + ".join(seat_name(tr, s, me) for s in others)),
        ]
    # The partner is hidden: the caller only knows the ace; everyone else knows he is not it.
    assert view.called_ace is not None
    if me == view.declarer:
        text = tr._("the holder of {ace}, still hidden").format(ace=card_text(view.called_ace))
        return [Text(text)]
    rest = [s for s in range(view.seats) if s not in (me, view.declarer)]
    return [
        Text(tr._("not you") + ":", style="bold"),
        Text(tr._(" or ").join(seat_name(tr, s, me) for s in rest)),
    ]


def render_view(view: View, info: TableInfo, tr: Translator) -> RenderableType:
    """The whole table as this seat sees it."""
    return _Table(view, info, tr)


class _Table:
    """The table, laid out when the console's width is known (compact below
    :data:`COMPACT_WIDTH`)."""

    def __init__(self, view: View, info: TableInfo, tr: Translator) -> None:
        self.view = view
        self.info = info
        self.tr = tr

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        compact = options.max_width < COMPACT_WIDTH
        # The scores go compact too when the full table would not fit (longer words in Turkish):
        # a cut column would cut a seat's label.
        full = _scores(self.view, self.info, self.tr)
        wide = options.update_width(10 * options.max_width)
        narrow = compact or Measurement.get(console, wide, full).maximum > options.max_width
        yield from self.parts(compact, narrow)

    def parts(self, compact: bool, narrow_scores: bool | None = None) -> list[RenderableType]:
        view, info, tr = self.view, self.info, self.tr
        parts: list[RenderableType] = []
        me = view.seat
        head = Table.grid(padding=(0, 2))
        head.add_column(no_wrap=True)
        head.add_column()
        trump: list[Text] = []
        if view.trump is not None:
            trump.append(suit_text(tr, view.trump))
        else:
            trump.append(Text(tr._("not named yet"), style="dim"))
        head.add_row(Text(tr._("Trump"), style="bold"), Flow(trump))
        if view.rules.turnup_after_round is not None:
            talon = [Text(str(view.talon_size))]
            if view.turnup is not None:
                turnup = Text(tr._("turn-up") + " ")
                turnup.append_text(card(view.turnup, bold=True))
                talon.append(turnup)
            if view.closed_by is not None:
                who = seat_name(tr, view.closed_by, me)
                talon.append(Text(tr._("closed by: {who}").format(who=who), style="yellow"))
            elif view.talon_size == 0:
                talon.append(Text(tr._("used up"), style="dim"))
            head.add_row(Text(tr._("Talon"), style="bold"), Flow(talon, gap="   "))
        head.add_row(Text(tr._("Dealer"), style="bold"), Text(seat_name(tr, view.dealer, me)))
        if view.declarer is not None and view.rules.sides != Sides.SEATS:
            role = [Text(seat_name(tr, view.declarer, me))]
            if view.rules.sides == Sides.DECLARER or view.solo:
                # The verb agrees with the person: "you play alone", "seat 2 plays alone".
                if view.declarer == me:
                    role = [Text(tr._("you play alone"), style="italic")]
                else:
                    role.append(Text(tr._("plays alone"), style="italic"))
            if view.called_ace is not None:
                called = Text(tr._("called") + " ")
                called.append_text(card(view.called_ace, bold=True))
                role.append(called)
            head.add_row(Text(tr._("Declarer"), style="bold"), Flow(role))
            sides = sides_line(view, tr)
            if sides is not None:
                label = tr._("Sides") if sides_known(view) is not None else tr._("Partner")
                head.add_row(Text(label, style="bold"), Flow(sides, gap=" "))
        title = table_title(view, info, tr)
        if compact:
            parts.append(Flow((Text(t, style="bold") for t in title.split(" · ")), gap=" · "))
            parts.append(head)
        else:
            parts.append(Panel(head, title=title, title_align="left", expand=False))

        tricks = _tricks_played(view)
        if tricks:
            last = tricks[-1]
            winner = trick_winner(last, -1 if view.trump is None else view.trump)
            pieces = _plays(tr, view, last)
            pieces.append(Text("→ " + seat_name(tr, winner, me), style="italic"))
            head_text = Text(tr._("Last trick") + ": ", style="bold")
            parts.append(Flow(pieces, head=head_text, gap="   "))
        table_head = Text(tr._("On the table") + ": ", style="bold")
        if view.trick:
            parts.append(Flow(_plays(tr, view, view.trick), head=table_head, gap="   "))
        else:
            parts.append(Flow([Text(tr._("nothing yet"), style="dim")], head=table_head))

        news = [
            announced(view, s, a).text(tr, view.seat) for s, a in view.history if a >= NUM_CARDS
        ]
        if news:
            head_text = Text(tr._("Announcements") + ": ", style="bold")
            keep = labels(tr, view.seats, me)
            said = phrase(news_list(tr, news), keep)
            parts.append(Flow(said, head=head_text, gap=" "))
        known = known_line(view, tr)
        if known is not None:
            parts.append(known)

        narrow = compact if narrow_scores is None else narrow_scores
        parts.append(_scores(view, info, tr, narrow))
        if view.phase == Phase.TRUMP_CALL and view.my_turn:
            parts.append(
                Text(
                    tr._("You see your first {n} cards; name trump.").format(n=len(view.hand)),
                    style="italic",
                )
            )
        parts.append(hand_line(view, tr))
        return parts


def _scores(view: View, info: TableInfo, tr: Translator, compact: bool = False) -> Table:
    table = Table(box=None, padding=(0, 1) if compact else (0, 2), show_edge=False)
    table.add_column(tr._("player"), no_wrap=True)
    table.add_column(tr._("tricks"), justify="right", no_wrap=True)
    pooled = side_points(view) if info.show_points else None
    if info.show_points:
        table.add_column(tr._("points"), justify="right", no_wrap=True)
    if pooled is not None:
        table.add_column(tr._("side"), justify="right", no_wrap=True)
    if info.deals is None:
        goal = tr._("game points ({target} wins)").format(target=info.target)
    else:
        goal = tr._("game points (most after {deals} deals wins)").format(deals=info.deals)
    if compact:
        table.caption = goal
        table.caption_justify = "left"
        goal = tr._("game points")
    table.add_column(goal, justify="right", no_wrap=True)
    for s in range(view.seats):
        name = seat_name(tr, s, view.seat)
        if info.players[s] and not compact:
            name += f" ({bot_label(tr, info.players[s])})"
        row = [name, str(view.tricks[s])]
        if info.show_points:
            valid, pending = seat_points(view, s)
            if not pending:
                row.append(str(valid))
            elif compact:
                row.append(f"{valid} (+{pending})")
            else:
                row.append(f"{valid} (+{pending} " + tr._("pending") + ")")
        if pooled is not None:
            row.append(str(pooled[s]))
        row.append(str(info.totals[s]))
        table.add_row(*row, style="bold" if s == view.seat else None)
    return table


def render_choices(view: View, tr: Translator) -> RenderableType:
    """The special actions on offer besides the cards, as words and as notation."""
    lines: list[RenderableType] = []
    specials = [a for a in view.legal_actions if a >= NUM_CARDS]
    legal = {int(a) for a in view.legal_actions}
    plays = [c for c in hand_order(view) if int(c) in legal]
    if plays:
        example = card_words(tr, plays[0])
        if tr.lang == "en":
            example = example.lower()
        text = tr._("Play a card: its number or its name (e.g. {example}).").format(example=example)
        lines.append(Flow(words(text, keep=example), gap=" "))
    for a in specials:
        lines.append(
            Flow(
                [Text(command_text(tr, a), style="bold"), Text(action_text(tr, a), style="dim")],
                head=Text("  "),
                indent=4,
            )
        )
    return Group(*lines)
