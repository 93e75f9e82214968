"""The adapter that seats one of our bots in the ``schnapsen`` package's engine, shared by
``strength_vs_schnapsen_package.py`` (single deals) and ``_peer_bummerl.py`` (Bummerls).

:class:`SixtySixPlayer` is a ``schnapsen.game.Bot`` that builds one of our
:class:`~sixtysix.core.view.View` objects from their ``PlayerPerspective`` and its public
history, asks our bot, and maps the answer back to one of their ``valid_moves()``; the view
holds only what the perspective shows a player. :class:`Timed` times their bot per move, and
:class:`Game` is one game's result. It imports the peer package at module level: it is only
importable where the peer is installed (``benchmarks/requirements-peer.txt``).

Rules, theirs against our ``schnapsen`` (see ``docs/peer-schnapsen-notes.md``), and how the
adapter matches them:

* no closing: our variant is configured with ``closing=false`` (so our bot, and any search it
  runs on our engine, never counts on a close), and ``close`` is never offered;
* automatic end at 66 only: our default ``claim=auto``;
* the trump jack may be exchanged while the talon is not empty (size >= 2, no trick needed):
  our defaults ``exchange_min_talon=2``, ``exchange_needs_trick=false``; their separate
  ``TrumpExchange`` move is our ``exchange``, after which they ask for the lead again;
* a marriage always leads the king: our ``marry X`` is followed by a second view in which the
  only legal action is ``play KX``, and the pair becomes their single ``Marriage`` move;
* marriages in the strict phase, no last-trick bonus, the last trick's winner takes a deal
  nobody won with 66, game points 1/2/3: the same in both;
* their deal is one deal with ``bot1`` leading; our view calls that seat 0 and the other seat
  the dealer;
* one difference cannot be expressed by our options: their marriage points stay pending until
  the declarer wins a trick *after* declaring, ours count at once when the seat already has a
  trick. Our bot therefore values such a marriage a trick early; and where ours would already
  have ended the deal with it (the declarer at 66 with it), the view leaves that marriage out
  (:meth:`PublicRecord.live_under_our_rules`; the card it showed is forgotten too), so that our
  bot, and any search it runs on our engine, sees the live deal their engine is playing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from schnapsen.deck import Card as PeerCard
from schnapsen.deck import Rank, Suit
from schnapsen.game import (
    Bot as PeerBot,
)
from schnapsen.game import (
    ExchangeTrick,
    GamePhase,
    Marriage,
    Move,
    PlayerPerspective,
    RegularMove,
    RegularTrick,
    TrumpExchange,
)

from benchmarks.strength import _told
from benchmarks.strength._peer_games import after_marriage
from sixtysix.bots.base import Bot
from sixtysix.bots.players.heuristic import beats
from sixtysix.core.actions import ACTIONS, EXCHANGE, MARRY
from sixtysix.core.cards import ACE, CARDS, JACK, KING, POINTS, QUEEN, TEN, mask_of
from sixtysix.core.match_view import MatchView
from sixtysix.core.state import Phase
from sixtysix.core.view import View
from sixtysix.variants.schnapsen import Schnapsen

#: Our variant configured to their rules where an option exists (see the module doc).
PEER_RULES = {"closing": False, "claim": "auto", "exchange_min_talon": 2}

_SUIT = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
_RANK = {Rank.JACK: JACK, Rank.QUEEN: QUEEN, Rank.KING: KING, Rank.TEN: TEN, Rank.ACE: ACE}
_PEER_SUIT = {v: k for k, v in _SUIT.items()}
_PEER_RANK = {v: k for k, v in _RANK.items()}


def ours(card: PeerCard) -> int:
    return _SUIT[card.suit] * 6 + _RANK[card.rank]


def theirs(card: int) -> PeerCard:
    return PeerCard.get_card(_PEER_RANK[card % 6], _PEER_SUIT[card // 6])


def peer_variant() -> Schnapsen:
    return Schnapsen.configure(None, PEER_RULES)


class PublicRecord:
    """Our seat's public record of the deal so far, rebuilt from the perspective's history."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.history: list[tuple[int, int]] = []
        self.tricks = [0, 0]
        self.card_points = [0, 0]
        self.marriages: list[list[int]] = [[], []]
        #: Per seat, the history indices of marriages their engine still holds pending (not
        #: yet followed by a trick won by the declarer).
        self.pending: list[list[int]] = [[], []]
        self.known = [0, 0]
        #: Per marriage (history index), the cards it made known that were not known before.
        self.shown_by: dict[int, int] = {}
        #: Per seat, the cards forgotten with a dropped marriage (their engine still knows them).
        self.forgotten = [0, 0]
        self.played = 0
        self.trick: list[tuple[int, int]] = []

    def play(self, seat: int, card: int) -> None:
        self.history.append((seat, card))
        self.played |= 1 << card
        self.known[seat] &= ~(1 << card)
        self.trick.append((seat, card))

    def lead(self, seat: int, move: Move) -> None:
        if move.is_marriage():
            marriage = move.as_marriage()
            king, queen = ours(marriage.king_card), ours(marriage.queen_card)
            suit = king // 6
            self.pending[seat].append(len(self.history))
            pair = (1 << king) | (1 << queen)
            self.shown_by[len(self.history)] = pair & ~self.known[seat]
            self.history.append((seat, MARRY + suit))
            self.marriages[seat].append(suit)
            self.known[seat] |= pair
            self.play(seat, king)
        else:
            self.play(seat, ours(move.as_regular_move().card))

    def won(self, seat: int, points: int) -> None:
        self.tricks[seat] += 1
        self.card_points[seat] += points
        self.pending[seat] = []  # their engine redeems pending marriage points now

    def live_under_our_rules(self, trump: int, goal: int) -> None:
        """Drop the marriages their engine still holds pending where ours would already have
        ended the deal with them (ours counts a marriage at once when the seat has a trick).

        Why: our bot (and any search it runs on our engine) must see a deal that is still
        being played, as it is in their engine. The card the marriage showed and left in hand
        is no longer counted as known either: without the marriage nothing in our rules
        explains it (our sampler would find, say, the queen and a turn-up taken by exchange
        both "known" trumps with one reason between them), so our bot forgets it, a small
        handicap for our side only.
        """
        drop: set[int] = set()
        for seat in (0, 1):
            if not self.pending[seat] or not self.tricks[seat]:
                continue
            worth = sum(40 if m == trump else 20 for m in self.marriages[seat])
            if self.card_points[seat] + worth < goal:
                continue
            for index in self.pending[seat]:
                self.marriages[seat].remove(self.history[index][1] - MARRY)
                self.known[seat] &= ~self.shown_by.get(index, 0)
                self.forgotten[seat] |= self.shown_by.get(index, 0)
                drop.add(index)
            self.pending[seat] = []
        if drop:
            self.history = [h for i, h in enumerate(self.history) if i not in drop]


def build_view(
    perspective: PlayerPerspective,
    leader_move: Move | None,
    variant: Schnapsen,
    score: Score | None = None,
) -> View:
    """Our view of the seat that ``perspective`` belongs to: its cards and public facts only,
    with the Bummerl's ``score`` when the deal is part of one."""
    past = perspective.get_game_history()[:-1]
    first = past[0][0] if past else perspective
    me = 0 if first.am_i_leader() else 1
    opp = 1 - me
    rec = PublicRecord(me)
    trump = _SUIT[perspective.get_trump_suit()]
    for then, trick in past:
        leader = me if then.am_i_leader() else opp
        if isinstance(trick, ExchangeTrick):
            rec.history.append((leader, EXCHANGE))
            rec.known[leader] |= 1 << ours(trick.trump_card)
            continue
        assert isinstance(trick, RegularTrick)
        rec.trick = []
        rec.lead(leader, trick.leader_move)
        rec.play(1 - leader, ours(trick.follower_move.card))
        (_, lead_card), (_, follow_card) = rec.trick
        winner = 1 - leader if beats(follow_card, lead_card, trump) else leader
        rec.won(winner, POINTS[lead_card] + POINTS[follow_card])
        turnup = then.get_trump_card()
        if then.get_talon_size() == 2 and turnup is not None:
            rec.known[1 - winner] |= 1 << ours(turnup)  # the loser draws the turn-up
        rec.trick = []
    if leader_move is not None:
        rec.lead(opp, leader_move)
    rec.live_under_our_rules(trump, variant.rules.winning_points)
    hand = sorted(ours(c) for c in perspective.get_hand().get_cards())
    legal = sorted({_action(m) for m in perspective.valid_moves()})
    turnup = perspective.get_trump_card()
    view = View(
        variant=variant.name,
        rules=variant.rules,
        seat=me,
        seats=2,
        dealer=1,
        phase=int(Phase.PLAY),
        to_act=me,
        hand=tuple(CARDS[c] for c in hand),
        trump=trump,
        turnup=None if turnup is None else CARDS[ours(turnup)],
        talon_size=perspective.get_talon_size(),
        closed_by=None,
        leader=opp if leader_move is not None else me,
        trick=tuple((s, CARDS[c]) for s, c in rec.trick),
        history=tuple((s, ACTIONS[a]) for s, a in rec.history),
        tricks=tuple(rec.tricks),
        card_points=tuple(rec.card_points),
        marriages=tuple(tuple(m) for m in rec.marriages),
        known=tuple(frozenset(CARDS[c] for c in range(24) if k >> c & 1) for k in rec.known),
        played=frozenset(CARDS[c] for c in range(24) if rec.played >> c & 1),
        declarer=None,
        called_ace=None,
        partner=None,
        solo=False,
        legal_actions=tuple(ACTIONS[a] for a in legal),
        outcome=None,
        options=tuple((s.name, getattr(variant.options, s.name)) for s in variant.options.specs()),
        match=None if score is None else score.match_view(me),
    )
    check_view(view, perspective, leader_move, rec.forgotten[opp])
    return view


@dataclass(frozen=True)
class Score:
    """A Bummerl's score before a deal, from our bot's side: what every player at a table knows
    (their engine plays one deal at a time, so the Bummerl loop tells the adapter)."""

    ours: int
    theirs: int
    #: Deals finished before this one.
    played: int
    target: int

    def match_view(self, me: int) -> MatchView:
        """The score in the view's seats: the seat that leads this deal (seat 0, the other
        the dealer) deals the next one, when the other bot leads."""
        totals = (self.ours, self.theirs) if me == 0 else (self.theirs, self.ours)
        return MatchView(totals, self.target, None, self.played, 0)


def _action(move: Move) -> int:
    if move.is_trump_exchange():
        return EXCHANGE
    if move.is_marriage():
        return MARRY + _SUIT[move.as_marriage().suit]
    return ours(move.as_regular_move().card)


def check_view(
    view: View, perspective: PlayerPerspective, leader_move: Move | None, forgotten: int = 0
) -> None:
    """Cross-check the rebuilt view against what the perspective states directly.

    Why: the adapter is the one place where the two engines could silently disagree; a wrong
    view would make the measurement meaningless, so every view is checked as it is made.
    """
    won = sum(POINTS[ours(c)] for c in perspective.get_won_cards().get_cards())
    assert view.card_points[view.seat] == won, "card points of our seat disagree"
    theirs_won = perspective.get_opponent_won_cards().get_cards()
    assert view.card_points[1 - view.seat] == sum(POINTS[ours(c)] for c in theirs_won)
    unseen = view.unseen()
    opp_hand = len(view.hand) - (1 if leader_move is not None else 0)
    hidden_talon = view.talon_size - (1 if view.turnup is not None else 0)
    known_opp = len(view.known[1 - view.seat])
    assert len(unseen) == opp_hand - known_opp + hidden_talon, "unseen cards do not add up"
    if perspective.get_phase() == GamePhase.ONE:
        said = {ours(c) for c in perspective.get_known_cards_of_opponent_hand().get_cards()}
        mine = {int(c) for c in view.known[1 - view.seat]}
        if leader_move is not None:
            # Theirs reads the hand before the lead: the led card is still in it, and a
            # marriage's queen, just shown, is not yet a card "of a past trick".
            said -= {ours(c) for c in leader_move.cards}
            if leader_move.is_marriage():
                mine.discard(ours(leader_move.as_marriage().queen_card))
        # A card forgotten with a dropped marriage is still known to their engine.
        said -= {c for c in range(24) if forgotten >> c & 1}
        assert mine == said, f"known opponent cards disagree: {mine} != {said}"


class SixtySixPlayer(PeerBot):  # type: ignore[misc]  # PeerBot: Any (untyped peer package)
    """One of our bots as a player of the ``schnapsen`` package."""

    def __init__(
        self,
        bot: Bot,
        variant: Schnapsen,
        name: str,
        told: bool = False,
        score: Score | None = None,
    ) -> None:
        super().__init__(name)
        self.bot = bot
        self.variant = variant
        #: The Bummerl's score before this deal (None: a deal played alone).
        self.score = score
        self.times: list[float] = []
        #: A yardstick only (``--told``): before each decision our bot is told the opponent's
        #: hand, read from their hidden state (:mod:`_told`).
        self.told = told

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        start = time.perf_counter()
        if self.told:
            _told.tell(opponent_hand(perspective))
        view = build_view(perspective, leader_move, self.variant, self.score)
        action = self.bot.choose(view)
        if action not in view.legal_actions:
            raise RuntimeError(f"our bot chose {action} outside {view.legal_actions}")
        if MARRY <= action < MARRY + 4:
            suit = action - MARRY
            king = suit * 6 + KING
            second = self.bot.choose(after_marriage(view, action, king_only=True))
            if second != king:
                raise RuntimeError(f"our bot led {second} after marrying; only the king is legal")
            move: Move = Marriage(theirs(suit * 6 + QUEEN), theirs(king))
        elif action == EXCHANGE:
            move = TrumpExchange(theirs(_exchange_jack(view)))
        else:
            move = RegularMove(theirs(int(action)))
        self.times.append(time.perf_counter() - start)
        return move


def opponent_hand(perspective: PlayerPerspective) -> int:
    """The opponent's hand, from their hidden state: for ``--told`` only, never for a bot."""
    state = perspective._PlayerPerspective__get_opponent_bot_state()
    return mask_of(ours(card) for card in state.hand)


def _exchange_jack(view: View) -> int:
    assert view.trump is not None
    return view.trump * 6 + JACK


class Timed(PeerBot):  # type: ignore[misc]  # PeerBot: Any (untyped peer package)
    """Their bot, timed per move."""

    def __init__(self, inner: PeerBot, name: str) -> None:
        super().__init__(name)
        self.inner = inner
        self.times: list[float] = []

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        start = time.perf_counter()
        move = self.inner.get_move(perspective, leader_move=leader_move)
        self.times.append(time.perf_counter() - start)
        return move
