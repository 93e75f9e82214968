"""The built-in bots play exactly the same games through the protocol (``sixtysix player BOT
--seed N``, a process per seat) as in-process, seeded the same way: :func:`bot_seed`, a fresh
bot per deal. Every variant, move by move."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import pytest

from sixtysix.bots.base import Bot, parse_bot_spec
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.player import bot_seed
from sixtysix.protocol.referee import ExternalPlayer, InProcessPlayer, SeatPlayer
from tests.protocol.loop import play_match

VARIANTS = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")
BOTS = ("random", "heuristic", "expert:samples=3,crowd=3,nodes=20000")


class SeededBot(InProcessPlayer):
    """An in-process bot in the shape of a seat: made afresh for each deal from
    ``bot_seed(Seed(seed), match, deal)``, as ``sixtysix player BOT --seed N`` makes it."""

    def __init__(self, cls: type[Bot], params: Mapping[str, str], seed: int) -> None:
        super().__init__(self._bot_choose)
        self.cls, self.params, self.seed = cls, params, Seed(seed)
        self.matches = 0
        self.seat = 0
        self.bot: Bot | None = None

    def new_match(self, variant: Variant, seat: int) -> None:
        self.matches += 1
        self.seat = seat

    def new_deal(self, number: int, dealer: int) -> None:
        self.bot = self.cls(self.seat, bot_seed(self.seed, self.matches, number), self.params)

    def _bot_choose(self, view: View) -> int:
        assert self.bot is not None
        return self.bot.choose(view)


def games(variant: Variant, seats: Sequence[SeatPlayer], matches: int) -> list[list[object]]:
    out: list[list[object]] = []
    for m in range(matches):
        for deal in play_match(variant, seats, Seed(100 + m)):
            assert deal.fault is None, deal.fault
            out.append([deal.actions, deal.outcome])
    return out


@pytest.mark.parametrize("spec", BOTS)
@pytest.mark.parametrize("name", VARIANTS)
def test_a_bot_plays_the_same_games_through_the_protocol_as_in_process(
    registry: Registry, name: str, spec: str
) -> None:
    variant = registry.variant(name)()
    bot_name, params = parse_bot_spec(spec)
    cls = registry.bot(bot_name)
    matches = 1 if bot_name == "expert" else 2
    inproc = [SeededBot(cls, params, 10 + s) for s in range(variant.seats)]
    external = [
        ExternalPlayer(
            [sys.executable, "-m", "sixtysix", "player", spec, "--seed", str(10 + s)],
            start_timeout=60,
            move_timeout=60,
        )
        for s in range(variant.seats)
    ]
    try:
        for player in external:
            player.start(variant)
            assert player.name == spec
        expected = games(variant, inproc, matches)
        assert games(variant, external, matches) == expected
    finally:
        for player in external:
            player.close()
