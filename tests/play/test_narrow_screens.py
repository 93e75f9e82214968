"""``sixtysix play`` at 45, 60 and 120 columns in English and Turkish, as the person's terminal
shows it (a VT100 screen): a long question breaks between words, the command that resumes a
game pastes whole, and the hint table's title is one line."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sixtysix.i18n import Translator
from sixtysix.play.terminal import command_lines, prompt_lines

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROWS = 50
WORDS = {"en": ("quit", "y"), "tr": ("çık", "e")}


def test_a_command_pastes_whole_at_any_width() -> None:
    command = "sixtysix play --resume /home/ayşe/.local/share/sixtysix/games/sixtysix-1.json"
    for width in (20, 45, 60, 120):
        lines = command_lines(command, width)
        assert all(len(line) <= width for line in lines)
        pasted = subprocess.run(
            ["bash", "-c", "printf '%s|' " + "\n".join(lines)], capture_output=True, text=True
        ).stdout
        assert pasted == "|".join(command.split()) + "|"


def test_a_long_prompt_breaks_between_words() -> None:
    prompt = "Burada duralım mı? Oyun kaydedildi, sonra kaldığın yerden sürdürebilirsin (e/h) "
    above, last = prompt_lines(prompt, 45)
    lines = [*above.splitlines(), last]
    assert " ".join(" ".join(lines).split()) == prompt.strip()
    assert all(len(line) < 45 for line in lines) and last.endswith(" ")
    assert prompt_lines("Your move > ", 45) == ("", "Your move > ")


class Play:
    def __init__(self, tmp_path: Path, width: int, lang: str) -> None:
        env = dict(os.environ)
        env.update(
            {
                "SIXTYSIX_DATA_DIR": str(tmp_path / "data"),
                "TERM": "xterm-256color",
                "COLUMNS": str(width),
                "LINES": str(ROWS),
                "LANG": "C.UTF-8",
            }
        )
        self.screen = pyte.Screen(width, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        args = ["-m", "sixtysix", "play", "66", "--seed", "3", "--vs", "random", "--lang", lang]
        self.child = pexpect.spawn(
            sys.executable, args, env=env, timeout=30, dimensions=(ROWS, width)
        )

    def rows(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display if line.strip()]

    def until(self, text: str) -> list[str]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.1))
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                break
            if any(text in row for row in self.rows()):
                return self.rows()
        raise AssertionError(f"{text!r} never shown:\n" + "\n".join(self.rows()))


@pytest.mark.parametrize("width", [45, 60, 120])
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_quit_question_and_the_resume_command_at_any_width(
    tmp_path: Path, lang: str, width: int
) -> None:
    tr = Translator(lang)
    quit_word, yes = WORDS[lang]
    game = Play(tmp_path, width, lang)
    try:
        game.until(tr._("Your move") + " >")
        game.child.send("hint\r")
        title = tr._("Expected game points of each move")
        rows = game.until(title)
        if len(title) <= width:
            assert title in [row.strip() for row in rows]  # one line of its own
        game.child.send(quit_word + "\r")
        rows = game.until("(" + yes + "/")
        typed = max(i for i, r in enumerate(rows) if r.endswith("> " + quit_word))
        question = rows[typed + 1 :]
        words = " ".join(question).split()
        asked = tr._("Stop here? The game is saved and can be resumed")
        assert words[: len(asked.split())] == asked.split()  # no word broken across lines
        game.child.send(yes + "\r")
        rows = game.until(".json")
        game.child.expect(pexpect.EOF)
    finally:
        game.child.close()
    start = next(i for i, r in enumerate(rows) if r.startswith("sixtysix play --resume"))
    command = " ".join(rows[start:])
    pasted = subprocess.run(
        ["bash", "-c", "printf '%s|' " + "\n".join(rows[start:])], capture_output=True, text=True
    ).stdout.split("|")
    assert pasted[:3] == ["sixtysix", "play", "--resume"], command
    saved = Path(pasted[3])
    assert saved.exists() and saved.suffix == ".json", command
