"""The parts of the second peer yardstick that need nothing of their code
(``_patrasciuc_rules.py``): the rules we set for their game and the one difference."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from benchmarks.strength import strength_vs_patrasciuc
from benchmarks.strength._agreement import Choice, agreement, agreement_lines
from benchmarks.strength._patrasciuc_rules import (
    PATRASCIUC_RULES,
    THEIRS,
    Pairing,
    patrasciuc_variant,
    rival_of,
    source_dir,
    unmarried_leads,
)
from benchmarks.strength._peer_games import Bummerl, Game, outcome_lines, outcomes
from sixtysix.core.actions import MARRY
from sixtysix.core.cards import parse_card
from sixtysix.core.deal import DealSetup
from sixtysix.core.records import Record, load_record_file
from sixtysix.variants.schnapsen import Schnapsen


def test_their_rules_are_our_defaults() -> None:
    default = Schnapsen.configure(None, {})
    assert patrasciuc_variant().options == default.options
    assert set(PATRASCIUC_RULES) <= {s.name for s in default.options.specs()}


def test_unmarried_leads_are_the_kings_and_queens_of_held_pairs() -> None:
    variant = patrasciuc_variant()
    c = parse_card
    hands = (
        (c("KH"), c("QH"), c("KS"), c("AD"), c("JC")),
        (c("QS"), c("TH"), c("AH"), c("JH"), c("TC")),
    )
    rest = [x for x in range(24) if x % 6 and x not in hands[0] + hands[1]]
    state = variant.new_deal(DealSetup(1, hands, rest[0], tuple(rest[1:])))
    legal = state.legal_actions()
    assert MARRY + 2 in legal
    assert unmarried_leads(legal, state.hands[0]) == {c("KH"), c("QH")}


def test_source_dir_names_a_checkout(tmp_path: Path) -> None:
    (tmp_path / "src" / "model").mkdir(parents=True)
    (tmp_path / "src" / "ai").mkdir()
    (tmp_path / "src" / "model" / "game_state.py").write_text("")
    assert source_dir(tmp_path) == tmp_path / "src"
    assert source_dir(tmp_path / "src") == tmp_path / "src"
    with pytest.raises(SystemExit):
        source_dir(tmp_path / "nowhere")


@pytest.mark.parametrize(
    "flags",
    [
        ["--opponent", "foo"],
        ["--opponent", "bot:nope"],
        ["--opponent", "bot:expert:zz=1"],
        ["--bot", "expert:zz=1"],
        ["--shadow", "expert:zz=1"],
        ["--shadow", "expert", "--opponent", "bot:expert"],
    ],
)
def test_an_unknown_player_is_refused_before_their_code_is_looked_for(
    flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        strength_vs_patrasciuc.main(["--source", "/nowhere", "--bummerl", "1", *flags])
    assert exit_.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert ": error: --" in last


def test_a_pairing_names_our_rival_and_reaches_a_worker_whole() -> None:
    """A run's workers receive the pairing before their code can be imported: it must come
    through pickling from this module alone."""
    pairing = Pairing(3, "expert", "bot:expert:read=1", 150, 667, told=True)
    assert pickle.loads(pickle.dumps(pairing)) == pairing
    assert rival_of(pairing.opponent) == "expert:read=1"
    assert all(rival_of(kind) is None for kind in THEIRS)


def test_the_report_shows_deals_by_game_points_and_closes_by_their_outcome() -> None:
    games = [
        Game(0, True, True, 3, (), (), "ours"),
        Game(1, False, False, 2, (), (), "ours"),
        Game(2, True, False, 1, (), ()),
        Game(3, False, False, 3, (), (), "theirs"),
        Game(4, True, True, 2, (), (), "theirs"),
    ]
    data = outcomes(games)
    assert data["deals_by_game_points"] == {
        "ours": {"1": 0, "2": 1, "3": 1},
        "theirs": {"1": 1, "2": 1, "3": 1},
    }
    assert data["closes"] == {
        "ours": {"won": {"1": 0, "2": 0, "3": 1}, "lost": {"1": 0, "2": 1, "3": 0}},
        "theirs": {"won": {"1": 0, "2": 0, "3": 1}, "lost": {"1": 0, "2": 1, "3": 0}},
    }
    assert outcome_lines(data) == [
        "deals won, ours: 0 for 1, 1 for 2, 1 for 3;"
        " its closes won 0 for 1, 0 for 2, 1 for 3, lost 0 for 1, 1 for 2, 0 for 3",
        "deals won, theirs: 1 for 1, 1 for 2, 1 for 3;"
        " its closes won 0 for 1, 0 for 2, 1 for 3, lost 0 for 1, 1 for 2, 0 for 3",
    ]


def test_records_are_written_one_file_a_bummerl_and_seat(tmp_path: Path) -> None:
    bummerls = [
        Bummerl(3, True, (), (7, 2), Record("schnapsen")),
        Bummerl(3, False, (), (4, 7), Record("schnapsen", seed=5)),
    ]
    strength_vs_patrasciuc.write_records(tmp_path, bummerls)
    first = tmp_path / "bummerl-0003-ours-seat0.json"
    second = tmp_path / "bummerl-0003-ours-seat1.json"
    assert sorted(tmp_path.iterdir()) == [first, second]
    assert load_record_file(first).variant == "schnapsen"
    assert load_record_file(second).seed == 5


def test_an_unwritable_records_folder_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SystemExit) as exit_:
        strength_vs_patrasciuc.main(
            ["--source", "/nowhere", "--bummerl", "1", "--records", str(blocker / "sub")]
        )
    assert exit_.value.code == 2
    assert "--records: cannot make" in capsys.readouterr().err.strip().splitlines()[-1]


def test_shadows_count_agreement_with_their_choice_by_phase() -> None:
    choices = [
        Choice("talon 9", 3, 3, (3, 4)),
        Choice("talon 9", 5, 4, (5, 5)),
        Choice("talon gone", 1, 1, (2, 1)),
    ]
    data = agreement(choices, ["expert", "expert:last=1"])
    assert list(data) == ["talon 9", "talon gone", "all"]
    assert data["talon 9"] == {
        "decisions": 2,
        "agreed": {"theirs asked again": 1, "expert": 2, "expert:last=1": 1},
    }
    assert data["all"]["agreed"] == {"theirs asked again": 2, "expert": 2, "expert:last=1": 2}
    lines = agreement_lines(data)
    assert lines[1].split() == [
        "phase",
        "decisions",
        "theirs",
        "asked",
        "again",
        "expert",
        "expert:last=1",
    ]
    assert lines[2].split() == ["talon", "9", "2", "50.0%", "100.0%", "50.0%"]
    assert agreement_lines(agreement([], ["expert"])) == []
