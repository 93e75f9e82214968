"""``hint`` in the play loop and ``sixtysix analyse`` with the real expert analysis (skipped
where :mod:`sixtysix.bots.analysis` is not installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.records import DealRecord, Record
from tests.play.conftest import make_session, make_variant
from tests.play.scripted import RecordingScreen, ScriptedInput


def test_hint_without_the_analysis_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "sixtysix.bots.analysis", None)  # import fails
    screen = RecordingScreen()
    make_session(make_variant("sixtysix"), ScriptedInput(["hint", "quit"]), screen).run()
    assert "Hints need the expert analysis, which is not installed here." in screen.said


def test_hint_lists_every_legal_move_with_its_value() -> None:
    pytest.importorskip("sixtysix.bots.analysis")
    variant = make_variant("sixtysix", talonless=True)
    screen = RecordingScreen(width=140)
    person = ScriptedInput(["hint", "quit"])
    make_session(variant, person, screen, seed=2).run()
    view = person.views[0]
    text = screen.text
    assert "Expected game points of each move" in text
    table = text.split("Expected game points of each move")[1]
    for action in view.legal_actions:
        assert ACTION_NAMES[action] in table


def test_analyse_a_talonless_deal_with_the_expert(tmp_path: Path) -> None:
    pytest.importorskip("sixtysix.bots.analysis")
    from tests.helpers import act, deal

    variant = make_variant("sixtysix", talonless=True)
    state = deal(
        variant,
        ["AS TS KS QS JS 9S AH TH KH QH JH 9H", "AC TC KC QC JC 9C AD TD KD QD JD 9D"],
        dealer=1,
    )
    # Seat 0 leads a spade; the record stops there (a record may end anywhere).
    act(state, "9S")
    record = Record(
        variant.name, variant.options.diff(), None, [DealRecord(state.setup, state.history)]
    )
    path = tmp_path / "short.json"
    path.write_text(record.dumps())
    result = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "0", "--json", "--seed", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    [move] = data["moves"]
    assert move["action"] == "play 9S" and not move["forced"]
    assert move["best_value"] >= move["value"] and move["loss"] >= 0
