"""The Node.js example player (``examples/node-player``) plays full matches of every built-in
variant through the protocol without a fault."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.referee import ExternalPlayer, InProcessPlayer, SeatPlayer
from tests.protocol.loop import play_match

PLAYER = Path(__file__).resolve().parents[2] / "examples" / "node-player" / "player.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_the_node_player_plays_whole_matches_of_every_variant(
    registry: Registry, name: str
) -> None:
    assert NODE is not None
    variant = registry.variant(name)()
    with ExternalPlayer([NODE, str(PLAYER)], start_timeout=30, move_timeout=30) as node:
        node.start(variant)
        assert node.name == "node-player"
        deals = 0
        for match in range(variant.seats):  # the node player in every seat in turn
            seats: list[SeatPlayer] = [
                InProcessPlayer(registry.bot("random")(s, Seed(match)).choose)
                for s in range(variant.seats)
            ]
            seats[match] = node
            for deal in play_match(variant, seats, Seed(50 + match)):
                assert deal.fault is None, deal.fault
                assert deal.outcome is not None and deal.outcome.reason != Reason.FORFEIT
                deals += 1
        assert deals >= variant.seats
        assert len(node.pids) == 1  # one process all along: it never faulted
