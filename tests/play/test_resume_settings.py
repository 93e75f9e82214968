"""Resume keeps the session: the language, the seat, the opponents, the deadlines, and a
printed resume command that works for any path."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from sixtysix.cli import cli
from sixtysix.core.errors import RecordError
from sixtysix.i18n import Translator
from sixtysix.play.autosave import SessionSettings, session_path
from sixtysix.play.terminal import ConsoleScreen
from tests.play.test_cli_play import run

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def pasted(lines: str) -> str:
    """What the shell reads of these lines pasted: a backslash ending a line joins it to the
    next (the command is laid out for the screen's width)."""
    return lines.replace("\\\n", "")


def _resume_command(out: str) -> list[str]:
    """The words of the printed ``sixtysix play --resume ...`` command."""
    flat = pasted(out)
    start = flat.index("sixtysix play --resume")
    return shlex.split(flat[start:].splitlines()[0])


def test_a_turkish_game_comes_back_in_turkish(tmp_path: Path) -> None:
    save = tmp_path / "tr.json"
    code, out = run(
        ["play", "66", "--vs", "random", "--seed", "3", "--lang", "tr", "--save", str(save)],
        "1\nçık\ne\n",
    )
    assert code == 0, out
    assert "Oyun kaydedildi" in out
    settings = json.loads(session_path(save).read_text())
    assert settings["lang"] == "tr"
    # Resumed without --lang (and under an English locale): still Turkish.
    code, out = run(["play", "--resume", str(save)], "çık\ne\n")
    assert code == 0, out
    assert "Hamlen" in out and "Your move" not in out
    # An explicit --lang wins, and is what the session file remembers from then on.
    code, out = run(["play", "--resume", str(save), "--lang", "en"], "quit\ny\n")
    assert code == 0, out
    assert "Your move" in out and "Hamlen" not in out
    assert json.loads(session_path(save).read_text())["lang"] == "en"


def test_seat_opponents_and_deadlines_come_back(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "66-3", "--seat", "2", "--vs", "random,easy", "--seed", "6"]
    args += ["--lang", "en", "--save", str(save), "--move-timeout", "7.5"]
    code, out = run(args, "quit\ny\n")
    assert code == 0, out
    first = json.loads(session_path(save).read_text())
    assert first["seat"] == 2 and first["opponents"] == ["random", "easy", ""]
    assert first["move_timeout"] == 7.5 and first["start_timeout"] > 0
    code, out = run(["play", "--resume", str(save)], "quit\ny\n")
    assert code == 0, out
    assert "You are seat 2" in out
    assert json.loads(session_path(save).read_text()) == first


def test_the_printed_resume_command_survives_spaces_in_the_path(tmp_path: Path) -> None:
    folder = tmp_path / "my games" / "it's here"
    folder.mkdir(parents=True)
    save = folder / "a game.json"
    code, out = run(
        ["play", "schnapsen", "--vs", "random", "--seed", "1", "--lang", "en", "--save", str(save)],
        "quit\ny\n",
    )
    assert code == 0, out
    words = _resume_command(out)
    assert words == ["sixtysix", "play", "--resume", str(save)]
    code, out = run(words[1:], "quit\ny\n")
    assert code == 0, out
    assert "Game saved" in out


def test_an_older_session_file_without_the_new_settings_still_resumes(tmp_path: Path) -> None:
    save = tmp_path / "old.json"
    code, _ = run(["play", "66", "--vs", "random", "--seed", "2", "--save", str(save)], "quit\ny\n")
    assert code == 0
    side = session_path(save)
    data = json.loads(side.read_text())
    for key in ("lang", "start_timeout", "move_timeout"):
        del data[key]
    side.write_text(json.dumps(data))
    code, out = run(["play", "--resume", str(save), "--lang", "en"], "quit\ny\n")
    assert code == 0, out


@pytest.mark.parametrize(
    "change",
    [{"lang": "fr"}, {"lang": 3}, {"move_timeout": -1}, {"start_timeout": True}],
)
def test_a_broken_session_setting_is_refused(change: dict[str, object]) -> None:
    data = SessionSettings(0, ("", "random"), "random", False, "en", 1.0, 2.0).as_json()
    data.update(change)
    with pytest.raises(RecordError, match="not a sixtysix session file"):
        SessionSettings.from_json(data, "x.session.json")


def test_settings_round_trip() -> None:
    settings = SessionSettings(1, ("random", ""), "random", False, "tr", 3.0, 4.5)
    assert SessionSettings.from_json(settings.as_json(), "x") == settings


def test_at_45_columns_the_resume_command_pastes_whole(tmp_path: Path) -> None:
    folder = tmp_path / "a folder with a long name and spaces"
    folder.mkdir()
    save = folder / "my sixty-six game of today.json"
    env = {"COLUMNS": "45", "LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None}
    args = ["play", "66", "--vs", "random", "--seed", "1", "--lang", "en", "--save", str(save)]
    result = CliRunner().invoke(cli, args, input="quit\ny\n", env=env)
    assert result.exit_code == 0, result.output
    lines = result.output[result.output.index("sixtysix play --resume") :].splitlines()
    assert all(len(line) <= 45 or line.startswith("'") for line in lines)
    assert _resume_command(result.output) == ["sixtysix", "play", "--resume", str(save)]


def test_the_terminal_never_cuts_a_command() -> None:
    """Laid out with the shell's continuation, never wrapped by Rich (a quoted word whole)."""
    out = io.StringIO()
    screen = ConsoleScreen(Console(file=out, width=20, force_terminal=True), Translator("en"))
    screen.command("sixtysix play --resume '/tmp/a b/c d.json'")
    shown = ANSI.sub("", out.getvalue())
    assert shown.splitlines()[:2] == ["sixtysix play \\", "--resume \\"]
    assert all(len(line) <= 20 for line in shown.splitlines())
    assert shlex.split(pasted(shown)) == ["sixtysix", "play", "--resume", "/tmp/a b/c d.json"]
