"""Determinization: complete deals consistent with what one seat knows.

A search-based bot cannot look at the hidden cards, so it imagines them: it deals the cards it
cannot see (``View.unseen``) to the places it cannot see into (the other hands, its own cards
still face down during a trump call, the face-down talon) in every way that agrees with
everything it has seen, and searches each imagined deal with full information.

What a view tells about the hidden cards, all read from the view alone:

- hand sizes and the talon size (from the deal rounds and the public draws);
- cards known to lie in a hand (``View.known``: marriage partners, the exchanged or last-drawn
  turn-up, a card shown for trump) stay there;
- strict-phase duties: a follower who did not follow suit holds none of it; one who then did
  not trump holds no trump; one who followed without heading the trick (when it had not been
  trumped) holds no card of the suit above the highest one in it; with ``must_overtrump`` a
  follower who trumped low holds no higher trump. Hands only shrink in the strict phase, so
  each fact still holds now;
- the hidden partner of four-player 66: the caller does not hold the called ace, and he held
  a card of its suit when he called it.

:class:`Sampler` turns these facts into location constraints once per view, counts the
consistent layouts exactly (a small dynamic programme over groups of interchangeable cards)
and then draws layouts uniformly: every way the unseen cards could lie is equally likely, as
it is under a fair shuffle when no player's choice depends on what others cannot see. Each
layout becomes a real :class:`~sixtysix.core.state.DealState`: the sampler rebuilds a whole
deal as it could have been dealt (which cards each seat drew when, which card was turned up)
and replays the public history through the engine, so the sample's legal actions, scoring and
future are exactly those of the game, for any variant built on the generic engine.

The sampler never receives the true state: only a :class:`~sixtysix.core.view.View` and a
random :class:`~sixtysix.core.rng.Stream`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from math import factorial

from sixtysix.bots.inference.draws import below, partitions, shuffle
from sixtysix.bots.inference.duties import revealed_absent
from sixtysix.bots.inference.views import InconsistentViewError, variant_of
from sixtysix.core.actions import CLOSE, EXCHANGE, MARRY, PARTNER, TRUMP_BELOW
from sixtysix.core.cards import ACE, KQ, NUM_CARDS, SUIT_MASK, iter_mask, mask_of
from sixtysix.core.deal import DealSetup
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.tricks import trick_winner
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

__all__ = ["NEVER", "InconsistentViewError", "Sampler", "sample_deals", "variant_of"]

#: "Not needed before the end of the deal": the deadline of a card kept in hand.
NEVER = 1 << 30


@dataclass
class _Seat:
    """What the public history says about one seat's cards."""

    #: Card -> the first time (history index) it had to be in hand: a play, a marriage, the
    #: exchange. Cards only known to be held now are added later with deadline NEVER.
    deadline: dict[int, int] = field(default_factory=dict)
    played: int = 0
    #: Times of this seat's draws from the face-down talon, in order.
    draws: list[int] = field(default_factory=list)
    #: Marriages declared: (suit, time).
    marriages: list[tuple[int, int]] = field(default_factory=list)
    #: Cards this seat cannot hold now (strict-phase duties, the called ace).
    forbidden: int = 0
    gave: int = 0  # cards that left the hand other than by play (the exchanged trump card)


@dataclass(frozen=True)
class _Shown:
    """A card some seat got or showed at a known time whose identity the view may have lost.

    ``kind`` is ``"turnup"`` (the original turn-up, taken by exchange or by the last draw),
    ``"dealer_last"`` (talonless 66) or ``"below"`` (trump from below).
    """

    kind: str
    seat: int
    time: int


class Sampler:
    """Complete deals consistent with one seat's view, drawn uniformly.

    Build one per view (the constraints and the layout count are worked out once), then call
    :meth:`sample` as often as needed. ``count`` is the number of consistent layouts of the
    unseen cards (talon order aside); ``orders`` the number of talon orders each one has that
    can still matter.
    """

    def __init__(self, view: View, variant: Variant | None = None) -> None:
        self.view = view
        self.variant = variant if variant is not None else variant_of(view)
        self.rules = view.rules
        self.n = view.seats
        self.seat = view.seat
        self._replay_history()
        self._place_locations()
        self._group_cards()
        self._rule_out_partners()
        if self.count == 0:
            raise InconsistentViewError("no deal of this variant agrees with the view")
        facedown = self._facedown_left
        order_matters = not self._closed and facedown >= 2
        self.orders = factorial(facedown) if order_matters else 1
        if view.phase == Phase.TRUMP_CALL:
            # The order hidden cards are dealt in still matters (the card "from below").
            self.orders *= factorial(self.rules.hand_size) ** self.n

    # ------------------------------------------------------------------ the public history

    def _replay_history(self) -> None:
        """Walk the public actions: draws, plays, exchanges, marriages, duties, calls."""
        view = self.view
        rules = self.rules
        n = self.n
        deck_size = rules.deck.bit_count()
        hand_size = rules.hand_size
        has_turnup = rules.turnup_after_round is not None
        talon = deck_size - n * hand_size
        facedown = talon - (1 if has_turnup else 0)
        turnup_lying = has_turnup
        trump = -1 if view.trump is None else view.trump
        exchange_card = -1 if trump < 0 else trump * 6 + rules.exchange_rank
        seats = [_Seat() for _ in range(n)]
        # The card under the talon is the original turn-up until an exchange replaces it.
        turnup_is_original = True
        shown: list[_Shown] = []
        #: Seat that took the last-drawn turn-up when it was the exchanged card (a known card).
        self._drew_exchanged = -1
        self._exchanger = -1
        self._exchange_time = -1
        closed = False
        trick: list[tuple[int, int]] = []
        caller = -1
        called_ace = -1
        order: list[tuple[int, int]] = []  # face-down draws in talon order: (seat, k-th draw)
        if rules.trump_from_dealer_last:
            shown.append(_Shown("dealer_last", view.dealer, -1))
        for t, (s, a) in enumerate(view.history):
            if a < NUM_CARDS:
                info = seats[s]
                strict = rules.strict_phase(closed, facedown + turnup_lying)
                if trick and strict:
                    info.forbidden |= revealed_absent(trick, a, trump, rules.must_overtrump)
                info.deadline.setdefault(a, t)
                info.played |= 1 << a
                trick.append((s, a))
                if len(trick) < n:
                    continue
                w = trick_winner(trick, trump)
                trick = []
                if closed or not (facedown or turnup_lying):
                    continue
                for i in range(n):
                    seat = (w + i) % n
                    if facedown:
                        facedown -= 1
                        seats[seat].draws.append(t)
                        order.append((seat, len(seats[seat].draws) - 1))
                    elif turnup_lying:
                        turnup_lying = False
                        if turnup_is_original:
                            shown.append(_Shown("turnup", seat, t))
                        else:
                            self._drew_exchanged = seat
                    else:
                        break
            elif a < MARRY + 4:
                suit = a - MARRY
                seats[s].marriages.append((suit, t))
                for c in iter_mask(KQ[suit]):
                    seats[s].deadline.setdefault(c, t)
            elif a == EXCHANGE:
                shown.append(_Shown("turnup", s, t))
                turnup_is_original = False
                self._exchanger = s
                self._exchange_time = t
                seats[s].gave |= 1 << exchange_card
            elif a == CLOSE:
                closed = True
            elif a == TRUMP_BELOW:
                shown.append(_Shown("below", s, t))
            elif PARTNER <= a < PARTNER + 4:
                caller = s
                called_ace = (a - PARTNER) * 6 + ACE
        self._seats = seats
        self._shown = shown
        self._closed = closed
        self._facedown_left = facedown
        self._turnup_is_original = turnup_is_original
        self._exchange_card = exchange_card
        self._trump = trump
        self._draw_order = order
        # The hidden partner: the caller neither holds the called ace nor could have called
        # it without a card of its suit.
        self._must: list[tuple[int, int]] = []
        if caller >= 0:
            seats[caller].forbidden |= 1 << called_ace
            if caller != self.seat:
                suit = SUIT_MASK[called_ace // 6] & ~(1 << called_ace)
                if not (seats[caller].played | mask_of(view.known[caller])) & suit:
                    self._must.append((caller, suit))
        # Current hand sizes.
        self._hand_count = [0] * n
        for s in range(n):
            taken = sum(1 for sh in shown if sh.kind == "turnup" and sh.seat == s)
            got = len(seats[s].draws) + taken + (self._drew_exchanged == s)
            self._hand_count[s] = (
                hand_size + got - seats[s].played.bit_count() - seats[s].gave.bit_count()
            )

    # ------------------------------------------------------------------ where unseen cards go

    def _place_locations(self) -> None:
        """The places the unseen cards may go: (owner, capacity, forbidden mask).

        Owner ``s`` is a seat's hidden cards, ``-1`` the face-down talon, ``n + s`` a seat's
        cards not yet seen during a trump call.
        """
        view = self.view
        n = self.n
        me = self.seat
        self._unseen = mask_of(view.unseen())
        locations: list[tuple[int, int, int]] = []
        calling = view.phase == Phase.TRUMP_CALL
        for s in range(n):
            if s == me:
                if calling:
                    later = self.rules.hand_size - len(view.hand)
                    if later:
                        locations.append((n + s, later, 0))
                continue
            known = mask_of(view.known[s])
            cap = self._hand_count[s] - known.bit_count()
            if cap < 0:
                raise InconsistentViewError(f"seat {s} is known to hold more cards than it has")
            if cap:
                locations.append((s, cap, self._seats[s].forbidden))
        if self._facedown_left:
            locations.append((-1, self._facedown_left, 0))
        total = sum(cap for _, cap, _ in locations)
        if total != self._unseen.bit_count():
            raise InconsistentViewError(
                f"{self._unseen.bit_count()} unseen cards for {total} hidden places"
            )
        self._locations = locations

    def _rule_out_partners(self) -> None:
        """Hidden partners the unfinished deal rules out.

        With automatic claims the deal ends the moment the true sides reach 66, partner hidden
        or not, so a deal still running says something: had seat ``h`` held the called ace,
        its side would have reached 66 already. Sides (and so the end) depend only on who holds
        the ace, so one rebuilt deal per candidate holder settles it.
        """
        view = self.view
        ace = view.called_ace
        if ace is None or ace in view.played or ace in view.hand or self.rules.manual_claim:
            return
        bit = 1 << ace
        holders = [i for i, (owner, _, forb) in enumerate(self._locations) if not forb & bit]
        if len(holders) < 2:
            return
        original = self._locations
        probe = Seed(0).stream(("partner-probe",))
        ruled_out = 0
        for i in holders:
            self._locations = [
                (owner, cap, forb | (0 if j == i else bit))
                for j, (owner, cap, forb) in enumerate(original)
            ]
            self._group_cards()
            if not self.count:
                continue
            state = self._build(self._draw_layout(probe), [], probe)
            if state.phase != view.phase or state.to_act != view.to_act:
                ruled_out |= 1 << i
        self._locations = [
            (owner, cap, forb | (bit if ruled_out >> j & 1 else 0))
            for j, (owner, cap, forb) in enumerate(original)
        ]
        self._group_cards()

    def _group_cards(self) -> None:
        """Cards that may go to the same places (and count alike for every 'must') are
        interchangeable for counting: group them."""
        locations = self._locations
        groups: dict[tuple[int, int], list[int]] = {}
        for c in iter_mask(self._unseen):
            allowed = 0
            for i, (_, _, forbidden) in enumerate(locations):
                if not forbidden >> c & 1:
                    allowed |= 1 << i
            musts = 0
            for j, (_, mask) in enumerate(self._must):
                if mask >> c & 1:
                    musts |= 1 << j
            groups.setdefault((allowed, musts), []).append(c)
        self._groups = [
            (cards, tuple(i for i in range(len(locations)) if allowed >> i & 1), musts)
            for (allowed, musts), cards in sorted(groups.items())
        ]
        owners = [owner for owner, _, _ in locations]
        self._must_loc = [owners.index(seat) if seat in owners else -1 for seat, _ in self._must]
        self._memo: dict[tuple[int, tuple[int, ...], int], int] = {}
        self.count = self._count(0, tuple(cap for _, cap, _ in locations), 0)

    def _splits(
        self, count: int, allowed: tuple[int, ...], caps: tuple[int, ...]
    ) -> Iterator[tuple[int, ...]]:
        """Every way to send ``count`` cards to the ``allowed`` places within capacity."""
        if not allowed:
            if count == 0:
                yield ()
            return
        first, rest = allowed[0], allowed[1:]
        if not rest:
            if count <= caps[first]:
                yield (count,)
            return
        for k in range(min(count, caps[first]), -1, -1):
            for tail in self._splits(count - k, rest, caps):
                yield (k, *tail)

    def _count(self, g: int, caps: tuple[int, ...], flags: int) -> int:
        """Layouts of groups ``g..`` filling ``caps`` exactly, with every 'must' met."""
        if g == len(self._groups):
            return 1 if not any(caps) and flags == (1 << len(self._must)) - 1 else 0
        key = (g, caps, flags)
        memo = self._memo
        if key in memo:
            return memo[key]
        total = 0
        for _, ways, rest, new_flags in self._options(g, caps, flags):
            total += ways * self._count(g + 1, rest, new_flags)
        memo[key] = total
        return total

    def _options(
        self, g: int, caps: tuple[int, ...], flags: int
    ) -> Iterator[tuple[tuple[int, ...], int, tuple[int, ...], int]]:
        cards, allowed, musts = self._groups[g]
        size = len(cards)
        for split in self._splits(size, allowed, caps):
            ways = factorial(size)
            rest = list(caps)
            new_flags = flags
            for loc, k in zip(allowed, split, strict=True):
                ways //= factorial(k)
                rest[loc] -= k
                if k:
                    for j, m_loc in enumerate(self._must_loc):
                        if m_loc == loc and musts >> j & 1:
                            new_flags |= 1 << j
            yield split, ways, tuple(rest), new_flags

    # ------------------------------------------------------------------ drawing layouts

    def sample(self, stream: Stream, check: bool = False) -> DealState:
        """One deal drawn uniformly among those consistent with the view.

        With ``check`` every public action is replayed with the engine's legality check (for
        tests; search uses the fast path).
        """
        placed = self._draw_layout(stream)
        talon = placed.pop(-1, [])
        shuffle(talon, stream)
        return self._build(placed, talon, stream, check)

    def layouts(self) -> Iterator[DealState]:
        """Every consistent deal, each once (talon orders too, when they still matter).

        Meant for small information sets (see ``count`` and ``orders``): an expert then
        averages over all of them instead of a sample. Not offered during a trump call, when
        the information set is anything but small.
        """
        if self.view.phase == Phase.TRUMP_CALL:
            raise ValueError("too many deals to list during a trump call")
        for placed in self._all_layouts(0, tuple(cap for _, cap, _ in self._locations), 0):
            talon = sorted(placed.pop(-1, []))
            orders: Iterator[Sequence[int]] = (
                permutations(talon) if self.orders > 1 else iter([talon])
            )
            for order in orders:
                yield self._build({k: list(v) for k, v in placed.items()}, list(order), None)

    def _draw_layout(self, stream: Stream) -> dict[int, list[int]]:
        caps = tuple(cap for _, cap, _ in self._locations)
        flags = 0
        placed: dict[int, list[int]] = {owner: [] for owner, _, _ in self._locations}
        for g in range(len(self._groups)):
            options = list(self._options(g, caps, flags))
            weights = [ways * self._count(g + 1, rest, fl) for _, ways, rest, fl in options]
            pick = below(stream, sum(weights))
            chosen = len(options) - 1
            for i, w in enumerate(weights):
                if pick < w:
                    chosen = i
                    break
                pick -= w
            split, _, rest, fl = options[chosen]
            cards = list(self._groups[g][0])
            shuffle(cards, stream)
            allowed = self._groups[g][1]
            pos = 0
            for loc, k in zip(allowed, split, strict=True):
                placed[self._locations[loc][0]].extend(cards[pos : pos + k])
                pos += k
            caps, flags = rest, fl
        return placed

    def _all_layouts(
        self, g: int, caps: tuple[int, ...], flags: int
    ) -> Iterator[dict[int, list[int]]]:
        if g == len(self._groups):
            if not any(caps) and flags == (1 << len(self._must)) - 1:
                yield {owner: [] for owner, _, _ in self._locations}
            return
        cards, allowed, _ = self._groups[g]
        for split, _, rest, fl in self._options(g, caps, flags):
            if not self._count(g + 1, rest, fl):
                continue
            for chosen in partitions(cards, split):
                for tail in self._all_layouts(g + 1, rest, fl):
                    for loc, part in zip(allowed, chosen, strict=True):
                        tail[self._locations[loc][0]].extend(part)
                    yield tail

    # ------------------------------------------------------------------ rebuilding the deal

    def _current_hands(self, placed: dict[int, list[int]]) -> list[int]:
        view = self.view
        hands = []
        for s in range(self.n):
            if s == self.seat:
                hands.append(mask_of(view.hand) | mask_of(placed.get(self.n + s, ())))
            else:
                hands.append(mask_of(view.known[s]) | mask_of(placed.get(s, ())))
        return hands

    def _build(
        self,
        placed: dict[int, list[int]],
        talon_rest: list[int],
        stream: Stream | None,
        check: bool = False,
    ) -> DealState:
        view = self.view
        n = self.n
        hands_now = self._current_hands(placed)
        if view.phase == Phase.TRUMP_CALL:
            setup_hands = []
            for s in range(n):
                if s == self.seat:
                    first = sorted(int(c) for c in view.hand)
                    later = list(placed.get(n + s, []))
                else:
                    first, later = [], list(iter_mask(hands_now[s]))
                if stream is not None:
                    shuffle(later, stream)
                setup_hands.append(tuple(first + later))
            setup = DealSetup(view.dealer, tuple(setup_hands), None, tuple(talon_rest))
        else:
            setup = self._rebuild_setup(hands_now, talon_rest)
        state = self.variant.new_deal(setup)
        state.match = view.match
        for _, a in view.history:
            if check:
                state.apply(a)
            else:
                state.apply_legal(a)
        return state

    def _resolve_shown(self, shown: _Shown, hands_now: list[int]) -> int:
        """Which card a shown or taken card was, where the view no longer says.

        A card known to be in the seat's hand for no other reason (not a declared marriage
        card, not the exchanged card drawn last) is it. Otherwise any trump the seat played or
        holds after that moment will do; the one needed first is taken, which keeps every
        other card's timing feasible.
        """
        view = self.view
        y = shown.seat
        info = self._seats[y]
        trumps = SUIT_MASK[self._trump]
        explained = 0
        married_before = 0
        for suit, t in info.marriages:
            explained |= KQ[suit]
            if t < shown.time:
                married_before |= KQ[suit]
        if y == self._drew_exchanged:
            explained |= 1 << self._exchange_card
        known = mask_of(view.known[y]) & hands_now[y]
        unexplained = known & trumps & ~explained
        if shown.kind == "turnup" and y == self._drew_exchanged:
            unexplained &= ~(1 << self._exchange_card)
        if unexplained:
            if unexplained.bit_count() > 1:
                raise InconsistentViewError(f"seat {y} holds too many known trumps")
            return unexplained.bit_length() - 1
        candidates = []
        for c in iter_mask((info.played | (known & explained)) & trumps & ~married_before):
            if c == self._exchange_card and shown.kind == "turnup" and self._exchanger >= 0:
                continue  # the exchanged card replaced the turn-up; it was not the turn-up
            need = info.deadline.get(c, NEVER)
            if need > shown.time:
                candidates.append((need, c))
        if not candidates:
            raise InconsistentViewError(f"no card of seat {y} can be the card it was shown")
        return min(candidates)[1]

    def _rebuild_setup(self, hands_now: list[int], talon_rest: list[int]) -> DealSetup:
        """A deal as it could have been dealt, leading through the public history to now."""
        view = self.view
        n = self.n
        rules = self.rules
        hand_size = rules.hand_size
        seats = self._seats
        special = [0] * n  # cards each seat got at a shown moment, not by deal or draw
        original_turnup: int | None = None
        last_cards: dict[int, int] = {}  # seat -> card that must be dealt last
        for sh in self._shown:
            card = self._resolve_shown(sh, hands_now)
            if sh.kind == "turnup":
                original_turnup = card
                special[sh.seat] |= 1 << card
            else:
                last_cards[sh.seat] = card
        if rules.turnup_after_round is not None and original_turnup is None:
            if view.turnup is None:  # pragma: no cover - every talon deal shows its turn-up
                raise InconsistentViewError("the turn-up is unknown")
            original_turnup = int(view.turnup)
        if self._drew_exchanged >= 0:
            special[self._drew_exchanged] |= 1 << self._exchange_card
        draw_cards: list[list[int]] = []
        setup_hands = []
        for s in range(n):
            info = seats[s]
            held = (info.played | hands_now[s]) & ~special[s]
            needs = [(info.deadline.get(c, NEVER), c) for c in iter_mask(held)]
            if s == self._exchanger:
                needs.append((self._exchange_time, self._exchange_card))
            needs.sort()
            if len(needs) != hand_size + len(info.draws):
                raise InconsistentViewError(f"seat {s} cannot have held the cards it played")
            dealt = [c for _, c in needs[:hand_size]]
            drawn = needs[hand_size:]
            for (need, _), t in zip(drawn, info.draws, strict=True):
                if need <= t:
                    raise InconsistentViewError(f"seat {s} played a card before it could draw it")
            draw_cards.append([c for _, c in drawn])
            last = last_cards.get(s)
            if last is not None:
                dealt.remove(last)
                dealt.append(last)
            setup_hands.append(tuple(dealt))
        talon = [draw_cards[seat][k] for seat, k in self._draw_order]
        return DealSetup(
            view.dealer, tuple(setup_hands), original_turnup, tuple(talon + talon_rest)
        )


def sample_deals(view: View, stream: Stream, count: int) -> list[DealState]:
    """``count`` deals drawn uniformly among those consistent with ``view``."""
    sampler = Sampler(view)
    return [sampler.sample(stream) for _ in range(count)]
