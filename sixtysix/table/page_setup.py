"""What the browser page needs before any table: its words, the variants and their options,
the levels, the quick phrases; served as ``/api/setup?lang=..`` (:mod:`sixtysix.table.web`).

Every word the page shows is here or in a ``board`` message, translated through the
project's catalogs: the page has no text of its own, in either language.
"""

from __future__ import annotations

from typing import Any

from sixtysix.bots.levels import LEVELS
from sixtysix.i18n import N_, Translator
from sixtysix.plugins.manager import Registry
from sixtysix.service.terms import bot_label
from sixtysix.table.defaults import MOVE_TIME, MOVE_TIME_RANGE
from sixtysix.table.phrases import PHRASES
from sixtysix.table.wire import MAX_CHAT, PROTOCOL

#: The page's own words, by the key its script uses.
WORDS: dict[str, str] = {
    "app": N_("sixtysix card room"),
    "language": N_("Language"),
    "lobby": N_("Lobby"),
    "your_name": N_("Your name"),
    "name_help": N_("1 to 32 letters, digits, _, - or ."),
    "save_name": N_("Use this name"),
    "change_name": N_("Change name"),
    "playing_as": N_("Playing as {name}"),
    "tables": N_("Tables"),
    "no_tables": N_("No tables yet: open one below."),
    "refresh": N_("Refresh"),
    "open": N_("open"),
    "running": N_("running"),
    "finished": N_("finished"),
    "free": N_("(free)"),
    "away": N_("(away)"),
    "join": N_("Sit down"),
    "back_to_table": N_("Back to the table"),
    "watch_not": N_("Every seat is taken."),
    "rated": N_("rated"),
    "test": N_("test table"),
    "seconds_a_move": N_("{seconds} s a move"),
    "free_seats": N_("free seats: {free} of {seats}"),
    "deal_n": N_("deal {number}"),
    "new_table": N_("Open a table"),
    "variant": N_("Game"),
    "preset": N_("Preset"),
    "no_preset": N_("(defaults)"),
    "options": N_("Options"),
    "seat_n": N_("Seat {seat}"),
    "person": N_("a person"),
    "me": N_("me"),
    "level": N_("computer: {level}"),
    "rated_table": N_("Rated (move timer, scored)"),
    "move_time": N_("Seconds a move"),
    "on_leave": N_("When a person leaves"),
    "on_leave_end": N_("the match ends"),
    "on_leave_bot": N_("a computer player plays on"),
    "create": N_("Open the table"),
    "standings": N_("Standings"),
    "standings_variant": N_("Game"),
    "all_variants": N_("(all)"),
    "player": N_("player"),
    "level_col": N_("opponents"),
    "played": N_("played"),
    "won": N_("won"),
    "drawn": N_("drawn"),
    "lost": N_("lost"),
    "left_col": N_("matches left"),
    "score": N_("score"),
    "no_standings": N_("No rated match has been played yet."),
    "history": N_("Your matches"),
    "no_history": N_("You have played no rated match here yet."),
    "when": N_("when"),
    "seat": N_("seat"),
    "ending": N_("ending"),
    "ending_finished": N_("finished"),
    "ending_left": N_("left the table"),
    "unscored": N_("—"),
    "invite": N_("Invitation link"),
    "copy": N_("Copy"),
    "copied": N_("Copied."),
    "table_title": N_("Table {table}"),
    "trump": N_("Trump"),
    "not_named": N_("not named yet"),
    "talon": N_("Talon"),
    "turnup": N_("turn-up"),
    "dealer": N_("Dealer"),
    "declarer": N_("Declarer"),
    "called": N_("called"),
    "on_table": N_("On the table"),
    "nothing_yet": N_("nothing yet"),
    "last_trick": N_("Last trick"),
    "announcements": N_("Announcements"),
    "known": N_("Known in hands"),
    "your_hand": N_("Your hand"),
    "no_cards": N_("(no cards)"),
    "actions": N_("Moves"),
    "first_tricks": N_("First tricks"),
    "first_tricks_title": N_("First trick won by each player"),
    "nobody_trick": N_("Nobody has won a trick yet."),
    "hint": N_("Hint"),
    "undo": N_("Take back"),
    "leave": N_("Leave"),
    "yes_leave": N_("Yes, leave"),
    "concede_yes": N_("Yes, concede"),
    "cancel": N_("Cancel"),
    "next_deal": N_("Next deal"),
    "close": N_("Close"),
    "sheet": N_("Match sheet"),
    "chat": N_("Chat"),
    "say": N_("Say"),
    "chat_placeholder": N_("Say something to the table"),
    "chat_off": N_("Chat is off at this server."),
    "mute": N_("Mute"),
    "unmute": N_("Unmute"),
    "news": N_("What happened"),
    "time_left": N_("Time left"),
    "seconds": N_("{seconds} s"),
    "hurry": N_("Hurry: {seconds} s left!"),
    "connecting": N_("Connecting..."),
    "reconnecting": N_("The connection is lost: reconnecting..."),
    "connected": N_("Connected."),
    "you": N_("you"),
    "cards_left": N_("Cards left"),
    "match_over": N_("Match over"),
    "to_lobby": N_("Back to the lobby"),
    "error": N_("The server refused that: {message}"),
    "not_your_turn": N_("It is not your turn."),
    "illegal": N_("The server refused that move: it is not allowed now."),
    "no_undo": N_("No take-back now."),
    "no_hint": N_("No hint here: hints are for test tables, at your own move."),
    "token_lost": N_("This name is taken here, and this browser does not hold its token."),
    "no_table": N_("There is no such table at this server."),
    "table_full": N_("Every seat at this table is taken."),
    "skip": N_("Skip to the table"),
    "seats_label": N_("Players"),
    "connected_no": N_("away"),
    "left_seat": N_("left"),
    "to_act": N_("to move"),
    "you_seat": N_("you"),
    "not_playable": N_("not playable now"),
    "move_col": N_("move"),
    "typed_col": N_("you type"),
    "value_col": N_("expected game points"),
    "deals": N_("deals"),
    "game_points": N_("game points"),
    "connection_gone": N_("The connection could not be restored."),
    "closed": N_("The connection is closed."),
    "not_started": N_("The match has not started yet."),
    "paused": N_("The table waits: the server cannot save it now. Nothing was done."),
    "chat_rate": N_("Too many chat messages: wait a moment."),
    "chat_phrases": N_("At this table only the quick phrases pass."),
    "bad_chat": N_("That chat message cannot be sent."),
    "name_taken": N_("That name is taken here: choose another."),
    "quota": N_("The server allows no more of that now."),
    "scores_h": N_("Score"),
}


def setup(lang: str, registry: Registry) -> dict[str, Any]:
    """The ``/api/setup`` answer for a language."""
    tr = Translator(lang)
    variants = []
    for cls in registry.variants.values():
        v = cls()
        variants.append(
            {
                "name": cls.name,
                "aliases": list(cls.aliases),
                "seats": cls.seats,
                "description": tr.text(cls.description) if cls.description else "",
                "options": [
                    {
                        "name": o["name"],
                        "type": o["type"],
                        "default": o["default"],
                        "choices": o["choices"],
                        "doc": tr.text(str(o["doc"])),
                    }
                    for o in v.options_json()
                ],
                "presets": {k: dict(p) for k, p in cls.presets.items()},
            }
        )
    low, high = MOVE_TIME_RANGE
    return {
        "lang": tr.lang,
        "protocol": PROTOCOL,
        "words": {key: tr._(text) for key, text in WORDS.items()},
        "variants": variants,
        "levels": [{"spec": "@" + name, "label": bot_label(tr, "@" + name)} for name in LEVELS],
        "phrases": {key: tr._(text) for key, text in PHRASES.items()},
        "move_time": {"default": MOVE_TIME, "min": low, "max": high},
        "max_chat": MAX_CHAT,
    }
