"""The session as a person meets it in a real pseudo-terminal, in both languages: the
thinking indicator, ``rules``, a take-back, the confirmations, and a resume that comes back
in the language the game was played in."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.play.test_pty import spawn, stacks_on_timeout, to_the_end

pexpect = pytest.importorskip("pexpect")

WORDS = {
    "en": {
        "prompt": "Your move > ",
        "intro": "Type ? for help, rules for the rules.",
        "rules": "rules",
        "summary": "sixtysix (aliases: 66",
        "pointer": "Full rules and options: sixtysix rules sixtysix",
        "thinking": "seat 1 is thinking…",
        "undo": "undo",
        "taken": "Taken back: play",
        "quit": "quit",
        "stop": r"Stop here\? The game is saved and can be resumed \(y/n\) ",
        "no": "n",
        "yes": "y",
        "on": "Playing on.",
        "saved": "Game saved",
    },
    "tr": {
        "prompt": "Hamlen > ",
        "intro": "Yardım için ?, kurallar için kurallar yaz.",
        "rules": "kurallar",
        "summary": "sixtysix (diğer adları: 66",
        "pointer": "Kuralların tamamı ve seçenekler: sixtysix rules sixtysix --lang tr",
        "thinking": "oyuncu 1 düşünüyor…",
        "undo": "geri",
        "taken": "Geri alındı:",
        "quit": "çık",
        "stop": r"Burada duralım mı\? Oyun kaydedildi, sonra kaldığın yerden"
        r" sürdürebilirsin \(e/h\) ",
        "no": "h",
        "yes": "e",
        "on": "Oyun sürüyor.",
        "saved": "Oyun kaydedildi",
    },
}


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_a_session_in_a_pseudo_terminal(lang: str, tmp_path: Path) -> None:
    w = WORDS[lang]
    save = tmp_path / "a game.json"
    # Dealer 1 (seed 3): seat 0 leads, and seat 1 answers each card it plays.
    args = ["play", "66", "--vs", "random", "--seed", "3", "--save", str(save), "--lang", lang]
    child = spawn(args, tmp_path)
    try:
        child.expect_exact(w["intro"])
        child.expect_exact(w["prompt"])
        child.sendline(w["rules"])
        child.expect_exact(w["summary"])
        child.expect_exact(w["pointer"])
        child.expect_exact(w["prompt"])
        child.sendline("1")
        child.expect_exact(w["thinking"])  # the spinner, drawn while seat 1 chooses
        child.expect_exact(w["prompt"])
        child.sendline(w["undo"])
        child.expect_exact(w["taken"])
        child.expect_exact(w["prompt"])
        child.sendline(w["quit"])
        child.expect(w["stop"])
        child.sendline(w["no"])
        child.expect_exact(w["on"])
        child.expect_exact(w["prompt"])
        child.sendline(w["quit"])
        child.expect(w["stop"])
        child.sendline(w["yes"])
        child.expect_exact(w["saved"])
        last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 0, last
    data = json.loads(save.read_text())
    assert data["deals"][0]["actions"] == []  # the one card played was taken back
    # Resumed without --lang, under an English locale: the game's own language comes back.
    child = spawn(["play", "--resume", str(save)], tmp_path)
    try:
        child.expect_exact(w["intro"])
        child.expect_exact(w["prompt"])
        child.sendline(w["quit"])
        child.expect(w["stop"])
        child.sendline(w["yes"])
        child.expect_exact(w["saved"])
        last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 0, last


SLOW_PLAYER = """
import time
from sixtysix.protocol.player import run_player

def choose(view):
    time.sleep(60)
    return view.legal_actions[0]

raise SystemExit(run_player(choose, name="slow"))
"""


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("lang", ["en", "tr"])
def test_ctrl_c_while_a_computer_player_thinks(lang: str, tmp_path: Path) -> None:
    w = WORDS[lang]
    player = tmp_path / "slow.py"
    player.write_text(SLOW_PLAYER)
    save = tmp_path / "slow.json"
    args = ["play", "66", "--vs", f"exec:{sys.executable} {player}", "--seed", "3"]
    args += ["--move-timeout", "120", "--save", str(save), "--lang", lang]
    child = spawn(args, tmp_path)
    try:
        with stacks_on_timeout(child):
            child.expect_exact(w["prompt"])
            child.sendline("1")
            child.expect_exact(w["thinking"])
            child.sendintr()
            child.expect_exact(w["saved"])
            last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 130, last
    assert json.loads(save.read_text())["deals"][0]["actions"][0]["seat"] == 0
