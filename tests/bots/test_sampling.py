"""Determinization: sampled deals agree with the view, read nothing hidden, and are uniform."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from sixtysix.bots.inference.sampling import InconsistentViewError, Sampler, variant_of
from sixtysix.core.cards import SUIT_MASK, cards_of, iter_mask, mask_of, parse_card
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4
from tests.helpers import act, deal

REGISTRY: Registry = build_registry()

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("sixtysix", {}),
    ("sixtysix", {"claim": "manual", "failed_close": "2or3", "tie": "draw"}),
    ("sixtysix", {"talonless": True}),
    ("sixtysix", {"exchange_needs_trick": False, "exchange_min_talon": 2}),
    ("sixtysix", {"exchange_anytime": True, "exchange_needs_trick": False}),
    ("schnapsen", {}),
    ("schnapsen", {"claim": "manual"}),
    ("sixtysix-3", {}),
    ("sixtysix-3", {"must_overtrump": True}),
    ("sixtysix-4", {}),
    ("sixtysix-4", {"trump_from_below": True, "must_overtrump": True}),
]


def make(name: str, options: dict[str, object]) -> Variant:
    cls = REGISTRY.variant(name)
    return cls(cls.options_class.build(options))


def played_to(variant: Variant, rnd: random.Random, stop: int) -> DealState:
    state = variant.new_deal(
        variant.deal(Seed(rnd.getrandbits(32)), ("s",), rnd.randrange(4) % variant.seats)
    )
    while not state.is_over and len(state.history) < stop:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def c(text: str) -> int:
    return int(parse_card(text))


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 40))
def test_every_sample_agrees_with_the_view(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    variant = make(*config)
    state = played_to(variant, rnd, stop)
    assume(not state.is_over)
    stream = Seed(rnd.getrandbits(32)).stream(("t",))
    for seat in range(state.n):
        view = state.view(seat)
        sampler = Sampler(view, variant)
        assert sampler.count >= 1
        for _ in range(3):
            # check=True replays the public history with the engine's legality check.
            sample = sampler.sample(stream, check=True)
            assert sample.view(seat) == view
            assert sample.setup.validate(variant.rules) is None


@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 40))
def test_sampling_reads_nothing_but_the_view(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    """Deal the cards a seat cannot see differently: same view, so exactly the same samples."""
    variant = make(*config)
    state = played_to(variant, rnd, stop)
    assume(not state.is_over)
    seat = rnd.randrange(state.n)
    other = redealt(state, seat, rnd)
    assume(other is not None)
    assert other is not None
    view = state.view(seat)
    assert other.view(seat) == view
    first = Sampler(view).sample(Seed(5).stream(("x",)))
    second = Sampler(other.view(seat)).sample(Seed(5).stream(("x",)))
    assert first.hands == second.hands and first.talon == second.talon


def hidden(state: DealState, seat: int) -> int:
    mask = mask_of(state.talon)
    for s in range(state.n):
        if s != seat:
            mask |= state.hands[s] & ~state.known[s]
    if state.phase == Phase.TRUMP_CALL:
        mask |= mask_of(state.setup.hands[seat][state.rules.call_after :])
    return mask


def relabelled(state: DealState, mapping: dict[int, int]) -> DealState | None:
    """The same deal with hidden cards renamed, replayed; None if play becomes illegal."""
    setup = state.setup

    def m(card: int) -> int:
        return mapping.get(card, card)

    alt = state.variant.new_deal(
        DealSetup(
            setup.dealer,
            tuple(tuple(m(x) for x in h) for h in setup.hands),
            None if setup.trump_card is None else m(setup.trump_card),
            tuple(m(x) for x in setup.talon),
        )
    )
    try:
        for _, a in state.history:
            alt.apply(a)
    except IllegalActionError:
        return None
    return alt


def redealt(state: DealState, seat: int, rnd: random.Random) -> DealState | None:
    cards = list(iter_mask(hidden(state, seat)))
    if len(cards) < 2:
        return None
    for _ in range(20):
        shuffled = cards[:]
        rnd.shuffle(shuffled)
        alt = relabelled(state, dict(zip(cards, shuffled, strict=True)))
        if alt is not None and alt.view(seat) == state.view(seat):
            return alt
    return None


def layout(state: DealState, seat: int) -> tuple[object, ...]:
    """Where the cards ``seat`` cannot see lie now (the talon as a set when closed)."""
    talon = tuple(state.talon) if state.closed_by < 0 else tuple(sorted(state.talon))
    return (tuple(h for s, h in enumerate(state.hands) if s != seat), talon)


def brute_force_layouts(state: DealState, seat: int) -> set[tuple[object, ...]]:
    """Every renaming of the hidden cards that the view cannot tell from the real deal."""
    cards = list(iter_mask(hidden(state, seat)))
    view = state.view(seat)
    found = set()
    for perm in permutations(cards):
        alt = relabelled(state, dict(zip(cards, perm, strict=True)))
        if alt is not None and alt.view(seat) == view:
            found.add(layout(alt, seat))
    return found


@functools.lru_cache(maxsize=2)
def late_positions(limit: int) -> list[tuple[DealState, int]]:
    """Positions of every variant with at most ``limit`` hidden cards, for exhaustive checks."""
    out = []
    for i, config in enumerate(CONFIGS):
        variant = make(*config)
        rnd = random.Random(100 + i)
        tries = 0
        while tries < 400 and len([p for p in out if p[0].variant is variant]) < 3:
            tries += 1
            state = variant.new_deal(variant.deal(Seed(tries), ("l",), tries % variant.seats))
            while not state.is_over:
                seat = rnd.randrange(state.n)
                size = hidden(state, seat).bit_count()
                if 3 <= size <= limit and rnd.random() < 0.5:
                    out.append((state.copy(), seat))
                    break
                state.apply(rnd.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("index", range(33))
def test_layouts_are_exactly_the_consistent_ones(index: int) -> None:
    positions = late_positions(6)
    if index >= len(positions):
        pytest.skip("fewer positions")
    state, seat = positions[index]
    view = state.view(seat)
    sampler = Sampler(view)
    expected = brute_force_layouts(state, seat)
    found = [layout(s, seat) for s in sampler.layouts()]
    assert len(found) == len(set(found)), "a layout was listed twice"
    assert set(found) == expected
    assert sampler.count * sampler.orders == len(expected)


def test_samples_are_uniform_over_the_layouts() -> None:
    positions = [p for p in late_positions(6) if 3 <= len(brute_force_layouts(*p)) <= 12]
    assert positions
    state, seat = positions[0]
    sampler = Sampler(state.view(seat))
    layouts = brute_force_layouts(state, seat)
    stream = Seed(1).stream(("u",))
    draws = 150 * len(layouts)
    counts = Counter(layout(sampler.sample(stream), seat) for _ in range(draws))
    assert set(counts) == layouts
    # Each layout is expected 150 times; 5 standard deviations either side.
    assert all(90 <= k <= 210 for k in counts.values()), counts


# ---------------------------------------------------------------------- what play reveals


def samples(view: View, count: int = 40) -> list[DealState]:
    sampler = Sampler(view)
    stream = Seed(9).stream(("r",))
    return [sampler.sample(stream, check=True) for _ in range(count)]


def test_a_follower_who_did_not_follow_is_void() -> None:
    # Three players, spades trump. Seat 2 has no club and trumps the ace of clubs: seen from
    # seat 0, seat 2 holds no club in any sample.
    state = deal(
        SixtySix3(),
        ["AC KC QC JC AS TS KS QS", "9C TC AD TD KD QD JD 9D", "JS 9S AH TH KH QH JH 9H"],
        dealer=2,
    )
    act(state, "trump S", "AC", "TC", "9S")
    for sample in samples(state.view(0)):
        assert not sample.hands[2] & SUIT_MASK[0]


def test_a_follower_who_neither_followed_nor_trumped_holds_neither() -> None:
    # Hearts trump: seat 1 discards a diamond on the ace of spades, so it holds no spade and
    # no heart; seen from seat 2, every sample agrees.
    state = deal(
        SixtySix3(),
        ["AC KC QC JC AS TS KS QS", "9C TC AD TD KD QD JD 9D", "JS 9S AH TH KH QH JH 9H"],
        dealer=2,
    )
    act(state, "trump H", "AS", "AD")
    for sample in samples(state.view(2)):
        assert not sample.hands[1] & (SUIT_MASK[3] | SUIT_MASK[2])


def test_a_follower_who_did_not_head_the_trick_holds_nothing_higher() -> None:
    # Seat 1 follows the queen of clubs with the nine: it cannot hold the king, ten or ace
    # of clubs, which seat 0 cannot see; so they lie with seat 2 in every sample.
    state = deal(
        SixtySix3(),
        ["QC 9H AS TS KS QS JS 9S", "JC 9C AD TD KD QD JD 9D", "AC TC KC AH TH KH QH JH"],
        dealer=2,
    )
    act(state, "trump S", "QC", "9C")
    higher = mask_of([c("KC"), c("TC"), c("AC")])
    for sample in samples(state.view(0)):
        assert not sample.hands[1] & higher
        assert sample.hands[2] & higher == higher


@pytest.mark.parametrize("must_overtrump", [True, False])
def test_a_follower_who_trumped_low_holds_no_higher_trump(must_overtrump: bool) -> None:
    # Spades trump. Seat 1 trumps the ace of clubs with the king; seat 2 trumps lower with the
    # queen. With must_overtrump that tells seat 0 that seat 2 has neither ace nor ten.
    variant = SixtySix3.configure(overrides={"must_overtrump": must_overtrump})
    state = deal(
        variant,
        ["AC KC QC JC 9C TC 9H TH", "KS AS TS AD TD KD QD JD", "JS 9S QS AH KH QH JH 9D"],
        dealer=2,
    )
    act(state, "trump S", "AC", "KS", "QS")
    higher = mask_of([c("AS"), c("TS")])
    with_seat_2 = [bool(s.hands[2] & higher) for s in samples(state.view(0))]
    assert any(with_seat_2) is not must_overtrump


def test_the_caller_holds_a_card_of_the_called_suit_but_never_the_ace() -> None:
    state = deal(
        SixtySix4(),
        ["9H JH QH KH TH 9C", "AC TC KC QC JC AH", "AD TD KD QD JD 9D", "AS TS KS QS JS 9S"],
        dealer=3,
    )
    act(state, "trump S", "partner AC")  # seat 0 holds the 9 of clubs; seat 1 the ace
    for seat in (2, 3):
        for sample in samples(state.view(seat)):
            assert not sample.hands[0] >> c("AC") & 1
            assert sample.hands[0] & SUIT_MASK[0]
            assert sample.partner in (1, 2, 3) and sample.partner != seat


def test_the_called_aces_holder_is_known_only_to_itself() -> None:
    state = deal(
        SixtySix4(),
        ["9H JH QH KH TH 9C", "AC TC KC QC JC AH", "AD TD KD QD JD 9D", "AS TS KS QS JS 9S"],
        dealer=3,
    )
    act(state, "trump S", "partner AC")
    assert all(s.partner == 1 for s in samples(state.view(1)))
    assert {s.partner for s in samples(state.view(2))} == {1, 3}
    assert {s.partner for s in samples(state.view(0))} == {1, 2, 3}


def ended_if_partner(state: DealState, holder: int) -> bool | None:
    """Whether the deal would already be over had ``holder`` held the called ace (None: that
    swap would have made play illegal)."""
    ace = state.called_ace
    mine = state.hands[holder] & ~state.known[holder]
    for other in iter_mask(mine):
        alt = relabelled(state, {ace: other, other: ace})
        if alt is not None:
            return alt.is_over
    return None


def test_an_unfinished_deal_rules_out_partners_that_would_have_ended_it() -> None:
    """Auto claims judge the true sides: a partner with whom the deal would be over is out."""
    variant = SixtySix4()
    rnd = random.Random(3)
    checked = 0
    for attempt in range(400):
        state = variant.new_deal(variant.deal(Seed(attempt), ("p",), 0))
        while not state.is_over and state.played < 12:
            state.apply(rnd.choice(state.legal_actions()))
        if state.is_over or state.revealed or state.called_ace < 0:
            continue
        for seat in range(4):
            if seat in (state.declarer, state.partner):
                continue
            impossible = {
                h
                for h in range(4)
                if h not in (state.declarer, seat, state.partner) and ended_if_partner(state, h)
            }
            if not impossible:
                continue
            partners = {s.partner for s in samples(state.view(seat), 20)}
            assert state.partner in partners
            assert not partners & impossible
            checked += 1
        if checked >= 3:
            return
    pytest.fail("no position found where the unfinished deal rules out a partner")


def test_the_exchanged_turnup_stays_with_the_exchanger() -> None:
    state = deal(SixtySix(), ["9H AC TC KC QC JC", "AS TS KS QS JS 9S"], trump_card="AH", dealer=1)
    act(state, "AC", "9S")  # seat 0 wins a trick, draws
    act(state, "exchange")
    for sample in samples(state.view(1)):
        assert sample.hands[0] >> c("AH") & 1
        assert sample.turnup == c("9H")


def test_complete_information_after_the_talon_ran_out() -> None:
    variant = Schnapsen()
    rnd = random.Random(2)
    for attempt in range(50):
        state = variant.new_deal(variant.deal(Seed(attempt), ("c",), 0))
        while not state.is_over and (state.talon or state.turnup >= 0):
            legal = [a for a in state.legal_actions() if a < 24] or state.legal_actions()
            state.apply(rnd.choice(legal))
        if state.is_over:
            continue
        seat = state.to_act
        sampler = Sampler(state.view(seat))
        assert sampler.count == 1 and sampler.orders == 1
        (only,) = list(sampler.layouts())
        assert only.hands == state.hands
        return
    pytest.fail("no deal reached the end of the talon")


def test_during_the_trump_call_the_callers_own_later_cards_are_unknown_too() -> None:
    variant = SixtySix3()
    state = variant.new_deal(variant.deal(Seed(4), ("t",), 0))
    seat = state.to_act
    view = state.view(seat)
    assert len(view.hand) == 4
    seen = mask_of(view.hand)
    later = Counter()
    for sample in samples(view, 30):
        assert mask_of(sample.setup.hands[seat][:4]) == seen
        assert sample.hands[seat] & seen == seen
        later[sample.setup.hands[seat][-1]] += 1
    assert len(later) > 3  # the card "from below" is not known in advance


def test_the_variant_is_found_from_the_view_with_its_options() -> None:
    variant = SixtySix.configure(overrides={"failed_close": "2or3", "claim": "manual"})
    state = variant.new_deal(variant.deal(Seed(1), ("v",), 0))
    found = variant_of(state.view(0))
    assert type(found) is SixtySix and found.options == variant.options


def test_an_impossible_view_is_refused_with_a_clear_error() -> None:
    variant = SixtySix()
    state = variant.new_deal(variant.deal(Seed(1), ("i",), 0))
    view = state.view(0)
    # Seat 1 "known" to hold seven cards: its six and one of seat 0's.
    known = frozenset([*view.hand[:1], *cards_of(state.hands[1])])
    with pytest.raises(InconsistentViewError, match="more cards than it has"):
        Sampler(dataclasses.replace(view, known=(frozenset(), known)), variant)


def test_the_variant_is_found_without_the_plugin_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    import sixtysix.plugins.manager as manager
    from sixtysix.bots.inference import views

    def refuse() -> None:
        raise AssertionError("a bot asked the plugin registry")

    monkeypatch.setattr(manager, "get_registry", refuse)
    views._variant_from.cache_clear()
    state = SixtySix().new_deal(SixtySix().deal(Seed(2), ("r",), 0))
    assert type(variant_of(state.view(0))) is SixtySix


def test_a_view_of_no_loaded_variant_is_refused() -> None:
    view = SixtySix().new_deal(SixtySix().deal(Seed(2), ("u",), 0)).view(0)
    with pytest.raises(InconsistentViewError, match="no loaded variant is called 'nothing'"):
        variant_of(dataclasses.replace(view, variant="nothing"))
