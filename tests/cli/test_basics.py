"""The CLI's simple commands, through Click's runner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sixtysix import __version__
from sixtysix.cli import cli


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_help_lists_commands(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in ("simulate", "replay", "rules", "variants", "bots"):
        assert name in result.output


def test_unknown_command_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["fly"])
    assert result.exit_code == 2 and "No such command" in result.output


def test_variants_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["variants", "--json"])
    assert result.exit_code == 0
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["sixtysix"]["aliases"] == ["66", "altmisalti"]
    assert rows["sixtysix"]["seats"] == 2
    assert rows["sixtysix"]["plugin"]
    assert "schnapsen" in rows


@pytest.mark.parametrize("width", [80, 60])
def test_variants_table_cuts_nothing(runner: CliRunner, width: int) -> None:
    """At 80 columns, and at 60, every name, alias, plugin and word of a description shows."""
    rows = json.loads(runner.invoke(cli, ["variants", "--json"]).output)
    result = runner.invoke(cli, ["variants"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= width and "…" not in result.output
    words = {w for line in lines for w in line.split()}
    for r in rows:
        assert {r["name"], *r["aliases"], str(r["seats"]), r["plugin"]} <= words
        assert set(r["description"].split()) <= words


def test_bots(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["bots", "--json"])
    assert result.exit_code == 0
    assert "random" in {b["name"] for b in json.loads(result.output)}


def test_rules_json_lists_every_option_with_default(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "altmisalti", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    opts = {o["name"]: o for o in data["options"]}
    assert opts["claim"]["default"] == "auto" and opts["claim"]["choices"] == ["auto", "manual"]
    assert opts["target"]["default"] == 7
    assert opts["last_trick_bonus"]["default"] == 10
    assert opts["exchange_min_talon"]["default"] == 3
    assert opts["exchange_anytime"]["default"] is False
    assert opts["match"]["default"] == "target"
    assert set(data["presets"]) == {"portal", "classic"}
    assert len(opts) == 17


def test_rules_with_preset_shows_values(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "66", "--preset", "classic", "--json"])
    opts = {o["name"]: o for o in json.loads(result.output)["options"]}
    assert opts["claim"]["value"] == "manual" and opts["tie"]["value"] == "draw"


def test_rules_text(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "66"])
    assert result.exit_code == 0
    assert "failed_close" in result.output and "classic" in result.output


def test_rules_unknown_variant(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "poker"])
    assert result.exit_code == 2
    assert "unknown variant 'poker'" in result.output and "sixtysix" in result.output
    assert "Traceback" not in result.output


def test_rules_unknown_option(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "66", "-o", "colour=red"])
    assert result.exit_code == 2 and "valid options:" in result.output


def test_rules_malformed_option(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "66", "-o", "claim"])
    assert result.exit_code == 2 and "name=value" in result.output
