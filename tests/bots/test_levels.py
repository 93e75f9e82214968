"""Difficulty levels: names, resolution through the registry, and the order of strength."""

from __future__ import annotations

import pytest

from sixtysix.bots.levels import LEVELS, Level, level, resolve_player
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.sim.duel import Contestant, duel
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4

REGISTRY: Registry = build_registry()
VARIANTS = [SixtySix(), Schnapsen(), SixtySix3(), SixtySix4()]


def test_four_levels_from_easy_to_expert() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    assert all(lvl.budget and lvl.description for lvl in LEVELS.values())


@pytest.mark.parametrize("name", ["hard", "HARD", "@hard", " @Hard "])
def test_level_names_are_forgiving(name: str) -> None:
    assert level(name) is LEVELS["hard"]


def test_unknown_level_lists_the_levels() -> None:
    with pytest.raises(UnknownBotError, match="levels: @easy, @medium, @hard, @expert"):
        level("grandmaster")


def test_spec_spells_the_bot_and_its_budget() -> None:
    assert LEVELS["medium"].spec == "heuristic"
    assert LEVELS["easy"].spec == "heuristic:noise=0.5"
    assert Level("x", "pimc", {"samples": "4", "seed": "2"}).spec == "pimc:samples=4,seed=2"


def test_easy_and_medium_are_the_heuristic() -> None:
    easy = LEVELS["easy"].make(0, Seed(1), REGISTRY, seats=2)
    medium = LEVELS["medium"].make(1, Seed(1), REGISTRY, seats=2)
    assert isinstance(easy, HeuristicBot) and easy.noise == 0.5
    assert isinstance(medium, HeuristicBot) and medium.noise == 0.0


@pytest.mark.parametrize("seats", [3, 4])
def test_at_larger_tables_the_levels_below_expert_spread_beneath_the_rule_player(
    seats: int,
) -> None:
    """With three or four seats: easy plays at random half the time, medium one time in five,
    hard is the rule player itself, expert the expert."""
    made = {name: lvl.make(0, Seed(1), REGISTRY, seats=seats) for name, lvl in LEVELS.items()}
    noise = {name: getattr(bot, "noise", None) for name, bot in made.items()}
    assert noise == {"easy": 0.5, "medium": 0.2, "hard": 0.0, "expert": None}
    assert made["expert"].name == "expert"
    assert [LEVELS[n].at(seats).spec for n in LEVELS] == [
        "heuristic:noise=0.5",
        "heuristic:noise=0.2",
        "heuristic",
        "expert",
    ]
    assert LEVELS["hard"].at(2) is LEVELS["hard"] and LEVELS["hard"].at(seats).name == "hard"
    assert all(LEVELS[n].at(seats).budget and LEVELS[n].at(seats).description for n in LEVELS)


def test_a_level_whose_bot_is_missing_says_so() -> None:
    empty = Registry()
    with pytest.raises(UnknownBotError, match="played by the bot 'heuristic', which is not"):
        LEVELS["medium"].bot_class(empty)


def test_resolve_player_takes_bots_and_levels() -> None:
    label, cls, params = resolve_player("@easy:seed=3", REGISTRY, seats=2)
    assert (label, cls, params) == ("@easy:seed=3", HeuristicBot, {"noise": "0.5", "seed": "3"})
    label, cls, params = resolve_player("heuristic:noise=0.25", REGISTRY, seats=4)
    assert (label, cls, params) == ("heuristic:noise=0.25", HeuristicBot, {"noise": "0.25"})
    with pytest.raises(UnknownBotError, match="has no parameter 'depth'"):
        resolve_player("@medium:depth=2", REGISTRY, seats=2)
    label, cls, params = resolve_player("@hard:seed=2", REGISTRY, seats=4)
    assert (label, cls, params) == ("@hard:seed=2", HeuristicBot, {"seed": "2"})


def test_a_parameter_the_larger_table_form_lacks_is_refused_with_the_form_named() -> None:
    assert resolve_player("@hard:samples=4", REGISTRY, seats=2)[1].name == "expert"
    with pytest.raises(UnknownBotError) as err:
        resolve_player("@hard:samples=4", REGISTRY, seats=4)
    assert str(err.value).startswith("at a table of 4 seats @hard is heuristic: bot 'heuristic'")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("upper", "lower", "variants"),
    [
        ("medium", "easy", (SixtySix(), SixtySix3())),
        ("hard", "medium", (SixtySix3(), SixtySix4())),
    ],
)
def test_a_rule_player_level_is_stronger_than_the_one_below(
    upper: str, lower: str, variants: tuple[Variant, ...]
) -> None:
    """A fixed-seed check of the steps between the rule-player levels (the search levels' steps
    take minutes: benchmarks/strength/ladder.py measures every step, in deals and matches)."""
    for variant in variants:
        summary = duel(
            variant,
            *(
                Contestant(*resolve_player("@" + name, REGISTRY, seats=variant.seats))
                for name in (upper, lower)
            ),
            deals=200,
            seed=Seed(21),
        )
        assert summary.margin.low is not None and summary.margin.low > 0


@pytest.mark.parametrize("name", ["hard", "expert"])
def test_search_levels_play_every_variant(name: str) -> None:
    """The level's bot and budget are valid and play the opening moves (the calls of three-
    and four-player 66 included) of every variant."""
    lvl = LEVELS[name]
    for variant in VARIANTS:
        state = variant.new_deal(variant.deal(Seed(3), ("levels",), 0))
        bots = [lvl.make(s, Seed(3), REGISTRY, seats=variant.seats) for s in range(variant.seats)]
        for _ in range(6):
            view = state.view(state.to_act)
            action = bots[state.to_act].choose(view)
            assert action in view.legal_actions
            state.apply(action)
