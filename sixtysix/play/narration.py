"""What the terminal says after each action, at ``sixtysix play`` and at a remote seat
(``sixtysix join``) alike: the table service's news (:mod:`sixtysix.service.narration`),
drawn."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.screen import Screen
from sixtysix.service.narration import hint_rows, news
from sixtysix.service.terms import action_text, command_text
from sixtysix.text.public import told
from sixtysix.text.render import card


def narrate(
    screen: Screen, tr: Translator, me: int, seat: int, action: int, before: View, after: View
) -> None:
    """Tell the person what ``seat``'s ``action`` did (:func:`~sixtysix.service.narration.news`)."""
    for item in news(me, seat, action, before, after):
        if item.kind == "action":
            screen.show(told(tr, item.phrase, me, after.seats))
        elif item.kind == "draw":
            text = Text(item.phrase.text(tr, me) + " ")
            for c in item.cards:
                text.append_text(card(c, bold=True))
            screen.show(text)
        else:
            screen.say(item.phrase.text(tr, me), _STYLES[item.kind])


#: How the terminal styles each kind of news it says in one line.
_STYLES = {"trick": "cyan", "strict": "yellow"}


def hint_table(tr: Translator, values: Sequence[tuple[int, float]]) -> RenderableType:
    """The expert's expected game points of each move, best first, each move also written as
    the person types it in their language (``evlilik kupa``, ``marry H``); the title is a line
    of its own (a table's title wraps to the table's width)."""
    title = Text(tr._("Expected game points of each move"), style="italic")
    table = Table(box=None)
    table.add_column(tr._("move"))
    table.add_column(tr._("notation"))
    table.add_column(tr._("value"), justify="right")
    for i, (action, value) in enumerate(hint_rows(values)):
        table.add_row(
            action_text(tr, action),
            command_text(tr, action),
            f"{value:+.2f}",
            style="bold green" if i == 0 else None,
        )
    return Group(title, table)


def introduce(
    screen: Screen,
    tr: Translator,
    *,
    variant: str,
    target: int,
    deals: int | None,
    seat: int,
    rated: bool,
    move_time: int | None,
) -> None:
    """The match's first lines: what is played, the seat, test or rated, where help is."""
    if deals is None:
        intro = tr._("{variant}: a match to {target} game points. You are seat {seat}.")
    else:
        intro = tr._(
            "{variant}: a match of {deals} deals, the most game points win. You are seat {seat}."
        )
    screen.say(intro.format(variant=variant, target=target, deals=deals, seat=seat), "bold")
    if rated:
        screen.say(
            tr._(
                "Rated game: {seconds} s per move, no take-backs or hints; leaving the"
                " table counts against you."
            ).format(seconds=move_time or 0),
            "yellow",
        )
    else:
        screen.say(tr._("Test game: undo and hints allowed."), "dim")
    screen.say(tr._("Type ? for help, rules for the rules."), "dim")
