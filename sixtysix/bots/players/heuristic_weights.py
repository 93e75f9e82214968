"""The heuristic bot's :class:`Weights`: the numbers behind its card-play score and its close.

Why a module of their own: the weights are a bot parameter set that other code fits and plays
(``benchmarks/tools/tune_heuristic.py``, :mod:`sixtysix.bots.players.expert`) without the rules that
use them; :mod:`sixtysix.bots.players.heuristic` re-exports them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

from sixtysix.bots.base import parse_number
from sixtysix.core.errors import UnknownBotError

#: Points a side gains, in this bot's scale, by ending the deal as the winner (and loses when
#: the other side does): larger than any trick, so finishing a deal comes first.
DEAL_END = 40.0
#: Expected card points a seat still to play adds to a trick (mostly low discards).
LATER_CARD = 2.5


@dataclass(frozen=True)
class Weights:
    """The numbers behind the card-play score and the close, in one place.

    The defaults are the ``heuristic`` bot's (set by hand, and the yardstick every other
    player is measured against); other sets are fitted by play
    (``benchmarks/tools/tune_heuristic.py``) and can be tried as bot parameters
    (``heuristic:later_card=3``), each field by its name.
    """

    #: See :data:`DEAL_END`.
    deal_end: float = DEAL_END
    #: See :data:`LATER_CARD`.
    later_card: float = LATER_CARD
    #: Open phase: how often a follower who can beat a card with a higher one of its suit does.
    willing_follow: float = 0.9
    #: Open phase: how often a follower trumps (or heads with a trump) a trick worth at least
    #: ``rich_stake`` points, and a poorer one.
    willing_rich: float = 0.85
    willing_poor: float = 0.35
    rich_stake: float = 10.0
    #: Share of a trump's points it is expected to win later when a higher trump is out:
    #: ``trump_future + trump_future_rank * rank`` (rank 0 for the nine to 5 for the ace).
    trump_future: float = 0.55
    trump_future_rank: float = 0.07
    #: A trump's trick-taking power kept in hand, plus its rank: in the strict phase and while
    #: the talon is open (when it can take an ace or a ten at will).
    trump_power_strict: float = 5.0
    trump_power_open: float = 8.0
    #: Share of a side card's points it is expected to win later: the top card of its suit
    #: while the talon is open, in the strict phase, and a card with a higher one still out.
    side_future_open: float = 0.65
    side_future_strict: float = 0.8
    side_future_beaten: float = 0.25
    #: Power of the top card left in a side suit.
    side_power_top: float = 2.0
    #: Share of a marriage's worth a king or queen carries when its mate is in hand, and when
    #: the mate is unseen and may still be drawn.
    marriage_pair: float = 0.8
    marriage_hope: float = 0.1
    #: Two players, open talon: share of a marriage in hand that winning the trick (and so the
    #: lead, from which alone one may declare) is worth.
    lead_for_marriage: float = 0.15
    #: Strict phase: bonus for leading a sure trump while an opponent may still hold one.
    draw_trumps: float = 8.0
    #: Points short of the winning total at which the close is still called.
    close_slack: float = 0.0

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> Weights:
        """The defaults with every weight named in ``params`` replaced; a one-line error for a
        value that is not a number."""
        changes: dict[str, float] = {}
        for name in cls.fields():
            if name in params:
                try:
                    value = parse_number(params[name])
                except ValueError:
                    value = math.nan
                if not math.isfinite(value):
                    raise UnknownBotError(
                        f"heuristic weight {name} must be a number, not {params[name]!r}"
                    )
                changes[name] = value
        return cls(**changes)


#: The heuristic's own weights.
DEFAULT_WEIGHTS = Weights()
