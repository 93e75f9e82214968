"""The heuristic bot's :class:`Reading` of one view: teams, hand sizes, voids, unseen pools,
and the card-play score built on them.

Why a module of its own: it is the bulk of the rule player (what it infers from public facts),
apart from the decisions that use it (:mod:`sixtysix.bots.players.heuristic`, which re-exports it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sixtysix.bots.players.heuristic_weights import DEFAULT_WEIGHTS, Weights
from sixtysix.core.actions import CLOSE
from sixtysix.core.cards import (
    ABOVE,
    FULL_DECK,
    KING,
    KQ,
    NUM_CARDS,
    POINTS,
    QUEEN,
    SUIT_MASK,
    marriage_points,
    mask_of,
)
from sixtysix.core.rules import Sides
from sixtysix.core.view import View


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` played now takes the lead from ``best`` (the trick's winning card)."""
    if card // 6 == best // 6:
        return card > best
    return card // 6 == trump


#: Per 4-bit mask of suits, every card of those suits.
_SUIT_CARDS: tuple[int, ...] = tuple(
    sum(SUIT_MASK[s] for s in range(4) if suits >> s & 1) for suits in range(16)
)
#: Seats other than ``me`` at a table of ``n``, by ``(n, me)`` (made once each).
_OTHERS: dict[tuple[int, int], frozenset[int]] = {}
#: See :func:`_chance_of_any` (keyed by its arguments packed into one integer).
_CHANCES: dict[int, float] = {}


def _chance_of_any(size: int, k: int, free: int) -> float:
    """Chance that ``free`` cards taken at random from ``size`` include one of ``k`` given
    ones. Memoised: the same few numbers recur at every move."""
    key = (size << 16) | (k << 8) | free
    p = _CHANCES.get(key)
    if p is None:
        p = _CHANCES[key] = 1.0 - math.comb(size - k, free) / math.comb(size, free)
    return p


class Reading:
    """What the bot works out from one view: teams, hand sizes, voids, unseen pools.

    Everything here is derived from the view's public facts and the seat's own cards; it is
    recomputed for every decision, since a view is all the bot ever receives. What only some
    decisions need (the known and unseen cards, voids, hand sizes: the other seats' chances) is
    read on first use, and within one decision what does not depend on the card being weighed
    (the pools each seat's cards come from, the chances of voids and trumps, the trick so far,
    the sides' points) is worked out once.
    """

    __slots__ = (
        "_draws",
        "_foe_points",
        "_hand_sizes",
        "_known",
        "_later",
        "_later_points",
        "_lead_marriage",
        "_led",
        "_mine_points",
        "_p_trumps",
        "_p_voids",
        "_seats",
        "_threats",
        "_trick_points",
        "_trumps",
        "_unseen",
        "_voids",
        "_win_card",
        "_win_seat",
        "foes",
        "hand",
        "in_play",
        "mates",
        "me",
        "n",
        "played",
        "rules",
        "strict",
        "trump",
        "view",
        "weights",
    )

    def __init__(self, view: View, weights: Weights = DEFAULT_WEIGHTS) -> None:
        v = view
        self.view = v
        self.weights = weights
        self.me = v.seat
        n = self.n = v.seats
        rules = self.rules = v.rules
        trump = self.trump = -1 if v.trump is None else int(v.trump)
        hand = self.hand = mask_of(v.hand)
        played = self.played = mask_of(v.played)
        closed = v.closed_by is not None
        self.strict = rules.strict_phase(closed, v.talon_size)
        in_play = rules.deck & ~hand & ~played
        if closed and v.turnup is not None:
            in_play &= ~(1 << v.turnup)  # the turn-up stays under the closed talon
        #: Cards not ours and not yet played that can still fall in a trick.
        self.in_play = in_play
        self._trumps = SUIT_MASK[trump] & in_play if trump >= 0 else 0
        # Read on first use (None: not yet): see the properties below.
        self._known: list[int] | None = None
        self._unseen: int | None = None
        self._voids: list[int] | None = None
        self._hand_sizes: list[int] | None = None
        self._seats: list[tuple[int, int, int, int] | None] = [None] * n
        self.mates, self.foes = self._teams()
        # Memos (-1: not worked out yet): p_void per seat and suit, p_holds of a trump per seat.
        self._p_voids = [-1.0] * (4 * n)
        self._p_trumps = [-1.0] * n
        self._later: list[int] | None = None  # the trick's facts, once play_score needs them
        self._draws: bool | None = None

    @property
    def known(self) -> list[int]:
        """Per seat, the cards every seat knows it holds (a mask each)."""
        return self._known if self._known is not None else self._read_cards()[0]

    @property
    def unseen(self) -> int:
        """The cards of :meth:`View.unseen`, as a mask."""
        return self._unseen if self._unseen is not None else self._read_cards()[1]

    @property
    def voids(self) -> list[int]:
        """Per seat, a 4-bit mask of suits it has shown to hold no more of."""
        return self._voids if self._voids is not None else self._read_history()[0]

    @property
    def hand_sizes(self) -> list[int]:
        """The cards each seat holds now (every seat draws alike, so the play counts tell)."""
        return self._hand_sizes if self._hand_sizes is not None else self._read_history()[1]

    def _read_cards(self) -> tuple[list[int], int]:
        """:attr:`known` and :attr:`unseen`."""
        v = self.view
        known = self._known = [mask_of(k) for k in v.known]
        taken = self.hand | self.played
        for cards in known:
            taken |= cards
        if v.turnup is not None:
            taken |= 1 << v.turnup
        unseen = self._unseen = self.rules.deck & FULL_DECK & ~taken
        return known, unseen

    def _read_seat(self, seat: int) -> tuple[int, int, int, int]:
        """What :meth:`p_holds` needs of ``seat``: the cards known to be in its hand, the unseen
        cards it may hold (none of a suit it is void in), how many of its cards are not known,
        and how many it may hold."""
        known = self.known[seat]
        pool = self.unseen & ~_SUIT_CARDS[self.voids[seat]]
        free = self.hand_sizes[seat] - known.bit_count()
        info = self._seats[seat] = (known, pool, free, pool.bit_count())
        return info

    # ------------------------------------------------------------------ teams

    def _teams(self) -> tuple[frozenset[int], frozenset[int]]:
        """Seats known to be partners of this seat, and seats known to be against it.

        A seat in neither is unknown: the hidden partner of four-player 66 before the called
        ace falls (unless the voids already tell who holds it).
        """
        v = self.view
        me = self.me
        others = _OTHERS.get((self.n, me))
        if others is None:
            others = _OTHERS[self.n, me] = frozenset(s for s in range(self.n) if s != me)
        declarer = v.declarer
        sides = v.rules.sides
        if sides == Sides.SEATS or declarer is None:
            return frozenset(), others
        if sides == Sides.DECLARER or v.solo:
            if me == declarer:
                return frozenset(), others
            return others - {declarer}, frozenset({declarer})
        partner = v.partner if v.partner is not None else self._deduced_partner()
        if partner is not None:
            caller_side = frozenset({declarer, partner})
            if me in caller_side:
                return caller_side - {me}, others - caller_side
            return others - caller_side, caller_side
        if me == declarer:
            return frozenset(), frozenset()
        return frozenset(), frozenset({declarer})

    def _deduced_partner(self) -> int | None:
        """The called ace's holder when strict play has shown every other candidate void."""
        v = self.view
        if v.called_ace is None or v.declarer is None:
            return None
        suit = v.called_ace // 6
        candidates = [
            s
            for s in range(self.n)
            if s not in (v.declarer, self.me) and not self.voids[s] >> suit & 1
        ]
        # This seat is not the holder (else the view would name the partner).
        return candidates[0] if len(candidates) == 1 else None

    def _read_history(self) -> tuple[list[int], list[int]]:
        """:attr:`voids` and :attr:`hand_sizes`.

        Only strict-phase tricks tell of voids: there a follower who does not follow suit has
        none of it, and one who then does not trump has no trumps either. Hand sizes follow
        from the cards each seat has played, since every seat draws alike.
        """
        v = self.view
        r = v.rules
        n = self.n
        # Every trick takes one card from each seat: the seats already in the current trick
        # have played one card more than the others.
        in_trick = [s for s, _ in v.trick]
        mine = len(v.hand) + (self.me in in_trick)
        sizes = [mine - (s in in_trick) for s in range(n)]
        voids = [0] * n
        # The first strict trick: the first of all without an open phase, else the one after
        # which the talon is exhausted (draws happen while it lasts), or the first after a close.
        if r.strict_always or r.turnup_after_round is None:
            first = 0
        else:
            first = max(r.deck.bit_count() - r.hand_size * n, 0) // n
            if v.closed_by is not None:  # the history holds the close
                tricks = 0
                for _, action in v.history:
                    if action < NUM_CARDS:
                        tricks += 1
                    elif action == CLOSE:
                        first = min(first, tricks // n)
        # The played cards are the history's card plays, one each.
        if first * n >= len(v.played):  # no strict trick begun: nothing to read
            self._voids, self._hand_sizes = voids, sizes
            return voids, sizes
        plays = [play for play in v.history if play[1] < NUM_CARDS]
        trump = self.trump
        for start in range(first * n, len(plays), n):
            led = plays[start][1] // 6
            for seat, action in plays[start + 1 : start + n]:
                suit = action // 6
                if suit != led:
                    voids[seat] |= 1 << led
                    if trump >= 0 and suit != trump:
                        voids[seat] |= 1 << trump
        self._voids, self._hand_sizes = voids, sizes
        return voids, sizes

    # ------------------------------------------------------------------ probabilities

    def p_holds(self, seat: int, cards: int) -> float:
        """Chance that ``seat`` holds at least one of ``cards``, from what this seat knows."""
        info = self._seats[seat]
        if info is None:
            info = self._read_seat(seat)
        known, pool, free, size = info
        if cards & known:
            return 1.0
        k = (cards & pool).bit_count()
        if not k or free <= 0:
            return 0.0
        if free >= size:
            return 1.0
        return _chance_of_any(size, k, free)

    def p_void(self, seat: int, suit: int) -> float:
        i = 4 * seat + suit
        p = self._p_voids[i]
        if p < 0.0:
            if self.voids[seat] >> suit & 1:
                p = 1.0
            else:
                p = 1.0 - self.p_holds(seat, SUIT_MASK[suit] & self.in_play)
            self._p_voids[i] = p
        return p

    def _p_trump(self, seat: int) -> float:
        """``p_holds(seat, trumps still in play)``, worked out once per seat."""
        p = self._p_trumps[seat]
        if p < 0.0:
            p = self._p_trumps[seat] = self.p_holds(seat, self._trumps)
        return p

    def p_stands(self, card: int, led: int, later: Sequence[int], stake: float) -> float:
        """Chance that ``card``, now winning the trick, is not beaten by the seats to come.

        Partners of this seat are no threat; unknown seats count as opponents. In the strict
        phase duties decide (a follower must head or trump if he can); in the open phase a
        follower beats only when it pays, which ``stake`` (the trick's points) measures.
        """
        mates = self.mates
        return self._p_stands(card, led, [s for s in later if s not in mates], stake)

    def _p_stands(self, card: int, led: int, threats: Sequence[int], stake: float) -> float:
        """:meth:`p_stands` against ``threats``, the seats to come that are not partners."""
        trump = self.trump
        p = 1.0
        higher = ABOVE[card] & self.in_play
        suit = card // 6
        side_suit = suit != trump and trump >= 0
        p_holds = self.p_holds
        if self.strict:
            for seat in threats:
                if suit == led:
                    beat = p_holds(seat, higher)
                    if side_suit:
                        beat += (1.0 - beat) * self.p_void(seat, led) * self._p_trump(seat)
                else:  # a trump on a non-trump lead
                    beat = self.p_void(seat, led) * p_holds(seat, higher)
                p *= 1.0 - (1.0 if beat > 1.0 else beat)
        else:
            w = self.weights
            willing = w.willing_rich if stake >= w.rich_stake else w.willing_poor
            share = w.willing_follow if suit != trump else willing
            for seat in threats:
                beat = p_holds(seat, higher) * share
                if side_suit:
                    beat += (1.0 - beat) * self._p_trump(seat) * willing
                p *= 1.0 - (1.0 if beat > 1.0 else beat)
        return p

    # ------------------------------------------------------------------ values

    def side_points(self, seats: frozenset[int], with_trick: bool = False) -> int:
        """Valid points of ``seats``: card points, plus marriages once the side has a trick."""
        v = self.view
        card_points = v.card_points
        pts = 0
        for s in seats:
            pts += card_points[s]
        if with_trick or any(v.tricks[s] for s in seats):
            marriages = v.marriages
            for s in seats:
                for suit in marriages[s]:
                    pts += marriage_points(suit, self.trump)
        return pts

    def marriages_possible(self) -> bool:
        r = self.rules
        return r.marriages and (r.marriage_after_close or not self.strict)

    def keep_value(self, card: int) -> float:
        """What ``card`` is worth kept in hand: points it may still win, power, a marriage."""
        suit = card // 6
        rank = card % 6
        pts = POINTS[card]
        above = ABOVE[card] & self.in_play
        w = self.weights
        strict = self.strict
        if suit == self.trump:
            future = 1.0 if not above else w.trump_future + w.trump_future_rank * rank
            # While the talon is open a trump can still take an ace or a ten at will.
            power = (w.trump_power_strict if strict else w.trump_power_open) + rank
            r = self.rules
            turnup = self.view.turnup
            if r.exchange and rank == r.exchange_rank and turnup is not None and not strict:
                power += POINTS[turnup] + 2.0  # the exchange card is worth the turn-up
        elif above:
            future = w.side_future_beaten
            power = 0.0
        else:  # the top card left in its suit
            future = w.side_future_strict if strict else w.side_future_open
            power = w.side_power_top
        value = pts * future + power
        if rank in (KING, QUEEN) and self.marriages_possible():
            other = suit * 6 + (QUEEN if rank == KING else KING)
            worth = marriage_points(suit, self.trump)
            if self.hand >> other & 1:
                value += w.marriage_pair * worth
            elif not strict and self.view.talon_size > 0 and self.unseen >> other & 1:
                value += w.marriage_hope * worth
        return value

    def marriage_in_hand(self) -> int:
        """The best marriage this seat could declare on a later lead (0 if none)."""
        if not self.marriages_possible():
            return 0
        best = 0
        hand = self.hand
        for suit, kq in enumerate(KQ):
            if hand & kq == kq:
                best = max(best, marriage_points(suit, self.trump))
        return best

    def later_seats(self) -> list[int]:
        """Seats that play to the current trick after this one."""
        done = len(self.view.trick)
        return [(self.me + i) % self.n for i in range(1, self.n - done)]

    def _read_trick(self) -> list[int]:
        """The facts of the trick that every card weighed by :meth:`play_score` shares."""
        v = self.view
        trick = v.trick
        later = self._later = self.later_seats()
        mates = self.mates
        self._threats = [s for s in later if s not in mates] if mates else later
        self._later_points = self.weights.later_card * len(later)
        if trick:
            self._led = trick[0][1] // 6
            win_seat, win_card = trick[0]
            points = POINTS[win_card]
            for seat, c in trick[1:]:
                points += POINTS[c]
                if beats(c, win_card, self.trump):
                    win_seat, win_card = seat, c
            self._win_seat, self._win_card = win_seat, win_card
            self._trick_points = points
        else:
            self._led = -1  # this seat leads
            self._trick_points = 0
        self._mine_points = self.side_points(self.mates | {self.me}, with_trick=True)
        self._foe_points = self.side_points(self.foes, with_trick=True) if self.foes else 0
        # The trick's winner leads next, and only the seat on lead may declare.
        self._lead_marriage = self.marriage_in_hand() if self.n == 2 and v.talon_size > 0 else None
        return later

    def play_score(self, card: int) -> float:
        """Expected points for this seat's side of playing ``card`` now (see module doc)."""
        return self.play_scores((card,))[0]

    def play_scores(self, cards: Sequence[int]) -> list[float]:
        """:meth:`play_score` of each of ``cards``, the work they share done once."""
        later = self._later
        if later is None:
            later = self._read_trick()
        threats = self._threats
        trump = self.trump
        w = self.weights
        deal_end = w.deal_end
        goal = self.rules.winning_points
        mine_points = self._mine_points
        foe_points = self._foe_points if self.foes else None
        lead_marriage = self._lead_marriage
        trick_points = self._trick_points
        later_points = self._later_points
        led = self._led
        following = led >= 0
        if following:
            win_card = self._win_card
            win_suit = win_card // 6
            mate_wins = self._win_seat in self.mates
        # Leading a trump in the strict phase may draw the opponents' last trumps.
        drawing = self.strict and not following and trump >= 0
        p_stands = self._p_stands
        keep_value = self.keep_value
        points = POINTS
        scores = []
        for card in cards:
            stake = trick_points + points[card] + later_points
            suit = card // 6
            if not threats:
                # Nobody to come can beat the trick: it is won if it is won now.
                if not following or (card > win_card if suit == win_suit else suit == trump):
                    p = 1.0
                else:
                    p = 1.0 if mate_wins else 0.0
            elif not following:
                p = p_stands(card, suit, threats, stake)
            # Whether the card takes the lead from the trick's winning card (see beats).
            elif card > win_card if suit == win_suit else suit == trump:
                p = p_stands(card, led, threats, stake)
            elif mate_wins:
                p = p_stands(win_card, led, threats, stake)
            else:
                p = 0.0
            score = (2.0 * p - 1.0) * stake - keep_value(card)
            if mine_points + stake >= goal:
                score += p * deal_end
            if foe_points is not None and foe_points + stake >= goal:
                score -= (1.0 - p) * deal_end
            if lead_marriage is not None:
                # The trick's winner leads next, and only the seat on lead may declare.
                score += p * w.lead_for_marriage * lead_marriage
            if drawing and suit == trump and p > 0.95 and self._foes_may_trump():
                # Drawing the opponents' trumps makes the side suits' top cards safe.
                score += w.draw_trumps
            scores.append(score)
        return scores

    def _foes_may_trump(self) -> bool:
        """Whether a seat not known to be a partner may still hold a trump (worked out once)."""
        draws = self._draws
        if draws is None:
            foes = [s for s in range(self.n) if s != self.me and s not in self.mates]
            draws = self._draws = any(self._p_trump(s) > 0 for s in foes)
        return draws
