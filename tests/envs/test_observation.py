"""The encodings of a view: layout, equal for what a seat cannot tell apart, different for
what it can, and nothing from another seat's hidden cards."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from sixtysix.bots.inference.sampling import Sampler
from sixtysix.core.cards import mask_of, parse_card
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.envs import ENCODING_VERSION, Encoder, EncodingError, action_of, encoder
from sixtysix.testing.play import hidden_from, redeal_unseen, replayed
from tests.envs.common import CONFIGS, make, new_deal, played_to
from tests.envs.reference import reference
from tests.helpers import act, deal

configs = st.sampled_from(CONFIGS)


def views_of_a_deal(state: DealState, rnd: random.Random) -> list[View]:
    """Every seat's view at every step of a random deal, the end included."""
    views = []
    while True:
        views += [state.view(seat) for seat in range(state.n)]
        if state.is_over:
            return views
        state.apply(rnd.choice(state.legal_actions()))


def seat_knowledge(view: View) -> tuple[object, ...]:
    """Everything in a view (the variant and its options aside, the same for one encoder)."""
    skip = {"variant", "rules", "options"}
    return tuple(getattr(view, f.name) for f in dataclasses.fields(View) if f.name not in skip)


# ---------------------------------------------------------------------- layout


@pytest.mark.parametrize("match", [False, True])
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_fields_tile_the_vectors(config: tuple[str, dict[str, object]], match: bool) -> None:
    enc = encoder(make(*config), match=match)
    offset = 0
    for field in enc.info_fields:
        assert field.offset == offset and field.size > 0
        offset += field.size
    assert offset == enc.info_size
    assert enc.obs_fields == enc.info_fields[: len(enc.obs_fields)]
    assert enc.obs_size == enc.info_fields[len(enc.obs_fields)].offset
    history = enc.info_fields[-1]
    assert history.name == "history"
    assert history.size == enc.max_history * (enc.seats + len(enc.usable_ids))
    meta = json.loads(json.dumps(enc.metadata()))
    assert meta["info_size"] == enc.info_size and meta["obs_size"] == enc.obs_size
    assert [f["name"] for f in meta["info_fields"]] == [f.name for f in enc.info_fields]
    assert len(meta["history_actions"]) == len(enc.usable_ids)
    assert meta["version"] == ENCODING_VERSION and meta["match"] is match


def test_sizes_of_the_built_in_variants() -> None:
    sizes = {
        name: (encoder(make(name)).info_size, encoder(make(name)).obs_size)
        for name in ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")
    }
    assert sizes == {
        "sixtysix": (1216, 256),
        "schnapsen": (969, 241),
        "sixtysix-3": (1376, 266),
        "sixtysix-4": (1565, 335),
    }


def test_one_encoder_per_variant_and_options() -> None:
    assert encoder(make("sixtysix")) is encoder(make("sixtysix"))
    assert encoder(make("sixtysix")) is not encoder(make("sixtysix", {"claim": "manual"}))


@given(configs, st.randoms(use_true_random=False))
def test_the_vectors_are_the_documented_layout(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    """Slot by slot, the fast encoding is the layout it publishes (a plain oracle)."""
    variant = make(*config)
    enc = encoder(variant)
    buffer = np.full(enc.info_size, 7.0, dtype=np.float32)
    for view in views_of_a_deal(new_deal(variant, rnd), rnd):
        info = enc.info_state(view)
        assert info.dtype == np.float32 and info.shape == (enc.info_size,)
        np.testing.assert_array_equal(info, reference(enc, view))
        np.testing.assert_array_equal(enc.observation(view), reference(enc, view, history=False))
        assert enc.info_state(view, out=buffer) is buffer
        np.testing.assert_array_equal(buffer, info)
        assert ((info >= 0) & (info <= 1)).all()
        info[0] = 5.0  # a vector of its own, writable
        assert enc.info_state(view)[0] != 5.0


# ---------------------------------------------------------------------- what a seat knows


@given(configs, st.randoms(use_true_random=False), st.integers(0, 40))
def test_positions_a_seat_cannot_tell_apart_encode_the_same(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    """Other true deals consistent with a seat's view (the project's sampler) give that seat
    the same encodings."""
    variant = make(*config)
    enc = encoder(variant)
    state = played_to(variant, rnd, stop)
    assume(not state.is_over)
    stream = Seed(rnd.getrandbits(32)).stream(("envs",))
    for seat in range(state.n):
        view = state.view(seat)
        info, obs = enc.info_state(view), enc.observation(view)
        text, obs_text = enc.info_string(view), enc.obs_string(view)
        sampler = Sampler(view, variant)
        for _ in range(3):
            other = sampler.sample(stream).view(seat)
            np.testing.assert_array_equal(enc.info_state(other), info)
            np.testing.assert_array_equal(enc.observation(other), obs)
            assert enc.info_string(other) == text and enc.obs_string(other) == obs_text


@given(configs, st.randoms(use_true_random=False), st.integers(0, 60))
def test_the_hidden_cards_never_reach_the_encoding(
    config: tuple[str, dict[str, object]], rnd: random.Random, stop: int
) -> None:
    """Deal the cards a seat cannot see differently (same public play): same encodings; and
    no hidden card is set in any card field."""
    variant = make(*config)
    enc = encoder(variant)
    state = played_to(variant, rnd, stop)
    seat = rnd.randrange(state.n)
    view = state.view(seat)
    info = enc.info_state(view)
    hidden = hidden_from(state, seat)
    fields = {f.name: f for f in enc.info_fields}
    for name in ("hand", "turnup", "played", "trick", "known"):
        if name in fields:
            f = fields[name]
            run = info[f.offset : f.offset + f.size].reshape(-1, 24)
            for row in run:
                assert not mask_of(int(c) for c in np.flatnonzero(row)) & hidden, name
    if state.is_over:
        return  # the end of a deal shows what was hidden (the partner of a side at 66)
    for k in range(4):
        setup = redeal_unseen(state, seat, Seed(rnd.getrandbits(32)), k)
        if setup is None:
            break
        other = replayed(variant, state, setup)
        if other is None:
            continue  # the redeal contradicts what play showed (a void, or the deal's end)
        assert other.view(seat) == view
        np.testing.assert_array_equal(enc.info_state(other.view(seat)), info)
        assert enc.info_string(other.view(seat)) == enc.info_string(view)


@given(configs, st.randoms(use_true_random=False))
def test_positions_a_seat_can_tell_apart_encode_differently(
    config: tuple[str, dict[str, object]], rnd: random.Random
) -> None:
    """Over many views (every seat, every step, several deals): equal info states and equal
    info strings only for views holding exactly the same knowledge."""
    variant = make(*config)
    enc = encoder(variant)
    by_vector: dict[bytes, tuple[object, ...]] = {}
    by_text: dict[str, tuple[object, ...]] = {}
    for _ in range(3):
        for view in views_of_a_deal(new_deal(variant, rnd), rnd):
            knowledge = seat_knowledge(view)
            assert by_vector.setdefault(enc.info_state(view).tobytes(), knowledge) == knowledge
            assert by_text.setdefault(enc.info_string(view), knowledge) == knowledge
            assert enc.info_string(view) == enc.info_string(view)


def test_the_same_history_with_another_hand_encodes_differently() -> None:
    variant = make("sixtysix")
    enc = encoder(variant)
    a = deal(variant, ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"], "9C")
    b = deal(variant, ["AS TS KS QS JS 9D", "AH TH KH QH JH 9H"], "9C")
    for state in (a, b):
        act(state, "AS", "9H")
    assert a.view(0).history == b.view(0).history
    assert not np.array_equal(enc.info_state(a.view(0)), enc.info_state(b.view(0)))
    assert not np.array_equal(enc.observation(a.view(0)), enc.observation(b.view(0)))
    assert enc.info_string(a.view(0)) != enc.info_string(b.view(0))
    # Seat 1 cannot tell the two deals apart.
    np.testing.assert_array_equal(enc.info_state(a.view(1)), enc.info_state(b.view(1)))


def test_another_history_encodes_differently() -> None:
    variant = make("sixtysix")
    enc = encoder(variant)
    a = act(deal(variant, ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"], "9C"), "AS", "9H", "TS")
    b = act(deal(variant, ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"], "9C"), "AS", "JH", "TS")
    assert a.view(0).hand == b.view(0).hand
    assert not np.array_equal(enc.info_state(a.view(0)), enc.info_state(b.view(0)))
    assert enc.info_string(a.view(0)) != enc.info_string(b.view(0))


# ---------------------------------------------------------------------- slots by hand


def run(enc: Encoder, vector: np.ndarray, name: str) -> list[int]:
    """The positions set in one field."""
    field = next(f for f in enc.info_fields if f.name == name)
    return [int(i) for i in np.flatnonzero(vector[field.offset : field.offset + field.size])]


def card(text: str) -> int:
    return int(parse_card(text))


def test_a_marriage_and_the_trump_in_two_player_66() -> None:
    variant = make("sixtysix")
    enc = encoder(variant)
    # Seat 1 is the forehand (dealer 0) and leads.
    state = deal(variant, ["AS TS 9S JC 9D JD", "KH QH AC TC QC KC"], "9H", dealer=0)
    act(state, "marry H", "KH")
    for seat in (0, 1):
        info = enc.info_state(state.view(seat))
        me = seat == 1
        assert run(enc, info, "trump") == [2]  # hearts
        assert run(enc, info, "marriages") == [0 * 4 + 2 if me else 1 * 4 + 2]
        assert run(enc, info, "known") == ([card("QH")] if me else [24 + card("QH")])
        assert run(enc, info, "turnup") == [card("9H")]
        assert run(enc, info, "trick") == ([card("KH")] if me else [24 + card("KH")])
        assert run(enc, info, "dealer") == [1 if me else 0]
        assert run(enc, info, "leader") == [0 if me else 1]
        assert run(enc, info, "to_act") == [1 if me else 0]
        assert run(enc, info, "talon_size") == [12]
        slot = enc.layout.history_slot
        marry = 2 + enc.usable_ids.index(26)
        play_kh = 2 + enc.usable_ids.index(card("KH"))
        mover = 0 if me else 1
        assert run(enc, info, "history") == [mover, marry, slot + mover, slot + play_kh]
        if me:
            assert card("QH") in run(enc, info, "hand")
            assert card("KH") not in run(enc, info, "hand")
    assert "marriages me H, +1 -" in enc.info_string(state.view(1))
    assert "history me marry H, me play KH" in enc.info_string(state.view(1))
    assert "history +1 marry H, +1 play KH" in enc.info_string(state.view(0))


def test_relative_seats_for_seat_2_of_4() -> None:
    variant = make("sixtysix-4")
    enc = encoder(variant)
    # Dealer 3: seat 0 is the forehand and names trump, then calls the ace of clubs.
    state = deal(
        variant,
        ["KC QC 9H JH TH AH", "AC TC 9C JC KD QD", "9D JD TD AD KS QS", "9S JS TS AS QH KH"],
        dealer=3,
    )
    act(state, "trump H", "partner AC")
    views = [state.view(s) for s in range(4)]
    info = enc.info_state(views[2])
    assert run(enc, info, "seat") == [2]
    assert run(enc, info, "dealer") == [1]  # seat 3 is next after seat 2
    assert run(enc, info, "declarer") == [2]  # seat 0 is two seats on from seat 2
    assert run(enc, info, "leader") == [2] and run(enc, info, "to_act") == [2]
    assert run(enc, info, "called_ace") == [0]  # clubs
    assert run(enc, info, "partner") == []  # seat 2 cannot know it yet
    assert run(enc, info, "phase") == [2]  # play
    assert run(enc, info, "trump") == [2]
    slot = enc.layout.history_slot
    assert run(enc, info, "history") == [
        2,
        4 + enc.usable_ids.index(33),
        slot + 2,
        slot + 4 + enc.usable_ids.index(36),
    ]
    holder = enc.info_state(views[1])
    assert run(enc, holder, "partner") == [0]  # the ace's holder knows: himself
    assert run(enc, enc.info_state(views[0]), "declarer") == [0]
    act(state, "KC", "AC")  # the ace falls: now everyone knows
    assert run(enc, enc.info_state(state.view(2)), "partner") == [3]


def test_a_trump_call_not_yet_made() -> None:
    variant = make("sixtysix-3")
    enc = encoder(variant)
    state = deal(
        variant,
        ["AC TC KC QC JC 9C AD TD", "KD QD JD 9D AH TH KH QH", "JH 9H AS TS KS QS JS 9S"],
        dealer=2,
    )
    info = enc.info_state(state.view(0))
    assert run(enc, info, "trump") == [4]  # not yet named
    assert run(enc, info, "hand") == sorted(card(c) for c in ("AC", "TC", "KC", "QC"))
    assert run(enc, info, "phase") == [0]
    assert run(enc, info, "declarer") == []
    assert run(enc, info, "history") == []


def test_the_closer_and_the_card_points() -> None:
    variant = make("sixtysix")
    enc = encoder(variant)
    state = deal(variant, ["AS TS KS QS JS 9S", "AH TH KH QH JH 9H"], "9C", dealer=1)
    act(state, "AS", "9H", "close")
    info = enc.info_state(state.view(1))
    assert run(enc, info, "closed_by") == [1]
    assert run(enc, info, "tricks") == [0, 13 + 1]
    points = next(f for f in enc.info_fields if f.name == "card_points")
    assert info[points.offset + 1] == pytest.approx(11 / 120)
    assert info[points.offset] == 0
    assert "closed +1" in enc.info_string(state.view(1))


#: The words of the information string, per variant config: the fields its layout keeps.
TWO_PLAYER_FIELDS = (
    "seat dealer phase to_act leader hand trump turnup talon closed trick tricks points"
    " marriages known played history"
)
STRING_FIELDS = {
    "sixtysix": TWO_PLAYER_FIELDS,
    "schnapsen": TWO_PLAYER_FIELDS,
    "sixtysix-3": "seat dealer phase to_act leader hand trump trick tricks points marriages"
    " known played declarer history",
    "sixtysix-4": "seat dealer phase to_act leader hand trump trick tricks points marriages"
    " known played declarer called partner solo history",
}


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_strings_hold_the_fields_the_vectors_hold(
    config: tuple[str, dict[str, object]],
) -> None:
    """A field the layout leaves out (no room in the vectors: the rules cannot use it) is not
    in the strings either: a two-player string names no declarer, partner or solo."""
    variant = make(*config)
    enc = encoder(variant)
    state = played_to(variant, random.Random(4), 7)
    for seat in range(state.n):
        text = enc.info_string(state.view(seat))
        words = [part.split(" ")[0] for part in text.split("; ")]
        names = {f.name for f in enc.info_fields}
        expected = {
            "turnup": "turnup" in names,
            "talon": "talon_size" in names,
            "closed": "closed_by" in names,
            "marriages": "marriages" in names,
            "declarer": "declarer" in names,
            "called": "called_ace" in names,
            "partner": "partner" in names,
            "solo": "solo" in names,
        }
        for word, kept in expected.items():
            assert (word in words) == kept, (word, text)
        assert enc.obs_string(state.view(seat)) == text.rsplit("; history ", 1)[0]
        if not config[1]:
            assert words == [
                "to" if w == "to_act" else w for w in STRING_FIELDS[variant.name].split()
            ]


# ---------------------------------------------------------------------- errors and extras


def test_a_view_of_another_variant_is_refused() -> None:
    four = make("sixtysix-4")
    view = new_deal(four, random.Random(1)).view(3)
    with pytest.raises(EncodingError):
        encoder(make("sixtysix")).info_state(view)
    enc = encoder(four)
    with pytest.raises(EncodingError):
        enc.info_state(view, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(EncodingError):
        enc.info_state(view, out=np.zeros(enc.info_size, dtype=np.float64))


def test_without_numpy_the_import_says_which_extra() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "try:\n"
        "    import sixtysix.envs\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, '|', error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == (
        "MissingExtraError | sixtysix.envs needs the rl extra: pip install 'sixtysix[rl]'"
    )


def test_the_research_page_gives_the_real_layout() -> None:
    """docs/research.md's table of fields: every field, in order, with its size per variant."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text("utf-8")
    section = page.split("\n## Observations\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \|[^|]*\|([^\n]*)\|$", section, re.MULTILINE)
    table = {name: [cell.strip() for cell in sizes.split("|")] for name, sizes in rows}
    names = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")
    for column, name in enumerate(names):
        enc = encoder(make(name))
        documented = [(f, sizes[column]) for f, sizes in table.items() if sizes[column] != "–"]
        assert documented == [(f.name, str(f.size)) for f in enc.info_fields], name
        assert f"**{enc.obs_size}**" in page and f"**{enc.info_size}**" in page


def test_out_may_be_a_strided_view() -> None:
    variant = make("schnapsen")
    enc = encoder(variant)
    view = played_to(variant, random.Random(3), 7).view(0)
    wide = np.zeros((enc.info_size, 2), dtype=np.float32)
    assert enc.info_state(view, out=wide[:, 1]) is not None
    np.testing.assert_array_equal(wide[:, 1], enc.info_state(view))
    assert not wide[:, 0].any()


def test_a_view_beyond_its_rules_is_refused() -> None:
    """A plugin's engine that goes beyond its rules (an action they never offer, a longer
    history than they allow) gets one clear error, not a wrong vector."""
    variant = make("sixtysix")
    enc = encoder(variant)
    view = played_to(variant, random.Random(4), 5).view(0)
    claim = dataclasses.replace(view, history=(*view.history, (0, action_of(30))))
    with pytest.raises(EncodingError, match="does not fit"):
        enc.info_state(claim)
    long = dataclasses.replace(view, history=view.history * 10)
    with pytest.raises(EncodingError, match="longer than"):
        enc.info_state(long)
    enc.observation(long)  # the observation has no history


def test_a_missing_extra_is_one_line() -> None:
    from sixtysix.envs.extras import MissingExtraError, require

    assert require("json", "rl", "the JSON test").dumps([1]) == "[1]"
    with pytest.raises(MissingExtraError) as caught:
        require("sixtysix_no_such_library", "openspiel", "the OpenSpiel game")
    assert str(caught.value) == (
        "the OpenSpiel game needs the openspiel extra: pip install 'sixtysix[openspiel]'"
    )
    assert isinstance(caught.value, ImportError)
