"""The told-hand yardstick (``_told.py``): what it tells, and only that.

It is a benchmark's cheat, never a bot's, so its tests live here, outside the main test run
(``pytest -q benchmarks/strength``). They check that the yardstick measures what
its figures in ``docs/benchmarks.md`` claim (the opponent's hand known, the talon order
still imagined, nothing told when the hand does not fit the view).
"""

from __future__ import annotations

from collections.abc import Iterator

import _told
import pytest

from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry


def make(name: str) -> Variant:
    return get_registry().variant(name)()


@pytest.fixture(autouse=True)
def nothing_told() -> Iterator[None]:
    yield
    _told.tell(None)


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen"])
def test_the_told_hand_is_placed_and_only_the_talon_order_imagined(name: str) -> None:
    variant = make(name)
    state = variant.new_deal(variant.deal(Seed(3), ("t",), 0))
    view = state.view(state.to_act)
    other = 1 - view.seat
    stream = Seed(1).stream(("s",))
    _told.tell(state.hands[other])
    sampler = _told.ToldSampler(view)
    deals = [sampler.sample(stream) for _ in range(20)]
    assert all(d.hands[other] == state.hands[other] for d in deals)
    assert len({tuple(d.talon) for d in deals}) > 1


def test_a_hand_that_does_not_fit_the_view_is_not_told() -> None:
    variant = make("schnapsen")
    state = variant.new_deal(variant.deal(Seed(3), ("t",), 0))
    view = state.view(state.to_act)
    other = 1 - view.seat
    stream = Seed(1).stream(("s",))
    hand = state.hands[other]
    _told.tell(hand & (hand - 1))  # a card short
    deals = [_told.ToldSampler(view).sample(stream) for _ in range(20)]
    assert len({d.hands[other] for d in deals}) > 1
    _told.tell(None)
    honest = [_told.ToldSampler(view).sample(stream) for _ in range(20)]
    assert len({d.hands[other] for d in honest}) > 1
