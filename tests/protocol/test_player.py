"""The player's side: run_player answers the hello and every decision from the messages
alone, BotPlayer seeds a bot per deal, and ``sixtysix player`` is such a program."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from sixtysix.bots.levels import resolve_player
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.protocol import messages
from sixtysix.protocol.player import BotPlayer, bot_seed, run_player
from sixtysix.protocol.referee import ExternalPlayer, InProcessPlayer
from sixtysix.testing import invoke_cli
from tests.protocol.loop import play_match

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = build_registry()
#: What ``sixtysix player @hard`` plays at two seats and at four.
FORMS = {n: resolve_player("@hard", REGISTRY, seats=n)[1:] for n in (2, 4)}


def session(registry: Registry, name: str = "sixtysix") -> tuple[list[bytes], list[View]]:
    """The lines a referee sends for the first decision of a deal, and the views there."""
    variant = registry.variant(name)()
    state = variant.new_deal(variant.deal(Seed(3), ("deal", 1), 0))
    view = state.view(state.to_act)
    lines = [
        messages.encode_line(m)
        for m in (
            messages.hello(),
            messages.match_message(variant, view.seat),
            messages.deal_message(1, 0),
            messages.decide_message(view, 1000),
            messages.quit_message(),
        )
    ]
    return lines, [view]


def test_run_player_answers_the_hello_and_a_decision(registry: Registry) -> None:
    lines, (view,) = session(registry)
    seen: list[View] = []
    seen_types: list[str] = []

    def choose(v: View) -> int:
        seen.append(v)
        return v.legal_actions[-1]

    out = io.BytesIO()
    status = run_player(
        choose,
        name="last",
        variants=["66"],
        stdin=io.BytesIO(b"".join(lines) + b"ignored after quit\n"),
        stdout=out,
        registry=registry,
        on_message=lambda m: seen_types.append(m["type"]),
    )
    assert status == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies == [
        messages.hello_reply("last", ["66"]),
        {"type": "action", "action": str(view.legal_actions[-1])},
    ]
    assert seen == [view]  # the very View an in-process bot gets
    assert seen_types == ["hello", "match", "deal", "decide", "quit"]


def test_run_player_stops_at_the_end_of_input_and_takes_action_strings(
    registry: Registry,
) -> None:
    lines, (view,) = session(registry)
    out = io.BytesIO()
    choose = lambda v: str(v.legal_actions[0]).upper()  # noqa: E731
    stdin = io.BytesIO(b"\n".join(lines[:4]))
    assert run_player(choose, name="p", stdin=stdin, stdout=out, registry=registry) == 0
    assert (
        json.loads(out.getvalue().splitlines()[-1])["action"] == str(view.legal_actions[0]).upper()
    )


def test_a_broken_referee_line_is_a_protocol_error(registry: Registry) -> None:
    with pytest.raises(messages.ProtocolError):
        run_player(lambda v: 0, name="p", stdin=io.BytesIO(b"{oops\n"), stdout=io.BytesIO())


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"type":"match"}', "a match message without a valid seat"),
        ('{"type":"match","seat":"0"}', "a match message without a valid seat"),
        ('{"type":"match","seat":true}', "a match message without a valid seat"),
        ('{"type":"deal","number":-1}', "a deal message without a valid number"),
        ('{"type":"deal"}', "a deal message without a valid number"),
    ],
)
def test_sixtysix_player_refuses_a_message_without_its_fields(line: str, reason: str) -> None:
    result = invoke_cli(["player", "random"], input=line + "\n")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"Error: {reason}"
    assert "Traceback" not in result.output


def test_bot_player_makes_a_bot_per_deal_from_its_seed(registry: Registry) -> None:
    cls = registry.bot("random")
    player = BotPlayer(cls, {}, seed=5)
    player.on_message({"type": "match", "seat": 1})
    player.on_message({"type": "deal", "number": 2})
    assert player.bot is not None and player.bot.seat == 1
    expected = bot_seed(Seed(5), 1, 2)
    assert player.bot.seed.key == expected.key
    assert bot_seed(Seed(5), 1, 2).key != bot_seed(Seed(5), 2, 1).key


def test_sixtysix_player_plays_a_session(registry: Registry) -> None:
    lines, (view,) = session(registry)
    result = invoke_cli(["player", "random", "--seed", "1"], input=b"".join(lines).decode())
    assert result.exit_code == 0, result.output
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert replies[0]["name"] == "random" and replies[0]["protocol"] == messages.PROTOCOL
    assert replies[1]["action"] in [str(a) for a in view.legal_actions]


def test_a_level_over_the_protocol_plays_its_form_for_the_table(registry: Registry) -> None:
    """``sixtysix player @hard`` is the search at two seats and the rule player at four:
    the bot of each match is chosen by the seats its ``match`` message names."""
    for name, bot in (("sixtysix", "expert"), ("sixtysix-4", "heuristic")):
        lines, _ = session(registry, name)
        player = BotPlayer(registry.bot("random"), {}, seed=1, forms=lambda n: FORMS[n])
        for line in lines[1:3]:
            player.on_message(messages.parse_line(line))
        assert player.bot is not None and player.bot.name == bot
    result = invoke_cli(["player", "@hard", "--seed", "1"], input=b"".join(lines).decode())
    assert result.exit_code == 0, result.output
    hello, action = (json.loads(line) for line in result.stdout.splitlines()[:2])
    assert hello["name"] == "@hard" and action["action"]


def test_sixtysix_player_names_itself_by_its_spec() -> None:
    """The hello says what the operator asked for, parameters and all, at any table."""
    hello = '{"type": "hello", "protocol": "sixtysix-player/1"}\n'
    for spec in ("heuristic:noise=0.2", "@medium:seed=3"):
        result = invoke_cli(["player", spec], input=hello)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.splitlines()[0])["name"] == spec


def test_sixtysix_player_refuses_a_level_parameter_unknown_at_any_table() -> None:
    result = invoke_cli(["player", "@hard:samples=4"])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert "at a table of 3 seats @hard is heuristic" in line and "'samples'" in line


def test_sixtysix_player_refuses_an_unknown_bot_in_one_line() -> None:
    result = invoke_cli(["player", "nobody"])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: unknown bot 'nobody'")
    result = invoke_cli(["player", "random:depth=3"])
    assert result.exit_code == 2 and "no parameter 'depth'" in result.output


def test_the_python_example_plays_a_match(registry: Registry) -> None:
    variant = registry.variant("sixtysix-3")()
    argv = [sys.executable, str(ROOT / "examples" / "python-player" / "player.py")]
    with ExternalPlayer(argv, start_timeout=60, move_timeout=60) as ext:
        ext.start(variant)
        assert ext.name == "highest-card"
        seats = [ext, *(InProcessPlayer(registry.bot("random")(s, Seed(s)).choose) for s in (1, 2))]
        for deal in play_match(variant, seats, Seed(4)):
            assert deal.fault is None, deal.fault
