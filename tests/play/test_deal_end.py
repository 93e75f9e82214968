"""The end of a deal stays on the screen until the person is ready, with no timer running,
and a last card may play itself."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sixtysix.core.actions import ACTION_NAMES, CONCEDE
from sixtysix.core.view import View
from tests.play.conftest import make_session as session_of
from tests.play.conftest import make_variant
from tests.play.scripted import FakeClock, RecordingScreen

PAUSE = "Enter: the next deal > "


class Person:
    """Answers a move with its first legal action, the pause with Enter; counts both."""

    def __init__(self) -> None:
        self.prompts: list[tuple[str, int]] = []  # (prompt, cards in hand)

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        self.prompts.append((prompt, len(view.hand)))
        if prompt == PAUSE:
            assert tick is None  # no timer runs while the result is read
            return ""
        return ACTION_NAMES[next(a for a in view.legal_actions if a != CONCEDE)]


@pytest.mark.parametrize("rated", [False, True])
def test_each_deal_but_the_last_waits_for_enter(rated: bool) -> None:
    person = Person()
    result = session_of(
        make_variant("66", target=3),
        person,
        RecordingScreen(),
        pause=True,
        rated=rated,
        move_time=60 if rated else None,
        clock=FakeClock(),
    ).run()
    pauses = [p for p, _ in person.prompts if p == PAUSE]
    assert result.deals_completed >= 2
    assert len(pauses) == result.deals_completed - 1


def test_without_the_pause_the_next_deal_follows_at_once() -> None:
    person = Person()
    session_of(make_variant("66", target=3), person, RecordingScreen()).run()
    assert all(p != PAUSE for p, _ in person.prompts)


def test_the_last_card_plays_itself() -> None:
    asked, told = Person(), Person()
    plain = session_of(make_variant("66", target=3), asked, RecordingScreen()).run()
    auto = session_of(make_variant("66", target=3), told, RecordingScreen(), auto_last=True).run()
    assert any(cards == 1 for _, cards in asked.prompts)  # the last card was asked for
    assert all(cards != 1 for _, cards in told.prompts)  # and here it was not
    assert auto.totals == plain.totals  # the same game: the one legal card either way


def test_quit_at_the_end_of_a_deal_leaves_as_at_a_move() -> None:
    class Quitter(Person):
        def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
            if prompt == PAUSE:
                self.prompts.append((prompt, len(view.hand)))
                return "quit"
            if prompt.startswith("Stop here?"):
                return "y"
            return super().read(prompt, view, tick)

    person = Quitter()
    screen = RecordingScreen()
    result = session_of(make_variant("66", target=3), person, screen, pause=True).run()
    assert [p for p, _ in person.prompts].count(PAUSE) == 1
    assert result.deals_completed == 1 and result.ending.value == "saved"
