"""A deal that ends in a forfeit, in the record itself (RECORDS.md): written and read back,
every malformed forfeit refused in one line, and ``sixtysix replay`` scoring it by the one
fault rule (the side as it stands: the seat alone before the sides are formed)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.cli import cli
from sixtysix.core.errors import RecordError
from sixtysix.core.faults import FaultKind, forfeit
from sixtysix.core.records import DealRecord, Forfeit, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import build_registry
from tests.cli.conftest import played_record
from tests.helpers import act, deal
from tests.test_properties import CONFIGS, make, random_deal

REGISTRY = build_registry(autoload=False)


def variant(name: str, **options: object) -> Variant:
    return REGISTRY.variant(name).configure(overrides=options)


def record(v: Variant, *deals: tuple[DealState, Forfeit | None]) -> Record:
    rows = [DealRecord(state.setup, list(state.history), f) for state, f in deals]
    return Record(v.name, v.options.diff(), None, rows)


def run(runner: CliRunner, tmp_path: Path, data: object, *args: str, **kw: Any) -> Any:
    path = tmp_path / "r.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return runner.invoke(cli, ["replay", str(path), *args], **kw)


def two_player() -> tuple[Variant, DealState]:
    """66, seat 0 all spades, seat 1 all hearts, clubs trump: seat 0 takes two tricks (the
    second with the spades marriage), then is to lead."""
    v = variant("66")
    state = deal(
        v,
        ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"],
        trump_card="AC",
        talon="9C JC QC KC TC 9D JD QD KD TD AD",
    )
    act(state, "AS", "9H", "marry S", "KS", "TH")
    assert state.to_act == 0 and state.tricks == [2, 0]
    return v, state


#: 66-4, dealer seat 3: seat 0 names spades and calls the ace of spades, which seat 3 holds.
HANDS_4 = ["JC KC JH TD KS JS", "KD TH AH QD QS 9D", "JD 9C TC QH AC 9S", "KH AS AD QC 9H TS"]


# ---------------------------------------------------------------------- writing and reading


def test_a_forfeit_is_written_after_the_actions_and_read_back() -> None:
    v, state = two_player()
    rec = record(v, (state, Forfeit(0, FaultKind.TIMEOUT)))
    data = json.loads(rec.dumps())
    written = data["deals"][0]
    assert list(written)[-2:] == ["actions", "forfeit"]
    assert written["forfeit"] == {"seat": 0, "reason": "timeout"}
    raw = load_record_text(rec.dumps())
    assert raw.deals[0].forfeit == Forfeit(0, FaultKind.TIMEOUT)
    assert raw.deals[0].forfeit.reason is FaultKind.TIMEOUT


@pytest.mark.parametrize("kind", list(FaultKind))
def test_every_kind_of_fault_round_trips(kind: FaultKind) -> None:
    v, state = two_player()
    raw = load_record_text(record(v, (state, Forfeit(1, kind))).dumps())
    assert raw.deals[0].forfeit == Forfeit(1, kind)


def test_a_deal_without_a_forfeit_is_written_and_read_as_before() -> None:
    v, state = two_player()
    data = json.loads(record(v, (state, None)).dumps())
    assert list(data["deals"][0]) == ["dealer", "hands", "trump_card", "talon", "actions"]
    assert load_record_text(json.dumps(data)).deals[0].forfeit is None


def _with_forfeit(value: object) -> dict[str, Any]:
    v, state = two_player()
    data: dict[str, Any] = json.loads(record(v, (state, None)).dumps())
    data["deals"][0]["forfeit"] = value
    return data


MALFORMED = [
    ("unknown reason", {"seat": 0, "reason": "sulk"}, r"'reason' must be one of illegal, "),
    ("reason case", {"seat": 0, "reason": "TIMEOUT"}, r"'reason' must be one of .* 'TIMEOUT'"),
    ("reason type", {"seat": 0, "reason": 3}, r"'reason' must be one of .*not 3$"),
    ("seat of no game", {"seat": 100, "reason": "crash"}, r"'seat' must be a seat number"),
    ("seat negative", {"seat": -1, "reason": "crash"}, r"'seat' must be a seat number"),
    ("seat of another game", {"seat": 2, "reason": "crash"}, r"there is no seat 2 in this game"),
    ("seat type", {"seat": "0", "reason": "crash"}, r"'seat' must be a seat number"),
    ("seat boolean", {"seat": True, "reason": "crash"}, r"'seat' must be a seat number"),
    ("seat float", {"seat": 0.0, "reason": "crash"}, r"'seat' must be a seat number"),
    ("extra field", {"seat": 0, "reason": "crash", "detail": "x"}, r"unknown field 'detail'"),
    ("no reason", {"seat": 0}, r"has no 'reason'"),
    ("no seat", {"reason": "crash"}, r"has no 'seat'"),
    ("empty", {}, r"has no '(reason|seat)'"),
    ("a list", [0, "crash"], r"must be an object like"),
    ("a string", "timeout", r"must be an object like"),
    ("null", None, r"must be an object like .*not None"),
]


@pytest.mark.parametrize(
    ("value", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_forfeit_is_one_line_naming_the_deal(
    runner: CliRunner, tmp_path: Path, value: object, message: str
) -> None:
    for args in ((), ("--json",)):
        result = run(runner, tmp_path, _with_forfeit(value), *args)
        assert result.exit_code == 2 and result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and "Traceback" not in result.stderr
        assert lines[0].startswith("deal 1, forfeit: "), lines[0]
        assert re.search(message, lines[0]), lines[0]


# ---------------------------------------------------------------------- replay


def test_replay_json_scores_a_two_player_forfeit(runner: CliRunner, tmp_path: Path) -> None:
    v, first = two_player()
    # Deal 2 (dealer seat 0): seat 1 leads, and faults at once.
    second = deal(
        v,
        ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"],
        trump_card="AC",
        talon="9C JC QC KC TC 9D JD QD KD TD AD",
        dealer=0,
    )
    rec = record(v, (first, Forfeit(0, FaultKind.TIMEOUT)), (second, Forfeit(1, FaultKind.CRASH)))
    result = run(runner, tmp_path, rec.as_json(), "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [d["result"] for d in out["deals"]] == [
        # 11 + 14 card points and the spades marriage (valid: seat 0 has a trick).
        {"reason": "forfeit", "game_points": [0, 3], "points": [45, 0], "tricks": [2, 0]},
        {"reason": "forfeit", "game_points": [3, 0], "points": [0, 0], "tricks": [0, 0]},
    ]
    assert [len(d["steps"]) for d in out["deals"]] == [5, 0]
    assert out["match"] == {"game_points": [3, 3], "winners": []}


def test_a_forfeit_can_win_the_match(runner: CliRunner, tmp_path: Path) -> None:
    v = variant("66", target=3)
    state = two_player()[1]
    rec = Record(v.name, v.options.diff(), None, [DealRecord(state.setup, list(state.history))])
    rec.deals[0].forfeit = Forfeit(1, FaultKind.CLOSED)  # not the seat to act: still its fault
    out = json.loads(run(runner, tmp_path, rec.as_json(), "--json").stdout)
    assert out["deals"][0]["result"]["game_points"] == [3, 0]
    assert out["match"] == {"game_points": [3, 0], "winners": [0]}


@pytest.mark.parametrize(
    ("line", "faulter", "kind", "result"),
    [
        # Before the partner is called the sides are not formed: the seat alone scores 0.
        (
            ["trump S"],
            0,
            "crash",
            {
                "reason": "forfeit",
                "game_points": [0, 3, 3, 3],
                "points": [0] * 4,
                "tricks": [0] * 4,
            },
        ),
        # After the call the sides stand (0 with 3, who holds AS, though nobody knows it yet):
        # seat 3's fault costs its partner too.
        (
            ["trump S", "partner AS", "KS", "QS", "9S", "TS"],
            3,
            "garbage",
            {
                "reason": "forfeit",
                "game_points": [0, 3, 3, 0],
                "points": [0, 0, 0, 17],
                "tricks": [0, 0, 0, 1],
            },
        ),
        # The same deal forfeited by a defender: the other defender scores 0 with it.
        (
            ["trump S", "partner AS", "KS"],
            1,
            "illegal",
            {
                "reason": "forfeit",
                "game_points": [3, 0, 0, 3],
                "points": [0] * 4,
                "tricks": [0] * 4,
            },
        ),
    ],
    ids=["before-sides", "partner-faults", "defender-faults"],
)
def test_replay_json_scores_a_four_player_forfeit_by_the_sides_then(
    runner: CliRunner,
    tmp_path: Path,
    line: list[str],
    faulter: int,
    kind: str,
    result: dict[str, Any],
) -> None:
    v = variant("66-4")
    state = act(deal(v, HANDS_4), *line)
    rec = record(v, (state, Forfeit(faulter, FaultKind(kind))))
    out = json.loads(run(runner, tmp_path, rec.as_json(), "--json").stdout)
    assert out["deals"][0]["result"] == result
    assert [s["action"] for s in out["deals"][0]["steps"]] == [
        a if " " in a else f"play {a}" for a in line
    ]
    assert out["match"] == {"game_points": result["game_points"], "winners": []}


def test_a_forfeit_after_the_deal_is_over_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    data = played_record()
    data["deals"][0]["forfeit"] = {"seat": 1, "reason": "timeout"}  # type: ignore[index]
    for args in ((), ("--json",)):
        result = run(runner, tmp_path, data, *args)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == (
            "deal 1, forfeit: seat 1 cannot forfeit: the deal is already over\n"
        )


def test_a_forfeited_deal_that_more_deals_follow_is_finished(tmp_path: Path) -> None:
    """Deal 2 follows a forfeited deal 1 as it follows any finished one."""
    v, first = two_player()
    second = deal(
        v,
        ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"],
        trump_card="AC",
        talon="9C JC QC KC TC 9D JD QD KD TD AD",
        dealer=0,
    )
    rec = record(v, (first, None), (second, None))
    with pytest.raises(RecordError, match="deal 1: unfinished, but more deals follow"):
        replay(load_record_text(rec.dumps()), REGISTRY)
    rec.deals[0].forfeit = Forfeit(0, FaultKind.ILLEGAL)
    assert replay(load_record_text(rec.dumps()), REGISTRY).deals[1].result is None


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"SIXTYSIX_LANG": "en"}, "  a fault forfeits the deal: seat 0 (timeout)"),
        (
            {"SIXTYSIX_LANG": "tr"},
            "  kural dışı davranış dağıtımı kaybettirir: oyuncu 0 (süre aşımı)",
        ),
    ],
)
def test_the_readable_replay_tells_the_forfeit(
    runner: CliRunner, tmp_path: Path, env: dict[str, str], said: str
) -> None:
    v, state = two_player()
    rec = record(v, (state, Forfeit(0, FaultKind.TIMEOUT)))
    result = run(runner, tmp_path, rec.as_json(), env={**env, "LANGUAGE": None, "LC_ALL": None})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index(said)
    assert lines[at - 1] == "  seat 1: play TH  -> trick to seat 0 (+14)"
    assert lines[at + 1] == "  result: forfeit; game points [0, 3]; points [45, 0]; tricks [2, 0]"


# ---------------------------------------------------------------------- property


@given(
    st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.sampled_from(list(FaultKind))
)
def test_a_random_forfeit_replays_to_what_the_fault_rule_gave(
    config: tuple[str, dict[str, object]], rnd: random.Random, kind: FaultKind
) -> None:
    """Random legal play, a random seat forfeits at a random point: the record written and
    read back replays to the outcome :func:`forfeit` gave, and the match counts it."""
    v = make(*config)
    played = random_deal(v, rnd)
    while not played.is_over:
        played.apply(rnd.choice(played.legal_actions()))
    # The same deal again, up to a random point before its end.
    state = v.new_deal(played.setup)
    for _, action in played.history[: rnd.randrange(len(played.history))]:
        state.apply(action)
    seat = rnd.randrange(v.seats)
    outcome = forfeit(state, seat)
    written = record(v, (state, Forfeit(seat, kind))).dumps()
    raw = load_record_text(written)
    assert raw.deals[0].forfeit == Forfeit(seat, kind)
    result = replay(raw, REGISTRY)
    assert result.deals[0].result == outcome
    assert result.deals[0].forfeit == Forfeit(seat, kind)
    assert result.totals == list(outcome.game_points)
    assert result.winners == v.match_winners(list(outcome.game_points), 1)
    again = Record(v.name, v.options.diff(), None)
    again.deals.append(DealRecord(result.deals[0].state.setup, result.deals[0].state.history))
    again.deals[0].forfeit = result.deals[0].forfeit
    assert again.dumps() == written
