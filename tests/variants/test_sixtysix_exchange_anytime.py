"""66's ``exchange_anytime`` ([004]: the trump-9 exchange whenever the holder likes once he has a
trick), from hand-built deals: the engine, the explanations, records, the bots and the fast
paths that must hand such games to the generic engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sixtysix.bots.players.heuristic import decide
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.bots.search.solver import Solver
from sixtysix.compiled.allowed import supports
from sixtysix.core.actions import CLOSE, EXCHANGE, NUM_CARDS
from sixtysix.core.cards import parse_card
from sixtysix.core.errors import IllegalActionError
from sixtysix.core.records import DealRecord, Record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.i18n import Translator
from sixtysix.service.explain import why_illegal
from sixtysix.sim.random_games import applies
from sixtysix.sim.simulate import BotSpec, iter_chunks, play_game, play_one
from sixtysix.variants.sixtysix import SixtySix
from tests.helpers import act, deal, legal, position

C = parse_card
ANYTIME = {"exchange_anytime": True}


def v66(**opts: object) -> SixtySix:
    return SixtySix.configure(None, opts)


def following(
    talon: str = "9D 9C QC", tricks: tuple[int, int] = (1, 1), **opts: object
) -> DealState:
    """Seat 0 has led AD; seat 1, to follow, holds the trump 9 (spades, KS turned up)."""
    return position(
        v66(**opts),
        ["TC KD QD JC TH", "9S AH JD TD AC 9H"],
        trump="S",
        turnup="KS",
        talon=talon,
        to_act=1,
        tricks=list(tricks),
        trick="AD",
    )


# --------------------------------------------------------------------------- the engine


def test_follower_exchange_only_with_the_option() -> None:
    st = following()
    assert "exchange" not in legal(st)
    with pytest.raises(IllegalActionError) as err:
        st.apply(EXCHANGE)
    assert (
        str(err.value)
        == "seat 1 cannot exchange: only the seat on lead may do that, before leading"
    )
    st = following(**ANYTIME)
    assert legal(st) == sorted(["exchange", *(f"play {c}" for c in "9S AH JD TD AC 9H".split())])


def test_follower_exchanges_then_plays_the_card_taken() -> None:
    st = following(**ANYTIME)
    act(st, "exchange")
    # The same seat acts again, the trick goes on, and the turn-up is in his hand (known to all).
    assert st.to_act == 1 and st.trick == [(0, C("AD"))]
    assert st.turnup == C("9S") and st.hands[1] >> C("KS") & 1
    assert C("KS") in st.view(0).known[1]
    # Only cards now: no second exchange, and closing stays with the seat on lead.
    assert legal(st) == sorted(f"play {c}" for c in "KS AH JD TD AC 9H".split())
    with pytest.raises(IllegalActionError, match="only the seat on lead may do that"):
        st.apply(CLOSE)
    act(st, "KS")  # trumps the ace
    assert st.last_winner == 1 and st.to_act == 1 and st.card_points[1] == 11 + 4
    assert st.hands[1] >> C("9D") & 1 and st.hands[0] >> C("9C") & 1  # winner draws first
    assert st.talon_size == 2 and st.turnup == C("9S")


def test_follower_exchange_needs_a_trick_unless_the_option_says_otherwise() -> None:
    st = following(tricks=(1, 0), **ANYTIME)
    assert "exchange" not in legal(st)
    assert st.explain(EXCHANGE) == "must have won a trick first"
    assert "exchange" in legal(following(tricks=(1, 0), exchange_needs_trick=False, **ANYTIME))


def test_follower_exchange_needs_an_open_talon_big_enough() -> None:
    small = following(talon="9D", **ANYTIME)
    assert small.talon_size == 2 and "exchange" not in legal(small)
    assert small.explain(EXCHANGE) == "the talon holds fewer than 3 cards"
    assert "exchange" in legal(following(talon="9D", exchange_min_talon=2, **ANYTIME))
    closed = position(
        v66(**ANYTIME),
        ["TC KD QD JC TH", "9S AH JD TD AC 9H"],
        trump="S",
        turnup="KS",
        talon="9D 9C QC",
        to_act=1,
        tricks=[1, 1],
        trick="JC",
        closed_by=0,
    )
    assert "exchange" not in legal(closed)
    assert closed.explain(EXCHANGE) == "the talon is closed or exhausted"
    assert "exchange" not in legal(following(exchange=False, **ANYTIME))


def test_on_lead_the_order_stays_exchange_then_close() -> None:
    st = position(
        v66(**ANYTIME),
        ["9S AD TC KD QD JC", "KH 9H AS JD TD AC"],
        trump="S",
        turnup="KS",
        talon="9D 9C QC",
        tricks=[1, 1],
    )
    act(st, "exchange", "close")
    assert st.closed_by == 0 and "exchange" not in legal(st)
    st = position(
        v66(**ANYTIME),
        ["9S AD TC KD QD JC", "KH 9H AS JD TD AC"],
        trump="S",
        turnup="KS",
        talon="9D 9C QC",
        tricks=[1, 1],
    )
    act(st, "close")
    assert "exchange" not in legal(st)


# Seat 0 leads 9D, seat 1 takes it with AD (drawing QC; seat 0 draws 9C); seat 1 leads 9H,
# seat 0 takes it with TH (drawing JS; seat 1 draws the trump 9). Seat 0 then leads TC.
LATER_NINE_HANDS = ["9D TC KD QD JC TH", "AD 9H JH AC JD TD"]
LATER_NINE_ACTIONS = ("9D", "AD", "9H", "TH", "TC")


def later_nine(**opts: object) -> DealState:
    st = deal(v66(**opts), LATER_NINE_HANDS, "KS", talon="QC 9C JS 9S", dealer=1)
    act(st, *LATER_NINE_ACTIONS)
    return st


def test_a_nine_drawn_later_is_exchanged_as_follower() -> None:
    st = later_nine(**ANYTIME)
    assert st.to_act == 1 and st.trick == [(0, C("TC"))] and st.hands[1] >> C("9S") & 1
    assert st.tricks == [1, 1] and "exchange" in legal(st)
    act(st, "exchange", "KS")
    assert st.last_winner == 1 and st.hands[1] >> C("KS") == 0 and st.turnup == C("9S")
    assert "exchange" not in legal(later_nine())


def test_a_nine_drawn_later_is_exchanged_on_lead_without_the_option() -> None:
    # Seat 0 takes the first trick and draws the trump 9 from the talon, then leads.
    st = deal(v66(), ["AD TC KD QD JC TH", "9D 9H JH AC JD TD"], "KS", talon="9S QC", dealer=1)
    act(st, "AD", "9D")
    assert st.to_act == 0 and st.hands[0] >> C("9S") & 1
    assert "exchange" in legal(st)
    act(st, "exchange")
    assert st.hands[0] >> C("KS") & 1 and st.turnup == C("9S")


def test_the_players_explanation_for_a_follower() -> None:
    tr = Translator("en")
    assert why_illegal(following().view(1), EXCHANGE, tr) == (
        "Only the player on lead may do that, before leading a card."
    )
    view = following(tricks=(1, 0), **ANYTIME).view(1)
    assert why_illegal(view, EXCHANGE, tr) == "You must win a trick before the exchange."
    assert why_illegal(view, EXCHANGE, Translator("tr")) != why_illegal(view, EXCHANGE, tr)


# --------------------------------------------------------------------------- records


def later_nine_record(options: dict[str, object]) -> dict[str, object]:
    st = later_nine(**ANYTIME)
    act(st, "exchange", "KS")
    record = Record("sixtysix", options, None, [DealRecord(st.setup, st.history)])
    data = record.as_json()
    assert isinstance(data, dict)
    return data


def test_replay_accepts_a_followers_exchange_only_under_the_option(tmp_path: Path) -> None:
    from sixtysix.cli import cli

    runner = CliRunner()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(later_nine_record(ANYTIME)))
    result = runner.invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["deals"][0]["steps"]
    assert [s["action"] for s in steps[-2:]] == ["exchange", "play KS"]
    assert steps[-2]["seat"] == 1 and "exchange" in steps[-2]["legal"]
    assert "close" not in steps[-2]["legal"]
    path.write_text(json.dumps(later_nine_record({})))
    result = runner.invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "deal 1, step 6: seat 1 cannot exchange: only the seat on lead may do that,"
        " before leading\n"
    )


# --------------------------------------------------------------------------- the bots


def test_the_heuristic_exchanges_as_follower() -> None:
    assert decide(following(**ANYTIME).view(1)) == EXCHANGE
    assert decide(later_nine(**ANYTIME).view(1)) == EXCHANGE
    assert decide(later_nine().view(1)) < NUM_CARDS


def test_samples_keep_the_followers_exchange() -> None:
    """The expert's imagined deals: the turn-up taken by the follower stays in his hand, and
    every sample replays the public history, the follower's exchange included."""
    from sixtysix.bots.inference.sampling import Sampler

    st = later_nine(**ANYTIME)
    act(st, "exchange")
    stream = Seed(1).stream(("s",))
    for seat in range(2):
        view = st.view(seat)
        sampler = Sampler(view, st.variant)
        for _ in range(5):
            sample = sampler.sample(stream, check=True)
            assert sample.view(seat) == view
            assert sample.hands[1] >> C("KS") & 1 and sample.turnup == C("9S")


def test_the_search_values_a_followers_exchange() -> None:
    st = later_nine(**ANYTIME)
    values = Solver(1).action_values(st, depth=2)
    assert EXCHANGE in values and set(values) == set(st.legal_actions())


def test_the_expert_plays_a_deal_with_the_option() -> None:
    from sixtysix.bots.players.expert import ExpertBot, compiled_search_for

    variant = v66(**ANYTIME)
    assert compiled_search_for(variant) is None  # the compiled search refuses these rules
    expert = ExpertBot(1, Seed(3), {"samples": "4", "nodes": "4000"})
    assert expert.choose(later_nine(**ANYTIME).view(1)) in later_nine(**ANYTIME).legal_actions()
    other = RandomBot(0, Seed(3))
    st = variant.new_deal(variant.deal(Seed(8), ("deal",), 1))
    while not st.is_over:
        bot = expert if st.to_act == 1 else other
        st.apply(bot.choose(st.view(st.to_act)))
    assert st.outcome is not None


# --------------------------------------------------------------------------- the fast paths

BOTS: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]


def follower_exchanges(state: DealState) -> int:
    """How many exchanges in the deal's history were made by a follower."""
    replayed = state.variant.new_deal(state.setup)
    count = 0
    for _, a in state.history:
        count += a == EXCHANGE and bool(replayed.trick)
        replayed.apply(a)
    return count


def test_fast_paths_refuse_the_option() -> None:
    from sixtysix.bots import compiled

    variant = v66(**ANYTIME)
    assert supports(v66()) and not supports(variant)
    assert not compiled.supports(variant)
    assert not applies(variant, BOTS)
    # The match format does not change a deal: those deals stay compiled.
    assert supports(v66(match="four_deals"))


def test_simulation_with_the_option_is_the_generic_engines() -> None:
    variant = v66(exchange_anytime=True, exchange_needs_trick=False)
    master = Seed(11)
    games = [r for chunk in iter_chunks(variant, BOTS, master, 0, 300) for r in chunk]
    assert games == [play_game(variant, BOTS, master, i) for i in range(300)]
    # The option matters in these games: followers exchange, and the results differ from the
    # same games without it.
    states = [play_one(variant, BOTS, master.child(("game", i)), i % 2) for i in range(300)]
    assert sum(follower_exchanges(s) for s in states) > 10
    plain = v66(exchange_needs_trick=False)
    assert games != [r for chunk in iter_chunks(plain, BOTS, master, 0, 300) for r in chunk]


def test_simulate_command_with_the_option() -> None:
    from sixtysix.cli import cli

    runner = CliRunner()
    args = ["simulate", "66", "--games", "120", "--seed", "4", "--json", "--workers", "1"]
    on = runner.invoke(cli, [*args, "-o", "exchange_anytime=true"])
    off = runner.invoke(cli, args)
    assert on.exit_code == 0 and off.exit_code == 0, on.output + off.output
    a, b = json.loads(on.stdout), json.loads(off.stdout)
    assert a["games"] == b["games"] == 120
    master = Seed(4)
    variant = v66(**ANYTIME)
    expected = [0, 0]
    for i in range(120):
        outcome = play_game(variant, BOTS, master, i).outcome
        expected = [expected[s] + outcome.game_points[s] for s in range(2)]
    assert a["game_points"] == expected
