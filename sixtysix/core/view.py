"""What one seat may know: an immutable copy, never a window onto the true state.

:func:`make_view` copies public facts and the seat's own cards into plain tuples, ints and
frozensets. Nothing in a :class:`View` refers back to the :class:`DealState`, to another
seat's hand, to the talon order or to a hidden partner.

Nor is anything in a view shared with the engine: a frozen dataclass can still be changed
with ``object.__setattr__``, so every view gets its own copy of the rules and of the outcome,
and the engine never reads what it handed out. The rest is immutable all the way down (tuples,
frozensets, ints, strings, and the interned :class:`Card` and :class:`Action` objects, ``int``
subclasses with no instance state, which the engine never holds: it keeps plain ints).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.cards import CARDS, FULL_DECK, Card, cards_of, mask_of
from sixtysix.core.match_view import MatchView
from sixtysix.core.options import Options
from sixtysix.core.outcome import Outcome
from sixtysix.core.phase import Phase
from sixtysix.core.rules import Rules

if TYPE_CHECKING:
    from sixtysix.core.state import DealState


@dataclass(frozen=True, slots=True)
class View:
    """One seat's information set, with its legal actions when it is to act."""

    variant: str
    rules: Rules
    seat: int
    seats: int
    dealer: int
    phase: int
    to_act: int
    #: Own cards (during a trump call, only those dealt so far).
    hand: tuple[Card, ...]
    #: Trump suit (0..3 for C D H S), or None before it is named.
    trump: int | None
    #: The face-up card under the talon, while it lies there (also once closed).
    turnup: Card | None
    talon_size: int
    closed_by: int | None
    leader: int
    trick: tuple[tuple[int, Card], ...]
    #: Every public action of the deal so far: (seat, action).
    history: tuple[tuple[int, Action], ...]
    tricks: tuple[int, ...]
    card_points: tuple[int, ...]
    #: Suits each seat has declared a marriage in, in order.
    marriages: tuple[tuple[int, ...], ...]
    #: Cards every seat knows to be in each seat's hand (marriage cards, exchanged or drawn
    #: turn-up, a card shown for trump), own seat included.
    known: tuple[frozenset[Card], ...]
    #: Cards played so far (in tricks, complete or not).
    played: frozenset[Card]
    declarer: int | None
    called_ace: Card | None
    #: The caller's partner, only when this seat may know it (its holder, or once the ace fell).
    partner: int | None
    solo: bool
    legal_actions: tuple[Action, ...]
    outcome: Outcome | None
    #: The variant's option values, ``(name, value)`` in declaration order: the rules of the
    #: game are public, and a bot needs the scoring options to value its choices.
    options: tuple[tuple[str, bool | int | str], ...] = ()
    #: The match's public state (totals, target or deals, deals played, next dealer) when the
    #: deal is part of a match; None for a deal played alone.
    match: MatchView | None = None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def unseen(self) -> frozenset[Card]:
        """Cards this seat cannot locate: not its own, not played, not known elsewhere.

        They lie in other hands or in the talon, in an order this seat cannot know.
        """
        taken = mask_of(self.hand) | mask_of(self.played)
        for cards in self.known:
            taken |= mask_of(cards)
        if self.turnup is not None:
            taken |= 1 << self.turnup
        return frozenset(cards_of(self.rules.deck & FULL_DECK & ~taken))


_Code = TypeVar("_Code", Card, Action)


class _Pairs(dict[tuple[int, int], tuple[int, _Code]]):
    """``(seat, code)`` to the view's ``(seat, Card)`` or ``(seat, Action)`` pair, made once.

    A view copies the whole history at every move; looking each pair up is far cheaper than
    building it again.
    """

    __slots__ = ("table",)
    table: tuple[_Code, ...]

    def __init__(self, table: tuple[_Code, ...]) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, key: tuple[int, int]) -> tuple[int, _Code]:
        seat, code = key
        pair = self[key] = (seat, self.table[code])
        return pair


_TRICK_PAIRS: _Pairs[Card] = _Pairs(CARDS)
_HISTORY_PAIRS: _Pairs[Action] = _Pairs(ACTIONS)
_NO_CARDS: frozenset[Card] = frozenset()


def _card_set(mask: int) -> frozenset[Card]:
    return frozenset(cards_of(mask)) if mask else _NO_CARDS


def make_view(state: DealState, seat: int) -> View:
    if not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat} in a {state.n}-seat game")
    phase = state.phase
    over = phase == Phase.OVER
    if phase == Phase.TRUMP_CALL:
        hand = tuple(sorted(CARDS[c] for c in state.setup.hands[seat][: state.rules.call_after]))
    else:
        hand = cards_of(state.hands[seat])
    trick = state.trick
    played = 0
    for _, c in trick:
        played |= 1 << c
    for won in state.won:
        played |= won
    partner: int | None = None
    if state.partner >= 0 and (state.revealed or over or seat == state.partner):
        partner = state.partner
    legal: tuple[Action, ...] = ()
    if state.to_act == seat:
        legal = tuple(map(ACTIONS.__getitem__, state.legal_actions()))
    trump = state.trump
    turnup = state.turnup
    closed_by = state.closed_by
    declarer = state.declarer
    called_ace = state.called_ace
    known = state.known
    outcome = state.outcome
    match = state.match
    # Positional, in the order of View's fields (see _new_view).
    return _new_view(
        state.variant.name,  # variant
        _own_rules(state.rules),  # rules
        seat,  # seat
        state.n,  # seats
        state.dealer,  # dealer
        int(phase),  # phase
        state.to_act,  # to_act
        hand,  # hand
        None if trump < 0 else trump,  # trump
        None if turnup < 0 else CARDS[turnup],  # turnup
        state.talon_size,  # talon_size
        None if closed_by < 0 else closed_by,  # closed_by
        state.leader,  # leader
        tuple(map(_TRICK_PAIRS.__getitem__, trick)),  # trick
        tuple(map(_HISTORY_PAIRS.__getitem__, state.history)),  # history
        tuple(state.tricks),  # tricks
        tuple(state.card_points),  # card_points
        tuple(map(tuple, state.marriages)),  # marriages
        tuple(map(_card_set, known)) if any(known) else (_NO_CARDS,) * len(known),  # known
        _card_set(played),  # played
        None if declarer < 0 else declarer,  # declarer
        None if called_ace < 0 else CARDS[called_ace],  # called_ace
        partner,  # partner
        state.solo,  # solo
        legal,  # legal_actions
        None if outcome is None else _own_outcome(outcome),  # outcome
        _options_of(state.variant.options),  # options
        None if match is None else _own_match(match),  # match
    )


#: Each field's slot setter, in the order of the fields. The frozen dataclass's own
#: ``__init__`` calls ``object.__setattr__`` once per field; setting the slots directly makes
#: a view in half the time, and views are made at every move.
_SLOT_SETTERS: tuple[Callable[[View, Any], None], ...] = tuple(
    getattr(View, field.name).__set__ for field in fields(View)
)


def _new_view(*values: Any) -> View:
    """A :class:`View` of every field's value, in the order of the fields."""
    view = object.__new__(View)
    for set_slot, value in zip(_SLOT_SETTERS, values, strict=True):
        set_slot(view, value)
    return view


_RULES_SETTERS: tuple[Callable[[Rules, Any], None], ...] = tuple(
    getattr(Rules, field.name).__set__ for field in fields(Rules)
)
_last_rules: list[tuple[Rules, tuple[Any, ...]]] = []


def _own_rules(rules: Rules) -> Rules:
    """A fresh copy of ``rules`` for one view: what a bot does to it stays in its view.

    The field values are read once per rules object (cached, as views are made at every
    move) and set slot by slot, several times faster than :func:`dataclasses.replace`.
    """
    if _last_rules and _last_rules[0][0] is rules:
        values = _last_rules[0][1]
    else:
        values = tuple(getattr(rules, field.name) for field in fields(Rules))
        _last_rules[:] = [(rules, values)]
    copy = object.__new__(Rules)
    for set_slot, value in zip(_RULES_SETTERS, values, strict=True):
        set_slot(copy, value)
    return copy


def _own_outcome(outcome: Outcome) -> Outcome:
    """A copy of the deal's outcome for one view (the drivers score the engine's own)."""
    return Outcome(outcome.reason, outcome.game_points, outcome.points, outcome.tricks)


def _own_match(match: MatchView) -> MatchView:
    """A copy of the match's state for one view (a bot may write into a frozen dataclass)."""
    return MatchView(match.totals, match.target, match.deals, match.played, match.next_dealer)


_last_options: list[tuple[Options, tuple[tuple[str, bool | int | str], ...]]] = []


def _options_of(options: Options) -> tuple[tuple[str, bool | int | str], ...]:
    """The option values as plain pairs (cached: views are made at every move)."""
    if _last_options and _last_options[0][0] is options:  # the usual case: the same variant
        return _last_options[0][1]
    values = _options_values(options)
    _last_options[:] = [(options, values)]
    return values


@lru_cache(maxsize=64)
def _options_values(options: Options) -> tuple[tuple[str, bool | int | str], ...]:
    return tuple((spec.name, getattr(options, spec.name)) for spec in options.specs())
