"""What the person's screen says after each action, at ``sixtysix play`` and at a remote seat
(``sixtysix join``) alike: one statement of it, drawn from the person's own views before and
after the action (nothing else is known to that seat)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.public import strict_news, told
from sixtysix.play.render import card
from sixtysix.play.screen import Screen
from sixtysix.play.terms import action_text, command_text, seat_name


def narrate(
    screen: Screen, tr: Translator, me: int, seat: int, action: int, before: View, after: View
) -> None:
    """Tell the person what ``seat``'s ``action`` did: the action with the cards it shows
    everyone (the card taken by the exchange, a marriage's other card), the trick's winner,
    the cards the person draws, and the strict phase once it begins."""
    screen.show(told(tr, seat, me, action, before, after))
    if sum(after.tricks) > sum(before.tricks):
        winner = next(s for s in range(after.seats) if after.tricks[s] > before.tricks[s])
        gained = after.card_points[winner] - before.card_points[winner]
        screen.say(
            tr._("Trick to {who} (+{points}).").format(
                who=seat_name(tr, winner, me), points=gained
            ),
            "cyan",
        )
        drawn = set(after.hand) - set(before.hand)
        if drawn:
            text = Text(tr._("You draw") + " ")
            for c in sorted(drawn):
                text.append_text(card(c, bold=True))
            screen.show(text)
    strict = strict_news(tr, before, after)
    if strict is not None:
        screen.say(strict, "yellow")


def hint_table(tr: Translator, values: Sequence[tuple[int, float]]) -> Table:
    """The expert's expected game points of each move, best first, each move also written as
    the person types it in their language (``evlilik kupa``, ``marry H``)."""
    table = Table(title=tr._("Expected game points of each move"), box=None)
    table.add_column(tr._("move"))
    table.add_column(tr._("notation"))
    table.add_column(tr._("value"), justify="right")
    for i, (action, value) in enumerate(sorted(values, key=lambda av: -float(av[1]))):
        table.add_row(
            action_text(tr, int(action)),
            command_text(tr, int(action)),
            f"{float(value):+.2f}",
            style="bold green" if i == 0 else None,
        )
    return table


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
