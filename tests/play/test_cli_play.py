"""``sixtysix play``, ``standings`` and ``analyse`` through Click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.cli import cli
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import Registry
from sixtysix.service.players import build_bots, default_opponent, opponents_for, resolve
from tests.play.conftest import REGISTRY


def run(args: list[str], text: str = "") -> tuple[int, str]:
    env = {"COLUMNS": "120", "LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None}
    result = CliRunner().invoke(cli, args, input=text, env=env)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def test_play_a_few_moves_then_quit(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out = run(
        ["play", "66", "--vs", "random", "--seed", "2", "--lang", "en", "--save", str(save)],
        "?\nzz\n1\nquit\n",
    )
    assert code == 0, out
    assert "Your hand" in out and "Allowed now" in out and "I do not understand 'zz'" in out
    assert f"sixtysix play --resume {save}" in out.replace("\n", "")
    data = json.loads(save.read_text())
    assert data["format"] == "sixtysix-record/1" and data["seed"] == 2
    assert any(a["seat"] == 0 for a in data["deals"][0]["actions"])


def test_play_saves_in_the_data_directory_by_default(_data_dir: Path) -> None:
    code, out = run(["play", "schnapsen", "--vs", "random", "--lang", "tr"], "çık\n")
    assert code == 0 and "Oyun kaydedildi" in out
    saved = [p for p in (_data_dir / "games").glob("schnapsen-*.json") if ".session." not in p.name]
    assert len(saved) == 1 and saved[0].with_name(saved[0].stem + ".session.json").exists()


def test_resume_from_the_command_line(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, _ = run(["play", "66", "--vs", "random", "--seed", "4", "--save", str(save)], "1\nquit\n")
    assert code == 0
    before = json.loads(save.read_text())["deals"][0]["actions"]
    moves = "".join(f"{i % 6 + 1}\n" for i in range(40))
    code, out = run(["play", "--resume", str(save), "--lang", "en"], moves)
    assert code == 0, out
    after = json.loads(save.read_text())["deals"][0]["actions"]
    assert after[: len(before)] == before and len(after) > len(before)
    # the replay contract accepts the saved record
    code, out = run(["replay", str(save), "--json"])
    assert code == 0, out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "poker"], "unknown variant 'poker'"),
        (["play"], "name a VARIANT"),
        (["play", "66", "--seat", "2"], "no seat 2"),
        (["play", "66", "--move-time", "45"], "--move-time is for rated games"),
        (["play", "66", "--rated", "--seed", "3"], "--seed is for test games"),
        (["play", "66", "--rated", "--move-time", "10"], "10 is not in the range 30<=x<=300"),
        (["play", "66", "--vs", "nosuchbot"], "unknown bot 'nosuchbot'"),
        (["play", "66-3", "--vs", "random,random,random"], "--vs names 3 players"),
        (["play", "66", "--lang", "de"], "'de' is not one of"),
        (["play", "66", "-o", "colour=red"], "unknown option 'colour'"),
        (["play", "66", "--resume", "missing.json"], "give either VARIANT or --resume"),
        (["play", "--resume", "missing.json"], "cannot read missing.json"),
        (["standings", "--variant", "poker"], "unknown variant 'poker'"),
        (["play", "66", "--seat", "3", "--lang", "tr"], "sixtysix oyununda yerler 0 ile 1 arası"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    code, out = run(args)
    assert code == 2, out
    assert message in out


def test_a_rated_game_cannot_be_resumed_and_goes_into_the_standings(tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    code, out = run(["play", "66", "--rated", "--vs", "random", "--save", str(save)], "quit\ny\n")
    assert code == 0, out
    assert "Leaving a rated game is leaving the table" in out and "-1" in out
    code, out = run(["play", "--resume", str(save)])
    assert code == 2 and "is a rated game: it cannot be resumed" in out
    code, out = run(["play", "--resume", str(save), "--rated"])
    assert code == 2 and "only test games can be resumed" in out
    code, out = run(["standings", "--json"])
    assert code == 0
    assert json.loads(out) == [
        {
            "variant": "sixtysix",
            "level": "random",
            "games": 1,
            "wins": 0,
            "draws": 0,
            "losses": 1,
            "unscored": 0,
            "score": -1,
        }
    ]
    code, out = run(["standings", "--lang", "en"])
    assert code == 0 and "sixtysix" in out and "random" in out
    code, out = run(["standings", "--variant", "schnapsen", "--lang", "tr"])
    assert code == 0 and "Henüz puanlı oyun yok" in out


def test_a_finished_match_cannot_be_resumed(tmp_path: Path) -> None:
    save = tmp_path / "f.json"
    moves = "".join(f"{i % 6 + 1}\n" for i in range(400))
    code, out = run(
        ["play", "66", "-o", "target=1", "--vs", "random", "--seed", "1", "--save", str(save)],
        moves,
    )
    assert code == 0 and "Match over" in out
    code, out = run(["play", "--resume", str(save)])
    assert code == 2 and "already finished" in out


def test_default_opponent_is_the_strongest_installed() -> None:
    assert default_opponent(REGISTRY) == (
        "expert"
        if "expert" in REGISTRY.bots
        else "heuristic"
        if "heuristic" in REGISTRY.bots
        else "random"
    )
    only_random = Registry(bots={"random": REGISTRY.bot("random")})
    assert default_opponent(only_random) == "random"
    assert opponents_for(None, 3, 1, only_random) == ["random", "", "random"]
    assert opponents_for("random", 4, 0, only_random) == ["", "random", "random", "random"]


def test_opponent_specs_with_parameters_and_levels() -> None:
    specs = opponents_for("random:seed=3,random", 3, 0, REGISTRY)
    assert specs == ["", "random:seed=3", "random"]
    assert dict(resolve("random:seed=3", REGISTRY, 2).params) == {"seed": "3"}
    pytest.importorskip("sixtysix.bots.levels")
    if "heuristic" in REGISTRY.bots:
        easy = resolve("easy", REGISTRY, 2)
        assert easy.cls.name == "heuristic" and easy.params.get("noise")
        assert resolve("@medium", REGISTRY, 2).cls.name == "heuristic"
        assert dict(resolve("@medium", REGISTRY, 4).params) == {"noise": "0.2"}
        assert resolve("hard", REGISTRY, 2).cls.name == "expert"
        assert resolve("hard", REGISTRY, 3).cls.name == "heuristic"


def test_bots_and_levels_may_be_typed_in_turkish(tmp_path: Path) -> None:
    """What the table shows in Turkish (``uzman``, ``rastgele``) can be typed back."""
    specs = opponents_for("@Uzman:seed=3,rastgele", 3, 1, REGISTRY)
    assert specs == ["@expert:seed=3", "", "random"]
    assert opponents_for("kolay", 2, 0, REGISTRY) == ["", "easy"]
    mine = Registry(bots={"zor": REGISTRY.bot("random"), "random": REGISTRY.bot("random")})
    assert opponents_for("zor", 2, 0, mine) == ["", "zor"]  # a bot's own name is kept
    # Wherever a spec is turned into a bot (a table's seats, from any client), too.
    expert = resolve("@uzman:seed=3", REGISTRY, 3)
    assert expert.cls.name == "expert" and expert.params.get("seed") == "3"
    assert resolve("zor", mine, 2).cls is REGISTRY.bot("random")
    (bot,) = build_bots(["sezgisel"], REGISTRY, Seed(1))
    assert bot is not None and bot.name == "heuristic"
    save = tmp_path / "g.json"
    args = ["play", "66", "--vs", "rastgele", "--seed", "2", "--lang", "tr", "--save", str(save)]
    code, out = run(args, "çık\n")
    assert code == 0, out
    settings = json.loads(save.with_name("g.session.json").read_text())
    assert settings["opponents"] == ["", "random"] and settings["level"] == "random"
