"""A seat's view as text: OpenSpiel's information-state and observation strings.

Every field of the view the seat sees is written in a fixed order with seats relative to the
viewer ("me", "+1", "+2", ...) and sets of cards sorted, so equal strings mean equal views
(one seat's, of one variant) and the strings are the same from run to run. A field the
variant's rules can never use is left out, as the vectors' :class:`~sixtysix.envs.layout.Layout`
leaves it out (no ``declarer`` or ``partner`` in a two-player game, no ``turnup`` without a
talon): it would say the same in every view. Search keys its tables on these strings, so the
words of seats, cards and history entries are made once. A layout with the ``match`` field adds
a ``match`` part after the table (the totals, the target or the deals, the deals played and the
next dealer), as the vectors add the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from operator import add

from sixtysix.core.actions import ACTION_NAMES, NUM_ACTIONS
from sixtysix.core.cards import CARD_NAMES, SUITS
from sixtysix.core.view import View
from sixtysix.envs.layout import PHASE_NAMES, Layout


def seat_word(relative: int) -> str:
    """How a seat is written, relative to the viewer: "me", "+1", "+2"..."""
    return f"+{relative}" if relative else "me"


class _Words:
    """The words of one viewing seat at an ``n``-seat table, made once."""

    __slots__ = ("history", "prefixes", "seats")

    def __init__(self, n: int, me: int) -> None:
        #: By absolute seat, index -1 (nobody): "-".
        self.seats = (*(seat_word((s - me) % n) for s in range(n)), "-")
        #: "me ", "+1 ", ...: the seats from the viewer on, each before its value.
        self.prefixes = tuple(f"{seat_word(r)} " for r in range(n))
        #: ``history[(seat, action)]``: one entry of the history, "+1 play AS".
        self.history = {
            (s, a): f"{self.seats[s]} {ACTION_NAMES[a]}"
            for s in range(n)
            for a in range(NUM_ACTIONS)
        }


@lru_cache(maxsize=64)
def _words(n: int, me: int) -> _Words:
    return _Words(n, me)


def _cards(cards: Iterable[int]) -> str:
    return " ".join(map(CARD_NAMES.__getitem__, sorted(cards))) or "-"


def _suits(suits: Iterable[int]) -> str:
    return "".join(map(SUITS.__getitem__, suits)) or "-"


def obs_text(view: View, layout: Layout) -> str:
    """The table now: everything the seat sees but the history (the fields ``layout`` has)."""
    me = view.seat
    w = _words(view.seats, me)
    who = w.seats
    prefixes = w.prefixes

    def per_seat(values: tuple[object, ...]) -> str:
        """``values`` (by absolute seat) from the viewer on: "me 1, +1 2"."""
        return ", ".join(map(add, prefixes, map(str, values[me:] + values[:me])))

    def seat(value: int | None) -> str:
        return who[-1 if value is None else value]

    trump = "-" if view.trump is None else SUITS[view.trump]
    trick = ", ".join(f"{who[s]} {CARD_NAMES[c]}" for s, c in view.trick) or "-"
    parts = [
        f"seat {view.seat}/{view.seats}; dealer {who[view.dealer]};"
        f" phase {PHASE_NAMES[view.phase]}; to act {who[view.to_act]};"
        f" leader {who[view.leader]}; hand {_cards(view.hand)}; trump {trump}"
    ]
    if layout.has_turnup:
        parts.append(f"turnup {'-' if view.turnup is None else CARD_NAMES[view.turnup]}")
    if layout.talon:
        parts.append(f"talon {view.talon_size}")
    if layout.closing:
        parts.append(f"closed {seat(view.closed_by)}")
    parts.append(
        f"trick {trick}; tricks {per_seat(view.tricks)}; points {per_seat(view.card_points)}"
    )
    if layout.marriages:
        parts.append(f"marriages {per_seat(tuple(map(_suits, view.marriages)))}")
    parts.append(f"known {per_seat(tuple(map(_cards, view.known)))}; played {_cards(view.played)}")
    if layout.trump_call:
        parts.append(f"declarer {seat(view.declarer)}")
    if layout.partner_call:
        called = "-" if view.called_ace is None else CARD_NAMES[view.called_ace]
        parts.append(
            f"called {called}; partner {seat(view.partner)}; solo {'yes' if view.solo else 'no'}"
        )
    if layout.match:
        match = view.match
        if match is None:
            parts.append("match -")
        else:
            goal = f"target {match.target}" if match.deals is None else f"deals {match.deals}"
            parts.append(
                f"match totals {per_seat(match.totals)}, {goal}, played {match.played},"
                f" next dealer {who[match.next_dealer]}"
            )
    return "; ".join(parts)


def info_text(view: View, layout: Layout) -> str:
    """The table now and, after it, every public action in order."""
    history = view.history
    words = _words(view.seats, view.seat).history
    return f"{obs_text(view, layout)}; history {', '.join(map(words.__getitem__, history)) or '-'}"
