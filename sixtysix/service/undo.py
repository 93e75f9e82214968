"""Taking a move back without a peek: what the person has not seen is dealt afresh.

Rebuilding the deal from the same cards after a take-back would show what the undone moves
revealed ahead of its time: the card the person drew, the opponent's card drawn with it, the
card an opponent answered with. So :func:`take_back` rebuilds the deal on a *new*
:class:`~sixtysix.core.deal.DealSetup`:

- the places whose card the person saw *there* keep it: the person's own dealt cards, the
  talon cards the person drew, the turn-up, a card shown from below (or the dealer's last card
  in talonless 66);
- every other place gets a fresh random card: the unseen cards, and the public cards of the
  other seats (a card an opponent played, declared or exchanged), each placed where that seat
  could have held it in time (dealt to it, or drawn by it before it was needed);
- the arrangement is accepted only if replaying the whole history, the undone part included,
  on it is legal and gives the person exactly the views they had, field by field (a void shown
  in the strict phase, the hidden partner's pooled points, the outcome...). Rejection sampling,
  with a bounded number of tries.

An opponent's public card does not keep its true place: the person saw the card, not where it
came from, and keeping the place would tell it (an opponent who leads the card he has just
drawn would otherwise show, after the take-back, which card lies on top of the talon).

Nothing in the construction reads the true card of a place the person has not seen, so the
new deal depends only on what the person has seen (and on the randomness): a take-back shows
nothing new. When no arrangement is found in the bound, the take-back is refused, unless the
undone moves showed no card at all, in which case the deal itself can stay.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sixtysix.bots.inference.draws import shuffle
from sixtysix.bots.inference.duties import revealed_absent
from sixtysix.core.actions import EXCHANGE, MARRY, TRUMP_BELOW
from sixtysix.core.cards import KQ, NUM_CARDS, iter_mask
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState
from sixtysix.core.view import View

#: Arrangements proposed before giving up; each is checked cheaply first, and replayed in
#: full only when it passes.
TRIES = 3000

#: "Dealt": the acquisition time of a place in a hand (before the first action).
DEALT = -1

# A place in the deal: ("hand", seat, index), ("turnup", 0, 0) or ("talon", 0, index).
Place = tuple[str, int, int]


@dataclass
class _Deal:
    """What the public history and the person's views say about the places of one deal."""

    state: DealState
    seat: int
    views: list[View]
    #: Place -> card, for the places whose card the person saw there.
    fixed: dict[Place, int] = field(default_factory=dict)
    #: Place -> (seat holding it, history index it was acquired at), for the other places
    #: that ever reached a hand; places still in the talon at the end are absent.
    owner: dict[Place, tuple[int, int]] = field(default_factory=dict)
    #: The places that are not fixed, in a fixed order.
    free: list[Place] = field(default_factory=list)
    #: Public cards of other seats at free places: card -> (seat, deadline index).
    public: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Cards the person never saw.
    unseen: list[int] = field(default_factory=list)
    #: Strict-phase facts: (seat, history index, cards that seat could not hold then).
    absent: list[tuple[int, int, int]] = field(default_factory=list)


def views_along(state: DealState, seat: int, setup: DealSetup) -> list[View] | None:
    """The views ``seat`` has along ``state``'s history replayed on ``setup`` (None: some
    action is illegal there)."""
    fresh = state.redealt(setup)
    views = [fresh.view(seat)]
    for _, action in state.history:
        try:
            fresh.apply(action)
        except IllegalActionError:
            return None
        views.append(fresh.view(seat))
    return views


def _agrees(state: DealState, seat: int, setup: DealSetup, views: list[View]) -> bool:
    """Whether the whole history replays on ``setup`` giving ``seat`` exactly ``views``."""
    fresh = state.redealt(setup)
    if fresh.view(seat) != views[0]:
        return False
    for i, (_, action) in enumerate(state.history):
        if action not in fresh.legal_actions():
            return False
        fresh.apply_legal(action)
        if fresh.view(seat) != views[i + 1]:
            return False
    return True


def _seen(views: list[View]) -> set[int]:
    seen: set[int] = set()
    for v in views:
        seen.update(v.hand)
        seen.update(v.played)
        for cards in v.known:
            seen.update(cards)
        if v.turnup is not None:
            seen.add(v.turnup)
    return seen


def _survey(state: DealState, seat: int, views: list[View]) -> _Deal:
    """Replay the true history once to learn who acquired which place when, and which places
    the person saw; the cards of the other places are not looked at."""
    setup = state.setup
    rules = state.rules
    deal = _Deal(state, seat, views)
    places: list[Place] = []
    for s, hand in enumerate(setup.hands):
        for i in range(len(hand)):
            place: Place = ("hand", s, i)
            places.append(place)
            if s == seat:
                deal.fixed[place] = hand[i]
            else:
                deal.owner[place] = (s, DEALT)
    if setup.trump_card is not None:
        deal.fixed[("turnup", 0, 0)] = setup.trump_card
    if rules.trump_from_dealer_last:
        d = setup.dealer
        deal.fixed[("hand", d, len(setup.hands[d]) - 1)] = setup.hands[d][-1]
    replayed = state.variant.new_deal(setup)
    drawn = 0
    #: (card, seat, index): a card another seat had to hold at that action.
    used: list[tuple[int, int, int]] = []
    for t, (s, action) in enumerate(state.history):
        if s != seat:
            if action < NUM_CARDS:
                used.append((action, s, t))
            elif MARRY <= action < MARRY + 4:
                used.extend((c, s, t) for c in iter_mask(KQ[action - MARRY]))
            elif action == EXCHANGE:
                used.append((replayed.trump * 6 + rules.exchange_rank, s, t))
        if action < NUM_CARDS and replayed.trick and replayed.strict:
            gone = revealed_absent(replayed.trick, action, replayed.trump, rules.must_overtrump)
            if gone:
                deal.absent.append((s, t, gone))
        if action == TRUMP_BELOW:
            deal.fixed[("hand", s, len(setup.hands[s]) - 1)] = setup.hands[s][-1]
        replayed.apply_legal(action)
        now = len(setup.talon) - len(replayed.talon)
        for k in range(drawn, now):
            # The seat that drew it is public (the trick's winner first, then in turn).
            holder = next(h for h in range(state.n) if replayed.hands[h] >> setup.talon[k] & 1)
            place = ("talon", 0, k)
            if holder == seat:
                deal.fixed[place] = setup.talon[k]
            else:
                deal.owner[place] = (holder, t)
        drawn = now
    for k in range(len(setup.talon)):
        places.append(("talon", 0, k))
    deal.free = [p for p in places if p not in deal.fixed]
    fixed_cards = set(deal.fixed.values())
    # When each other seat first had to hold each public card it showed.
    for c, s, t in used:
        if c not in fixed_cards and c not in deal.public:
            deal.public[c] = (s, t)
    deck = set(iter_mask(rules.deck))
    deal.unseen = sorted(deck - _seen(views) - fixed_cards)
    return deal


def _propose(deal: _Deal, stream: Stream) -> DealSetup | None:
    """One random arrangement of the free places that keeps each public card where its seat
    could hold it in time and breaks no strict-phase fact (None: this try got stuck)."""
    taken: dict[Place, int] = {}
    free = deal.free
    for card, (s, deadline) in sorted(deal.public.items(), key=lambda item: item[1][1]):
        # Held by ``deadline``, and not while a fact says that seat held no such card.
        after = max(
            (t for seat, t, gone in deal.absent if seat == s and t < deadline and gone >> card & 1),
            default=DEALT,
        )
        fits = [
            p
            for p in free
            if p not in taken
            and p in deal.owner
            and deal.owner[p][0] == s
            and after <= deal.owner[p][1] < deadline
        ]
        if not fits:
            return None
        taken[fits[stream.below(len(fits))]] = card
    rest = [p for p in free if p not in taken]
    cards = list(deal.unseen)
    if len(cards) != len(rest):  # pragma: no cover - a deal always accounts for its deck
        return None
    shuffle(cards, stream)
    for p, c in zip(rest, cards, strict=True):
        owner = deal.owner.get(p)
        if owner is not None:
            s, acquired = owner
            # An unseen card never leaves its hand: held at every later fact of that seat.
            if any(seat == s and acquired < t and gone >> c & 1 for seat, t, gone in deal.absent):
                return None
        taken[p] = c
    taken.update(deal.fixed)
    setup = deal.state.setup
    hands = tuple(
        tuple(taken[("hand", s, i)] for i in range(len(hand))) for s, hand in enumerate(setup.hands)
    )
    trump_card = None if setup.trump_card is None else taken[("turnup", 0, 0)]
    talon = tuple(taken[("talon", 0, k)] for k in range(len(setup.talon)))
    return DealSetup(setup.dealer, hands, trump_card, talon)


def last_action(state: DealState, seat: int) -> int | None:
    """The history index of ``seat``'s last action in this deal (None: it has not acted)."""
    mine = [i for i, (s, _) in enumerate(state.history) if s == seat]
    return mine[-1] if mine else None


def take_back(state: DealState, seat: int, stream: Stream, tries: int = TRIES) -> DealState | None:
    """The deal rebuilt to just before ``seat``'s last action, on a new deal that keeps what
    ``seat`` has seen and deals the rest afresh (see the module's notes); None when ``seat``
    has not acted, or when no such deal is found in ``tries`` (the take-back is refused)."""
    cut = last_action(state, seat)
    if cut is None:
        return None
    views = views_along(state, seat, state.setup)
    assert views is not None, "the deal's own history is legal"
    deal = _survey(state, seat, views)
    setup: DealSetup | None = None
    for _ in range(tries):
        candidate = _propose(deal, stream)
        if candidate is not None and _agrees(state, seat, candidate, views):
            setup = candidate
            break
    if setup is None:
        if _seen(views[: cut + 1]) != _seen(views):
            return None
        setup = state.setup  # the undone moves showed nothing: the deal may stay
    fresh = state.redealt(setup)
    for _, action in state.history[:cut]:
        fresh.apply_legal(action)
    return fresh
