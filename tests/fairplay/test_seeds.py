"""A bot's randomness is its own: no seed it is given recomputes the deal or another seat's draws.

The seed re-dealer tries every derivation the drivers use (the game's seed itself, the master
seed rebuilt from a seed value); it found the deal before issue 21 and must find nothing now,
in every driver, with a seed or without. The controls show it does find the deal when handed
what the drivers used to hand it.
"""

from __future__ import annotations

import pytest

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.match import play_match
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry, get_registry
from sixtysix.service.players import build_bots
from sixtysix.sim.duel import Contestant, play_duel_deal
from sixtysix.sim.jobs import MatchJob, play_match_chunk
from sixtysix.sim.simulate import BotSpec, play_game, seat_bots
from sixtysix.sim.tournament import TournamentJob, play_tournament_chunk
from tests.fairplay.cheaters import SeedRedealer

VARIANTS = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")


def variant(name: str) -> Variant:
    return get_registry().variant(name)()


@pytest.fixture(autouse=True)
def _count_from_zero() -> None:
    SeedRedealer.found = 0


def test_a_child_seed_carries_no_value_and_keeps_reproducible() -> None:
    master = Seed(7)
    child = master.child(("game", 3))
    assert master.value == 7 and child.value is None
    assert child.reproducible and child.child(("bot", 0)).reproducible
    assert not Seed().child(("game", 3)).reproducible
    # The same path gives the same key (reproducible), another path another key.
    assert child.key == Seed(7).child(("game", 3)).key != master.child(("game", 4)).key


def test_each_seat_gets_a_branch_of_its_own() -> None:
    game = Seed(7).child(("game", 0))
    bots = seat_bots([(RandomBot, {}), (RandomBot, {})], game)
    keys = {bot.seed.key for bot in bots}
    assert len(keys) == 2 and game.key not in keys
    assert all(bot.seed.value is None for bot in bots)
    # A bot's draws never meet the shuffle's: the deal reads the game key, a bot only its own.
    shuffle = game.bytes(("deal", "shuffle"), 64)
    assert all(bot.seed.bytes(("deal", "shuffle"), 64) != shuffle for bot in bots)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("value", [7, None])
def test_simulated_games_cannot_be_dealt_again(name: str, value: int | None) -> None:
    v = variant(name)
    bots: list[BotSpec] = [(SeedRedealer, {})] * v.seats
    for index in range(6):
        play_game(v, bots, Seed(value), index)
    assert SeedRedealer.found == 0


@pytest.mark.parametrize("value", [7, None])
def test_matches_cannot_be_dealt_again(value: int | None) -> None:
    v = variant("sixtysix")
    play_match_chunk(MatchJob(v, ((SeedRedealer, {}), (RandomBot, {})), Seed(value)), 0, 2)
    assert SeedRedealer.found == 0


@pytest.mark.parametrize("name", ["sixtysix", "sixtysix-4"])
def test_duel_deals_cannot_be_dealt_again(name: str) -> None:
    v = variant(name)
    contestants = (Contestant("cheat", SeedRedealer), Contestant("random", RandomBot))
    for d in range(4):
        play_duel_deal(v, contestants, Seed(7), d)
    assert SeedRedealer.found == 0


def test_tournament_deals_cannot_be_dealt_again() -> None:
    v = variant("sixtysix-3")
    bots: list[BotSpec] = [(SeedRedealer, {}), (RandomBot, {}), (RandomBot, {})]
    play_tournament_chunk(TournamentJob.round_robin(v, bots, Seed(7)), 0, 3)
    assert SeedRedealer.found == 0


def test_session_bots_cannot_deal_again(registry: Registry) -> None:
    v = variant("sixtysix")
    master = Seed(7)
    registry.bots.setdefault(SeedRedealer.name, SeedRedealer)
    try:
        bots = build_bots(["", SeedRedealer.name], registry, master)
    finally:
        del registry.bots[SeedRedealer.name]
    bot = bots[1]
    assert bot is not None and bot.seed.value is None
    # The session deals deal n from the master seed's ("deal", n) path (play/session.py).
    state = v.new_deal(v.deal(master, ("deal", 0), 0))
    while state.to_act != 1:
        state.apply(state.legal_actions()[0])
    bot.choose(state.view(1))
    assert SeedRedealer.found == 0


def test_control_the_game_seed_itself_deals_again() -> None:
    """What simulate used to hand every bot: the seed the deal was shuffled from."""
    v = variant("sixtysix")
    game = Seed(7).child(("game", 0))
    state = v.new_deal(v.deal(game, ("deal",), 0))
    SeedRedealer(state.to_act, game).choose(state.view(state.to_act))
    assert SeedRedealer.found == 1


def test_control_a_seed_with_the_master_value_deals_again() -> None:
    """What every derived seed used to carry: the master value."""
    v = variant("sixtysix")
    master = Seed(7)
    state = v.new_deal(v.deal(master.child(("game", 2)), ("deal",), 0))
    leaky = master.child(("game", 2, "bot"))
    leaky.value = 7
    SeedRedealer(state.to_act, leaky).choose(state.view(state.to_act))
    assert SeedRedealer.found == 1


def test_a_match_record_keeps_the_master_value_only() -> None:
    v = variant("sixtysix")
    bots = [RandomBot(s, Seed(3).child(("bot", s))) for s in range(2)]
    assert play_match(v, [b.choose for b in bots], Seed(3)).record.seed == 3
    assert play_match(v, [b.choose for b in bots], Seed(3).child(("m",))).record.seed is None


@pytest.mark.parametrize("name", VARIANTS)
def test_same_seed_same_games_and_choices(name: str) -> None:
    v = variant(name)
    bots: list[BotSpec] = [(RandomBot, {})] * v.seats
    first = [play_game(v, bots, Seed(11), i) for i in range(8)]
    again = [play_game(v, bots, Seed(11), i) for i in range(8)]
    assert first == again
    assert len({g.outcome for g in first}) > 1
