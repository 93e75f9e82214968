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

import sixtysix.bots.expert as expert
import sixtysix.core.view as view_module
from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.bots.random_bot import RandomBot
from sixtysix.bots.sampling import Sampler
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import A, B, Contestant, play_game


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


def test_told_tells_the_measured_bot_the_true_hand_at_each_of_its_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a duel's game, :class:`_told.Told` finds its deal and tells the opponent's true hand
    before each of its bot's decisions (and nothing after); the game is the duel's own."""
    monkeypatch.setattr(expert, "Sampler", Sampler)  # Told installs its sampler
    truth: list[int] = []
    told: list[int | None] = []
    make_view = view_module.make_view

    def seen(state: DealState, seat: int) -> View:
        if seat == 1:  # Told's seat below
            truth.append(state.hands[0])
        return make_view(state, seat)

    monkeypatch.setattr(view_module, "make_view", seen)
    monkeypatch.setattr(_told, "tell", told.append)
    variant = make("schnapsen")
    spec = {"bot": "heuristic", "variant": "schnapsen", "duel_seed": "5"}
    plain = (Contestant("h", HeuristicBot), Contestant("r", RandomBot))
    wrapped = (Contestant("h", _told.Told, spec), plain[1])
    for deal in (0, 3):
        truth.clear()
        told.clear()
        game = play_game(variant, wrapped, Seed(5), deal, 1, (B, A))
        assert truth and told == [t for hand in truth for t in (hand, None)]
        assert game.outcome == play_game(variant, plain, Seed(5), deal, 1, (B, A)).outcome
