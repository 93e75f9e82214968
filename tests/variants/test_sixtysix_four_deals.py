"""66's ``match=four_deals`` ([001]: "4 oyun oynanır", the most game points after four deals
win): the match format, whole matches, records and replay, simulate, and ``sixtysix rules``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.cli import cli
from sixtysix.core.actions import CLAIM
from sixtysix.core.match import MatchResult, play_match
from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.core.rules import MatchFormat
from sixtysix.plugins.manager import build_registry
from sixtysix.variants.sixtysix import SixtySix

REGISTRY = build_registry()


def v66(**opts: object) -> SixtySix:
    return SixtySix.configure(None, opts)


# --------------------------------------------------------------------------- the format


def test_the_format_comes_from_the_options() -> None:
    assert v66().match_format == MatchFormat(7, None)
    assert v66(match="four_deals").match_format == MatchFormat(7, 4)
    assert v66(match="four_deals", target=3).match_format == MatchFormat(3, 4)
    assert v66(match="four_deals").rules == v66().rules  # a single deal is unchanged
    assert v66(match="four_deals").options.diff() == {"match": "four_deals"}


def test_winners_after_exactly_four_deals() -> None:
    v = v66(match="four_deals")
    for deals in range(4):
        assert v.match_winners([9, 0], deals) == []
    assert v.match_winners([5, 3], 4) == [0]
    assert v.match_winners([2, 6], 4) == [1]
    assert v.match_winners([4, 4], 4) == [0, 1]  # a tie is a shared win
    assert v.match_winners([0, 0], 4) == [0, 1]
    with pytest.raises(ValueError, match="needs the deals played"):
        v.match_winners([5, 3])


def test_the_default_format_is_unchanged() -> None:
    v = v66()
    assert v.match_winners([6, 6]) == [] == v.match_winners([6, 6], 4)
    assert v.match_winners([7, 3], 1) == [0] == v.match_winners([7, 3])
    assert v.match_winners([8, 8], 12) == [0, 1]


# --------------------------------------------------------------------------- whole matches


def random_match(variant: SixtySix, seed: int) -> MatchResult:
    bots = [RandomBot(s, Seed(seed)) for s in range(2)]
    return play_match(variant, [b.choose for b in bots], Seed(seed))


@pytest.mark.parametrize("seed", range(6))
def test_a_match_is_four_deals_even_when_a_seat_reaches_the_target(seed: int) -> None:
    variant = v66(match="four_deals", target=1)  # the first deal's winner is at the target
    result = random_match(variant, seed)
    assert len(result.outcomes) == len(result.record.deals) == 4
    totals = result.totals
    assert totals == [sum(o.game_points[s] for o in result.outcomes) for s in range(2)]
    assert result.winners == [s for s in range(2) if totals[s] == max(totals)]
    again = replay(load_record_text(result.record.dumps()), REGISTRY)
    assert again.totals == totals and again.winners == result.winners


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_every_four_deal_match_ends_after_four_deals(seed: int, target: int) -> None:
    result = random_match(v66(match="four_deals", target=target), seed)
    assert len(result.outcomes) == 4
    best = max(result.totals)
    assert result.winners == [s for s in range(2) if result.totals[s] == best]


# --------------------------------------------------------------------------- records


def claim_record(deals: int, **opts: object) -> dict[str, object]:
    """Deals that end at once: the forehand claims falsely (no trick), the dealer scores 2.

    The dealer moves on each deal, so each seat scores 2 every other deal.
    """
    variant = v66(claim="manual", **opts)
    dealer = 1
    record = Record(variant.name, variant.options.diff(), None)
    for number in range(deals):
        setup = variant.deal(Seed(number), ("deal",), dealer)
        state = variant.new_deal(setup)
        state.apply(CLAIM)
        assert state.outcome is not None and state.outcome.game_points[dealer] == 2
        record.deals.append(DealRecord(setup, state.history))
        dealer = variant.next_dealer(dealer)
    data = record.as_json()
    assert isinstance(data, dict)
    return data


def replay_json(tmp_path: Path, data: object) -> tuple[int, str, str]:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    return result.exit_code, result.stdout, result.stderr


def test_replay_lists_the_winners_once_four_deals_are_finished(tmp_path: Path) -> None:
    code, out, _ = replay_json(tmp_path, claim_record(3, match="four_deals"))
    assert code == 0
    assert json.loads(out)["match"] == {"game_points": [2, 4], "winners": []}
    code, out, _ = replay_json(tmp_path, claim_record(4, match="four_deals"))
    assert code == 0
    assert json.loads(out)["match"] == {"game_points": [4, 4], "winners": [0, 1]}


def test_replay_four_deals_past_the_target(tmp_path: Path) -> None:
    # At the target of 2 after one deal: a four-deal match goes on ...
    code, out, _ = replay_json(tmp_path, claim_record(2, match="four_deals", target=2))
    assert code == 0 and json.loads(out)["match"]["winners"] == []
    # ... a match to the target is over, and a second deal is refused.
    code, out, err = replay_json(tmp_path, claim_record(2, target=2))
    assert code == 2 and out == ""
    assert err == "deal 2: the match was already won after deal 1\n"


def test_replay_refuses_a_fifth_deal(tmp_path: Path) -> None:
    code, out, err = replay_json(tmp_path, claim_record(5, match="four_deals"))
    assert code == 2 and out == ""
    assert err == "deal 5: the match was already won after deal 4\n"


def test_replay_of_the_default_format_is_unchanged(tmp_path: Path) -> None:
    code, out, _ = replay_json(tmp_path, claim_record(4))
    assert code == 0 and json.loads(out)["match"] == {"game_points": [4, 4], "winners": []}


# --------------------------------------------------------------------------- simulate


def test_simulate_four_deal_matches() -> None:
    args = ["simulate", "66", "--matches", "6", "--seed", "2", "--json", "--workers", "1"]
    result = CliRunner().invoke(cli, [*args, "-o", "match=four_deals"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["deals"] == 24 and data["unit"] == "matches"
    variant = v66(match="four_deals")
    wins = [0, 0]
    points = [0, 0]
    master = Seed(2)
    for m in range(6):
        mseed = master.child(("match", m))
        bots = [RandomBot(s, mseed.child(("bot", s))) for s in range(2)]  # as the CLI seeds them
        match = play_match(variant, [b.choose for b in bots], mseed)
        for s in match.winners:
            wins[s] += 1
        points = [points[s] + match.totals[s] for s in range(2)]
    assert data["wins"] == wins and data["game_points"] == points


# --------------------------------------------------------------------------- sixtysix rules


def test_rules_lists_both_options_in_json() -> None:
    result = CliRunner().invoke(cli, ["rules", "66", "--json", "-o", "match=four_deals"])
    assert result.exit_code == 0, result.output
    options = {o["name"]: o for o in json.loads(result.stdout)["options"]}
    assert options["exchange_anytime"]["type"] == "bool"
    assert options["exchange_anytime"]["default"] is False
    assert options["match"]["choices"] == ["target", "four_deals"]
    assert options["match"]["default"] == "target" and options["match"]["value"] == "four_deals"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("following too", "four_deals: four deals")),
        ("tr", ("karşılık verirken de", "four_deals: dört dağıtım")),
    ],
)
def test_rules_lists_both_options_in_both_languages(lang: str, words: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, ["rules", "66", "--lang", lang], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "exchange_anytime" in text and "match" in text
    for word in words:
        assert word in text, text


def test_bad_match_value_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["rules", "66", "-o", "match=five"])
    assert result.exit_code == 2
    assert "match" in result.stderr and "one of target, four_deals" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
