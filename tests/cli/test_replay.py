"""``sixtysix replay`` and its contract (RECORDS.md), error paths included."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from tests.cli.conftest import played_record


def run(runner: CliRunner, path: Path, *args: str) -> Any:
    return runner.invoke(cli, ["replay", str(path), *args])


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_replay_json_contract(runner: CliRunner, record_file: Path) -> None:
    result = run(runner, record_file, "--json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert set(out) == {"variant", "deals", "match"}
    assert out["variant"] == "sixtysix"
    record = json.loads(record_file.read_text())
    assert len(out["deals"]) == len(record["deals"])
    for deal, rec in zip(out["deals"], record["deals"], strict=True):
        assert [s["action"] for s in deal["steps"]] == [a["action"] for a in rec["actions"]]
        for step in deal["steps"]:
            assert set(step) == {"seat", "legal", "action"}
            assert step["legal"] == sorted(step["legal"]) and step["action"] in step["legal"]
        res = deal["result"]
        assert set(res) == {"reason", "game_points", "points", "tricks"}
        assert len(res["game_points"]) == 2
    totals = [sum(d["result"]["game_points"][s] for d in out["deals"]) for s in range(2)]
    assert out["match"]["game_points"] == totals
    assert max(totals) >= 7 and out["match"]["winners"] == [
        s for s in range(2) if totals[s] == max(totals)
    ]


def test_replay_partial_deal_has_null_result(runner: CliRunner, tmp_path: Path) -> None:
    record = played_record()
    record["deals"] = record["deals"][:1]
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:3]
    out = json.loads(run(runner, write(tmp_path, record), "--json").stdout)
    assert out["deals"][0]["result"] is None
    assert out["match"] == {"game_points": [0, 0], "winners": []}


def test_replay_text(runner: CliRunner, record_file: Path) -> None:
    result = run(runner, record_file)
    assert result.exit_code == 0
    assert "Deal 1: dealer seat" in result.stdout and "Match: game points" in result.stdout


def test_replay_from_stdin(runner: CliRunner, record_file: Path) -> None:
    result = runner.invoke(cli, ["replay", "-", "--json"], input=record_file.read_text())
    assert result.exit_code == 0 and json.loads(result.stdout)["variant"] == "sixtysix"


def test_replay_accepts_forgiving_notation(runner: CliRunner, tmp_path: Path) -> None:
    record = played_record()
    deal = record["deals"][0]
    deal["hands"][0] = [c.lower().replace("t", "10") for c in deal["hands"][0]]
    deal["actions"][0]["action"] = deal["actions"][0]["action"].upper().replace("H", "♥")
    result = run(runner, write(tmp_path, record), "--json")
    assert result.exit_code == 0, result.stderr


def _first_follow_step(record: dict[str, Any]) -> int:
    actions = record["deals"][0]["actions"]
    for i, a in enumerate(actions):
        if a["action"].startswith("play"):
            return i + 1  # the follower's step
    raise AssertionError


def mutate(fn: Any) -> Any:
    def build() -> dict[str, Any]:
        record = copy.deepcopy(played_record())
        fn(record)
        return record

    return build


def _set(path: list[Any], value: Any) -> Any:
    def apply(record: dict[str, Any]) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


def _wrong_seat(record: dict[str, Any]) -> None:
    step = record["deals"][0]["actions"][0]
    step["seat"] = 1 - step["seat"]


def _extra_action(record: dict[str, Any]) -> None:
    record["deals"][0]["actions"].append({"seat": 0, "action": "play AS"})


def _duplicate_card(record: dict[str, Any]) -> None:
    deal = record["deals"][0]
    deal["hands"][1][0] = deal["hands"][0][0]


def _unfinished_then_more(record: dict[str, Any]) -> None:
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:2]


def _dealer_wrong(record: dict[str, Any]) -> None:
    record["deals"][1]["dealer"] = record["deals"][0]["dealer"]


def _after_match(record: dict[str, Any]) -> None:
    record["deals"].append(copy.deepcopy(record["deals"][-2]))


ERRORS = [
    ("not json", "{nope", r"is not valid JSON \(line 1"),
    ("format", _set(["format"], "other/2"), "unsupported record format 'other/2'"),
    ("variant", _set(["variant"], "poker"), "record: unknown variant 'poker'"),
    ("option", _set(["options"], {"colour": "red"}), "record: unknown option 'colour'"),
    ("option value", _set(["options"], {"claim": 3}), "option 'claim' of sixtysix must be"),
    ("deals", _set(["deals"], {}), "'deals' must be a list"),
    ("card", _set(["deals", 0, "trump_card"], "XX"), "deal 1, trump_card: unknown card 'XX'"),
    (
        "hand size",
        _set(["deals", 0, "hands", 0], ["AS"]),
        "deal 1: seat 0 has 1 cards; 6 are dealt",
    ),
    ("duplicate", _duplicate_card, "deal 1: card .* is dealt twice"),
    ("seat", _wrong_seat, r"deal 1, step 1: seat \d cannot .*: seat \d is to act"),
    (
        "verb",
        _set(["deals", 0, "actions", 0, "action"], "fly"),
        r"deal 1, step 1: seat \d: unknown action 'fly'",
    ),
    ("after end", _extra_action, "cannot play AS: the deal is over"),
    ("unfinished", _unfinished_then_more, "deal 1: unfinished, but more deals follow"),
    ("dealer", _dealer_wrong, "deal 2: dealer should be seat"),
    ("after match", _after_match, "the match was already won after deal"),
    ("dealer range", _set(["deals", 0, "dealer"], 5), "deal 1: dealer 5 is not a seat"),
    ("seat type", _set(["deals", 0, "actions", 0, "seat"], "0"), "deal 1, step 1: 'seat' must be"),
]


@pytest.mark.parametrize(("name", "change", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_replay_errors(
    runner: CliRunner, tmp_path: Path, name: str, change: Any, message: str
) -> None:
    path = write(tmp_path, change if isinstance(change, str) else mutate(change)())
    for args in ((), ("--json",)):
        result = run(runner, path, *args)
        assert result.exit_code == 2
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert re.search(message, lines[0]), lines[0]
        assert "Traceback" not in result.stderr


def test_replay_missing_file(runner: CliRunner, tmp_path: Path) -> None:
    result = run(runner, tmp_path / "nothing.json")
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_replay_illegal_move_message(runner: CliRunner, tmp_path: Path) -> None:
    """The exact wording of RECORDS.md's example, on a strict-phase position."""
    record = {
        "format": "sixtysix-record/1",
        "variant": "sixtysix",
        "options": {"talonless": True},
        "seed": None,
        "deals": [
            {
                "dealer": 1,
                "hands": [
                    "QH 9C JC QC KC TC AC 9D JD QD KD TD".split(),
                    "KH AS 9H JH TH AH 9S JS QS KS TS AD".split(),
                ],
                "trump_card": None,
                "talon": [],
                "actions": [{"seat": 0, "action": "play QH"}, {"seat": 1, "action": "play AS"}],
            }
        ],
    }
    result = run(runner, write(tmp_path, record), "--json")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "deal 1, step 2: seat 1 cannot play AS: must follow suit with a higher heart (KH, TH, AH)"
    )
