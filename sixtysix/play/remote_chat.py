"""Chat at a remote table, on the person's side: what they type to talk, the quick phrases in
their own language, muting a seat, and the chat lines on their screen.

:class:`ChatSide` is part of :class:`~sixtysix.play.remote.RemoteTable` (kept here so that the
seat's state machine stays short). ``say TEXT`` (``söyle``) sends a text; a quick phrase's word
alone (``gg``, ``iyi oyunlar``) sends the phrase's id, which every client words in its own
person's language; ``mute 2`` or ``mute NAME`` (``sustur``) hides a seat's chat on this screen
only, and ``unmute`` (``sesini aç``) shows it again: the server and the others know nothing of
it. Both languages' words are read whatever the screen's language, as the moves are.

A chat line is ``NAME (seat N): text``, drawn as a :class:`rich.text.Text`, so a text that looks
like Rich markup is shown as typed; the server's text is cleaned again here
(:func:`sixtysix.table.incoming.chat_string`), as the client trusts nothing it is sent.
"""

from __future__ import annotations

import unicodedata

from rich.text import Text

from sixtysix.i18n import Translator
from sixtysix.play.screen import Screen
from sixtysix.protocol.messages import Message
from sixtysix.service.terms import seat_name
from sixtysix.table.incoming import ServerProtocolError
from sixtysix.table.phrases import PHRASES
from sixtysix.table.wire import MAX_CHAT, chat_text

#: What sends each quick phrase, per language: the first word is the one the help shows;
#: every word of every language is read.
PHRASE_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "hello": ("hi", "hello"),
        "good_luck": ("gl", "glhf"),
        "well_played": ("wp",),
        "good_game": ("gg",),
        "thanks": ("ty", "thanks", "thx"),
        "one_moment": ("wait", "one moment"),
    },
    "tr": {
        "hello": ("selam", "merhaba"),
        "good_luck": ("iyi oyunlar",),
        "well_played": ("helal", "iyi oynadın", "iyi oynadin"),
        "good_game": ("iyi oyundu",),
        "thanks": ("sağol", "sağ ol", "sagol", "teşekkürler", "tesekkurler", "tşk"),
        "one_moment": ("bir dakika", "bi dakika"),
    },
}

#: The chat's commands, per language: the first word is the one the help shows.
CHAT_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"say": ("say",), "mute": ("mute",), "unmute": ("unmute",)},
    "tr": {
        "say": ("söyle", "soyle", "yaz"),
        "mute": ("sustur",),
        "unmute": ("sesini aç", "sesini ac"),
    },
}


def _fold(text: str) -> str:
    """A typed line as words are compared: one space between words, lower case (a Turkish
    capital İ is an i)."""
    text = unicodedata.normalize("NFC", text.replace("İ", "i").lower())
    return " ".join(text.split())


def _read_words(table: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, str]:
    return {_fold(w): key for words in table.values() for key, ws in words.items() for w in ws}


_PHRASE_OF = _read_words(PHRASE_WORDS)
_COMMAND_OF = _read_words(CHAT_WORDS)


def shown_word(table: dict[str, dict[str, tuple[str, ...]]], tr: Translator, key: str) -> str:
    """The word of ``key`` the help shows in ``tr``'s language."""
    return table.get(tr.lang, table["en"])[key][0]


def read_chat(line: str) -> tuple[str, str] | None:
    """What a typed line asks of the chat: ``("say", TEXT)``, ``("phrase", ID)``, ``("mute",
    WHO)`` or ``("unmute", WHO)`` (``WHO`` may be empty), or None when it is no chat command
    (a move, or another command)."""
    folded = _fold(line)
    phrase = _PHRASE_OF.get(folded)
    if phrase is not None:
        return "phrase", phrase
    words = folded.split(" ")
    raw = line.split()
    for size in (2, 1):
        command = _COMMAND_OF.get(" ".join(words[:size])) if len(words) >= size else None
        if command is not None:
            return command, " ".join(raw[size:])
    return None


class ChatSide:
    """The chat of a remote seat: whether the server has it, the seats muted here, the chat
    lines shown and the chat commands typed (part of
    :class:`~sixtysix.play.remote.RemoteTable`, whose state it reads)."""

    tr: Translator
    screen: Screen
    me: int
    players: list[str]
    #: Whether the server passes chat on (None: the welcome did not say; no chat is sent).
    chat_on: bool | None
    #: The seats whose chat this screen hides.
    muted: set[int]

    def init_chat(self) -> None:
        self.chat_on = None
        self.muted = set()

    # ------------------------------------------------------------------ from the server

    def chat_welcome(self, m: Message) -> None:
        """The welcome says whether the server has chat; when it is off, the person is told."""
        self.chat_on = m["chat"]
        if self.chat_on is False:
            self.screen.say(self.tr._("Chat is off at this server."), "dim")

    def chat_shown(self, m: Message) -> bool:
        """Whether a checked message is for the screen: a chat of a muted seat, an empty text
        or a phrase this client does not know is not (and does not disturb the prompt)."""
        if m["type"] != "chat":
            return True
        if m["seat"] in self.muted:
            return False
        return bool(m["text"]) if m["text"] is not None else m["phrase"] in PHRASES

    def _on_chat(self, m: Message) -> None:
        tr = self.tr
        seat = m["seat"]
        if seat >= len(self.players):
            raise ServerProtocolError(
                f"the server named seat {seat} at a table of {len(self.players)}"
            )
        said = m["text"] if m["text"] is not None else tr._(PHRASES[m["phrase"]])
        name = m["name"]
        if not name:
            who = seat_name(tr, seat, self.me)
        elif seat == self.me:
            who = tr._("{name} (you)").format(name=name)
        else:
            who = tr._("{name} (seat {seat})").format(name=name, seat=seat)
        self.screen.show(Text.assemble((who + ":", "bold"), " ", (said, "italic"), style="dim"))

    def chat_refusal(self, code: str) -> str:
        """The line for the server's refusal of a chat message."""
        tr = self.tr
        if code == "chat_off":
            return tr._("Chat is off at this server.")
        if code == "chat_rate":
            return tr._("Not sent: too many chat messages at once. Wait a few seconds.")
        if code == "chat_phrases":
            return tr._(
                "Not sent: at a rated table of partners only the quick phrases are allowed"
                " (type ? to see them)."
            )
        return tr._("The server did not pass that chat message on.")

    # ------------------------------------------------------------------ the person

    def chat_line(self, line: str) -> list[Message] | None:
        """What a typed chat command sends (an empty list: nothing, it was answered here), or
        None when the line is no chat command."""
        read = read_chat(line)
        if read is None:
            return None
        command, rest = read
        if command in ("mute", "unmute"):
            self._mute(rest, command == "mute")
            return []
        tr = self.tr
        if not self.chat_on:
            self.screen.say(tr._("Chat is off at this server."), "red")
            return []
        if command == "phrase":
            return [{"type": "chat", "phrase": rest}]
        text = chat_text(rest)
        if not text:
            self.screen.say(
                tr._("Say what? Type {say} and your message, e.g. {example}.").format(
                    say=shown_word(CHAT_WORDS, tr, "say"),
                    example=shown_word(CHAT_WORDS, tr, "say") + " " + tr._("hello everyone"),
                ),
                "red",
            )
            return []
        if len(text) > MAX_CHAT:
            self.screen.say(
                tr._(
                    "Not sent: a chat message has at most {limit} characters, this one {count}."
                ).format(limit=MAX_CHAT, count=len(text)),
                "red",
            )
            return []
        return [{"type": "chat", "text": text}]

    def _mute(self, who: str, mute: bool) -> None:
        tr = self.tr
        if not who:
            muted = ", ".join(self._who(s) for s in sorted(self.muted))
            if muted:
                self.screen.say(tr._("Chat hidden on your screen: {who}.").format(who=muted))
            else:
                self.screen.say(tr._("Nobody's chat is hidden on your screen."))
            return
        seat = self._chat_seat(who)
        if seat is None:
            return
        if mute:
            self.muted.add(seat)
            text = tr._("The chat of {who} is hidden on your screen now (nobody is told).")
        elif seat in self.muted:
            self.muted.discard(seat)
            text = tr._("The chat of {who} is shown again.")
        else:
            text = tr._("The chat of {who} is not hidden.")
        self.screen.say(text.format(who=self._who(seat)), "dim")

    def _chat_seat(self, who: str) -> int | None:
        """The seat ``who`` names (its number, or the name sitting there), or None with the
        reason said."""
        tr = self.tr
        if who.isascii() and who.isdigit():
            seat = int(who) if len(who) <= 2 else len(self.players)
            if seat >= len(self.players):
                self.screen.say(
                    tr._("There is no seat {seat} at this table.").format(seat=who[:6]), "red"
                )
                return None
        else:
            key = _fold(who)
            found = [s for s, p in enumerate(self.players) if p and _fold(p) == key]
            if not found:
                self.screen.say(
                    tr._("Nobody called {name} sits at this table.").format(name=who[:40]), "red"
                )
                return None
            seat = found[0]
        if seat == self.me:
            self.screen.say(tr._("That is your own seat."), "red")
            return None
        if self.players[seat].startswith(("@", "exec:")):
            self.screen.say(
                tr._("{who} is a computer player: it does not chat.").format(who=self._who(seat)),
                "red",
            )
            return None
        return seat

    def chat_help(self) -> str:
        """The chat's lines of the ``?`` help: the commands and the quick phrases."""
        tr = self.tr
        if not self.chat_on:
            return tr._("Chat is off at this server.")
        phrases = ", ".join(
            f"{shown_word(PHRASE_WORDS, tr, key)} ({tr._(text)})" for key, text in PHRASES.items()
        )
        lines = [
            tr._(
                "{say} TEXT  talk to the table   {mute} SEAT or NAME  hide that seat's chat"
                " (on your screen only)   {unmute} SEAT or NAME  show it again"
            ).format(
                say=shown_word(CHAT_WORDS, tr, "say"),
                mute=shown_word(CHAT_WORDS, tr, "mute"),
                unmute=shown_word(CHAT_WORDS, tr, "unmute"),
            ),
            tr._("Quick phrases, each shown in the reader's language: {phrases}.").format(
                phrases=phrases
            ),
        ]
        return "\n".join(lines)

    def _who(self, seat: int) -> str:
        """A seat as the screen names it (:meth:`RemoteTable._who`)."""
        raise NotImplementedError
