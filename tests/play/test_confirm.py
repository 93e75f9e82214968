"""Irrevocable choices ask once: conceding a deal, stopping a test game, leaving a rated one."""

from __future__ import annotations

import pytest

from sixtysix.core.actions import CONCEDE
from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.play.session import Ending
from sixtysix.service.input import is_yes
from tests.play.conftest import REGISTRY, make_session, make_variant
from tests.play.scripted import FakeClock, Interrupt, RecordingScreen, ScriptedInput, Step


@pytest.mark.parametrize("word", ["y", "Y", "yes", " YES ", "e", "E", "evet", "Evet"])
def test_yes_in_either_language(word: str) -> None:
    assert is_yes(word)


@pytest.mark.parametrize("word", ["", "n", "no", "h", "hayır", "quit", "yes please", "1", "ye"])
def test_anything_else_declines(word: str) -> None:
    assert not is_yes(word)


class PromptsSeen(ScriptedInput):
    """Scripted input that keeps every prompt it was shown."""

    def __init__(self, steps: list[Step]) -> None:
        super().__init__(steps)
        self.shown: list[str] = []

    def read(self, prompt, view, tick):  # type: ignore[no-untyped-def]
        self.shown.append(prompt)
        return super().read(prompt, view, tick)


def _declarer_to_act() -> object:
    """A 66-3 deal where seat 0 declares and may concede before the first card."""
    variant = make_variant("sixtysix-3")
    for seed in range(100):
        state = variant.new_deal(variant.deal(Seed(seed), ("deal", 0), 2))  # seat 0 forehand
        state.apply(state.legal_actions()[0])  # seat 0 names trump and leads
        if state.to_act == 0 and CONCEDE in state.legal_actions():
            record = Record(variant.name, {}, seed, [DealRecord(state.setup, state.history)])
            return replay(load_record_text(record.dumps()), REGISTRY)
    raise AssertionError("no such deal")  # pragma: no cover


@pytest.mark.parametrize(
    ("lang", "steps", "conceded"),
    [
        ("en", ["concede", "y"], True),
        ("en", ["concede", "n"], False),
        ("en", ["concede", "no thanks"], False),
        ("tr", ["bırak", "e"], True),
        ("tr", ["bırak", "evet"], True),
        ("tr", ["bırak", "h"], False),
    ],
)
def test_concede_asks_once(lang: str, steps: list[Step], conceded: bool) -> None:
    resume = _declarer_to_act()
    screen = RecordingScreen()
    person = PromptsSeen([*steps, "quit", "y"])
    session = make_session(
        make_variant("sixtysix-3"), person, screen, lang=lang, resume=resume, seed=1
    )
    session.run()
    question = (
        "Concede the deal? Each of the others scores 2 game points. (y/n) "
        if lang == "en"
        else "Dağıtımı bırakıyor musun? Diğerlerinin her biri 2 oyun puanı alır. (e/h) "
    )  # what conceding costs before any card: 2 to each partner (RULES.md)
    assert person.shown.count(question) == 1
    deal = session.record.deals[0]
    assert ((0, CONCEDE) in deal.actions) is conceded
    if not conceded:
        cancelled = "Not conceded: play on." if lang == "en" else "Bırakmadın: oyun sürüyor."
        assert cancelled in screen.said


@pytest.mark.parametrize(
    ("steps", "ending", "asked_again"),
    [
        (["quit", "y"], Ending.SAVED, False),
        (["quit", "n", "quit", "yes"], Ending.SAVED, True),
        (["quit"], Ending.SAVED, False),  # end of input at the question: saved, as today
        (["quit", Interrupt()], Ending.INTERRUPTED, False),  # Ctrl-C at the question
    ],
)
def test_stopping_a_test_game_asks_once(
    steps: list[Step], ending: Ending, asked_again: bool
) -> None:
    screen = RecordingScreen()
    person = PromptsSeen(steps)
    result = make_session(make_variant("schnapsen"), person, screen, seed=2).run()
    assert result.ending is ending
    question = "Stop here? The game is saved and can be resumed (y/n) "
    assert person.shown[1] == question
    assert ("Playing on." in screen.said) is asked_again
    assert person.shown.count(question) == (2 if asked_again else 1)


def test_end_of_input_and_ctrl_c_at_the_move_save_without_asking() -> None:
    for steps, ending in (([], Ending.SAVED), ([Interrupt()], Ending.INTERRUPTED)):
        person = PromptsSeen(list(steps))
        result = make_session(make_variant("sixtysix"), person, RecordingScreen(), seed=2).run()
        assert result.ending is ending
        assert all("Stop here?" not in p for p in person.shown)


def test_in_turkish_the_question_is_turkish() -> None:
    person = PromptsSeen(["çık", "e"])
    result = make_session(make_variant("sixtysix"), person, RecordingScreen(), lang="tr").run()
    assert result.ending is Ending.SAVED
    assert person.shown[1].endswith("(e/h) ") and "Burada duralım mı?" in person.shown[1]


def _rated(steps: list[Step]) -> tuple[PromptsSeen, RecordingScreen, Ending]:
    clock = FakeClock()
    person = PromptsSeen(steps)
    person.clock = clock
    screen = RecordingScreen()
    session = make_session(
        make_variant("sixtysix"), person, screen, rated=True, move_time=60, clock=clock
    )
    return person, screen, session.run().ending


def test_leaving_a_rated_game_warns_and_asks_once() -> None:
    person, screen, ending = _rated(["quit", "y"])
    assert ending is Ending.LEFT
    assert any(s.startswith("Leaving a rated game is leaving the table") for s in screen.said)
    assert "Leave the table? (y/n) " in person.shown
    assert not any("quit again" in s for s in screen.said)


def test_declining_to_leave_a_rated_game_plays_on() -> None:
    person, screen, ending = _rated(["quit", "n", "1"])
    assert "Playing on." in screen.said
    assert ending is Ending.LEFT  # the script then ended: the end of input leaves the table
    assert person.shown.count("Leave the table? (y/n) ") == 1
