"""The steppable match (core.match_state): deals, settling, totals, winners, the dealer's turn,
forfeits and take-backs in the record, and a record restored to the very same match."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.errors import MatchError, RecordError
from sixtysix.core.faults import FaultKind
from sixtysix.core.match import play_match
from sixtysix.core.match_state import MatchState
from sixtysix.core.match_view import MatchView
from sixtysix.core.outcome import Reason
from sixtysix.core.records import parse_record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry, build_registry, variant_from

REGISTRY: Registry = build_registry()
NAMES = ("66", "schnapsen", "66-3", "66-4")


def _variant(name: str, **options: object) -> Variant:
    return variant_from(REGISTRY, name, options)


def _play_out(state: DealState, pick: int = 0) -> None:
    """Play a deal to its end, each seat taking the legal action ``pick`` (modulo)."""
    while not state.is_over:
        legal = state.legal_actions()
        state.apply_legal(legal[pick % len(legal)])


def _randoms(variant: Variant, seed: int) -> list[object]:
    cls = REGISTRY.bot("random")
    return [cls(s, Seed(seed).child(("bot", s))).choose for s in range(variant.seats)]


def test_a_match_is_dealt_settled_and_won_as_play_match_plays_it() -> None:
    variant = _variant("66", target=3)
    seed = Seed(21)
    match = MatchState(variant, seed)
    first = match.dealer
    assert first == variant.first_dealer(seed) and not match.over
    dealers = []
    while not match.over:
        state = match.next_deal()
        dealers.append(state.dealer)
        assert match.dealt == len(dealers) and match.completed == len(dealers) - 1
        _play_out(state, pick=len(dealers))
        outcome = match.settle()
        assert match.deal is None and match.last is state and match.outcomes[-1] is outcome
    assert dealers == [(first + i) % 2 for i in range(len(dealers))]
    assert max(match.totals) >= 3 and match.winners
    assert match.totals == [sum(o.game_points[s] for o in match.outcomes) for s in range(2)]
    # The same deals as play_match deals from the same seed.
    replayed = play_match(variant, _randoms(variant, 5), seed)
    assert [d.setup for d in replayed.record.deals][:1] == [match.record.deals[0].setup]


def test_steps_out_of_order_are_refused() -> None:
    match = MatchState(_variant("66", target=1), Seed(1))
    with pytest.raises(MatchError, match="no deal is being played"):
        match.settle()
    state = match.next_deal()
    with pytest.raises(MatchError, match="not settled"):
        match.next_deal()
    with pytest.raises(MatchError, match="not over"):
        match.settle()
    with pytest.raises(MatchError, match="not over"):
        match.note_forfeit(0, FaultKind.TIMEOUT)
    _play_out(state)
    match.settle()
    assert match.over  # a target of 1 is reached by any deal that scores
    with pytest.raises(MatchError, match="the match is over"):
        match.next_deal()


def test_a_match_without_a_winner_ends_at_its_deal_limit() -> None:
    match = MatchState(_variant("66"), Seed(2), max_deals=2)
    for _ in range(2):
        state = match.next_deal()
        match.forfeit(state.to_act, FaultKind.CRASH)  # 0 and 3: no total reaches 7
        match.settle()
    with pytest.raises(MatchError, match="no match winner after 2 deals"):
        match.next_deal()


def test_a_forfeit_ends_the_deal_by_the_one_rule_and_is_in_the_record() -> None:
    match = MatchState(_variant("66-4"), Seed(3))
    state = match.next_deal()
    seat = state.to_act
    outcome = match.forfeit(seat, FaultKind.TIMEOUT)
    assert outcome.reason == Reason.FORFEIT and state.is_over
    assert outcome.game_points[seat] == 0 and sum(outcome.game_points) == 9
    written = match.record.as_json()["deals"]
    assert written[0]["forfeit"] == {"seat": seat, "reason": "timeout"}  # type: ignore[index]
    match.settle()
    assert match.totals == list(outcome.game_points)


def test_a_take_back_replaces_the_deal_in_the_record() -> None:
    match = MatchState(_variant("66"), Seed(4))
    state = match.next_deal()
    state.apply_legal(state.legal_actions()[0])
    fresh = match.variant.new_deal(state.setup)  # the same cards, no action taken
    match.retake(fresh)
    assert match.deal is fresh and match.record.deals[-1].actions == []
    assert match.record.deals[-1].setup == state.setup


def test_a_record_dealer_must_move_one_seat_on() -> None:
    variant = _variant("66")
    first = MatchState(variant, Seed(6))
    state = first.next_deal()
    _play_out(state)
    first.settle()
    wrong = first.record.as_json()
    deals = wrong["deals"]
    assert isinstance(deals, list)
    second = dict(deals[0])
    second["actions"] = []
    deals.append(second)  # the same dealer again
    with pytest.raises(RecordError, match="deal 2: dealer should be seat"):
        MatchState.restore(variant, parse_record(json.loads(json.dumps(wrong))))


@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 400),
    fault=st.sampled_from(list(FaultKind)),
)
def test_a_record_restores_the_very_same_match(
    name: str, seed: int, cut: int, fault: FaultKind
) -> None:
    """Random play, a forfeit somewhere, the match cut anywhere: written, read back and
    restored, the record gives the same totals, winners, dealer and current deal."""
    variant = _variant(name)
    match = MatchState(variant, Seed(seed), max_deals=40)
    steps = 0
    forfeited = False
    while not match.over and match.dealt < 40 and steps < cut:
        state = match.next_deal()
        while not state.is_over and steps < cut:
            if not forfeited and steps == cut // 2:
                match.forfeit(state.to_act, fault)
                forfeited = True
                break
            legal = state.legal_actions()
            state.apply_legal(legal[(seed + steps) % len(legal)])
            steps += 1
        if state.is_over:
            match.settle()
    raw = parse_record(json.loads(json.dumps(match.record.as_json())))
    back = MatchState.restore(variant, raw, Seed(seed))
    assert back.totals == match.totals
    assert back.winners == match.winners
    assert back.dealer == match.dealer
    assert back.completed == match.completed
    assert back.record.as_json() == match.record.as_json()
    if match.deal is None:
        assert back.deal is None
    else:
        assert back.deal is not None and back.deal.history == match.deal.history
    if not back.over and back.deal is None and back.dealt < 40:
        assert back.next_deal().setup == match.next_deal().setup  # later deals alike


# ---------------------------------------------------------------------- the public match state


@pytest.mark.parametrize("name", NAMES)
def test_every_view_of_a_deal_carries_the_matchs_public_state(name: str) -> None:
    variant = _variant(name)
    match = MatchState(variant, Seed(5))
    seen: list[MatchView] = []
    while not match.over:
        totals = tuple(match.totals)
        state = match.next_deal()
        expected = MatchView(
            totals, variant.target, None, match.completed, (state.dealer + 1) % variant.seats
        )
        while not state.is_over:
            for seat in range(variant.seats):
                assert state.view(seat).match == expected
            legal = state.legal_actions()
            state.apply_legal(legal[len(state.history) % len(legal)])
        assert state.view(0).match == expected
        seen.append(expected)
        match.settle()
    assert [m.played for m in seen] == list(range(len(seen)))
    assert seen[-1].to_go(0) == max(0, variant.target - seen[-1].totals[0])


def test_a_fixed_length_match_states_its_deals_and_no_target() -> None:
    variant = _variant("66", match="four_deals")
    match = MatchState(variant, Seed(2))
    left = []
    while not match.over:
        state = match.next_deal()
        view = state.view(0).match
        assert view is not None and view.target is None and view.deals == 4
        left.append(view.deals_left)
        _play_out(state)
        match.settle()
    assert left == [4, 3, 2, 1]


def test_a_deal_played_alone_has_no_match_state_and_copies_keep_it() -> None:
    variant = _variant("66")
    alone = variant.new_deal(variant.deal(Seed(1), ("x",), 0))
    assert alone.view(0).match is None
    state = MatchState(variant, Seed(1)).next_deal()
    assert state.copy().view(1).match == state.view(1).match is not None


def test_a_view_gets_its_own_copy_of_the_match_state() -> None:
    state = MatchState(_variant("66"), Seed(1)).next_deal()
    view = state.view(0)
    assert view.match is not None and view.match is not state.match
    object.__setattr__(view.match, "totals", (6, 6))  # a bot that writes into its view
    assert state.view(1).match is not None and state.view(1).match.totals == (0, 0)


def test_a_take_back_and_a_restored_record_keep_the_match_state() -> None:
    variant = _variant("66")
    match = MatchState(variant, Seed(9))
    _play_out(match.next_deal())
    match.settle()
    state = match.next_deal()
    before = state.view(0).match
    assert before is not None and before.played == 1 and sum(before.totals) > 0
    fresh = variant.new_deal(state.setup)
    match.retake(fresh)
    assert match.current().view(0).match == before
    raw = parse_record(json.loads(json.dumps(match.record.as_json())))
    restored = MatchState.restore(variant, raw)
    assert restored.current().view(1).match == before
