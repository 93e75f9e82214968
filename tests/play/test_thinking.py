"""Never a frozen screen: while a computer player chooses, the screen says who is thinking."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from sixtysix.bots.base import Bot
from sixtysix.core.actions import Action
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.session import Ending
from sixtysix.play.terminal import ConsoleScreen
from tests.play.conftest import make_session, make_variant
from tests.play.scripted import AutoInput, RecordingScreen, ScriptedInput


class Watching(Bot):
    """Plays its first legal action and notes whether the screen was showing it thinking."""

    name = "watching"

    def __init__(self, screen: RecordingScreen, seat: int) -> None:
        self.screen = screen
        self.seat = seat
        self.seen: list[bool] = []

    def choose(self, view: View) -> Action:
        self.seen.append(
            self.screen.thinking_open == 1 and self.screen.thinking_seats[-1] == self.seat
        )
        return view.legal_actions[0]


class CtrlC(Bot):
    name = "ctrl-c"

    def choose(self, view: View) -> Action:
        raise KeyboardInterrupt


def test_every_computer_move_is_shown_as_thinking() -> None:
    for name in ("sixtysix", "sixtysix-3", "sixtysix-4"):
        variant = make_variant(name)
        screen = RecordingScreen()
        session = make_session(variant, AutoInput(3, mistakes=False), screen, seed=5)
        bots = [Watching(screen, s) if s else None for s in range(variant.seats)]
        session.setup.bots = bots  # type: ignore[assignment]
        session.run()
        assert screen.thinking_open == 0
        moves = [s for deal in session.record.deals for s, _ in deal.actions if s != 0]
        assert screen.thinking_seats == moves
        assert all(all(b.seen) and b.seen for b in bots if b is not None)


def test_ctrl_c_while_a_computer_player_thinks_saves_and_stops(tmp_path: Path) -> None:
    variant = make_variant("schnapsen")
    screen = RecordingScreen()
    save = tmp_path / "g.json"
    session = make_session(variant, ScriptedInput(["1", "1", "1"]), screen, seed=3, save=save)
    session.setup.bots = [None, CtrlC(1, Seed(0))]
    result = session.run()
    assert result.ending is Ending.INTERRUPTED and result.interrupted
    assert screen.thinking_open == 0 and screen.thinking_seats
    assert any("Game saved" in s for s in screen.said) and save.exists()


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=80, color_system=None)
    return console, out


def test_on_a_terminal_a_spinner_names_the_seat() -> None:
    for lang, text in (("en", "seat 1 is thinking…"), ("tr", "oyuncu 1 düşünüyor…")):
        console, out = _console(True)
        screen = ConsoleScreen(console, Translator(lang))
        with screen.thinking(1):
            pass
        assert text in out.getvalue()


def test_not_on_a_terminal_nothing_extra_is_printed() -> None:
    console, out = _console(False)
    screen = ConsoleScreen(console, Translator("en"))
    with screen.thinking(2):
        pass
    assert out.getvalue() == ""


def test_while_the_compiled_search_is_prepared_the_spinner_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sixtysix.bots import compiled

    for warming, shown in ((True, True), (False, False)):
        monkeypatch.setattr(compiled, "warming", lambda w=warming: w)
        console, out = _console(True)
        with ConsoleScreen(console, Translator("en")).thinking(1):
            pass
        assert ("preparing the expert's search" in out.getvalue()) is shown
