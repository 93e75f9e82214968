"""Presumed payoffs: the opponent's first reply made from its own view, not face up."""

from __future__ import annotations

import random

import pytest

from sixtysix.bots.compiled import CompiledSearch
from sixtysix.bots.compiled import available as compiled_available
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.search.presumed import Presumption
from sixtysix.core.actions import CLOSE
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.testing.bot_checks import check_bot_view_only
from tests.bots.test_sampling import make

pytestmark = pytest.mark.skipif(not compiled_available(), reason="needs numba")

#: More deals than any information set below holds: the opponent's are all listed, so the
#: presumed replies do not depend on a draw.
EVERY = 10_000


def before_a_close(variant: Variant, seed: int) -> DealState:
    """A Schnapsen deal played at random (never closing) until the seat to act may close with
    at least three cards face down."""
    rnd = random.Random(seed)
    for attempt in range(200):
        state = variant.new_deal(variant.deal(Seed(seed * 1000 + attempt), ("p",), 0))
        while not state.is_over:
            legal = state.legal_actions()
            if CLOSE in legal and len(state.talon) >= 3 and rnd.random() < 0.5:
                return state
            state.apply(rnd.choice([a for a in legal if a != CLOSE]))
    raise AssertionError("no such deal")


def closed(variant: Variant, seed: int) -> DealState:
    """The same deal just after the close: the closer leads, the talon's cards still hidden."""
    state = before_a_close(variant, seed)
    state.apply(CLOSE)
    return state


def presumption(variant: Variant, seat: int) -> Presumption:
    return Presumption(CompiledSearch(variant), variant, seat, EVERY, 1, Seed(0).stream(("t",)))


def test_a_presumed_reply_is_never_better_for_the_opponent_than_the_face_up_one() -> None:
    variant = make("schnapsen", {})
    higher = 0
    for seed in range(1, 9):
        state = closed(variant, seed)
        seat = state.to_act
        presumed = presumption(variant, seat)
        values = presumed.values(state, 0)
        face_up = presumed.search.action_values(state, seat, 0)
        assert values.exact and face_up.exact
        assert values.values.keys() == face_up.values.keys()
        for action, value in values.values.items():
            assert value >= face_up.values[action] - 1e-9
            higher += value > face_up.values[action] + 1e-9
    # Somewhere the opponent, not seeing the closer's hand, guesses wrong.
    assert higher > 0


def test_the_reply_is_the_best_mean_over_the_deals_the_opponent_can_imagine() -> None:
    variant = make("schnapsen", {})
    search = CompiledSearch(variant)
    for seed in range(1, 5):
        state = closed(variant, seed)
        seat = state.to_act
        values = presumption(variant, seat).values(state, 0).values
        for lead in state.legal_actions():
            after = state.copy()
            after.apply_legal(lead)
            other = after.to_act
            if after.is_over or other == seat:
                continue
            sums: dict[int, float] = {}
            imagined = list(Sampler(after.view(other), variant).layouts())
            for deal in imagined:
                for reply, value in search.action_values(deal, other, 0).values.items():
                    sums[reply] = sums.get(reply, 0.0) + value
            best = max(sums.values())
            face_up = search.action_values(after, other, 0).values
            # The value is that of a reply with the opponent's best mean, on the real deal.
            assert values[lead] in {-face_up[r] for r, s in sums.items() if s >= best - 1e-9}


def test_where_the_seat_moves_again_its_best_continuation_counts() -> None:
    variant = make("schnapsen", {})
    for seed in (2, 3):  # seven and nine cards in the talon; each about 7 s of search
        state = before_a_close(variant, seed)
        seat = state.to_act
        values = presumption(variant, seat).values(state, 0).values
        after = state.copy()
        after.apply_legal(CLOSE)
        assert after.to_act == seat
        continuations = presumption(variant, seat).values(after, 0).values
        assert values[CLOSE] == pytest.approx(max(continuations.values()))


def test_the_expert_presuming_replies_decides_from_its_view_alone() -> None:
    check_bot_view_only(
        ExpertBot, make("schnapsen", {}), Seed(5), deals=1, params={"presume": "2", "samples": "3"}
    )


def closed_by_the_rule_player(variant: Variant, seed: int) -> DealState | None:
    """A deal the rule player played on both sides just after one of them closed with at least
    two cards face down (a random closer loses whatever it plays next: nothing to presume)."""
    for attempt in range(50):
        state = variant.new_deal(variant.deal(Seed(seed * 100 + attempt), ("c",), 0))
        bots = [HeuristicBot(seat, Seed(seed)) for seat in range(2)]
        while not state.is_over:
            action = int(bots[state.to_act].choose(state.view(state.to_act)))
            state.apply(action)
            if action == CLOSE:
                if len(state.talon) >= 2:
                    return state
                break
    return None


def test_presume_open_0_presumes_only_once_the_talon_is_closed() -> None:
    variant = make("schnapsen", {})
    plain = {"open": "search", "random": "0", "margin": "0", "samples": "4", "tie": "0"}
    strict = {**plain, "presume": "4", "presume_open": "0"}
    changed = 0
    for seed in range(1, 9):
        after = closed_by_the_rule_player(variant, seed)
        assert after is not None
        for state, closes in ((before_a_close(variant, seed), False), (after, True)):
            seat = state.to_act
            found = []
            for params in (plain, strict):
                bot = ExpertBot(seat, Seed(1), params)
                bot.choose(state.view(seat))
                assert bot.last is not None
                found.append(bot.last.values)
            if not closes:
                assert found[0] == found[1]
            else:
                assert all(found[1][a] >= v - 1e-9 for a, v in found[0].items())
                changed += found[0] != found[1]
    assert changed > 0
