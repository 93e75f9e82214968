"""The messages of sixtysix-player/1: a view survives the wire exactly, lines are framed and
bounded, and every player message is checked."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.core.actions import parse_action
from sixtysix.core.match_state import MatchState
from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.protocol import messages
from sixtysix.protocol.messages import IllegalAnswer, ProtocolError
from tests.helpers import deal

VARIANTS = ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"]


def _a_view() -> View:
    variant = build_registry(autoload=False).variant("66")()
    state = variant.new_deal(variant.deal(Seed(9), ("d",), 0))
    return state.view(state.to_act)


def _a_view_in_a_match() -> View:
    variant = build_registry(autoload=False).variant("66")()
    state = MatchState(variant, Seed(9)).next_deal()
    return state.view(state.to_act)


_VIEW = _a_view()
_MATCH_VIEW = _a_view_in_a_match()


@pytest.mark.parametrize("name", VARIANTS)
@given(seed=st.integers(0, 10**6))
def test_every_view_of_a_game_comes_back_from_its_line_exactly(
    registry: Registry, name: str, seed: int
) -> None:
    variant = registry.variant(name)()
    state = variant.new_deal(variant.deal(Seed(seed), ("deal",), seed % variant.seats))
    bot = registry.bot("random")(0, Seed(seed))
    while not state.is_over:
        for seat in range(variant.seats):
            view = state.view(seat)
            line = messages.encode_line(messages.decide_message(view, 1000))
            assert line.endswith(b"\n") and line.count(b"\n") == 1
            message = messages.parse_line(line)
            assert messages.decode_view(message["view"], message["legal"], registry) == view
        state.apply(bot.choose(state.view(state.to_act)))


def test_options_travel_with_the_view(registry: Registry) -> None:
    variant = registry.variant("66").configure(overrides={"claim": "manual", "target": 11})
    state = variant.new_deal(variant.deal(Seed(1), ("d",), 0))
    view = state.view(state.to_act)
    encoded = messages.encode_view(view)
    assert encoded["options"]["claim"] == "manual" and encoded["options"]["target"] == 11
    back = messages.decode_view(encoded, [str(a) for a in view.legal_actions], registry)
    assert back.rules == variant.rules and back.rules.manual_claim
    assert back == view


def test_a_hand_made_view_in_records_notation(registry: Registry) -> None:
    variant = registry.variant("66")()
    state = deal(variant, ["AS TS KH QH 9D JC", "AC TC KC QC JD 9H"], trump_card="9S", dealer=1)
    message = messages.decide_message(state.view(0), 2500)
    view = message["view"]
    assert view["hand"] == ["JC", "9D", "QH", "KH", "TS", "AS"]
    assert view["trump"] == "S" and view["turnup"] == "9S" and view["phase"] == "play"
    assert view["talon_size"] == 12 and view["partner"] is None and view["closed_by"] is None
    assert "marry H" in message["legal"] and message["deadline_ms"] == 2500
    assert message["legal"] == [str(a) for a in state.view(0).legal_actions]  # engine order
    # the other seat's view lists no action: it is not to act
    assert messages.decide_message(state.view(1), 1)["legal"] == []


def test_the_referee_messages(registry: Registry) -> None:
    variant = registry.variant("66")()
    assert messages.hello() == {"type": "hello", "protocol": "sixtysix-player/1"}
    match = messages.match_message(variant, 1)
    assert match["variant"] == "sixtysix" and match["seat"] == 1 and match["seats"] == 2
    assert match["target"] == 7 and match["deals"] is None
    assert match["options"] == variant.options.as_dict()
    assert messages.event_message(0, parse_action("marry H")) == {
        "type": "event",
        "seat": 0,
        "action": "marry H",
    }
    outcome = Outcome(Reason.REACHED_66, (2, 0), (70, 20), (4, 1))
    result = messages.result_message(3, outcome, [[parse_action("play AS").card or 0], []])
    assert result["result"]["reason"] == "reached_66" and result["hands"] == [["AS"], []]
    assert messages.match_over_message([7, 3], [0])["winners"] == [0]
    for message in (match, result, messages.quit_message()):
        assert messages.parse_line(messages.encode_line(message)) == message


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b"not json", "not a JSON line"),
        (b"[1]", "not a JSON object"),
        (b'{"action": "x"}', "without a string type"),
        (b'{"type": 3}', "without a string type"),
        (b"\xff\xfe", "not a JSON line"),
        (b'{"type": "hello", "pad": "' + b"x" * 100 + b'"}', "more than 64 bytes"),
    ],
)
def test_bad_lines(line: bytes, error: str) -> None:
    with pytest.raises(ProtocolError, match=error):
        messages.parse_line(line, max_line=64)


def test_unknown_fields_are_ignored() -> None:
    message = messages.parse_line(b'{"type": "action", "action": "close", "why": "late"}\r\n')
    assert messages.check_action(message, [parse_action("close")]) == parse_action("close")


def test_the_hello_reply_is_checked() -> None:
    name, variants = messages.check_hello_reply(messages.hello_reply("bot", ["66", "Schnapsen"]))
    assert name == "bot" and variants == ("66", "schnapsen")
    assert messages.check_hello_reply({"type": "hello", "protocol": messages.PROTOCOL}) == (
        "",
        ("*",),
    )
    with pytest.raises(ProtocolError, match="not sixtysix-player/1"):
        messages.check_hello_reply({"type": "hello", "protocol": "uci"})
    with pytest.raises(ProtocolError, match="expected a hello"):
        messages.check_hello_reply({"type": "action"})
    with pytest.raises(ProtocolError, match="a name must be"):
        messages.check_hello_reply(messages.hello_reply("x" * 101))
    with pytest.raises(ProtocolError, match="variants must be"):
        messages.check_hello_reply({**messages.hello_reply("b"), "variants": "66"})


def test_actions_are_read_forgivingly_and_checked_against_the_legal_ones() -> None:
    legal = [parse_action("play TH"), parse_action("marry H")]
    assert messages.check_action({"type": "action", "action": "play 10♥"}, legal) == legal[0]
    assert messages.check_action({"type": "action", "action": " MARRY h "}, legal) == legal[1]
    with pytest.raises(IllegalAnswer, match="'play AS' is not legal now"):
        messages.check_action({"type": "action", "action": "play AS"}, legal)
    with pytest.raises(IllegalAnswer, match="unknown action"):
        messages.check_action({"type": "action", "action": "jump"}, legal)
    with pytest.raises(ProtocolError, match="at most 100 characters"):
        messages.check_action({"type": "action", "action": "play " * 30}, legal)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_match_state_travels_with_every_view_of_a_match(registry: Registry, name: str) -> None:
    variant = registry.variant(name)()
    match = MatchState(variant, Seed(4))
    for _ in range(2):
        state = match.next_deal()
        while not state.is_over:
            view = state.view(state.to_act)
            encoded = messages.encode_view(view)
            assert encoded["match"] == state.match.as_json()  # type: ignore[union-attr]
            back = messages.decode_view(encoded, [str(a) for a in view.legal_actions], registry)
            assert back == view and back.match == view.match
            legal = state.legal_actions()
            state.apply_legal(legal[len(state.history) % len(legal)])
        match.settle()
    assert messages.encode_view(state.view(0))["match"]["played"] == 1  # type: ignore[index]


def test_a_view_without_the_match_field_is_a_deal_played_alone(registry: Registry) -> None:
    old = {k: v for k, v in messages.encode_view(_VIEW).items() if k != "match"}
    back = messages.decode_view(old, [str(a) for a in _VIEW.legal_actions], registry)
    assert back.match is None and back == _VIEW


def test_a_broken_match_state_is_a_protocol_error(registry: Registry) -> None:
    variant = registry.variant("66")()
    state = MatchState(variant, Seed(3)).next_deal()
    good = messages.encode_view(state.view(0))
    m = good["match"]
    for broken in (
        [1, 2],
        {**m, "totals": [0]},
        {**m, "totals": [0, -1]},
        {**m, "totals": [0, True]},
        {**m, "totals": [0, 10**9]},
        {**m, "deals": 4},
        {**m, "target": None},
        {**m, "next_dealer": 2},
        {**m, "played": "1"},
        {k: v for k, v in m.items() if k != "played"},
    ):
        with pytest.raises(ProtocolError, match=r"not a valid view: .*match"):
            messages.decode_view({**good, "match": broken}, [], registry)


def test_a_view_that_is_not_one_is_a_protocol_error(registry: Registry) -> None:
    variant = registry.variant("66")()
    state = variant.new_deal(variant.deal(Seed(2), ("d",), 0))
    good = messages.encode_view(state.view(0))
    for broken in (
        {**good, "variant": "chess"},
        {**good, "seat": "0"},
        {**good, "hand": ["ZZ"]},
        {**good, "phase": "bidding"},
        {k: v for k, v in good.items() if k != "trick"},
        {**good, "options": {"claim": "sometimes"}},
    ):
        with pytest.raises(ProtocolError, match="not a valid view"):
            messages.decode_view(broken, [], registry)
    assert json.loads(json.dumps(good)) == good


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)


@given(line=st.binary(max_size=200))
def test_any_line_is_a_message_or_a_protocol_error(line: bytes) -> None:
    try:
        message = messages.parse_line(line)
    except ProtocolError:
        return
    assert isinstance(message, dict) and isinstance(message["type"], str)


@given(message=st.dictionaries(st.sampled_from(["type", "action", "x"]), JSON))
def test_any_answer_is_an_action_or_one_of_two_errors(message: dict[str, object]) -> None:
    legal = [parse_action("close")]
    with contextlib.suppress(ProtocolError, IllegalAnswer):
        assert messages.check_action(message, legal) == legal[0]


@given(field=st.sampled_from(sorted(messages.encode_view(_VIEW))), value=JSON)
def test_any_broken_view_field_is_a_protocol_error_or_harmless(
    registry: Registry, field: str, value: object
) -> None:
    view = {**messages.encode_view(_VIEW), field: value}
    with contextlib.suppress(ProtocolError):
        messages.decode_view(view, [str(a) for a in _VIEW.legal_actions], registry)


@given(field=st.sampled_from(["totals", "target", "deals", "played", "next_dealer"]), value=JSON)
def test_any_broken_match_field_is_a_protocol_error_or_harmless(
    registry: Registry, field: str, value: object
) -> None:
    encoded = messages.encode_view(_MATCH_VIEW)
    view = {**encoded, "match": {**encoded["match"], field: value}}
    with contextlib.suppress(ProtocolError):
        back = messages.decode_view(view, [str(a) for a in _MATCH_VIEW.legal_actions], registry)
        assert back.match is not None
