from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def played_record(
    variant: str = "66", seed: int = 5, options: dict[str, object] | None = None
) -> dict[str, object]:
    """A whole match between random bots, as record JSON."""
    reg = build_registry()
    cls = reg.variant(variant)
    v = cls(cls.options_class.build(options or {}))
    bots = [reg.bot("random")(s, Seed(seed)) for s in range(v.seats)]
    result = play_match(v, [b.choose for b in bots], Seed(seed))
    return result.record.as_json()


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played_record()))
    return path
