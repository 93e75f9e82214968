"""Laying the table out for the width it has.

Rich wraps a :class:`~rich.text.Text` at any space, so a seat label ("seat 2"), a card group
("♣ 4:10♣  5:J♣") or a typed example ("e.g. 10h") could be cut in two on a narrow terminal.
A :class:`Flow` is a line of pieces that are never cut: they are packed onto as many lines as
the console's width needs, continuation lines indented under the first piece.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text

#: Below this console width the table uses its compact layout (short headers, fewer columns).
COMPACT_WIDTH = 70


class Flow:
    """Pieces of text laid out left to right, broken only between pieces.

    ``head`` starts the first line ("Your hand: "); later lines are indented by ``indent``
    cells (the head's width by default, up to a third of the line). A piece wider than the
    whole line is folded as a last resort.
    """

    def __init__(
        self,
        pieces: Iterable[Text],
        *,
        head: Text | None = None,
        gap: str = "  ",
        gap_style: str = "",
        indent: int | None = None,
    ) -> None:
        self.pieces = [p for p in pieces if p.cell_len]
        self.head = head if head is not None else Text()
        self.gap = gap
        self.gap_style = gap_style
        self.indent = self.head.cell_len if indent is None else indent

    def lines(self, width: int) -> list[Text]:
        """The pieces packed into lines of at most ``width`` cells."""
        width = max(width, 1)
        indent = min(self.indent, width // 3)
        lines: list[Text] = []
        # The head's style is its own span, never the line's: it would style every piece.
        line = Text()
        line.append_text(self.head)
        empty = True
        for piece in self.pieces:
            needed = piece.cell_len + (0 if empty else len(self.gap))
            if not empty and line.cell_len + needed > width:
                lines.append(line)
                line = Text(" " * indent)
                empty = True
            if not empty:
                line.append(self.gap, style=self.gap_style)
            line.append_text(piece)
            empty = False
        lines.append(line)
        out: list[Text] = []
        for text in lines:
            if text.cell_len > width:  # one piece wider than the screen: fold it
                out.extend(text.wrap(Console(width=width), width, overflow="fold"))
            else:
                out.append(text)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for text in self.lines(options.max_width):
            text.end = ""
            text.no_wrap = True
            yield text
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max([self.head.cell_len, *(p.cell_len for p in self.pieces)], default=0)
        total = self.head.cell_len + sum(p.cell_len for p in self.pieces)
        total += len(self.gap) * max(len(self.pieces) - 1, 0)
        return Measurement(min(widest, options.max_width), min(total, options.max_width))


def words(text: str, style: str = "", keep: str = "") -> Iterator[Text]:
    """``text`` as pieces, one per word, with ``keep`` (an example, a seat label) never cut
    and glued to the word before it."""
    if keep and keep in text:
        before, _, after = text.partition(keep)
        head = before.split()
        tail = after.split()
        core = keep
        if head:
            core = head.pop() + (" " if before[-1:].isspace() else "") + core
        if tail and not after[:1].isspace():
            core += tail.pop(0)
        for word in head:
            yield Text(word, style=style)
        yield Text(core, style=style)
        for word in tail:
            yield Text(word, style=style)
        return
    for word in text.split():
        yield Text(word, style=style)


def phrase(text: str, keep: Iterable[str] = (), style: str = "") -> list[Text]:
    """``text`` as pieces broken only at spaces outside every occurrence of the ``keep``
    strings (seat labels such as "seat 2", suit labels such as "♥ hearts")."""
    covered = [False] * len(text)
    for item in keep:
        if not item.strip() or " " not in item:
            continue
        start = text.find(item)
        while start >= 0:
            for i in range(start, start + len(item)):
                covered[i] = True
            start = text.find(item, start + 1)
    pieces: list[Text] = []
    word: list[str] = []
    for i, ch in enumerate(text):
        if ch.isspace() and not covered[i]:
            if word:
                pieces.append(Text("".join(word), style=style))
                word = []
        else:
            word.append(ch)
    if word:
        pieces.append(Text("".join(word), style=style))
    return pieces


class Responsive:
    """One of two layouts, chosen when the console's width is known: ``compact`` below
    :data:`COMPACT_WIDTH` cells, ``wide`` otherwise."""

    def __init__(
        self, wide: Callable[[], RenderableType], compact: Callable[[], RenderableType]
    ) -> None:
        self.wide = wide
        self.compact = compact

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.compact() if options.max_width < COMPACT_WIDTH else self.wide()
