"""The true state of one deal, and the only code that changes it.

The engine is generic: seats, a deck mask, an optional talon with a turn-up, a turned-up or
called trump, an open and a strict phase, marriages, exchange, closing, claims, concession and
sides come from :class:`~sixtysix.core.rules.Rules`. Scoring is the variant's
(:meth:`Variant.settle`). Exactly one seat acts at a time (``to_act``).

Player code never receives a :class:`DealState`: it gets :meth:`DealState.view`, an immutable
copy of what one seat may know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sixtysix.core import view as view_module
from sixtysix.core.actions import (
    ACTION_NAMES,
    CLAIM,
    CLOSE,
    CONCEDE,
    EXCHANGE,
    MARRY,
    NUM_ACTIONS,
    PARTNER,
    SOLO,
    TRUMP,
    TRUMP_BELOW,
)
from sixtysix.core.cards import (
    ABOVE,
    ACE,
    CARD_NAMES,
    KING,
    KQ,
    NUM_CARDS,
    POINTS,
    QUEEN,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_NAMES_SINGULAR,
    card_ids,
    format_cards,
    iter_mask,
    marriage_points,
)
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.match_view import MatchView
from sixtysix.core.outcome import DealEnd, EndKind, Outcome
from sixtysix.core.phase import Phase as Phase
from sixtysix.core.rules import Rules, Sides
from sixtysix.core.tricks import trick_facts, trick_winner
from sixtysix.core.view import View

if TYPE_CHECKING:
    from sixtysix.core.variant import Variant


# What a strict-phase follower must do; the explanation of an illegal card names it.
ANY, FOLLOW, FOLLOW_HIGHER, TRUMP_ANY, TRUMP_HIGHER = range(5)


class DealState:
    """One deal in progress. Mutable; :meth:`copy` is cheap for search."""

    __slots__ = (
        "_legal",
        "bonus",
        "called_ace",
        "card_points",
        "close_card_points",
        "close_points",
        "close_tricks",
        "closed_by",
        "dealer",
        "declarer",
        "end",
        "forehand",
        "from_below",
        "hands",
        "history",
        "known",
        "last_winner",
        "lead_marry",
        "leader",
        "marriage_points",
        "marriages",
        "match",
        "n",
        "outcome",
        "partner",
        "phase",
        "played",
        "revealed",
        "rules",
        "setup",
        "sides",
        "solo",
        "talon",
        "to_act",
        "trick",
        "tricks",
        "trump",
        "turnup",
        "variant",
        "won",
    )

    def __init__(self, variant: Variant, setup: DealSetup) -> None:
        rules = variant.rules
        n = rules.seats
        self.variant = variant
        self.rules: Rules = rules
        self.setup = setup
        #: The match's public state when a match dealt this deal (every view carries it).
        self.match: MatchView | None = None
        self.n = n
        self.dealer = setup.dealer
        self.forehand = (setup.dealer + 1) % n
        self.hands: list[int] = setup.hand_masks()
        #: Cards every seat knows to be in a seat's hand (marriage cards, the exchanged turn-up,
        #: the turn-up drawn last, a card shown for trump).
        self.known: list[int] = [0] * n
        self.talon: list[int] = list(setup.talon)
        self.turnup: int = -1 if setup.trump_card is None else setup.trump_card
        self.trump: int = -1
        self.closed_by = -1
        self.close_points: tuple[int, ...] = ()
        self.close_card_points: tuple[int, ...] = ()
        self.close_tricks: tuple[int, ...] = ()
        self.trick: list[tuple[int, int]] = []
        self.lead_marry = -1
        self.won: list[int] = [0] * n
        self.card_points: list[int] = [0] * n
        self.tricks: list[int] = [0] * n
        self.marriages: list[list[int]] = [[] for _ in range(n)]  # declared suits
        self.marriage_points: list[int] = [0] * n
        self.bonus: list[int] = [0] * n
        self.sides: list[int] = list(range(n))
        self.declarer = -1
        self.called_ace = -1
        self.partner = -1
        self.solo = False
        self.revealed = False
        self.from_below = -1
        self.history: list[tuple[int, int]] = []
        self.last_winner = -1
        self.played = 0
        self.end: DealEnd | None = None
        self.outcome: Outcome | None = None
        self._legal: list[int] | None = None
        if rules.trump_call:
            self.phase = Phase.TRUMP_CALL
            self.to_act = self.forehand
            self.leader = self.forehand
        else:
            if setup.trump_card is not None:
                self.trump = setup.trump_card // 6
            elif rules.trump_from_dealer_last:
                shown = setup.hands[self.dealer][-1]
                self.trump = shown // 6
                self.known[self.dealer] |= 1 << shown
            else:  # pragma: no cover - guarded by Variant.check_rules
                raise ValueError("a variant must turn up, call or show its trump")
            self.phase = Phase.PLAY
            self.to_act = self.forehand
            self.leader = self.forehand

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def talon_size(self) -> int:
        """Face-down cards plus the turn-up still lying under them."""
        return len(self.talon) + (self.turnup >= 0)

    @property
    def strict(self) -> bool:
        """True in the strict phase: closed or exhausted talon, or no open phase at all."""
        return self.rules.strict_phase(self.closed_by >= 0, len(self.talon) + (self.turnup >= 0))

    def side_has_trick(self, side: int) -> bool:
        sides = self.sides
        return any(self.tricks[s] for s in range(self.n) if sides[s] == side)

    def valid_points(self, seat: int) -> int:
        """Card points won, the last-trick bonus, and marriages once the side has a trick."""
        pts = self.card_points[seat] + self.bonus[seat]
        if self.marriage_points[seat] and self.side_has_trick(self.sides[seat]):
            pts += self.marriage_points[seat]
        return pts

    def side_points(self, side: int) -> int:
        return sum(self.valid_points(s) for s in range(self.n) if self.sides[s] == side)

    def side_tricks(self, side: int) -> int:
        return sum(self.tricks[s] for s in range(self.n) if self.sides[s] == side)

    def seats_of_side(self, side: int) -> list[int]:
        return [s for s in range(self.n) if self.sides[s] == side]

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, ascending (card plays first). Cached."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def view(self, seat: int) -> View:
        # make_view looked up at each call, so that it can be replaced (as tests do).
        return view_module.make_view(self, seat)

    # ------------------------------------------------------------------ legal actions

    def _duty(self, hand: int) -> tuple[int, int]:
        """The cards a strict-phase follower may play, and which duty restricts them."""
        trump = self.trump
        led_suit, trumped, high_led, high_trump = trick_facts(self.trick, trump)
        suit_cards = hand & SUIT_MASK[led_suit]
        if suit_cards:
            if trumped:
                return suit_cards, FOLLOW
            higher = suit_cards & ABOVE[high_led]
            if higher:
                return higher, FOLLOW_HIGHER
            return suit_cards, FOLLOW
        if trump >= 0:
            trumps = hand & SUIT_MASK[trump]
            if trumps:
                if self.rules.must_overtrump and high_trump >= 0:
                    over = trumps & ABOVE[high_trump]
                    if over:
                        return over, TRUMP_HIGHER
                return trumps, TRUMP_ANY
        return hand, ANY

    def _may_concede(self, seat: int) -> bool:
        r = self.rules
        if not r.concession or seat != self.declarer or self.lead_marry >= 0:
            return False
        return self.played == 0 or self.valid_points(seat) >= r.concede_points

    def _exchange_card(self) -> int:
        return self.trump * 6 + self.rules.exchange_rank

    def _may_exchange(self, seat: int) -> bool:
        r = self.rules
        return (
            r.exchange
            and self.turnup >= 0
            and self.closed_by < 0
            and self.talon_size >= r.exchange_min_talon
            and bool(self.hands[seat] >> self._exchange_card() & 1)
            and (not r.exchange_needs_trick or self.tricks[seat] > 0)
        )

    def _may_close(self, seat: int) -> bool:
        r = self.rules
        return (
            r.closing
            and self.closed_by < 0
            and self.talon_size > 0
            and (not r.close_needs_trick or self.tricks[seat] > 0)
        )

    def _may_marry(self) -> bool:
        r = self.rules
        return r.marriages and (r.marriage_after_close or not self.strict)

    def _generate(self) -> list[int]:
        phase = self.phase
        if phase != Phase.PLAY:
            return self._generate_call()
        s = self.to_act
        hand = self.hands[s]
        r = self.rules
        if self.trick:
            out = card_ids(self._duty(hand)[0] if self.strict else hand)
            if r.exchange_anytime and self._may_exchange(s):
                out.append(EXCHANGE)
            if r.concession and self._may_concede(s):
                out.append(CONCEDE)
            return out
        if self.lead_marry >= 0:
            out = card_ids(hand & KQ[self.lead_marry])
            if r.manual_claim:
                out.append(CLAIM)
            return out
        out = card_ids(hand)
        if self._may_marry():
            for suit in range(4):
                kq = KQ[suit]
                if hand & kq == kq:
                    out.append(MARRY + suit)
        if self.turnup >= 0:
            if self._may_exchange(s):
                out.append(EXCHANGE)
            if self._may_close(s):
                out.append(CLOSE)
        if r.manual_claim:
            out.append(CLAIM)
        if r.concession and self._may_concede(s):
            out.append(CONCEDE)
        return out

    def _generate_call(self) -> list[int]:
        if self.phase == Phase.TRUMP_CALL:
            out = [TRUMP + s for s in range(4)]
            if self.rules.trump_below:
                out.append(TRUMP_BELOW)
            return out
        if self.phase == Phase.PARTNER_CALL:
            hand = self.hands[self.to_act]
            out = [
                PARTNER + s
                for s in range(4)
                if hand & SUIT_MASK[s] and not hand >> (s * 6 + ACE) & 1
            ]
            out.append(SOLO)
            return out
        return []

    # ------------------------------------------------------------------ applying

    def apply(self, action: int) -> None:
        """Apply the action of the seat to act, or raise :class:`IllegalActionError` saying why.

        The action is checked and kept as its plain ``int`` value: a subclass's ``__eq__`` or
        comparisons take no part, and the engine never holds an object a player made.
        """
        if not isinstance(action, int) or not 0 <= int.__int__(action) < NUM_ACTIONS:
            raise IllegalActionError(self.to_act, repr(action), "not an action")
        action = int.__int__(action)
        if action not in self.legal_actions():
            raise IllegalActionError(self.to_act, ACTION_NAMES[action], self.explain(action))
        self.apply_legal(action)

    def apply_legal(self, a: int) -> None:
        """Apply an action already known to be legal (search and simulation fast path)."""
        s = self.to_act
        self._legal = None
        self.history.append((s, a))
        if a < NUM_CARDS:
            self._play(s, a)
        elif a < MARRY + 4:
            self._marry(s, a - MARRY)
        elif a == EXCHANGE:
            card = self._exchange_card()
            old = self.turnup
            self.hands[s] ^= (1 << card) | (1 << old)
            self.known[s] |= 1 << old
            self.turnup = card
        elif a == CLOSE:
            self.closed_by = s
            self.close_points = tuple(self.valid_points(t) for t in range(self.n))
            self.close_tricks = tuple(self.tricks)
            self.close_card_points = tuple(self.card_points)
        elif a == CLAIM:
            if self.side_points(self.sides[s]) >= self.rules.winning_points:
                self._finish(EndKind.REACHED, s, claimed=True)
            else:
                self._finish(EndKind.FALSE_CLAIM, s)
        elif a == CONCEDE:
            self._finish(EndKind.CONCEDED, s)
        elif a < TRUMP_BELOW + 1:
            self._call_trump(s, a)
        elif a < PARTNER + 4:
            ace = (a - PARTNER) * 6 + ACE
            holder = next(t for t in range(self.n) if self.hands[t] >> ace & 1)
            self.called_ace = ace
            self.partner = holder
            self._start_play(s, partner=holder)
        else:  # SOLO
            self.solo = True
            self._start_play(s, partner=-1)

    def _call_trump(self, s: int, a: int) -> None:
        if a == TRUMP_BELOW:
            shown = self.setup.hands[s][-1]
            self.from_below = shown
            self.known[s] |= 1 << shown
            self.trump = shown // 6
        else:
            self.trump = a - TRUMP
        if self.rules.partner_call:
            self.phase = Phase.PARTNER_CALL
        else:
            self._start_play(s, partner=-1)

    def _start_play(self, declarer: int, partner: int) -> None:
        self.declarer = declarer
        if self.rules.sides != Sides.SEATS:
            self.sides = [0 if t in (declarer, partner) else 1 for t in range(self.n)]
        self.phase = Phase.PLAY
        self.leader = self.to_act = declarer

    def _marry(self, s: int, suit: int) -> None:
        self.lead_marry = suit
        self.marriages[s].append(suit)
        self.marriage_points[s] += marriage_points(suit, self.trump)
        self.known[s] |= KQ[suit]
        if not self.rules.manual_claim:
            side = self.sides[s]
            if self.side_has_trick(side) and self.side_points(side) >= self.rules.winning_points:
                self._finish(EndKind.REACHED, s)

    def _play(self, s: int, c: int) -> None:
        bit = 1 << c
        self.hands[s] ^= bit
        self.known[s] &= ~bit
        if c == self.called_ace:
            self.revealed = True
        self.played += 1
        self.lead_marry = -1
        trick = self.trick
        trick.append((s, c))
        n = self.n
        if len(trick) < n:
            self.to_act = (s + 1) % n
            return
        # The trick is complete: the highest trump wins, else the highest card of the led suit.
        w = trick_winner(trick, self.trump)
        points = 0
        mask = 0
        for _, card in trick:
            points += POINTS[card]
            mask |= 1 << card
        self.trick = []
        self.won[w] |= mask
        self.card_points[w] += points
        self.tricks[w] += 1
        self.last_winner = w
        self.leader = self.to_act = w
        if self.closed_by < 0 and (self.talon or self.turnup >= 0):
            self._draw(w)
        hands = self.hands
        last = not any(hands)
        r = self.rules
        if last and r.last_trick_bonus and self.closed_by < 0:
            self.bonus[w] += r.last_trick_bonus
        if not r.manual_claim and self.side_points(self.sides[w]) >= r.winning_points:
            self._finish(EndKind.REACHED, w)
        elif last:
            self._finish(EndKind.CARDS_OUT, w)

    def _draw(self, winner: int) -> None:
        """Each seat from the trick's winner on draws one card; the turn-up goes last."""
        n = self.n
        for i in range(n):
            seat = (winner + i) % n
            if self.talon:
                card = self.talon.pop(0)
            elif self.turnup >= 0:
                card = self.turnup
                self.turnup = -1
                self.known[seat] |= 1 << card
            else:
                return
            self.hands[seat] |= 1 << card

    def _finish(self, kind: EndKind, seat: int, claimed: bool = False) -> None:
        self.end = DealEnd(kind, seat, self.sides[seat], claimed)
        self.phase = Phase.OVER
        self.to_act = -1
        self._legal = []
        self.outcome = self.variant.settle(self, self.end)

    # ------------------------------------------------------------------ explanations

    def explain(self, a: int) -> str:
        """Why action ``a`` is illegal now (empty string if it is legal)."""
        if a in self.legal_actions():
            return ""
        if self.phase == Phase.OVER:
            return "the deal is over"
        s = self.to_act
        r = self.rules
        if self.phase == Phase.TRUMP_CALL:
            if a == TRUMP_BELOW:
                return "trump from below is not offered (option trump_from_below)"
            below = ", or trump below" if self.rules.trump_below else ""
            return f"trump must be named first (trump C, D, H or S{below})"
        if self.phase == Phase.PARTNER_CALL:
            if PARTNER <= a < PARTNER + 4:
                suit = a - PARTNER
                ace = suit * 6 + ACE
                if self.hands[s] >> ace & 1:
                    return f"holds {CARD_NAMES[ace]} himself"
                return f"holds no {SUIT_NAMES_SINGULAR[suit]}, so cannot call its ace"
            return "must call a partner by an ace, or play solo"
        if TRUMP <= a <= SOLO:
            return "trump and partner are already settled"
        leading = not self.trick
        if a < NUM_CARDS:
            hand = self.hands[s]
            if not hand >> a & 1:
                return f"does not hold {CARD_NAMES[a]}"
            if leading and self.lead_marry >= 0:
                suit = self.lead_marry
                k, q = suit * 6 + KING, suit * 6 + QUEEN
                return (
                    f"must lead {CARD_NAMES[k]} or {CARD_NAMES[q]} after declaring"
                    f" the {SUIT_NAMES[suit]} marriage"
                )
            mask, duty = self._duty(hand)
            cards = format_cards(iter_mask(mask))
            led_suit = self.trick[0][1] // 6
            if duty == FOLLOW_HIGHER:
                return f"must follow suit with a higher {SUIT_NAMES_SINGULAR[led_suit]} ({cards})"
            if duty == FOLLOW:
                return f"must follow suit ({cards})"
            if duty == TRUMP_HIGHER:
                return f"must overtrump ({cards})"
            return f"must trump ({cards})"
        if a == CONCEDE:
            if not r.concession:
                return "conceding is not part of this variant"
            if s != self.declarer:
                return "only the declarer may concede"
            if self.lead_marry >= 0:
                return "cannot concede right after declaring a marriage"
            return (
                "a card has been played and the declarer has fewer than"
                f" {r.concede_points} valid points"
            )
        if not leading and not (a == EXCHANGE and r.exchange_anytime):
            return "only the seat on lead may do that, before leading"
        if self.lead_marry >= 0:
            return "after a marriage only its king or queen may be led"
        if a == CLAIM:
            return "claims are made automatically (option claim=manual to claim by hand)"
        if MARRY <= a < MARRY + 4:
            suit = a - MARRY
            if not r.marriages:
                return "marriages are off (option marriages)"
            if self.strict and not r.marriage_after_close:
                return "no marriages in the strict phase (option marriage_after_close)"
            kq = KQ[suit]
            return f"does not hold {format_cards(iter_mask(kq))}"
        if a == EXCHANGE:
            if not r.exchange:
                return "no trump exchange in this game"
            if self.turnup < 0 or self.closed_by >= 0:
                return "the talon is closed or exhausted"
            if self.talon_size < r.exchange_min_talon:
                return f"the talon holds fewer than {r.exchange_min_talon} cards"
            if r.exchange_needs_trick and not self.tricks[s]:
                return "must have won a trick first"
            return f"does not hold {CARD_NAMES[self._exchange_card()]}"
        if a == CLOSE:
            if not r.closing:
                return "no closing in this game"
            if self.turnup < 0 or self.closed_by >= 0:
                return "the talon is closed or exhausted"
            return "must have won a trick first (option close_needs_trick)"
        return "not legal now"

    # ------------------------------------------------------------------ copying

    def redealt(self, setup: DealSetup | None = None) -> DealState:
        """This deal from its start again (or dealt as ``setup`` instead), in the same match:
        a replay or a redeal whose views must be the ones this deal's seats had."""
        fresh = self.variant.new_deal(self.setup if setup is None else setup)
        fresh.match = self.match
        return fresh

    def copy(self) -> DealState:
        """An independent copy (for search); shares only immutable parts."""
        # type(self): a variant's DealState subclass (with ``__slots__ = ()``) stays itself.
        other = type(self).__new__(type(self))
        for name in DealState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.known = self.known[:]
        other.talon = self.talon[:]
        other.trick = self.trick[:]
        other.won = self.won[:]
        other.card_points = self.card_points[:]
        other.tricks = self.tricks[:]
        other.marriages = [m[:] for m in self.marriages]
        other.marriage_points = self.marriage_points[:]
        other.bonus = self.bonus[:]
        other.sides = self.sides[:]
        other.history = self.history[:]
        other._legal = None if self._legal is None else self._legal[:]
        return other
