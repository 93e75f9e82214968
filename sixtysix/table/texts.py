"""What a remote seat's screen says in longer sentences: help, hints, warnings, refusals.

Kept apart from :mod:`sixtysix.table.remote` so that the state machine there stays short; every
text is in the person's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.terms import action_text, card_text


def help_text(tr: Translator, rated: bool, view: View | None) -> Text:
    """The help of a remote seat (``view``: the seat's decision, to list the moves allowed)."""
    lines = [
        tr._("Play a card by its name (as, 10h, Q♥, kd) or by its number in your hand."),
        tr._(
            "Other moves: marry H, exchange, close, claim, trump S, trump below,"
            " partner AD, solo, concede (when the rules allow them)."
        ),
        tr._(
            "? help   hint  the expert's view of each move   undo  take back   quit  leave"
            " the table"
        ),
        tr._("Cards: ranks 9 J Q K 10 A, suits C ♣ clubs, D ♦ diamonds, H ♥ hearts, S ♠ spades."),
    ]
    if rated:
        lines.append(tr._("Rated game: no hints and no undo; the move timer is running."))
    if view is not None:
        legal = ", ".join(
            card_text(a) if a < NUM_CARDS else ACTION_NAMES[a] for a in view.legal_actions
        )
        lines.append(tr._("Allowed now: {actions}").format(actions=legal))
    return Text("\n".join(lines))


def hint_table(tr: Translator, values: Sequence[tuple[int, float]]) -> Table:
    """The expert's expected game points of each move, best first."""
    table = Table(title=tr._("Expected game points of each move"), box=None)
    table.add_column(tr._("move"))
    table.add_column(tr._("notation"))
    table.add_column(tr._("value"), justify="right")
    for i, (action, value) in enumerate(sorted(values, key=lambda av: -av[1])):
        table.add_row(
            action_text(tr, int(action)),
            ACTION_NAMES[int(action)],
            f"{float(value):+.2f}",
            style="bold green" if i == 0 else None,
        )
    return table


def quit_warning(tr: Translator, rated: bool) -> str:
    """What leaving means, said once before it is done."""
    if rated:
        return tr._(
            "Leaving a rated table counts as leaving the table in the standings. Type quit"
            " again to leave; Ctrl-C instead keeps your seat for a while."
        )
    return tr._(
        "Leaving is for good: the others are told. Type quit again to leave; Ctrl-C"
        " instead keeps your seat for a while."
    )


def left_reason(tr: Translator, reason: str) -> str:
    """Why a seat has left the table, as the server names it."""
    reasons = {
        "timeout": tr._("out of time"),
        "disconnected": tr._("connection lost for too long"),
        "quit": tr._("by choice"),
    }
    return reasons.get(reason, reason)


def error_line(tr: Translator, code: str, message: str, name: str, table: str) -> str:
    """The one line for an error that ends the connection."""
    texts = {
        "token": tr._(
            "The server refused the name {name}: it belongs to someone else, or its token"
            " is not in this user's data directory."
        ),
        "name_taken": tr._("The name {name} is already taken at this table."),
        "no_table": tr._("There is no table {table} on this server (see sixtysix tables)."),
        "table_full": tr._("Table {table} has no free seat for a person."),
    }
    text = texts.get(code)
    if text is None:
        return tr._("The server closed the connection: {message}").format(message=message)
    return text.format(name=name, table=table)
