"""The told-hand yardstick (``_told.py``): what it tells, and only that.

It is a benchmark's cheat, never a bot's, so its tests live here, outside the main test run
(``pytest -q benchmarks/strength``). They check that the yardstick measures what
its figures in ``docs/benchmarks.md`` claim (the opponent's hand known, the talon order
still imagined, nothing told when the hand does not fit the view).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sixtysix.bots.players.expert as expert
import sixtysix.core.view as view_module
from benchmarks.strength import _told, _watched, told_hand
from benchmarks.strength._watched import Watched
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import A, B, Contestant, iter_deals, play_game, summarize
from sixtysix.sim.match_duel import DuelMatch, iter_matches, play_duel_match, summarize_matches


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
    """In a duel's game on ``Watched``, :class:`_told.Told` tells the opponent's true hand
    before each of its bot's decisions (and nothing after); the game is the duel's own."""
    truth, told = _recorded(monkeypatch, seats=(1,))
    variant = make("schnapsen")
    plain = (Contestant("h", HeuristicBot), Contestant("r", RandomBot))
    wrapped = (Contestant("h", _told.Told, {"bot": "heuristic"}), plain[1])
    for deal in (0, 3):
        truth.clear()
        told.clear()
        game = play_game(Watched(variant), wrapped, Seed(5), deal, 1, (B, A))
        assert truth and told == [t for hand in truth for t in (hand, None)]
        assert game.outcome == play_game(variant, plain, Seed(5), deal, 1, (B, A)).outcome


def test_told_tells_the_true_hand_in_every_deal_of_a_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In whole matches (one bot kept for every deal of a seating), each decision is told the
    hand of the deal being played, and the matches are the duel's own."""
    truth, told = _recorded(monkeypatch, seats=(0, 1))
    variant = make("sixtysix")
    plain = (Contestant("h", HeuristicBot), Contestant("r", RandomBot))
    wrapped = (
        Contestant("h", _told.Told, {"bot": "heuristic"}),
        Contestant("r", _told.Told, {"bot": "random"}),
    )
    match = play_duel_match(Watched(variant), wrapped, Seed(8), 0)
    assert all(len(s.games) > 1 for s in match.seatings)
    assert truth and told == [t for hand in truth for t in (hand, None)]
    assert _played(match) == _played(play_duel_match(variant, plain, Seed(8), 0))


def _played(match: DuelMatch) -> list[tuple[object, ...]]:
    """What a match was, leaving out the times the moves took."""
    return [(s.seating, [g.outcome for g in s.games], s.totals) for s in match.seatings]


def test_told_refuses_a_game_it_is_not_watching() -> None:
    variant = make("schnapsen")
    state = variant.new_deal(variant.deal(Seed(3), ("t",), 0))
    _watched._CURRENT[0] = None
    bot = _told.Told(state.to_act, Seed(1), {"bot": "heuristic"})
    with pytest.raises(RuntimeError, match="no watched game"):
        bot.choose(state.view(state.to_act))


def _recorded(
    monkeypatch: pytest.MonkeyPatch, seats: tuple[int, ...]
) -> tuple[list[int], list[int | None]]:
    """The opponent's true hand at each view made for one of ``seats``, and what was told."""
    monkeypatch.setattr(expert, "Sampler", Sampler)  # Told installs its sampler
    truth: list[int] = []
    told: list[int | None] = []
    make_view = view_module.make_view

    def seen(state: DealState, seat: int) -> View:
        if seat in seats:
            truth.append(state.hands[1 - seat])
        return make_view(state, seat)

    monkeypatch.setattr(view_module, "make_view", seen)
    monkeypatch.setattr(_told, "tell", told.append)
    return truth, told


@pytest.mark.parametrize("unit", ["--deals", "--matches"])
def test_told_hand_reports_the_duel_s_own_figures(
    unit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """told_hand.py plays the duel's own games (in deals or in matches): a bot that ignores
    the told hand scores exactly what ``sixtysix duel`` gives it, in the same words."""
    assert told_hand.main(["schnapsen", "heuristic", "random", unit, "3", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    line = captured.out
    assert f"\r3/3 {unit[2:]}, " in captured.err  # the run said how far it was
    plain = [Contestant("heuristic", HeuristicBot), Contestant("random", RandomBot)]
    if unit == "--matches":
        summary = summarize_matches(
            "schnapsen",
            ("heuristic", "random"),
            list(iter_matches(make("schnapsen"), plain, Seed(4), 3)),
        )
        rate, deals = summary.win_rate[A], summary.deals
        assert rate.low is not None
        assert f"won {100 * rate.value:.1f}% ({100 * rate.low:.1f}-" in line
        assert f"of {summary.games} matches;" in line
    else:
        deals = summarize(
            "schnapsen",
            ("heuristic", "random"),
            list(iter_deals(make("schnapsen"), plain, Seed(4), 3)),
        )
    assert f"won {100 * deals.win_rate[A].value:.1f}%" in line
    assert f"of {deals.games} games, {deals.margin.value:+.3f} game points per deal" in line


@pytest.mark.parametrize("bad", [["--matches", "0"], ["--deals", "0"], ["--jobs", "0"]])
def test_told_hand_refuses_no_work_in_one_line(
    bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        told_hand.main(["schnapsen", "expert", "heuristic", *bad])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith("must be at least 1")
