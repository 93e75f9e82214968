"""A seat's view as text: OpenSpiel's information-state and observation strings.

Every field of the view the seat sees is written in a fixed order with seats relative to the
viewer ("me", "+1", "+2", ...) and sets of cards sorted, so equal strings mean equal views
(one seat's, of one variant) and the strings are the same from run to run.
"""

from __future__ import annotations

from collections.abc import Iterable

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import CARD_NAMES, SUITS
from sixtysix.core.view import View
from sixtysix.envs.layout import PHASE_NAMES

_REL = ("me", *(f"+{r}" for r in range(1, 8)))


def _cards(cards: Iterable[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in sorted(cards)) or "-"


def _who(view: View, seat: int | None) -> str:
    return "-" if seat is None else _REL[(seat - view.seat) % view.seats]


def _per_seat(view: View, values: tuple[object, ...]) -> str:
    """``values`` (one per absolute seat) from the viewer on: "me 1, +1 2"."""
    n, me = view.seats, view.seat
    return ", ".join(f"{_REL[r]} {values[(me + r) % n]}" for r in range(n))


def obs_text(view: View) -> str:
    """The table now: everything the seat sees but the history."""
    trump = "-" if view.trump is None else SUITS[view.trump]
    turnup = "-" if view.turnup is None else CARD_NAMES[view.turnup]
    trick = ", ".join(f"{_who(view, s)} {CARD_NAMES[c]}" for s, c in view.trick) or "-"
    marriages = tuple("".join(SUITS[s] for s in suits) or "-" for suits in view.marriages)
    known = tuple(_cards(cards) for cards in view.known)
    called = "-" if view.called_ace is None else CARD_NAMES[view.called_ace]
    to_act = _who(view, view.to_act if view.to_act >= 0 else None)
    return (
        f"seat {view.seat}/{view.seats}; dealer {_who(view, view.dealer)};"
        f" phase {PHASE_NAMES[view.phase]}; to act {to_act};"
        f" leader {_who(view, view.leader)}; hand {_cards(view.hand)}; trump {trump};"
        f" turnup {turnup}; talon {view.talon_size}; closed {_who(view, view.closed_by)};"
        f" trick {trick}; tricks {_per_seat(view, view.tricks)};"
        f" points {_per_seat(view, view.card_points)}; marriages {_per_seat(view, marriages)};"
        f" known {_per_seat(view, known)}; played {_cards(view.played)};"
        f" declarer {_who(view, view.declarer)}; called {called};"
        f" partner {_who(view, view.partner)}; solo {'yes' if view.solo else 'no'}"
    )


def info_text(view: View) -> str:
    """The table now and, after it, every public action in order."""
    history = ", ".join(f"{_who(view, s)} {ACTION_NAMES[a]}" for s, a in view.history) or "-"
    return f"{obs_text(view)}; history {history}"
