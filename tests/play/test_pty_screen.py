"""The table as a person meets it: scripted games of ``sixtysix play`` in a real
pseudo-terminal, at 120, 60 and 45 columns, in English and Turkish.

The person here plays the first card the screen does not bracket (so the legal-card mark
itself drives the game: a wrong mark would stall it or be refused), names clubs at a trump
call and plays solo at a partner call.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.live import Live
from rich.text import Text

from sixtysix.i18n import Translator

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

TIMEOUT = 30
WIDTHS = (120, 60, 45)
LANGS = ("en", "tr")
#: Escape sequences: colours and styles (CSI), cursor save and restore.
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[78]")
CARD = re.compile(r"(\[?)(\d+):(?:10|[AKQJ9])[♣♦♥♠]")


def as_shown(raw: str) -> str:
    """The lines a terminal leaves of ``raw``: carriage returns, line erases and cursor moves
    followed (pyte), as the thinking spinner redraws and then removes itself. The screen is as
    wide as the longest line and as tall as the output, so nothing wraps or scrolls away and a
    line too wide for the real terminal stays whole, for the layout checks to see."""
    screen = pyte.Screen(max(map(len, raw.split("\n"))) + 1, raw.count("\n") + 1)
    screen.set_mode(pyte.modes.LNM)  # a line feed starts the line, as the terminal's output does
    pyte.Stream(screen).feed(raw)
    lines = [line.rstrip() for line in screen.display]
    last = max([screen.cursor.y] + [row for row, line in enumerate(lines) if line])
    return "\n".join(lines[: last + 1])


@dataclass
class Game:
    """One ``sixtysix play`` in a pseudo-terminal, and everything it has shown."""

    child: Any  # a pexpect.spawn
    lang: str
    width: int
    shown: list[str] = field(default_factory=list)
    #: The same, with the escape sequences.
    raw: list[str] = field(default_factory=list)
    #: The last screen that drew the table (a refusal re-prompts without it).
    table: str = ""
    #: The ends of deals the game waited at.
    pauses: int = 0

    @property
    def tr(self) -> Translator:
        return Translator(self.lang)

    @property
    def prompt(self) -> str:
        return self.tr._("Your move") + " > "

    @property
    def text(self) -> str:
        return "".join(self.shown)

    @property
    def pause(self) -> str:
        return self.tr._("Enter: the next deal") + " > "

    def screen(self) -> str | None:
        """What was shown up to the next prompt (None: the program ended); at the end of a
        deal the game waits for Enter, pressed here."""
        while True:
            index = self.child.expect_exact([self.prompt, self.pause, pexpect.EOF])
            self.raw.append(self.child.before)
            out = as_shown(self.child.before)
            self.shown.append(out)
            if index != 1:
                break
            self.pauses += 1
            self.send("")
        if self.tr._("Your hand") + ":" in out:
            self.table = out
        return out if index == 0 else None

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def choice(self, screen: str) -> str:
        """The person's move at this screen: the first card not bracketed, else clubs at a
        trump call, else solo."""
        tr = self.tr
        if tr._("Your hand") + ":" not in screen:
            screen = self.table
        hand = screen[screen.rfind(tr._("Your hand") + ":") :]
        example = tr._("Play a card: its number or its name (e.g. {example}).")
        marker = example.split("{example}")[0].split()[-1]
        if marker in hand:
            free = [number for bracket, number in CARD.findall(hand) if not bracket]
            return str(free[0])
        if tr._("You see your first {n} cards; name trump.").split("{n}")[0] in screen:
            return "c"
        return "solo"

    def play(self, until: Callable[[str], bool] = lambda s: False, moves: int = 400) -> str:
        """Play until a screen satisfies ``until`` (returned) or the game ends ("")."""
        for _ in range(moves):
            screen = self.screen()
            if screen is None:
                return ""
            if until(screen):
                return screen
            self.send(self.choice(screen))
        raise AssertionError("the game did not end")

    def quit(self) -> None:
        self.send("quit" if self.lang == "en" else "çık")
        self.child.expect(r"\((y/n|e/h)\)")
        self.send("y" if self.lang == "en" else "e")
        self.child.expect(pexpect.EOF)
        self.shown.append(as_shown(self.child.before))


def start(tmp_path: Path, width: int, lang: str, *args: str, color: bool = False) -> Game:
    env = dict(os.environ)
    env.update(
        {
            "SIXTYSIX_DATA_DIR": str(tmp_path),
            "TERM": "xterm-256color",
            "COLUMNS": str(width),
            "LINES": "50",
            "LANG": "C.UTF-8",
        }
    )
    if color:
        env.pop("NO_COLOR", None)
    else:
        env["NO_COLOR"] = "1"
    save = tmp_path / f"game-{width}-{lang}.json"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "sixtysix", "play", *args, "--vs", "random", "--lang", lang, "--save", str(save)],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, width),
    )
    return Game(child, lang, width)


def assert_laid_out(game: Game) -> None:
    """No line wider than the terminal, no seat label cut, no card cut from its player."""
    tr = game.tr
    seat = tr._("seat {seat}").split()[0]
    player = re.compile(rf"(\b{seat} \d|\b{tr._('you')}):?$")
    previous = ""
    for line in game.text.splitlines():
        # The resume command is printed whole, to be pasted: the one line allowed to overflow.
        assert cell_len(line) <= game.width or line.startswith("sixtysix play --resume"), line
        assert not re.search(rf"\b{seat}\s*$", line), line
        if re.match(r"^\s*(10|[AKQJ9])[♣♦♥♠]", line):
            assert not player.search(previous.rstrip()), (previous, line)
        previous = line


@pytest.fixture(
    params=[(w, lang) for w in WIDTHS for lang in LANGS], ids=lambda p: f"{p[1]}-{p[0]}"
)
def where(request: pytest.FixtureRequest) -> tuple[int, str]:
    return request.param  # type: ignore[no-any-return]


def test_the_transcript_follows_a_status_line_redrawn_in_place() -> None:
    """A status redrawn before it is taken away (a computer player thinking longer than one
    refresh) is one line on the screen, then none; without the carriage returns it was two
    frames side by side, wider than the terminal."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=40, color_system=None)
    frame = Text("⠋ seat 1 is thinking…")
    with Live(frame, console=console, transient=True, auto_refresh=False) as live:
        live.refresh()
        live.refresh()
    console.print("seat 1 plays K♥")
    raw = out.getvalue()
    assert cell_len(ANSI.sub("", raw).replace("\r", "").splitlines()[0]) > 40
    assert as_shown(raw) == "seat 1 plays K♥\n"


# ----------------------------------------------------------------- 1. the legal-card mark


def test_the_bracketed_cards_are_exactly_the_ones_refused(
    tmp_path: Path, where: tuple[int, str]
) -> None:
    width, lang = where
    game = start(tmp_path, width, lang, "66-3", "--seed", "4")
    tr = game.tr
    legend = tr._("Cards in [brackets] may not be played now.")
    try:
        screen = game.play(until=lambda s: legend.split()[0] + " " in s and "[" in s)
        assert screen, "no screen with a barred card"
        hand = screen[screen.rfind(tr._("Your hand") + ":") :]
        barred = [n for b, n in CARD.findall(hand) if b]
        free = [n for b, n in CARD.findall(hand) if not b]
        assert barred and free
        game.send(barred[0])
        refused = game.screen()
        assert refused is not None
        assert tr._("Your hand") + ":" not in refused  # refused: no new table
        game.send(free[0])
        accepted = game.screen()
        assert accepted is not None
        played = tr._("You play {card}").split("{card}")
        assert any(part.strip() and part.strip() in accepted for part in played)
        game.quit()
    finally:
        game.child.close()
    assert " ".join(legend.split()[:2]) in game.text.replace("\n", " ")
    assert_laid_out(game)


def test_in_colour_the_barred_cards_are_dim_and_the_hand_is_not_all_bold(tmp_path: Path) -> None:
    game = start(tmp_path, 100, "en", "66-3", "--seed", "4", color=True)
    try:
        game.play(until=lambda s: "Cards in [brackets]" in s)
        raw = game.raw[-1]
        game.quit()
    finally:
        game.child.close()
    assert "\x1b[" in raw  # a real terminal, with styles
    line = next(x for x in raw.splitlines() if "Your hand" in x)
    assert re.search(r"\x1b\[2m\[\d+:", line)  # a barred card: dim, and bracketed
    bold_cards = re.findall(r"\x1b\[1(?:;[\d;]+)?m((?:10|[AKQJ9])[♣♦♥♠])", line)
    barred = re.findall(r"\[\d+:((?:10|[AKQJ9])[♣♦♥♠])\]", ANSI.sub("", line))
    assert bold_cards and not set(bold_cards) & set(barred)  # only playable cards are bold


# ----------------------------------------------------------------- 2, 3, 4, 10: a whole match


@pytest.mark.parametrize(
    ("variant", "seed", "options"),
    [
        ("66", "3", ["-o", "target=2"]),
        ("schnapsen", "1", ["-o", "target=2"]),
        ("66-3", "4", ["-o", "target=3"]),
        ("66-4", "2", ["-o", "target=3"]),
    ],
)
def test_a_whole_match_shows_the_facts_the_sides_and_why(
    tmp_path: Path, where: tuple[int, str], variant: str, seed: str, options: list[str]
) -> None:
    width, lang = where
    game = start(tmp_path, width, lang, variant, "--seed", seed, *options)
    tr = game.tr
    first = tr._("First trick won by each player")
    try:
        # Once a trick has been taken, ask for the first tricks.
        game.play(until=lambda s: tr._("Last trick") + ":" in s)
        game.send("tricks" if lang == "en" else "eller")
        shown = game.screen()
        assert shown is not None and first in shown
        game.send(game.choice(shown))
        game.play()
    finally:
        game.child.close()
    text = game.text
    flat = " ".join(text.split())
    why = tr._("Why {points}: {because}.").split("{points}")[0]
    assert why in text  # 4: each deal says why
    assert " ".join(tr._("The match, deal by deal").split()) in flat  # 10: the summary
    deals = flat.count(" ".join(tr._("Deal over: {reason}").split("{reason}")[0].split()))
    assert game.pauses == deals - 1  # each deal's end held until Enter, but the last
    if variant in ("66-3", "66-4"):
        assert tr._("side") in text  # 3: the sides' pooled points
        assert tr._("Sides") in text or tr._("Partner") in text
        assert "partner: unknown" not in text and "ortak: bilinmiyor" not in text
        won = tr._("Won by {who} with {points} points together.").split("{who}")[0]
        assert won.strip() in text
    assert_laid_out(game)


def test_the_strict_phase_is_announced_once_per_deal(tmp_path: Path) -> None:
    for lang in LANGS:
        game = start(tmp_path, 80, lang, "66", "--seed", "3", "-o", "target=1")
        tr = game.tr
        try:
            game.play()
        finally:
            game.child.close()
        deals = game.text.count(tr._("Deal over: {reason}").split("{reason}")[0])
        strict = game.text.count(
            tr._(
                "{why}: strict play from now on. Follow suit and head the trick if you can, else"
                " trump; no more drawing."
            ).split("{why}: ")[1][:15]
        )
        assert deals >= 1 and 1 <= strict <= deals


def test_an_exchange_names_the_card_taken(tmp_path: Path) -> None:
    game = start(tmp_path, 60, "en", "schnapsen", "--seed", "2")
    try:
        screen = game.play(until=lambda s: "exchanges" in s)
        assert screen
        game.quit()
    finally:
        game.child.close()
    said = re.search(r"seat 1 exchanges (\S+) for the turn-up (\S+)", game.text)
    assert said, game.text[-2000:]
    taken = said.group(2)
    assert f"seat 1 {taken} (taken in the exchange)" in " ".join(game.text.split())


def test_trump_from_below_names_the_card_shown(tmp_path: Path) -> None:
    game = start(tmp_path, 45, "tr", "66-3", "--seed", "4")
    try:
        # As forehand, take trump from below the first time the trump is to be named.
        for _ in range(300):
            screen = game.screen()
            assert screen is not None
            if "kozu söyle" in screen:
                game.send("koz alttan")
                break
            game.send(game.choice(screen))
        shown = game.screen()
        assert shown is not None
        game.quit()
    finally:
        game.child.close()
    flat = " ".join(game.text.split())
    assert re.search(r"Kozu alttan aldın: (10|[AKQJ9])[♣♦♥♠] gösterildi, koz", flat)
    assert "(koz için gösterildi)" in flat
    assert_laid_out(game)
