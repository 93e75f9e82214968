"""One game of a simulation: one deal between bots, and how its randomness is drawn.

Each game ``i`` draws all its randomness from ``seed.child(("game", i))``: the deal, the
dealer and the bots' choices. So a game's result depends only on the master seed and its
index, never on which worker played it or in what order. Each bot is given a child of that
seed of its own (:func:`seat_bots`), never the seed the cards are shuffled from.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sixtysix.bots.base import Bot
from sixtysix.bots.seating import bot_seats
from sixtysix.core.deal import DealSetup
from sixtysix.core.match import play_deal
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.turn import Fault
from sixtysix.core.variant import Variant

BotSpec = tuple[type[Bot], dict[str, str]]


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    dealer: int
    outcome: Outcome
    #: The game's fault, if a player faulted (it then ended by forfeit): ``(seat, kind)``.
    faults: tuple[Fault, ...] = ()


def play_game(variant: Variant, bots: Sequence[BotSpec], master: Seed, index: int) -> GameResult:
    """Game ``index`` of a simulation: one deal, dealer ``index % seats``."""
    seed = master.child(("game", index))
    dealer = index % variant.seats
    faults: list[Fault] = []
    state = play_one(variant, bots, seed, dealer, faults=faults)
    assert state.outcome is not None
    return GameResult(index, dealer, state.outcome, tuple(faults))


def play_one(
    variant: Variant,
    bots: Sequence[BotSpec],
    seed: Seed,
    dealer: int,
    bot_seed: Seed | None = None,
    faults: list[Fault] | None = None,
) -> DealState:
    """One deal dealt from ``seed`` and played to its end; ``state.history`` holds the actions.

    The bots are seeded from ``bot_seed`` (by default ``seed`` itself, as a simulation's games
    do: each bot gets a child of it, see :func:`seat_bots`; a tournament deals from one seed
    and seeds each seating's bots separately).
    """
    setup = variant.deal(seed, ("deal",), dealer)
    return play_setup(variant, bots, setup, bot_seed or seed, faults)


def seat_bots(bots: Sequence[BotSpec], seed: Seed) -> list[Bot]:
    """The bot of each seat, seat ``s`` seeded with ``seed.child(("bot", s))``: a branch of
    its own, from which neither ``seed``'s other draws (the shuffle) nor another seat's can be
    recomputed."""
    return [cls(s, seed.child(("bot", s)), params) for s, (cls, params) in enumerate(bots)]


def play_setup(
    variant: Variant,
    bots: Sequence[BotSpec],
    setup: DealSetup,
    bot_seed: Seed,
    faults: list[Fault] | None = None,
) -> DealState:
    """The deal ``setup`` played to its end by ``bots`` seeded from ``bot_seed``.

    A player's fault forfeits the deal (:class:`~sixtysix.core.turn.Turn`) and is appended to
    ``faults`` when given.
    """
    state = variant.new_deal(setup)
    play_deal(state, bot_seats(seat_bots(bots, bot_seed)), faults if faults is not None else [])
    return state


def iter_games(
    variant: Variant, bots: Sequence[BotSpec], master: Seed, start: int, stop: int
) -> Iterator[GameResult]:
    """Games ``start..stop-1`` on the generic path, one at a time."""
    for i in range(start, stop):
        yield play_game(variant, bots, master, i)
