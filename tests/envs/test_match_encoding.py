"""The match's public state in the encodings (``encoder(variant, match=True)``): where the
``match`` field lies, its exact floats by relative seat, zeros for a deal played alone, the
strings, the version, and the default encodings left as they were."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from sixtysix.bots.inference.sampling import Sampler
from sixtysix.core.match_state import MatchState
from sixtysix.core.match_view import MatchView
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs import ENCODING_VERSION, Encoder, EncodingError, encoder
from sixtysix.envs.layout import make_layout, match_slot_names
from tests.envs.common import CONFIGS, make, played_to
from tests.envs.reference import reference

#: The built-in variants by registry name.
NAMES = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")
#: The variants with a match format of each kind: to a target, and four deals.
FORMATS: list[tuple[str, dict[str, object]]] = [
    *((name, {}) for name in NAMES),
    ("sixtysix", {"match": "four_deals"}),
]

formats = st.sampled_from(FORMATS)
configs = st.sampled_from(CONFIGS)


def part(enc: Encoder, vector: np.ndarray) -> np.ndarray:
    """The ``match`` field's floats of a vector."""
    field = enc.layout.field("match")
    return vector[field.offset : field.offset + field.size]


def without_match(enc: Encoder, vector: np.ndarray) -> np.ndarray:
    """A vector of the match encoder with its ``match`` field cut out."""
    field = enc.layout.field("match")
    return np.concatenate([vector[: field.offset], vector[field.offset + field.size :]])


def with_match(view: View, match: MatchView | None) -> View:
    return dataclasses.replace(view, match=match)


def match_deals(variant: Variant, rnd: random.Random, deals: int) -> list[View]:
    """Every seat's view at every step of up to ``deals`` deals of a match, random play."""
    game = MatchState(variant, Seed(rnd.getrandbits(64)))
    views: list[View] = []
    for _ in range(deals):
        state = game.next_deal()
        while True:
            views += [state.view(seat) for seat in range(state.n)]
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))
        game.settle()
        if game.over:
            break
    return views


@st.composite
def match_views(draw: st.DrawFn, variant: Variant) -> MatchView:
    """A match state of ``variant``'s own format, inside the field's bounds (no clipping)."""
    n = variant.seats
    target, deals = variant.match_format.target, variant.match_format.deals
    if deals is None:
        totals = draw(st.lists(st.integers(0, target - 1), min_size=n, max_size=n))
        played = draw(st.integers(0, n * target - 1))
    else:
        bound = encoder(variant, match=True).layout.deal_points * deals
        totals = draw(st.lists(st.integers(0, bound), min_size=n, max_size=n))
        played = draw(st.integers(0, deals - 1))
    dealer = draw(st.integers(0, n - 1))
    return MatchView(tuple(totals), None if deals else target, deals, played, dealer)


# ---------------------------------------------------------------------- layout


def test_the_match_field_of_each_built_in_variant() -> None:
    """Right after the options: 3 x seats + 3 floats, the history moved on by as many."""
    found = {}
    for name in NAMES:
        base, enc = encoder(make(name)), encoder(make(name), match=True)
        field = enc.layout.field("match")
        found[name] = (field.offset, field.size, enc.obs_size, enc.info_size)
        assert [f.name for f in enc.obs_fields[-2:]] == ["options", "match"]
        assert enc.obs_fields[:-1] == base.obs_fields
        history = enc.info_fields[-1]
        assert history.name == "history" and history.offset == enc.obs_size
        assert history._replace(offset=base.obs_size) == base.info_fields[-1]
        assert len(match_slot_names(enc.seats)) == field.size
    assert found == {
        "sixtysix": (256, 9, 265, 1225),
        "schnapsen": (241, 9, 250, 978),
        "sixtysix-3": (266, 12, 278, 1388),
        "sixtysix-4": (335, 15, 350, 1580),
    }


def test_the_meaning_names_each_float_and_its_bound() -> None:
    meaning = encoder(make("sixtysix-4"), match=True).layout.field("match").meaning
    for words in (
        "all 0 for a deal played alone",
        "total / target",
        "/ (6 x deals), clipped to 1",
        "still to go / target",
        "deals left, this one included, / deals",
        "4 x target in a match to a target), clipped to 1",
        "the next deal's dealer, one-hot by relative seat",
        "1 if this deal is part of a match",
    ):
        assert words in meaning
    assert "/ (3 x deals)" in encoder(make("sixtysix"), match=True).layout.field("match").meaning
    assert match_slot_names(2) == (
        "total me",
        "total +1",
        "to_go me",
        "to_go +1",
        "deals_left",
        "played",
        "next_dealer me",
        "next_dealer +1",
        "in_match",
    )


def test_the_default_encoder_is_left_as_it_was() -> None:
    """No match field, the sizes the trained policies and the playthroughs were made with."""
    for name in NAMES:
        variant = make(name)
        assert encoder(variant) is encoder(variant, match=False)
        assert encoder(variant) is not encoder(variant, match=True)
        assert encoder(variant, match=True) is encoder(variant, match=True)
        assert "match" not in {f.name for f in encoder(variant).info_fields}
        layout = make_layout(variant.rules, variant.options)
        assert not layout.match and layout.info_fields == encoder(variant).info_fields
    sizes = {name: (encoder(make(name)).obs_size, encoder(make(name)).info_size) for name in NAMES}
    assert sizes == {
        "sixtysix": (256, 1216),
        "schnapsen": (241, 969),
        "sixtysix-3": (266, 1376),
        "sixtysix-4": (335, 1565),
    }


@pytest.mark.parametrize("match", [False, True])
def test_the_metadata_carries_the_version_and_the_match_flag(match: bool) -> None:
    enc = encoder(make("schnapsen"), match=match)
    meta = json.loads(json.dumps(enc.metadata()))
    assert ENCODING_VERSION == 2
    assert meta["version"] == ENCODING_VERSION and meta["match"] is match
    assert meta["obs_size"] == enc.obs_size and meta["info_size"] == enc.info_size
    names = [f["name"] for f in meta["obs_fields"]]
    assert ("match" in names) is match
    if match:
        assert meta["match_slots"] == list(match_slot_names(2))
    else:
        assert "match_slots" not in meta


def test_the_research_page_gives_the_match_fields_sizes() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text("utf-8")
    section = page.split("\n### Match state\n", 1)[1].split("\n## ", 1)[0]
    sizes = [encoder(make(name), match=True).layout.field("match").size for name in NAMES]
    assert sizes == [9, 9, 12, 15]
    assert "9 floats in 66\nand Schnapsen, 12 in 66-3 and 15 in 66-4" in section
    for name in NAMES:
        enc = encoder(make(name), match=True)
        assert f"**{enc.obs_size}**" in section and f"**{enc.info_size}**" in section
    assert "`sixtysix.envs.ENCODING_VERSION`" in section and "Version 2 adds" in section


# ---------------------------------------------------------------------- floats by hand


def a_view(name: str, seat: int, options: dict[str, object] | None = None) -> View:
    return played_to(make(name, options), random.Random(5), 3).view(seat)


def floats(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float32)


def test_a_match_to_a_target_from_both_seats() -> None:
    enc = encoder(make("sixtysix"), match=True)
    match = MatchView((3, 5), 7, None, 2, 1)
    mine = part(enc, enc.observation(with_match(a_view("sixtysix", 0), match)))
    # Totals /7, to go /7, no deals left (a target), 2 played / (2 x 7), next dealer, flag.
    np.testing.assert_array_equal(mine, floats(3 / 7, 5 / 7, 4 / 7, 2 / 7, 0, 2 / 14, 0, 1, 1))
    theirs = part(enc, enc.info_state(with_match(a_view("sixtysix", 1), match)))
    np.testing.assert_array_equal(theirs, floats(5 / 7, 3 / 7, 2 / 7, 4 / 7, 0, 2 / 14, 1, 0, 1))


def test_a_match_of_four_deals() -> None:
    options: dict[str, object] = {"match": "four_deals"}
    enc = encoder(make("sixtysix", options), match=True)
    match = MatchView((4, 1), None, 4, 3, 0)
    got = part(enc, enc.observation(with_match(a_view("sixtysix", 1, options), match)))
    # Totals / (3 x 4), nothing to go, 1 deal of 4 left, 3 of 4 played, next dealer +1.
    np.testing.assert_array_equal(got, floats(1 / 12, 4 / 12, 0, 0, 1 / 4, 3 / 4, 0, 1, 1))


def test_figures_beyond_the_bounds_are_clipped() -> None:
    enc = encoder(make("sixtysix"), match=True)
    match = MatchView((9, 2), 7, None, 20, 0)
    got = part(enc, enc.observation(with_match(a_view("sixtysix", 0), match)))
    np.testing.assert_array_equal(got, floats(1, 2 / 7, 0, 5 / 7, 0, 1, 1, 0, 1))
    assert ((got >= 0) & (got <= 1)).all()


def test_relative_seats_at_a_table_of_four() -> None:
    """Seat 2 sees seat 3 as +1 and seat 0 as +2, in every per-seat part."""
    enc = encoder(make("sixtysix-4"), match=True)
    match = MatchView((1, 2, 3, 4), 7, None, 5, 3)
    for seat, order in ((0, (0, 1, 2, 3)), (2, (2, 3, 0, 1))):
        got = part(enc, enc.observation(with_match(a_view("sixtysix-4", seat), match)))
        totals = [(s + 1) / 7 for s in order]
        to_go = [(7 - s - 1) / 7 for s in order]
        dealer = [float(s == 3) for s in order]
        np.testing.assert_array_equal(got, floats(*totals, *to_go, 0, 5 / 28, *dealer, 1))


def test_a_deal_played_alone_is_all_zeros() -> None:
    for name in NAMES:
        enc = encoder(make(name), match=True)
        view = a_view(name, 0)
        assert view.match is None
        assert not part(enc, enc.info_state(view)).any()
        base = encoder(make(name))
        np.testing.assert_array_equal(
            without_match(enc, enc.info_state(view)), base.info_state(view)
        )
        assert enc.obs_string(view) == f"{base.obs_string(view)}; match -"


def test_a_match_state_of_another_table_is_refused() -> None:
    enc = encoder(make("sixtysix"), match=True)
    view = with_match(a_view("sixtysix", 0), MatchView((1, 2, 3), 7, None, 0, 0))
    with pytest.raises(EncodingError, match="3 seats"):
        enc.info_state(view)


# ---------------------------------------------------------------------- strings


def test_the_strings_say_the_match_by_relative_seat() -> None:
    enc = encoder(make("sixtysix"), match=True)
    base = encoder(make("sixtysix"))
    plain = a_view("sixtysix", 1)
    view = with_match(plain, MatchView((3, 5), 7, None, 2, 1))
    said = "match totals me 5, +1 3, target 7, played 2, next dealer me"
    assert enc.obs_string(view) == f"{base.obs_string(view)}; {said}"
    assert (
        enc.info_string(view)
        == f"{enc.obs_string(view)}; history " + (base.info_string(view).split("; history ", 1)[1])
    )
    assert base.info_string(view) == base.info_string(plain)  # the default: no match part
    four = with_match(plain, MatchView((3, 5), None, 4, 1, 0))
    assert enc.obs_string(four).endswith(
        "match totals me 5, +1 3, deals 4, played 1, next dealer +1"
    )


# ---------------------------------------------------------------------- over random play


@given(formats, st.randoms(use_true_random=False))
def test_the_match_vectors_are_the_documented_layout(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    """Over the deals of a match, slot by slot the oracle's; without the match field, the
    default encoder's vectors."""
    variant = make(*config)
    enc, base = encoder(variant, match=True), encoder(variant)
    for view in match_deals(variant, rnd, 2):
        assert view.match is not None
        info = enc.info_state(view)
        np.testing.assert_array_equal(info, reference(enc, view))
        np.testing.assert_array_equal(enc.observation(view), reference(enc, view, history=False))
        np.testing.assert_array_equal(without_match(enc, info), base.info_state(view))
        assert ((info >= 0) & (info <= 1)).all() and part(enc, info)[-1] == 1


@given(formats, st.randoms(use_true_random=False), st.data())
def test_views_that_differ_only_in_the_match_encode_apart_only_with_the_field(
    config: tuple[str, dict[str, object]], rnd: random.Random, data: st.DataObject
) -> None:
    variant = make(*config)
    enc, base = encoder(variant, match=True), encoder(variant)
    view = played_to(variant, rnd, rnd.randrange(30)).view(rnd.randrange(variant.seats))
    a, b = data.draw(match_views(variant)), data.draw(match_views(variant))
    assume(a != b)
    one, other = with_match(view, a), with_match(view, b)
    assert not np.array_equal(enc.info_state(one), enc.info_state(other))
    assert not np.array_equal(enc.observation(one), enc.observation(other))
    assert enc.info_string(one) != enc.info_string(other)
    np.testing.assert_array_equal(base.info_state(one), base.info_state(other))
    assert base.info_string(one) == base.info_string(other)


@given(configs, st.randoms(use_true_random=False))
def test_positions_a_seat_can_tell_apart_in_a_match_encode_differently(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    """Equal info states and strings of the match encoder only for views holding exactly the
    same knowledge, the match's state included (over the deals of a match)."""
    variant = make(*config)
    enc = encoder(variant, match=True)
    skip = {"variant", "rules", "options"}
    by_vector: dict[bytes, tuple[object, ...]] = {}
    by_text: dict[str, tuple[object, ...]] = {}
    for view in match_deals(variant, rnd, 3):
        knowledge = tuple(
            getattr(view, f.name) for f in dataclasses.fields(View) if f.name not in skip
        )
        assert by_vector.setdefault(enc.info_state(view).tobytes(), knowledge) == knowledge
        assert by_text.setdefault(enc.info_string(view), knowledge) == knowledge


@given(configs, st.randoms(use_true_random=False), st.integers(0, 40))
def test_positions_a_seat_cannot_tell_apart_in_a_match_encode_the_same(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    """Deals the sampler draws for a seat's view of a match carry the same match state."""
    variant = make(*config)
    enc = encoder(variant, match=True)
    game = MatchState(variant, Seed(rnd.getrandbits(64)))
    state = game.next_deal()
    while not state.is_over and len(state.history) < stop:
        state.apply(rnd.choice(state.legal_actions()))
    assume(not state.is_over)
    stream = Seed(rnd.getrandbits(32)).stream(("envs",))
    for seat in range(state.n):
        view = state.view(seat)
        other = Sampler(view, variant).sample(stream).view(seat)
        assert other.match == view.match is not None
        np.testing.assert_array_equal(enc.info_state(other), enc.info_state(view))
        assert enc.info_string(other) == enc.info_string(view)
