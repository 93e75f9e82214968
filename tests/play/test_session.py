"""The play loop driven by scripted input: whole matches of every variant, in both languages."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.records import load_record_file
from sixtysix.core.replay import replay
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.autosave import load_saved_game, session_path
from sixtysix.play.session import Ending, Session
from sixtysix.service.explain import why_illegal
from tests.play.conftest import REGISTRY, make_session, make_variant
from tests.play.scripted import AutoInput, RecordingScreen, ScriptedInput

VARIANTS = [
    ("sixtysix", {"target": 2}),
    ("sixtysix", {"target": 1, "claim": "manual", "open_scores": False}),
    ("sixtysix", {"target": 1, "talonless": True}),
    ("schnapsen", {"target": 2}),
    ("sixtysix-3", {"target": 2}),
    ("sixtysix-4", {"target": 2, "trump_from_below": True}),
]


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_whole_match_by_scripted_input(
    name: str, options: dict[str, object], lang: str, tmp_path: Path
) -> None:
    variant = make_variant(name, **options)
    person = AutoInput(seed=len(name) + len(lang))
    screen = RecordingScreen()
    save = tmp_path / "game.json"
    seat = variant.seats - 1
    session = make_session(variant, person, screen, lang=lang, seat=seat, save=save)
    result = session.run()
    assert result.ending is Ending.FINISHED
    assert max(result.totals) >= variant.target and result.winners
    assert person.prompts > 0
    # The saved record is complete and replays to the same totals.
    replayed = replay(load_record_file(save), REGISTRY)
    assert replayed.totals == result.totals and replayed.winners == result.winners
    text = screen.text
    if lang == "tr":
        assert "Koz" in text and "Elin" in text and "Maç bitti" in text
        assert "Your hand" not in text and "Match over" not in text
    else:
        assert "Trump" in text and "Your hand" in text and "Match over" in text
    # Every illegal card typed was refused with the reason, in the player's language.
    assert person.illegal_tried
    tr = Translator(lang)
    for view, card in person.illegal_tried:
        reason = why_illegal(view, card, tr)
        assert reason and reason in screen.said
    # In the called-trump games the person also named trump (and called a partner or went solo).
    mine = {str(a).split()[0] for d in replayed.deals for s, a in d.state.history if s == seat}
    if variant.rules.trump_call:
        assert "trump" in mine
    if variant.rules.partner_call:
        assert mine & {"partner", "solo"}


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({}, True),  # automatic claims: running points are public
        ({"claim": "manual"}, False),  # the memory game
        ({"claim": "manual", "open_scores": True}, True),
    ],
)
def test_running_points_only_where_the_rules_allow(options: dict[str, object], shown: bool) -> None:
    variant = make_variant("sixtysix", **options)
    screen = RecordingScreen()
    # Seat 0 leads; after one trick someone has card points to show (or to hide).
    make_session(variant, ScriptedInput(["1", "1", "quit"]), screen, seed=4).run()
    headers = [ln for ln in screen.text.splitlines() if ln.strip().startswith("player")]
    assert headers
    for header in headers:
        assert ("points" in header.replace("game points", "")) is shown


def test_hand_is_hidden_from_other_seats() -> None:
    """Nothing of the bot's hand reaches the screen: the rendered hand is the person's."""
    variant = make_variant("sixtysix", talonless=True)
    screen = RecordingScreen()
    person = ScriptedInput(["quit"])
    session = make_session(variant, person, screen, seed=7)
    session.run()
    state = session.state
    assert state is not None
    from sixtysix.service.terms import card_text

    line = next(ln for ln in screen.text.splitlines() if ln.startswith("Your hand"))
    for c in range(24):
        shown = card_text(c) in line.replace("10", "10")
        assert shown == bool(state.hands[0] >> c & 1)


def test_undo_takes_back_the_persons_last_action(tmp_path: Path) -> None:
    variant = make_variant("sixtysix")
    screen = RecordingScreen()
    person = ScriptedInput(["undo", "1", "undo", "2", "quit"])
    save = tmp_path / "g.json"
    session = make_session(variant, person, screen, save=save, seed=3)
    session.run()
    assert "Nothing to undo in this deal." in screen.said
    assert sum("Taken back: play" in s for s in screen.said) == 1
    # After the undo the record holds the second choice, not the first.
    first_view = person.views[0]
    from sixtysix.service.facts import hand_order

    order = hand_order(first_view)
    data = json.loads(save.read_text())
    mine = [a["action"] for a in data["deals"][0]["actions"] if a["seat"] == 0]
    assert mine[0] == f"play {order[1]}"


def test_undo_rebuilds_the_same_position() -> None:
    variant = make_variant("schnapsen")
    screen = RecordingScreen()
    person = ScriptedInput(["1", "undo", "quit"])
    session = make_session(variant, person, screen, seed=11)
    session.run()
    before, after = person.views[0], person.views[-1]
    assert before.hand == after.hand and before.history == after.history


def test_quit_saves_and_resume_continues(tmp_path: Path) -> None:
    variant = make_variant("sixtysix", target=1)
    save = tmp_path / "g.json"
    screen = RecordingScreen()
    first = make_session(variant, ScriptedInput(["1", "1", "quit"]), screen, save=save, seed=5)
    result = first.run()
    assert result.ending is Ending.SAVED
    assert any("sixtysix play --resume" in s for s in screen.said)
    saved = json.loads(save.read_text())
    actions_before = saved["deals"][0]["actions"]
    assert actions_before and session_path(save).exists()

    resumed = load_saved_game(save, REGISTRY)
    assert resumed.settings is not None and resumed.settings.seat == 0
    screen2 = RecordingScreen()
    person = AutoInput(seed=2, mistakes=False)
    second = make_session(
        resumed.replay.variant, person, screen2, save=save, seed=5, resume=resumed.replay
    )
    assert second.state is not None  # the unfinished deal goes on
    assert second.state.history == [(a["seat"], _code(a["action"])) for a in actions_before]
    result2 = second.run()
    assert result2.ending is Ending.FINISHED
    final = json.loads(save.read_text())
    assert final["deals"][0]["actions"][: len(actions_before)] == actions_before
    assert replay(load_record_file(save), REGISTRY).winners == result2.winners


def _code(name: str) -> int:
    from sixtysix.core.actions import parse_action

    return int(parse_action(name))


def test_ctrl_c_in_a_test_game_saves(tmp_path: Path) -> None:
    from tests.play.scripted import Interrupt

    variant = make_variant("sixtysix-3")
    save = tmp_path / "g.json"
    screen = RecordingScreen()
    result = make_session(variant, ScriptedInput(["trump h", Interrupt()]), screen, save=save).run()
    assert result.ending is Ending.INTERRUPTED
    assert json.loads(save.read_text())["deals"][0]["actions"]


def test_marriage_that_reaches_66_announces_it() -> None:
    """ "40 daha yetişir": a marriage completing 66 ends the deal at once, and says so."""
    from sixtysix.core.records import DealRecord, Record
    from tests.helpers import deal

    variant = make_variant("sixtysix", target=7)
    state = deal(
        variant,
        ["KH QH AS TS 9C JC", "AC TC KC QC JD 9D"],
        trump_card="9H",
        talon="AD TD KD QD JS 9S AH TH JH",
        dealer=1,
    )
    from tests.helpers import act

    act(state, "AS", "TC", "TS", "KC")  # seat 0 wins 21 + 14 = 35 points in two tricks
    record = Record(
        variant.name, variant.options.diff(), 1, [DealRecord(state.setup, state.history)]
    )
    raw_replay = replay(_raw(record), REGISTRY)
    screen = RecordingScreen()
    for lang, phrase in (("en", '"40 more is enough!"'), ("tr", '"40 daha yetişir!"')):
        screen = RecordingScreen()
        session = make_session(
            variant,
            ScriptedInput(["marry h", "quit"]),
            screen,
            lang=lang,
            seed=1,
            resume=replay(_raw(record), REGISTRY),
        )
        session.run()
        assert phrase in screen.text, screen.text[-2000:]
    assert raw_replay.deals[0].result is None


def _raw(record: object) -> object:
    from sixtysix.core.records import Record, load_record_text

    assert isinstance(record, Record)
    return load_record_text(record.dumps())


def test_ctrl_c_while_a_computer_player_thinks(tmp_path: Path) -> None:
    class Interrupted:
        def choose(self, view: object) -> int:
            raise KeyboardInterrupt

    variant = make_variant("sixtysix")
    save = tmp_path / "g.json"
    screen = RecordingScreen()
    session = make_session(variant, ScriptedInput(["1"]), screen, save=save, seed=3)
    session.setup.bots[1] = Interrupted()  # type: ignore[assignment]
    result = session.run()
    assert result.ending is Ending.INTERRUPTED
    assert any("sixtysix play --resume" in s for s in screen.said)
    assert json.loads(save.read_text())["deals"][0]["actions"]


def test_resumed_seeded_match_deals_what_the_seed_says(tmp_path: Path) -> None:
    from sixtysix.core.rng import Seed

    variant = make_variant("schnapsen", target=7)
    save = tmp_path / "g.json"
    make_session(variant, ScriptedInput(["1", "quit"]), RecordingScreen(), save=save, seed=21).run()
    resumed = load_saved_game(save, REGISTRY)
    assert resumed.seed == 21
    session = make_session(
        variant,
        AutoInput(seed=1, mistakes=False),
        RecordingScreen(),
        save=save,
        seed=21,
        resume=resumed.replay,
    )
    assert session.run().ending is Ending.FINISHED
    deals = replay(load_record_file(save), REGISTRY).deals
    assert len(deals) >= 2
    dealer = variant.first_dealer(Seed(21))
    for number, played in enumerate(deals):
        assert played.state.setup == variant.deal(Seed(21), ("deal", number), dealer)
        dealer = variant.next_dealer(dealer)


class _UntilDeal:
    """Types the first legal action until deal ``stop`` is dealt, then ends the input."""

    def __init__(self, record: Callable[[], int], stop: int) -> None:
        self.deals = record
        self.stop = stop

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str:
        if self.deals() >= self.stop:
            raise EOFError
        return ACTION_NAMES[view.legal_actions[0]]


def test_a_bots_fault_is_saved_in_the_record_and_resumed_as_a_forfeit(tmp_path: Path) -> None:
    """The saved record ends the faulted deal with its forfeit, so a resumed game goes on with
    the next deal, its totals counting the forfeit, and the summary tells it."""
    variant = make_variant("sixtysix", target=7)
    save = tmp_path / "g.json"
    screen = RecordingScreen()
    holder: list[Session] = []
    source = _UntilDeal(lambda: len(holder[0].record.deals), 2)
    session = make_session(variant, source, screen, save=save, seed=3)
    holder.append(session)
    bot = session.setup.bots[1]
    assert bot is not None
    inner = bot.choose
    asked: list[int] = []

    def faults_first(view: View) -> int:
        asked.append(1)
        return 999 if len(asked) == 1 else inner(view)

    bot.choose = faults_first  # type: ignore[method-assign,assignment]
    assert session.run().ending is Ending.SAVED
    assert "seat 1 faulted (illegal: " in screen.text
    data = json.loads(save.read_text())
    assert data["deals"][0]["forfeit"] == {"seat": 1, "reason": "illegal"}
    assert "forfeit" not in data["deals"][1]
    resumed = load_saved_game(save, REGISTRY)
    first = resumed.replay.deals[0].result
    assert first is not None and first.reason == "forfeit" and first.game_points == (3, 0)
    shown = RecordingScreen()
    again = make_session(
        variant, AutoInput(seed=2, mistakes=False), shown, save=save, seed=3, resume=resumed.replay
    )
    assert again.totals == [3, 0] and again.completed == 1
    result = again.run()
    assert result.ending is Ending.FINISHED
    # The match summary replays deal 1 from the record: forfeited, 3 to seat 0.
    summary = shown.text[shown.text.index("The match, deal by deal") :]
    first_row = next(ln for ln in summary.splitlines() if ln.strip().startswith("1 "))
    assert "+3 =3" in first_row and "forfeit" in first_row
    assert json.loads(save.read_text())["deals"][0]["forfeit"] == data["deals"][0]["forfeit"]
    assert replay(load_record_file(save), REGISTRY).totals == result.totals
