"""The adapter that seats one of our bots in the engine of cpatrasciuc/schnapsen-card-game (a
Schnapsen program, BSD licence; never copied here: its checkout is named at run time, see
``strength_vs_patrasciuc.py``), shared by its lockstep check and its Bummerls
(``_patrasciuc_play.py``).

:class:`SixtySixPlayer` is one of their ``ai.player.Player`` objects: each
``request_next_action(game_view, game_points)`` builds one of our
:class:`~sixtysix.core.view.View` objects from ``game_view`` alone, the ``GameState`` their
engine hands a player (``next_player_view()``: the opponent's unseen cards and the talon's
hidden cards are ``None``; :func:`check_hidden` refuses a view that shows more), asks our bot
and maps its answer back to one of their ``PlayerAction`` objects. Their view has no history:
it shows the tricks each player won (cards by player, not by who led), the marriages' suits
and the current trick, so :class:`Tracker` rebuilds our public history from one decision to
the next (at most one trick, and the opponent's lead with its exchange, close or marriage,
happen between two of a seat's decisions). It imports their packages at module level: import
it only after ``_patrasciuc_rules.use_source``.

Rules, theirs (``src/model``) against our ``schnapsen``, matched by our options
(``PATRASCIUC_RULES``, every one our default):

* 20 cards, 5 each, the trump card under a talon of 9; the winner of a trick draws first, the
  loser takes the trump card at the last draw; the forehand leads the first deal's trick;
* open phase: any card; closed or exhausted talon: follow suit and head the trick if possible,
  else trump if possible (the same duty as ours);
* the trump jack may be exchanged by the seat to lead while the talon is open and not empty
  (our ``exchange_min_talon=2``, ``exchange_needs_trick=false``);
* the talon may be closed by the seat to lead while it holds a face-down card (``closing``,
  ``close_needs_trick=false``); the closer wins with 66 and scores 1/2/3 by the opponent's
  points when closing, else the opponent scores 2, 3 if it had no trick when the talon was
  closed; marriages also after closing (``marriage_after_close``);
* marriage points wait for the declarer's first trick; a deal ends the moment a player has 66
  (``claim=auto``), also at a marriage; with nobody at 66 after the last trick its winner
  scores 1; no last-trick bonus; game points 1/2/3 by the loser's points and tricks;
* a Bummerl ends when a player has 7 game points or more (``target=7``); the dealer
  alternates.

The one difference no option of ours expresses: in their engine a king or queen led while its
partner is in hand is always a marriage (they offer no plain lead of it; their code marks this
``TODO(options)``). Our bot is offered only their legal actions, so it never leads such a card
unmarried; a search it runs on our engine still imagines an opponent who might. Their marriage
may lead either card of the pair, as ours.

What their view cannot tell, and how the tracker decides: an exchange by the opponent before
the deal's first lead, when the trump jack is the trump card at our first decision, is seen by
the exchanged card, a trump their view marks as public in the opponent's hand that no marriage
explains; if that card is the trump king or queen and the opponent leads a trump marriage, it is
explained by the marriage, and the tracker assumes no exchange (the known cards are the same
either way; only the history differs, and the lockstep check counts it).
"""

from __future__ import annotations

import time

from ai.player import Player
from model.card import Card as TheirCard
from model.card_value import CardValue
from model.game_state import GameState
from model.player_action import (
    AnnounceMarriageAction,
    CloseTheTalonAction,
    ExchangeTrumpCardAction,
    PlayCardAction,
    PlayerAction,
    get_available_actions,
)
from model.player_id import PlayerId
from model.player_pair import PlayerPair
from model.suit import Suit

from benchmarks.strength._patrasciuc_rules import BUMMERL
from benchmarks.strength._peer_games import after_marriage
from sixtysix.bots.base import Bot
from sixtysix.core.actions import ACTIONS, CLOSE, EXCHANGE, MARRY
from sixtysix.core.cards import ACE, CARDS, JACK, KING, POINTS, QUEEN, TEN
from sixtysix.core.match_view import MatchView
from sixtysix.core.state import Phase
from sixtysix.core.view import View
from sixtysix.variants.schnapsen import Schnapsen

_SUIT = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
_RANK = {
    CardValue.JACK: JACK,
    CardValue.QUEEN: QUEEN,
    CardValue.KING: KING,
    CardValue.TEN: TEN,
    CardValue.ACE: ACE,
}
_THEIR_SUIT = {v: k for k, v in _SUIT.items()}
_THEIR_RANK = {v: k for k, v in _RANK.items()}
#: Our seat of each of their players: ONE is seat 0.
SEAT = {PlayerId.ONE: 0, PlayerId.TWO: 1}
PID = (PlayerId.ONE, PlayerId.TWO)


def ours(card: TheirCard) -> int:
    return _SUIT[card.suit] * 6 + _RANK[card.card_value]


def theirs(card: int) -> TheirCard:
    return TheirCard(_THEIR_SUIT[card // 6], _THEIR_RANK[card % 6])


def our_action(action: PlayerAction) -> int:
    """Our action for one of theirs (a marriage: our ``marry``; the card it leads follows)."""
    if isinstance(action, AnnounceMarriageAction):
        return MARRY + _SUIT[action.card.suit]
    if isinstance(action, PlayCardAction):
        return ours(action.card)
    if isinstance(action, ExchangeTrumpCardAction):
        return EXCHANGE
    if isinstance(action, CloseTheTalonAction):
        return CLOSE
    raise TypeError(f"unknown action {action!r}")


def our_steps(action: PlayerAction) -> list[int]:
    """Their action as our engine's steps: a marriage is ``marry`` then the card it leads."""
    first = our_action(action)
    if isinstance(action, AnnounceMarriageAction):
        return [first, ours(action.card)]
    return [first]


def check_hidden(view: GameState, seat: int) -> None:
    """Refuse a view that shows more than a player may know: an opponent's card neither public
    nor in the current trick, a hidden talon card while the talon is open.

    Why: the adapter's promise is that our bot sees what a player at the table sees; their
    ``next_player_view`` is the thing that keeps it, so it is checked at every decision.
    """
    opp = PID[1 - seat]
    led = view.current_trick[opp]
    for card in view.cards_in_hand[opp]:
        if card is not None and not card.public and card != led:
            raise RuntimeError(f"their view shows the opponent's hidden card {card}")
    if not view.is_talon_closed and any(card is not None for card in view.talon):
        raise RuntimeError("their view shows a card of the open talon")


class Tracker:
    """One seat's public history of a deal, rebuilt from the views of its decisions."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.history: list[tuple[int, int]] = []
        self.dealer = -1
        #: At our last decision, after our action: the trump card, the tricks won per seat,
        #: whether the talon was closed, the opponent's marriages, whether we led a card.
        self.turnup: int | None = None
        self.won = [0, 0]
        self.closed = False
        self.their_marriages = 0
        self.led = False

    def observe(self, view: GameState) -> None:
        """Add what the opponent did since our last decision (its follow, then its lead)."""
        me, opp = self.seat, 1 - self.seat
        won = [len(view.won_tricks[p]) for p in PID]
        led = view.current_trick[PID[opp]]
        turnup = None if view.trump_card is None else ours(view.trump_card)
        trump = _SUIT[view.trump]
        if self.dealer < 0:
            if sum(won):
                raise RuntimeError("the first view of a deal shows a finished trick")
            self.dealer = me if led is not None else opp
            exchanged = led is not None and turnup == trump * 6 + JACK and self._exchanged(view)
        else:
            grown = [w - s for w, s in zip(won, self.won, strict=True)]
            if sum(grown) > 1:
                raise RuntimeError("more than one trick between two decisions")
            if self.led:
                if sum(grown) != 1:
                    raise RuntimeError("our lead was not answered")
                trick = view.won_tricks[PID[grown.index(1)]][-1]
                self.history.append((opp, ours(trick[PID[opp]])))
            exchanged = led is not None and turnup is not None and turnup != self.turnup
        if led is None:
            return
        if exchanged:
            self.history.append((opp, EXCHANGE))
        if view.player_that_closed_the_talon == PID[opp] and not self.closed:
            self.history.append((opp, CLOSE))
        marriages = view.marriage_suits[PID[opp]]
        if len(marriages) > self.their_marriages:
            self.history.append((opp, MARRY + _SUIT[marriages[-1]]))
        self.history.append((opp, ours(led)))

    def _exchanged(self, view: GameState) -> bool:
        """Whether the opponent exchanged before its first lead (see the module doc)."""
        trump = view.trump
        opp = PID[1 - self.seat]
        married = set(view.marriage_suits[opp])
        for card in view.cards_in_hand[opp]:
            if card is None or not card.public or card.suit != trump:
                continue
            if card.card_value == CardValue.JACK:
                continue
            if card.suit in married and card.card_value in (CardValue.KING, CardValue.QUEEN):
                continue
            return True
        return False

    def mine(self, view: GameState, steps: list[int]) -> None:
        """Record our own action (``steps`` in our engine's terms) on the view it answered."""
        self.history.extend((self.seat, a) for a in steps)
        self.won = [len(view.won_tricks[p]) for p in PID]
        self.turnup = None if view.trump_card is None else ours(view.trump_card)
        if steps[0] == EXCHANGE:
            self.turnup = _SUIT[view.trump] * 6 + JACK
        self.closed = view.is_talon_closed or steps[0] == CLOSE
        self.their_marriages = len(view.marriage_suits[PID[1 - self.seat]])
        self.led = steps[-1] < 24 and view.current_trick[PID[1 - self.seat]] is None


def build_view(
    view: GameState,
    tracker: Tracker,
    variant: Schnapsen,
    match: MatchView | None = None,
) -> View:
    """Our view of the seat to act, from their player's view and the tracker's history."""
    me = tracker.seat
    opp = 1 - me
    led = view.current_trick[PID[opp]]
    hand = view.cards_in_hand[PID[me]]
    played = [ours(c) for p in PID for trick in view.won_tricks[p] for c in (trick.one, trick.two)]
    if led is not None:
        played.append(ours(led))
    known_me = frozenset(CARDS[ours(c)] for c in hand if c.public)
    known_opp = frozenset(
        CARDS[ours(c)] for c in view.cards_in_hand[PID[opp]] if c is not None and c != led
    )
    known = (known_me, known_opp) if me == 0 else (known_opp, known_me)
    legal = sorted({our_action(a) for a in get_available_actions(view)})
    closer = view.player_that_closed_the_talon
    return View(
        variant=variant.name,
        rules=variant.rules,
        seat=me,
        seats=2,
        dealer=tracker.dealer,
        phase=int(Phase.PLAY),
        to_act=me,
        hand=tuple(sorted(CARDS[ours(c)] for c in hand)),
        trump=_SUIT[view.trump],
        turnup=None if view.trump_card is None else CARDS[ours(view.trump_card)],
        talon_size=len(view.talon) + (view.trump_card is not None),
        closed_by=None if closer is None else SEAT[closer],
        leader=opp if led is not None else me,
        trick=() if led is None else ((opp, CARDS[ours(led)]),),
        history=tuple((s, ACTIONS[a]) for s, a in tracker.history),
        tricks=tuple(len(view.won_tricks[p]) for p in PID),
        card_points=tuple(
            sum(POINTS[ours(c)] for t in view.won_tricks[p] for c in (t.one, t.two)) for p in PID
        ),
        marriages=tuple(tuple(_SUIT[s] for s in view.marriage_suits[p]) for p in PID),
        known=known,
        played=frozenset(CARDS[c] for c in played),
        declarer=None,
        called_ace=None,
        partner=None,
        solo=False,
        legal_actions=tuple(ACTIONS[a] for a in legal),
        outcome=None,
        options=tuple((s.name, getattr(variant.options, s.name)) for s in variant.options.specs()),
        match=match,
    )


def marriage_wins(view: View, suit: int) -> bool:
    """Whether a marriage in ``suit`` takes ``view``'s seat to 66 at once (it has a trick)."""
    seat = view.seat
    if not view.tricks[seat]:
        return False
    worth = sum(40 if s == view.trump else 20 for s in (*view.marriages[seat], suit))
    return view.card_points[seat] + worth >= view.rules.winning_points


def their_action(view: GameState, seat: int, steps: list[int]) -> PlayerAction:
    """Their action for our ``steps`` (one of their legal actions, or an error)."""
    pid = PID[seat]
    first = steps[0]
    action: PlayerAction
    if MARRY <= first < MARRY + 4:
        action = AnnounceMarriageAction(pid, theirs(steps[1]))
    elif first == EXCHANGE:
        action = ExchangeTrumpCardAction(pid)
    elif first == CLOSE:
        action = CloseTheTalonAction(pid)
    else:
        action = PlayCardAction(pid, theirs(first))
    if action not in get_available_actions(view):
        raise RuntimeError(f"{action!r} is not legal in their engine")
    return action


class SixtySixPlayer(Player):  # type: ignore[misc]  # Player: Any (their untyped package)
    """One of our bots as a player of their engine, for one deal (a new one each deal)."""

    def __init__(self, bot: Bot, variant: Schnapsen, seat: int, deals_played: int = -1) -> None:
        super().__init__(PID[seat])
        self.bot = bot
        self.variant = variant
        self.tracker = Tracker(seat)
        #: Deals finished before this one in the Bummerl (-1: a deal played alone).
        self.deals_played = deals_played
        self.times: list[float] = []

    def view(self, game_view: GameState, game_points: PlayerPair[int] | None) -> View:
        """Our view of this decision (observes the opponent's actions since the last one)."""
        check_hidden(game_view, self.tracker.seat)
        self.tracker.observe(game_view)
        match = None
        if game_points is not None and self.deals_played >= 0:
            totals = (game_points.one, game_points.two)
            next_dealer = 1 - self.tracker.dealer
            match = MatchView(totals, BUMMERL, None, self.deals_played, next_dealer)
        return build_view(game_view, self.tracker, self.variant, match)

    def choose(self, view: View) -> list[int]:
        """Our bot's choice as our engine's steps (a marriage asks it twice)."""
        action = self.bot.choose(view)
        if action not in view.legal_actions:
            raise RuntimeError(f"our bot chose {action} outside {view.legal_actions}")
        steps = [int(action)]
        if MARRY <= action < MARRY + 4:
            if marriage_wins(view, action - MARRY):
                # Both engines end the deal at this marriage: the card it leads is never played.
                steps.append((action - MARRY) * 6 + KING)
            else:
                steps.append(int(self.bot.choose(after_marriage(view, action, king_only=False))))
        return steps

    def request_next_action(
        self, game_view: GameState, game_points: PlayerPair[int] | None = None
    ) -> PlayerAction:
        start = time.perf_counter()
        steps = self.choose(self.view(game_view, game_points))
        action = their_action(game_view, self.tracker.seat, steps)
        self.tracker.mine(game_view, steps)
        self.times.append(time.perf_counter() - start)
        return action
