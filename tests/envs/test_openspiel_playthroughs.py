"""Golden playthroughs of the built-in variants, kept and checked as OpenSpiel keeps its own
games' (``open_spiel/integration_tests/playthroughs``, ``playthrough_test.py``): each file is
``generate_playthrough.playthrough`` of the game with its default parameters, one deal with
chance and the seats choosing uniformly at random from a fixed seed, and every state's strings,
tensors, public and private observations, legal actions and returns. The test replays each
file's actions and compares the output line by line, so a change to the game, its encodings
or its observations cannot go unnoticed.

Regenerate deliberately after an intended change, and review the diff:

    SIXTYSIX_UPDATE_GOLDEN=1 pytest tests/envs/test_openspiel_playthroughs.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sixtysix.envs import register_openspiel_games

pytest.importorskip("pyspiel")
from absl import flags
from open_spiel.python.algorithms import generate_playthrough

PLAYTHROUGHS = Path(__file__).resolve().parent.parent / "data" / "playthroughs"
BUILT_IN = ("sixtysix_66", "sixtysix_schnapsen", "sixtysix_66_3", "sixtysix_66_4")
#: The seed of the random choices of a new playthrough (its actions are then in the file).
SEED = 66


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    """The games registered, and absl's flags marked parsed: ``replay`` reads one (whether
    the file's actions are ids or names), as under OpenSpiel's absltest runner."""
    register_openspiel_games()
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


@pytest.mark.parametrize("name", BUILT_IN)
def test_playthrough_replays_exactly(name: str) -> None:
    path = PLAYTHROUGHS / f"{name}.txt"
    if os.environ.get("SIXTYSIX_UPDATE_GOLDEN"):
        PLAYTHROUGHS.mkdir(exist_ok=True)
        text = generate_playthrough.playthrough(name, [], seed=SEED)
        path.write_text(text, encoding="utf-8")
    expected, actual = generate_playthrough.replay(str(path))
    for number, (want, got) in enumerate(
        zip(expected.split("\n"), actual.split("\n"), strict=False), start=1
    ):
        assert got == want, f"{path.name} line {number} differs"
    assert actual == expected


def test_every_built_in_variant_has_its_playthrough() -> None:
    if os.environ.get("SIXTYSIX_UPDATE_GOLDEN"):
        pytest.skip("the files are being written")
    files = sorted(PLAYTHROUGHS.glob("*.txt"))
    assert [f.stem for f in files] == sorted(BUILT_IN)
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.startswith(f"game: {path.stem}\n")  # default parameters
        found = re.search(r'^GameType\.short_name = "(.*)"$', text, re.MULTILINE)
        assert found is not None and found[1] == path.stem
        assert "PublicObservationString() = " in text
        assert re.search(r"^# State \d+\n# .*\nIsTerminal\(\) = True$", text, re.MULTILINE)
