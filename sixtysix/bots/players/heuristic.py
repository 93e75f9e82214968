"""The ``heuristic`` bot: a sound rule-based player that reads nothing but its seat's view.

Why rules and not search: this is the instant, explainable opponent for people (the ``medium``
level, and with ``noise`` the ``easy`` one) and the yardstick the search players must beat. It
names no variant: everything it knows comes from the generic :class:`~sixtysix.core.rules.Rules`
and the public facts of the :class:`~sixtysix.core.view.View`, so it plays any well-formed
variant, built in or from a plugin.

How it decides, in the order a seat meets the decisions:

* **trump call** (three and four players): the suit of its first cards with the most strength
  (aces, tens, length, a marriage), or trump *from below* when nothing is worth naming;
* **partner call** (four players): solo with a very strong hand, else the ace of the trump
  suit when callable, else the ace of the suit in which it holds the ten or the most cards;
* **claim** (manual mode) exactly when its side's valid points reach the winning total;
* **concede** (three players) only before the first card and with a hopeless hand;
* **exchange** whenever offered; **close** when its valid points plus the points of its sure
  winners (top trumps, then top side cards once the trumps are drawn) reach the winning total;
* **marriage** whenever it can declare one (the one in trumps first);
* **card play**: every legal card gets a score, the expected points of the trick for its side
  (the chance the card, or a partner's card, stands against the seats still to play, from the
  unseen cards, the known cards and the voids revealed by strict play), minus what the card is
  worth kept in hand (its own points times its chance to win later, its trick-taking power, a
  marriage it could still make), plus a bonus or a penalty when the trick would end the deal.
  That one rule gives the classic habits: lead low non-trumps, keep trumps and marriage
  cards, take aces and tens with cheap winners, trump only what is worth it, give points to
  a partner who is sure to win, cash sure winners when they finish the deal.

The numbers behind the score and the close are its :class:`Weights`: hand-set defaults (the
``heuristic`` everyone is measured against), each one a bot parameter, so that other sets can
be fitted by play (``benchmarks/tools/tune_heuristic.py``) and played without touching the code. The
expert defers to such a fitted set in the two-player games (:mod:`sixtysix.bots.players.expert`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from operator import neg
from typing import ClassVar

from sixtysix.bots.base import Bot, probability_param
from sixtysix.bots.players.heuristic_reading import Reading, beats
from sixtysix.bots.players.heuristic_weights import DEAL_END, DEFAULT_WEIGHTS, LATER_CARD, Weights
from sixtysix.core.actions import (
    CLAIM,
    CLOSE,
    CONCEDE,
    EXCHANGE,
    MARRY,
    PARTNER,
    SOLO,
    TRUMP,
    TRUMP_BELOW,
    Action,
)
from sixtysix.core.cards import (
    ACE,
    KQ,
    NUM_CARDS,
    POINTS,
    SUIT_MASK,
    TEN,
    marriage_points,
    mask_of,
)
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.view import View
from sixtysix.plugins import hookimpl

__all__ = [
    "DEAL_END",
    "DEFAULT_WEIGHTS",
    "HOPELESS_TRICKS",
    "LATER_CARD",
    "SOLO_TRICKS",
    "WEAK_TRUMP",
    "HeuristicBot",
    "Reading",
    "Weights",
    "beats",
    "choose_partner",
    "choose_trump",
    "decide",
    "hopeless",
    "register_bots",
    "should_close",
    "suit_strength",
    "sure_tricks",
    "trump_pick",
]

#: How strong a suit must be to be named trump (see :func:`suit_strength`); below it a seat
#: that may takes trump from below.
WEAK_TRUMP = 3.5
#: Sure tricks (see :func:`sure_tricks`) a four-player forehand needs to play solo.
SOLO_TRICKS = 4.0
#: Expected tricks below which a three-player declarer concedes before the first card.
HOPELESS_TRICKS = 1.0

#: Rank weights for a suit's strength as trump (9 J Q K T A).
_TRUMP_WEIGHT = (0.8, 1.0, 1.2, 1.5, 2.5, 3.0)


# ---------------------------------------------------------------------- bidding decisions


def suit_strength(cards: int, suit: int) -> float:
    """How good ``suit`` would be as trump for a seat holding ``cards``."""
    held = cards & SUIT_MASK[suit]
    strength = sum(_TRUMP_WEIGHT[c % 6] for c in range(suit * 6, suit * 6 + 6) if held >> c & 1)
    count = held.bit_count()
    strength += 0.6 * max(count - 1, 0)
    kq = KQ[suit]
    if held & kq == kq:
        strength += 1.5
    return strength


def sure_tricks(cards: int, trump: int, gone: int = 0) -> float:
    """A rough count of the tricks a hand takes with ``trump``: top trumps in sequence (from
    the highest card not ``gone``), then a share of the other trumps and of the side aces."""
    top = 0
    rest = 0
    in_sequence = True
    for rank in range(ACE, -1, -1):
        card = trump * 6 + rank
        if gone >> card & 1:
            continue
        if cards >> card & 1:
            if in_sequence:
                top += 1
            else:
                rest += 1
        else:
            in_sequence = False
    side_aces = sum(1 for s in range(4) if s != trump and cards >> (s * 6 + ACE) & 1)
    side_tens = sum(
        1
        for s in range(4)
        if s != trump and cards >> (s * 6 + TEN) & 1 and cards >> (s * 6 + ACE) & 1
    )
    return top + 0.5 * rest + 0.7 * side_aces + 0.4 * side_tens


def choose_trump(view: View, legal: Sequence[Action]) -> Action:
    cards = mask_of(view.hand)
    return legal[trump_pick(lambda suit: suit_strength(cards, suit), legal)]


def trump_pick(strength: Callable[[int], float], legal: Sequence[int]) -> int:
    """The index in ``legal`` of the trump call the rule player makes, given each suit's
    :func:`suit_strength` in its first cards: the strongest suit, or trump from below when
    none is worth naming (shared with the expert's reading of a call,
    :mod:`sixtysix.bots.inference.table`)."""
    options = [i for i, a in enumerate(legal) if TRUMP <= a < TRUMP + 4]
    if not options:
        return 0
    best = max(options, key=lambda i: (strength(legal[i] - TRUMP), -legal[i]))
    if strength(legal[best] - TRUMP) < WEAK_TRUMP and TRUMP_BELOW in legal:
        return list(legal).index(TRUMP_BELOW)
    return best


def choose_partner(view: View, legal: Sequence[Action]) -> Action:
    cards = mask_of(view.hand)
    trump = -1 if view.trump is None else int(view.trump)
    calls = [a for a in legal if PARTNER <= a < PARTNER + 4]
    solo = next((a for a in legal if a == SOLO), None)
    if solo is not None and (not calls or sure_tricks(cards, trump) >= SOLO_TRICKS):
        return solo
    if not calls:
        return legal[0]

    def preference(action: Action) -> tuple[float, int]:
        suit = action - PARTNER
        score = 3.0 if suit == trump else 0.0
        if cards >> (suit * 6 + TEN) & 1:
            score += 1.5
        score += 0.5 * (cards & SUIT_MASK[suit]).bit_count()
        return score, -int(action)

    return max(calls, key=preference)


def should_close(reading: Reading) -> bool:
    """Close when valid points plus the points of sure winners reach the winning total.

    Sure winners are the top trumps in sequence; once they outnumber the trumps still
    outstanding, the top card of each side suit is sure too. Each sure trick also captures
    the opponent's card, counted low (he follows with what he must).
    """
    me = frozenset({reading.me})
    trump = reading.trump
    hand = reading.hand
    in_play = reading.in_play
    if reading.view.turnup is not None:
        in_play &= ~(1 << reading.view.turnup)  # closing leaves the turn-up out of play
    gained = 0.0
    tricks = 0
    sure_trumps = 0
    for rank in range(ACE, -1, -1):
        card = trump * 6 + rank
        if hand >> card & 1:
            sure_trumps += 1
            gained += POINTS[card] + 3
        elif in_play >> card & 1:
            break
    tricks += sure_trumps
    outstanding_trumps = (SUIT_MASK[trump] & in_play).bit_count()
    if sure_trumps >= outstanding_trumps:
        for suit in range(4):
            if suit == trump:
                continue
            for rank in range(ACE, -1, -1):
                card = suit * 6 + rank
                if hand >> card & 1:
                    gained += POINTS[card] + 2
                    tricks += 1
                elif in_play >> card & 1:
                    break
    if reading.rules.marriage_after_close:
        gained += reading.marriage_in_hand() if tricks else 0
    points = reading.side_points(me, with_trick=tricks > 0)
    goal = reading.rules.winning_points - reading.weights.close_slack
    return tricks > 0 and points + gained >= goal


def hopeless(reading: Reading) -> bool:
    """A declarer's hand so weak that conceding now costs less than playing it out."""
    view = reading.view
    if reading.trump < 0 or any(a < NUM_CARDS for _, a in view.history):
        return False  # after the first card, conceding never beats playing on
    return sure_tricks(reading.hand, reading.trump) < HOPELESS_TRICKS


# ---------------------------------------------------------------------- the bot


def decide(view: View, weights: Weights = DEFAULT_WEIGHTS) -> Action:
    """The heuristic's action for ``view`` (deterministic: the same view, the same action),
    with its own weights or ``weights``."""
    legal = view.legal_actions
    if len(legal) == 1:
        return legal[0]
    if view.phase != Phase.PLAY:
        if view.phase == Phase.TRUMP_CALL:
            return choose_trump(view, legal)
        if view.phase == Phase.PARTNER_CALL:
            return choose_partner(view, legal)
    reading = Reading(view, weights)
    if max(legal) < NUM_CARDS:  # nothing but cards to play: the usual case
        return _best_play(reading, legal)
    actions = set(legal)
    if (
        CLAIM in actions
        and reading.side_points(reading.mates | {reading.me}) >= view.rules.winning_points
    ):
        return _pick(legal, CLAIM)
    if CONCEDE in actions and hopeless(reading):
        return _pick(legal, CONCEDE)
    plays = [a for a in legal if a < NUM_CARDS]
    if EXCHANGE in actions:  # on lead, or following where the rules allow it
        return _pick(legal, EXCHANGE)
    if not view.trick:
        if CLOSE in actions and should_close(reading):
            return _pick(legal, CLOSE)
        marriages = [a for a in legal if MARRY <= a < MARRY + 4]
        if marriages:
            return max(marriages, key=lambda a: (marriage_points(a - MARRY, reading.trump), -a))
    if not plays:
        return legal[0]
    return _best_play(reading, plays)


def _best_play(reading: Reading, plays: Sequence[Action]) -> Action:
    """The card with the highest :meth:`Reading.play_score`, the lowest among equals."""
    # The same as max(plays) by the key (score, -card), with the index riding along (never
    # compared: the keys are distinct).
    scores = reading.play_scores(plays)
    best = max(zip(scores, map(neg, plays), range(len(plays)), strict=True))[2]
    return plays[best]


def _pick(legal: Sequence[Action], code: int) -> Action:
    return next(a for a in legal if a == code)


class HeuristicBot(Bot):
    """The rule-based player. ``noise`` makes it weaker on purpose, for beginners."""

    name = "heuristic"
    description = "a sound rule-based player (instant; the medium level, or easy with noise)"
    parameters: ClassVar[Mapping[str, str]] = {
        "seed": "an integer seed of its own (used by noise)",
        "noise": "chance 0..1 of a random legal action instead of the rule's (default 0)",
        **{
            name: f"a weight of its play (see heuristic.Weights; default {value:g})"
            for name, value in dataclasses.asdict(DEFAULT_WEIGHTS).items()
        },
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.noise = probability_param(self.params, "noise", 0.0)
        self.weights = Weights.from_params(self.params)
        self.stream = self.seed.stream(("bot", seat, "heuristic"))

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if self.noise and len(legal) > 1 and self.stream.random() < self.noise:
            return legal[self.stream.below(len(legal))]
        return decide(view, self.weights)


@hookimpl
def register_bots(register: Callable[[type[Bot]], None]) -> None:
    register(HeuristicBot)
