"""What a person sees in a real pseudo-terminal, in each language: the help in that language's
words, a card typed in words, a refusal of a move the variant has not got, and Ctrl-C after the
prompt starting a line of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sixtysix.service.terms import TURKISH_RANKS, TURKISH_SUITS
from tests.play.test_pty import spawn, stacks_on_timeout, to_the_end

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")
RANK_OF = {"9": 0, "J": 1, "Q": 2, "K": 3, "10": 4, "A": 5}
SUIT_OF = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
ENGLISH_RANKS = ("nine", "jack", "queen", "king", "ten", "ace")
ENGLISH_SUITS = ("clubs", "diamonds", "hearts", "spades")


def plain(text: str) -> str:
    return ANSI.sub("", text)


def first_card(screen: str, hand_label: str) -> tuple[str, int, int]:
    """The first card of the hand line as shown (``10♦``), its rank and its suit."""
    line = plain(screen).rsplit(hand_label, 1)[1].splitlines()[0]
    match = re.search(r"1:(10|[9JQKA])([♣♦♥♠])", line)
    assert match, line
    return match.group(0)[2:], RANK_OF[match.group(1)], SUIT_OF[match.group(2)]


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_help_and_a_card_typed_in_words(tmp_path: Path, lang: str) -> None:
    save = tmp_path / "game.json"
    child = spawn(
        ["play", "66", "--vs", "random", "--seed", "5", "--save", str(save), "--lang", lang],
        tmp_path,
    )
    prompt = "Hamlen > " if lang == "tr" else "Your move > "
    try:
        child.expect(prompt)
        shown, rank, suit = first_card(child.before, "Elin:" if lang == "tr" else "Your hand:")
        child.sendline("?")
        child.expect(prompt)
        help_text = plain(child.before)
        if lang == "tr":
            assert "Diğer hamleler (kurallar izin verdiğinde): evlilik kupa, değiş, kapat." in (
                help_text
            )
            assert "çık  bitir" in help_text
            for english in ("marry", "exchange", "close", "trump", "partner", "quit"):
                assert english not in help_text, english
        else:
            assert "Other moves, when the rules allow them: marry H, exchange, close." in help_text
            for turkish in ("evlilik", "kapat", "koz", "çık"):
                assert turkish not in help_text, turkish
        assert "trump S" not in help_text and "partner" not in help_text  # not in 66
        child.sendline("koz kupa" if lang == "tr" else "trump H")
        child.expect("koz söylenmez" if lang == "tr" else "no trump call in this game")
        child.expect(prompt)
        # The first card of the hand, in words: "kız kupa" / "queen hearts" (the open phase of
        # 66 lets any card be played, leading or following).
        words = (
            f"{TURKISH_SUITS[suit]} {TURKISH_RANKS[rank]}"
            if lang == "tr"
            else f"{ENGLISH_RANKS[rank]} of {ENGLISH_SUITS[suit]}"
        )
        child.sendline(words)
        child.expect(f"{shown} attın" if lang == "tr" else f"You play {shown}")
        child.expect(prompt)
        child.sendline("çık" if lang == "tr" else "quit")
        child.expect(r"\((y/n|e/h)\)")
        child.sendline("e" if lang == "tr" else "y")
        last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 0, last


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_ctrl_c_at_the_prompt_starts_a_new_line(tmp_path: Path, lang: str) -> None:
    save = tmp_path / "int.json"
    child = spawn(
        ["play", "66", "--vs", "random", "--seed", "2", "--save", str(save), "--lang", lang],
        tmp_path,
    )
    saved = "Oyun kaydedildi" if lang == "tr" else "Game saved"
    try:
        with stacks_on_timeout(child):
            child.expect("Hamlen > " if lang == "tr" else "Your move > ")
            child.sendintr()
            child.expect(saved)
            between = plain(child.before)
            last = to_the_end(child)
    finally:
        child.close()
    assert child.exitstatus == 130, last
    # Whatever the terminal echoed (``^C``), the message is on a line of its own.
    assert "\n" in between, repr(between)
