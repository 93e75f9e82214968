"""A take-back reveals nothing: the unseen cards are dealt afresh, what was seen stays."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.records import load_record_file
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.play import session as session_module
from sixtysix.play.autosave import load_saved_game
from sixtysix.play.session import Ending
from sixtysix.service.undo import last_action, take_back, views_along
from tests.play.conftest import REGISTRY, make_session, make_variant
from tests.play.scripted import AutoInput, RecordingScreen, ScriptedInput, Step

#: Every variant, and options that change what a person sees or what is legal.
CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("sixtysix", {}),
    ("sixtysix", {"talonless": True}),
    ("sixtysix", {"claim": "manual", "exchange_anytime": True}),
    ("schnapsen", {}),
    ("sixtysix-3", {"must_overtrump": True}),
    ("sixtysix-4", {}),
    ("sixtysix-4", {"must_overtrump": True, "trump_from_below": True}),
]


def played(variant: Variant, seed: int, steps: int) -> DealState:
    """A deal dealt from ``seed`` and played ``steps`` random legal actions (or to its end)."""
    stream = Seed(seed).stream(("play",))
    state = variant.new_deal(variant.deal(Seed(seed), ("deal", 0), seed % variant.seats))
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[stream.below(len(legal))])
    return state


def before_last(state: DealState, seat: int) -> DealState:
    """The true deal just before ``seat``'s last action (what a plain rebuild gives)."""
    cut = last_action(state, seat)
    assert cut is not None
    true = state.variant.new_deal(state.setup)
    for _, action in state.history[:cut]:
        true.apply_legal(action)
    return true


def a_position(config: int, seed: int, steps: int, seat: int) -> tuple[DealState, int] | None:
    name, options = CONFIGS[config]
    variant = make_variant(name, **options)
    seat %= variant.seats
    state = played(variant, seed, steps)
    if state.is_over or last_action(state, seat) is None:
        return None
    return state, seat


@given(
    config=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 10**6),
    steps=st.integers(1, 40),
    seat=st.integers(0, 3),
    undo_seed=st.integers(0, 10**6),
)
def test_a_take_back_keeps_every_view_the_person_had(
    config: int, seed: int, steps: int, seat: int, undo_seed: int
) -> None:
    position = a_position(config, seed, steps, seat)
    if position is None:
        return
    state, seat = position
    fresh = take_back(state, seat, Seed(undo_seed).stream(("undo",)))
    assert fresh is not None
    fresh.setup.validate(state.rules)
    # The person is back at the view they had before the undone action, exactly.
    assert fresh.view(seat) == before_last(state, seat).view(seat)
    # And the whole history, the undone part too, shows them the same on the new deal.
    assert views_along(state, seat, fresh.setup) == views_along(state, seat, state.setup)
    # What they saw where it lies stays: their own cards as dealt, the turn-up.
    assert fresh.setup.hands[seat] == state.setup.hands[seat]
    assert fresh.setup.trump_card == state.setup.trump_card


@given(
    config=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 10**6),
    steps=st.integers(1, 40),
    seat=st.integers(0, 3),
    undo_seed=st.integers(0, 10**6),
)
def test_the_new_deal_depends_only_on_what_the_person_has_seen(
    config: int, seed: int, steps: int, seat: int, undo_seed: int
) -> None:
    """Two true deals the person cannot tell apart give the same take-back: nothing of the
    hidden cards leaks into it."""
    position = a_position(config, seed, steps, seat)
    if position is None:
        return
    state, seat = position
    other = take_back(state, seat, Seed(undo_seed + 1).stream(("other",)))
    assert other is not None
    twin = state.variant.new_deal(other.setup)  # another truth the person cannot tell apart
    for _, action in state.history:
        twin.apply(action)
    one = take_back(state, seat, Seed(undo_seed).stream(("undo",)))
    two = take_back(twin, seat, Seed(undo_seed).stream(("undo",)))
    assert one is not None and two is not None
    if one.setup is state.setup or two.setup is twin.setup:
        return  # the undone moves showed nothing and no new deal was needed
    assert one.setup == two.setup


def test_play_then_take_back_does_not_show_the_next_talon_card() -> None:
    """The person leads, the trick is drawn from, the person takes it back: the card the
    opponent drew is dealt afresh, and over many take-backs it is not always the same."""
    variant = make_variant("sixtysix")
    seat = 0
    for seed in range(200):
        state = variant.new_deal(variant.deal(Seed(seed), ("deal", 0), 1))  # seat 0 leads
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])  # the reply: a trick, and both draw
        if state.is_over or state.to_act != seat or len(state.talon) < 2:
            continue
        break
    else:  # pragma: no cover
        raise AssertionError("no such deal")
    truth = before_last(state, seat)
    # The opponent's draw is hidden from the person: which talon place it was.
    winner = state.last_winner
    hidden_place = 0 if winner != seat else 1
    original = truth.talon[hidden_place]
    seen_place = 1 - hidden_place
    drawn: Counter[int] = Counter()
    for k in range(200):
        fresh = take_back(state, seat, Seed(k).stream(("undo",)))
        assert fresh is not None
        assert fresh.talon[seen_place] == truth.talon[seen_place]  # the person drew that one
        drawn[fresh.talon[hidden_place]] += 1
    assert drawn[original] < 200 and len(drawn) > 3
    # Uniform over the cards the person has not seen, as far as 200 draws tell.
    assert max(drawn.values()) < 60


def test_two_seeds_deal_the_hidden_cards_differently() -> None:
    differed = 0
    for seed in range(30):
        position = a_position(0, seed, 9, 0)
        if position is None:
            continue
        state, seat = position
        one = take_back(state, seat, Seed(1).stream(("undo",)))
        two = take_back(state, seat, Seed(2).stream(("undo",)))
        assert one is not None and two is not None
        differed += one.setup != two.setup
    assert differed > 10


def test_nothing_to_take_back_before_the_first_action() -> None:
    variant = make_variant("sixtysix")
    state = variant.new_deal(variant.deal(Seed(3), ("deal", 0), 1))
    assert take_back(state, 0, Seed(1).stream(("undo",))) is None


def test_no_deal_found_refuses_unless_nothing_new_was_shown() -> None:
    position = a_position(0, 5, 7, 0)
    assert position is not None
    state, seat = position
    views = views_along(state, seat, state.setup)
    assert views is not None
    # With no tries at all, the take-back is refused when the undone moves showed a card...
    cut = last_action(state, seat)
    assert cut is not None
    shown_later = any(
        set(v.played) - set(views[cut].played) or set(v.hand) - set(views[cut].hand)
        for v in views[cut + 1 :]
    )
    result = take_back(state, seat, Seed(1).stream(("undo",)), tries=0)
    if shown_later:
        assert result is None
    else:
        assert result is not None and result.setup is state.setup


class Undoer:
    """A random person (never conceding) who types ``undo`` at every third prompt and stops
    after 40."""

    def __init__(self) -> None:
        self.person = AutoInput(7, mistakes=False)
        self.prompts = 0

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        self.prompts += 1
        if self.prompts > 40:
            raise EOFError
        if self.prompts % 3 == 0:
            return "undo"
        return self.person.read(prompt, view, tick)


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_a_game_with_take_backs_saves_a_record_that_replays_and_resumes(
    name: str, tmp_path: Path
) -> None:
    variant = make_variant(name)
    save = tmp_path / "g.json"
    screen = RecordingScreen()
    session = make_session(variant, Undoer(), screen, save=save, seed=4)
    result = session.run()
    assert result.ending in (Ending.SAVED, Ending.FINISHED)
    assert any(s.startswith("Taken back") for s in screen.said)
    raw = load_record_file(save)
    replayed = replay(raw, REGISTRY)
    assert raw.seed == 4
    for deal, mine in zip(replayed.deals, session.record.deals, strict=True):
        assert deal.state.setup == mine.setup and deal.state.history == mine.actions
    if result.ending is Ending.SAVED:
        resumed = load_saved_game(save, REGISTRY)
        again = make_session(
            variant, ScriptedInput([]), RecordingScreen(), save=save, seed=4, resume=resumed.replay
        )
        assert again.state is not None
        assert again.state.history == session.record.deals[-1].actions


def test_seeded_take_backs_are_reproducible(tmp_path: Path) -> None:
    variant = make_variant("sixtysix")
    records = []
    for k in range(2):
        save = tmp_path / f"g{k}.json"
        steps: list[Step] = ["1", "undo", "1", "undo", "2", "1", "undo", "quit"]
        make_session(variant, ScriptedInput(steps), RecordingScreen(), save=save, seed=8).run()
        records.append(json.loads(save.read_text()))
    assert records[0] == records[1]


def test_a_refused_take_back_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "take_back", lambda *args, **kw: None)
    screen = RecordingScreen()
    person = ScriptedInput(["1", "undo", "quit"])
    make_session(make_variant("schnapsen"), person, screen, seed=11).run()
    assert (
        "That move cannot be taken back without giving away cards you have not seen." in screen.said
    )
    assert not any(s.startswith("Taken back") for s in screen.said)
