"""Bots seated for :func:`sixtysix.core.match.play_deal`: what each driver hands the loop."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sixtysix.bots.base import Bot
from sixtysix.bots.external import ExecBot, deal_over
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.match import Pick, Seats
from sixtysix.core.state import DealState


def deal_notice(bots: Sequence[object]) -> Callable[[DealState], None] | None:
    """What tells the ``exec:`` bots among ``bots`` that a deal ended (None: there are none)."""
    programs = [b for b in bots if isinstance(b, ExecBot)]
    if not programs:
        return None
    return lambda state: deal_over(programs, state)


def bot_seats(bots: Sequence[Bot], direct: bool = True) -> Seats:
    """The bots of a deal's seats as the loop asks them, the ``exec:`` bots told each result.

    With ``direct``, a random bot picks straight from the engine's legal list: its choice
    depends only on their number, so the games are the same and no view is built. A driver
    that times every ``choose`` call (the duel) asks it with its view like any bot.
    """
    picks: list[Pick | None] = [b.pick if direct and type(b) is RandomBot else None for b in bots]
    return Seats([b.choose for b in bots], picks if any(picks) else (), deal_notice(bots))
