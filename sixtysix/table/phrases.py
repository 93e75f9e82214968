"""The quick chat phrases' words: each id of :data:`sixtysix.table.wire.CHAT_PHRASES` as the
reader's screen words it (the terminal's and the browser page's alike)."""

from __future__ import annotations

from sixtysix.i18n import N_

PHRASES: dict[str, str] = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck, have fun!"),
    "well_played": N_("Well played!"),
    "good_game": N_("Good game!"),
    "thanks": N_("Thanks!"),
    "one_moment": N_("One moment, please."),
}
