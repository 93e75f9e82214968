"""The lobby of ``sixtysix join`` without ``--table``: the tables to choose from, and the choice.

When exactly one table fits (the one where the name sits, else the only open one with a free
seat) the client joins it without asking, as before; when several do, :func:`choose_table`
lists them, numbered, with what a person needs to choose (variant, free seats, rated with its
move time or a test table, who sits there), and reads the number from the person's lines. A
line that is not one of the numbers (or ids) asks again; the end of the input is
:class:`NoTableChosen`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sixtysix.i18n import Translator
from sixtysix.play.screen import Screen
from sixtysix.table.client import free_seats, joinable, no_table, sits_at


class NoTableChosen(Exception):
    """The person's input ended at the lobby: no table was chosen, no seat taken."""


def lobby_lines(tables: list[dict[str, Any]], name: str, url: str, tr: Translator) -> list[str]:
    """The lobby as lines: a heading, then two lines per table, numbered from 1."""
    lines = [tr._("Tables at {url} to choose from:").format(url=url)]
    width = len(str(len(tables)))
    for number, table in enumerate(tables, 1):
        seats = table["seats"]
        if table["rated"]:
            if table.get("move_time") is not None:
                kind = tr._("rated, {seconds} s a move").format(seconds=table["move_time"])
            else:
                kind = tr._("rated")
        else:
            kind = tr._("test table")
        free = tr._("free seats: {free} of {seats}").format(
            free=len(free_seats(table)), seats=len(seats)
        )
        facts = [str(table["table"]), str(table["variant"]), kind, free]
        if sits_at(table, name):
            facts.append(tr._("you sit here"))
        lines.append(f"{number:>{width}}. " + " · ".join(facts))
        lines.append(" " * (width + 2) + ", ".join(_seat(seat, tr) for seat in seats))
    return lines


def _seat(seat: dict[str, Any], tr: Translator) -> str:
    """Who sits at a seat: a name (away, when dropped), ``(free)``, or the bot's label."""
    if seat["kind"] != "human":
        return str(seat["label"])
    if seat["name"] is None:
        return tr._("(free)")
    return str(seat["name"]) + ("" if seat["connected"] else " " + tr._("(away)"))


def chosen(line: str, tables: list[dict[str, Any]]) -> str | None:
    """The table a line chooses: its number in the lobby, or its id; None for anything else."""
    text = line.strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(tables):
        return str(tables[int(text) - 1]["table"])
    ids = [str(t["table"]) for t in tables]
    return text if text in ids else None


async def choose_table(
    tables: list[dict[str, Any]],
    name: str,
    url: str,
    tr: Translator,
    screen: Screen,
    prompt: Callable[[str], None],
    lines: asyncio.Queue[str | None],
) -> str:
    """The table ``name`` is to join at ``url``: the one that fits without asking, else the
    person's choice in the lobby. A :class:`~sixtysix.table.client.TableError` when no table
    is open; :class:`NoTableChosen` when the input ends before a choice."""
    table, choices = joinable(tables, name)
    if table is not None:
        return table
    if not choices:
        raise no_table(url, tr)
    for number, text in enumerate(lobby_lines(choices, name, url, tr)):
        screen.say(text, "bold" if number == 0 else None)
    while True:
        prompt(tr._("Table number (1-{count}): ").format(count=len(choices)))
        line = await lines.get()
        if line is None:
            prompt("\n")
            raise NoTableChosen
        table = chosen(line, choices)
        if table is not None:
            return table
        screen.say(tr._("Give a number from 1 to {count}.").format(count=len(choices)), "yellow")
