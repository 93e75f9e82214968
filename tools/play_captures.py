"""Captures of the ``sixtysix play`` table for docs/play.md, from seeded scripted games.

Each variant is played in-process, as ``sixtysix play VARIANT --seed N --vs random`` would
play it, by a scripted person who plays the first card the rules allow (clubs at a trump
call, solo at a partner call), on a screen of a fixed width without colour (as with
``NO_COLOR``). The output is Markdown: for each variant one table screen (the first one that shows
a card known to be in a hand and brackets a card the rules forbid, or failing that one of
these, else a screen after a few moves) and the end of its first
deal, each in a plain text block, ready to paste into docs/play.md:

    python tools/play_captures.py [--width 80] > captures.md

A developer tool: nothing in ``sixtysix`` or the tests imports it.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console

from sixtysix.core.actions import ACTION_NAMES, SOLO, TRUMP
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.session import GameSetup, Session
from sixtysix.play.terminal import ConsoleScreen
from sixtysix.plugins.manager import build_registry
from sixtysix.service.facts import hand_order
from sixtysix.service.players import build_bots

#: (variant, seed, options): one deal each (a match to 1 game point ends after it).
GAMES: tuple[tuple[str, int, dict[str, object]], ...] = (
    ("sixtysix", 3, {"target": 1}),
    ("schnapsen", 2, {"target": 1}),
    ("sixtysix-3", 3, {"target": 1}),
    ("sixtysix-4", 1, {"target": 1}),
)
#: Each variant's heading in docs/play.md: its name and the alias players type.
HEADINGS = {
    "sixtysix": "sixtysix (66)",
    "sixtysix-3": "sixtysix-3 (66-3)",
    "sixtysix-4": "sixtysix-4 (66-4)",
}

#: A screen is taken at the latest after this many of the person's moves.
LATEST = 4


class _Screen(ConsoleScreen):
    """The terminal's screen on plain text at a fixed width (not live: no spinner, no
    countdown); remembers where each prompt came."""

    def __init__(self, width: int, tr: Translator) -> None:
        self.buffer = io.StringIO()
        console = Console(file=self.buffer, width=width, color_system=None, force_terminal=False)
        super().__init__(console, tr, live=False)
        self.marks: list[int] = []


@dataclass
class _Person:
    """Plays the first allowed card in the hand's order, else clubs, else solo."""

    screen: _Screen

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        self.screen.marks.append(len(self.screen.buffer.getvalue()))
        legal = [int(a) for a in view.legal_actions]
        for card in hand_order(view):
            if int(card) in legal:
                return ACTION_NAMES[int(card)]
        for action in (TRUMP, SOLO):
            if action in legal:
                return ACTION_NAMES[action]
        return ACTION_NAMES[legal[0]]


def capture(name: str, seed: int, options: dict[str, object], width: int, lang: str) -> str:
    """The Markdown of one variant's captures."""
    registry = build_registry()
    cls = registry.variant(name)
    variant = cls(cls.options_class.build(options))
    specs = ["" if s == 0 else "random" for s in range(variant.seats)]
    master = Seed(seed)
    setup = GameSetup(
        variant=variant,
        seat=0,
        bots=build_bots(specs, registry, master),
        labels=tuple(specs),
        seed=master,
        level="random",
    )
    tr = Translator(lang)
    screen = _Screen(width, tr)
    session = Session(setup, tr, _Person(screen), screen)
    session.run()
    text = screen.buffer.getvalue()
    marks = screen.marks
    hand = tr._("Your hand") + ":"
    screens = [text[a:b] for a, b in zip([0, *marks], marks, strict=False)][1:]
    tables = [s.strip("\n") for s in screens if hand in s]
    known = tr._("Known in hands") + ":"

    def interest(t: str) -> int:
        """Known cards shown, then a card bracketed: what a capture should show."""
        return 2 * (known in t) + ("[" in t.split(hand)[-1])

    best = max(interest(t) for t in tables)
    chosen = next(t for t in tables if interest(t) == best) if best else tables[LATEST]
    over = tr._("Deal over: {reason}").split("{reason}")[0].strip()
    start = text.rfind("\n", 0, text.find(over)) + 1
    box = text[start : text.find("\n", text.find("╰", start))]
    summary = text.find(tr._("The match, deal by deal"))
    summary = text.rfind("\n", 0, summary) + 1
    end = text.find(tr._("Match over. Winner: {names}.").split("{names}")[0])
    prompt = tr._("Your move") + " > "
    out = [f"### {HEADINGS.get(name, name)}", "", "```text", chosen + "\n" + prompt, "```", ""]
    out += ["```text", box.rstrip(), "", text[summary:end].rstrip(), "```", ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=80, help="columns of the screen")
    parser.add_argument("--lang", default="en", choices=("en", "tr"))
    args = parser.parse_args()
    parts = [capture(name, seed, opts, args.width, args.lang) for name, seed, opts in GAMES]
    print("\n".join(parts), end="")


if __name__ == "__main__":
    main()
