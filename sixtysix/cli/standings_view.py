"""The standings on a screen of any width, every heading and value whole.

A table with a column each when it fits the console; on a narrower one (a phone's terminal, a
split window) one block per row: what the row is about on a line (its first columns, whose
headings head the blocks), then each heading with its value, as many to a line as fit. Lines
break between values, never inside one, and nothing is cut to ``…``: a value wider than the
whole screen is written out on a line of its own, for the terminal to fold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

#: What stands between two headings' values on a line of a block, before each such line, and
#: between the parts of a row's key.
_GAP = "   "
_INDENT = "  "
_DOT = " · "


@dataclass
class Sheet:
    """Rows under headings: the first ``key`` columns say what a row is about, the columns in
    ``right`` are numbers (set to the right in a table)."""

    title: str
    headings: Sequence[str]
    rows: list[Sequence[str]] = field(default_factory=list)
    key: int = 1
    right: frozenset[int] = frozenset()


def show(console: Console, sheet: Sheet) -> None:
    """Print ``sheet``: its title, then a table if it fits the console, else blocks."""
    # Wrapped at spaces only: a word wider than the screen (a long path) is written whole.
    _packed(console, [Text(word, style="bold") for word in sheet.title.split()], " ", "")
    table = _table(sheet)
    wide = console.options.update_width(1_000_000)
    if Measurement.get(console, wide, table).maximum <= console.width:
        console.print(table)
    else:
        _blocks(console, sheet)


def _table(sheet: Sheet) -> Table:
    table = Table()
    for i, heading in enumerate(sheet.headings):
        table.add_column(heading, justify="right" if i in sheet.right else "left", no_wrap=True)
    for row in sheet.rows:
        table.add_row(*(Text(value) for value in row))  # Text: a "[" in a name is shown as it is
    return table


def _blocks(console: Console, sheet: Sheet) -> None:
    """The key's headings, then one block per row: its key, then heading-value pairs."""
    key = sheet.key
    _packed(console, [Text(h, style="dim") for h in sheet.headings[:key]], _DOT, "")
    for row in sheet.rows:
        _packed(console, [Text(value, style="bold") for value in row[:key]], _DOT, "")
        pairs = [
            Text(heading + " ", style="dim") + Text(value)
            for heading, value in zip(sheet.headings[key:], row[key:], strict=True)
        ]
        _packed(console, pairs, _GAP, _INDENT)


def _packed(console: Console, parts: list[Text], gap: str, indent: str) -> None:
    """``parts`` on as few lines as fit the console, ``gap`` between two on a line, each line
    after ``indent``: never a part broken (one wider than the screen alone on its line)."""
    line = Text(indent)
    for part in parts:
        if len(line) > len(indent):
            if line.cell_len + len(gap) + part.cell_len > console.width:
                console.print(line, soft_wrap=True)
                line = Text(indent)
            else:
                line.append(gap)
        line.append_text(part)
    if len(line) > len(indent):
        console.print(line, soft_wrap=True)
