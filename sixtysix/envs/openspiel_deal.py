"""What the OpenSpiel game (:mod:`sixtysix.envs.openspiel_game`) and its states
(:mod:`sixtysix.envs.openspiel_state`) share: the dealer parameter, the order chance deals the
cards in, and the returns. Imports no ``pyspiel``."""

from __future__ import annotations

from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.errors import OptionError, RecordError
from sixtysix.core.rules import Rules
from sixtysix.envs.episodes import deal_rewards

#: The game parameter (beside the variant's options) that fixes the dealer.
DEALER_PARAMETER = "dealer"
#: ``dealer=-1``: a chance node names the dealer, each seat equally likely.
RANDOM_DEALER = -1


def check_dealer(dealer: object, seats: int) -> int:
    """The ``dealer`` parameter if it is a seat or -1 (chance names the dealer), else an
    :class:`OptionError`."""
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise OptionError(f"dealer must be a seat number or -1, not {dealer!r}")
    if not RANDOM_DEALER <= dealer < seats:
        raise OptionError(f"dealer must be a seat 0..{seats - 1} or -1 (chance), not {dealer}")
    return dealer


def deal_order(rules: Rules, setup: DealSetup) -> list[int]:
    """The shuffled deck (top card first) that :func:`deal_from_order` deals into ``setup``.

    Its inverse: hands are taken round by round in the order each seat got its cards, the
    turn-up after its round, then the talon. Raises :class:`RecordError` for a setup that is
    not a deal of ``rules``.
    """
    setup.validate(rules)
    n = rules.seats
    taken = [0] * n
    order: list[int] = []
    for rnd, count in enumerate(rules.deal_rounds):
        for i in range(1, n + 1):
            seat = (setup.dealer + i) % n
            order.extend(setup.hands[seat][taken[seat] : taken[seat] + count])
            taken[seat] += count
        if rules.turnup_after_round == rnd and setup.trump_card is not None:
            order.append(setup.trump_card)
    order.extend(setup.talon)
    if deal_from_order(rules, order, setup.dealer) != setup:
        raise RecordError("this deal is not dealt round by round by these rules")
    return order


#: Each seat's return: the PettingZoo and Gymnasium adapters' rewards (one statement of them).
deal_returns = deal_rewards
