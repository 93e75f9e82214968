"""The installed-style smoke test: Santase from sixtysix's own command line."""

from __future__ import annotations

import json
from pathlib import Path

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.testing import invoke_cli, registry_with

import sixtysix_santase
from sixtysix_santase import Santase


def test_registered_as_a_plugin() -> None:
    reg = registry_with(sixtysix_santase)
    assert reg.variant("santase") is Santase
    assert Santase.plugin == "sixtysix_santase"


def test_listed_and_described() -> None:
    listed = invoke_cli(["variants", "--json"], sixtysix_santase)
    assert listed.exit_code == 0
    assert "santase" in {row["name"] for row in json.loads(listed.stdout)}
    rules = invoke_cli(["rules", "santase", "--json"], sixtysix_santase)
    data = json.loads(rules.stdout)
    options = {o["name"]: o for o in data["options"]}
    assert options["target"]["default"] == 11 and options["close_min_talon"]["default"] == 4


def test_simulate() -> None:
    args = ["simulate", "santase", "--games", "200", "--seed", "1", "--json"]
    result = invoke_cli(args, sixtysix_santase)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 200 and sum(summary["reasons"].values()) == 200


def test_a_match_replays(tmp_path: Path) -> None:
    variant = Santase()
    players = [RandomBot(seat, Seed(11)).choose for seat in range(2)]
    match = play_match(variant, players, Seed(11))
    assert max(match.totals) >= 11
    path = tmp_path / "santase.json"
    match.record.save(path)
    result = invoke_cli(["replay", str(path), "--json"], sixtysix_santase)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["match"]["game_points"] == match.totals


def test_an_illegal_marriage_in_a_record_is_one_clear_line(tmp_path: Path) -> None:
    variant = Santase()
    match = play_match(variant, [RandomBot(s, Seed(3)).choose for s in range(2)], Seed(3))
    record = match.record.as_json()
    deal = record["deals"][0]  # type: ignore[index]
    hands = deal["hands"]
    forehand = (deal["dealer"] + 1) % 2
    # Give the forehand a marriage to declare on the first lead, which Santase forbids.
    deal["actions"] = [{"seat": forehand, "action": f"marry {hands[forehand][0][1]}"}]
    path = tmp_path / "bad.json"
    record["deals"] = [deal]
    path.write_text(json.dumps(record))
    result = invoke_cli(["replay", str(path)], sixtysix_santase)
    assert result.exit_code == 2
    assert result.stderr.startswith("deal 1, step 1: seat ")
    assert len(result.stderr.strip().splitlines()) == 1
