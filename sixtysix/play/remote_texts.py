"""What a remote seat's screen says of the table itself in longer sentences: why a seat left,
and the errors that end the connection.

Kept apart from :mod:`sixtysix.play.remote` so that the state machine there stays short; every
text is in the person's language. What the seat's screen shares with ``sixtysix play`` (the
narration, hints, the leaving question) is the table service's (:mod:`sixtysix.service`).
"""

from __future__ import annotations

from sixtysix.i18n import Translator


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
        "name_taken": tr._("The server refused the name {name}: {message}"),
        "quota": tr._("The server refused: {message}"),
        "no_table": tr._("There is no table {table} on this server (see sixtysix tables)."),
        "table_full": tr._("Table {table} has no free seat for a person."),
    }
    text = texts.get(code)
    if text is None:
        return tr._("The server closed the connection: {message}").format(message=message)
    return text.format(name=name, table=table, message=message)
