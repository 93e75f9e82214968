"""Golden records: whole matches of every variant, replayed and compared with the stored
``replay --json`` output, so a change in rules, notation or the contract cannot go unnoticed
(the game records' equivalent of perft counts).

Regenerate deliberately with ``SIXTYSIX_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and
review the diff: a changed expected output is a change of the public contract.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry

GOLDEN_DIR = Path(__file__).parent / "data" / "golden"

CASES: list[tuple[str, str, dict[str, object], int]] = [
    ("66-default", "sixtysix", {}, 101),
    ("66-classic", "sixtysix", {"claim": "manual", "failed_close": "2or3", "tie": "draw"}, 102),
    ("66-talonless", "sixtysix", {"talonless": True, "target": 3}, 103),
    ("schnapsen-default", "schnapsen", {}, 104),
    ("schnapsen-manual", "schnapsen", {"claim": "manual"}, 105),
    ("66-3-default", "sixtysix-3", {"target": 5}, 106),
    (
        "66-3-options",
        "sixtysix-3",
        {"target": 5, "must_overtrump": True, "no66": "last_trick_wins"},
        107,
    ),
    ("66-4-default", "sixtysix-4", {"target": 5}, 108),
    (
        "66-4-options",
        "sixtysix-4",
        {"target": 5, "trump_from_below": True, "solo_loss": "double"},
        109,
    ),
]


def make_record(variant: str, options: dict[str, object], seed: int) -> dict[str, object]:
    reg = build_registry()
    cls = reg.variant(variant)
    v = cls(cls.options_class.build(options))
    bots = [reg.bot("random")(s, Seed(seed)) for s in range(v.seats)]
    return play_match(v, [b.choose for b in bots], Seed(seed)).record.as_json()


@pytest.mark.parametrize(("name", "variant", "options", "seed"), CASES, ids=[c[0] for c in CASES])
def test_golden_record(name: str, variant: str, options: dict[str, object], seed: int) -> None:
    record_path = GOLDEN_DIR / f"{name}.record.json"
    expected_path = GOLDEN_DIR / f"{name}.replay.json"
    if os.environ.get("SIXTYSIX_UPDATE_GOLDEN"):
        record_path.write_text(json.dumps(make_record(variant, options, seed), indent=1) + "\n")
        out = CliRunner().invoke(cli, ["replay", str(record_path), "--json"])
        assert out.exit_code == 0, out.output
        expected_path.write_text(json.dumps(json.loads(out.stdout), indent=1) + "\n")
    result = CliRunner().invoke(cli, ["replay", str(record_path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(expected_path.read_text())
    assert json.loads(result.stdout)["match"]["winners"], "a golden record is a whole match"
