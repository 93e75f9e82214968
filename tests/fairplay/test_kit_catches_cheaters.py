"""The bot kit fails every cheater that the in-process design cannot stop by construction.

A plugin runs in the referee's process, so reading the caller's frame or the garbage collector,
or sharing hands through a module global, cannot be made impossible; the kit makes it visible.
The built-in bots pass the same checks (``tests/test_conformance.py`` runs the whole kit).
"""

from __future__ import annotations

import pytest

from sixtysix.bots.base import Bot
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import get_registry
from sixtysix.testing import BotKit, ConformanceError
from sixtysix.testing.bot_checks import check_bot_plays, check_bot_view_only
from tests.fairplay.cheaters import (
    NON_CANONICAL,
    SHARED_HANDS,
    FrameReader,
    GcReader,
    HandSharer,
    LyingAction,
    RulesMutator,
    ViewMutator,
)

VARIANTS = ("sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4")


def variant(name: str) -> Variant:
    return get_registry().variant(name)()


@pytest.fixture(autouse=True)
def _no_shared_hands() -> None:
    SHARED_HANDS.clear()


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("cheater", [FrameReader, HandSharer])
def test_a_bot_that_looks_past_its_view_fails(cheater: type[Bot], name: str) -> None:
    with pytest.raises(ConformanceError, match=r"choices changed when only cards its seat"):
        check_bot_view_only(cheater, variant(name), Seed(0), deals=4)


def test_a_garbage_collector_reader_fails() -> None:
    with pytest.raises(ConformanceError, match=r"choices changed when only cards its seat"):
        check_bot_view_only(GcReader, variant("sixtysix-4"), Seed(0), deals=2)


def test_the_frame_reader_is_caught_often() -> None:
    """Over about 60 positions (the kit's default: 16 per built-in variant), the frame reader
    changes a good share of its choices; an honest bot changes none."""
    counts: list[str] = []
    for name in VARIANTS:
        with pytest.raises(ConformanceError) as info:
            check_bot_view_only(FrameReader, variant(name), Seed(0), deals=4)
        counts.append(str(info.value).split(": ", 1)[1].split(" choices")[0])
    changed = sum(int(c.split(" of ")[0]) for c in counts)
    compared = sum(int(c.split(" of ")[1]) for c in counts)
    assert compared == 64 and changed >= compared // 4


@pytest.mark.parametrize("cheater", [*NON_CANONICAL, LyingAction])
def test_a_non_canonical_answer_fails(cheater: type[Bot]) -> None:
    with pytest.raises(ConformanceError, match=r"not an action|not a legal action"):
        check_bot_plays(cheater, variant("sixtysix"), Seed(0), deals=1)


@pytest.mark.parametrize("cheater", [RulesMutator, ViewMutator])
def test_a_bot_that_changes_its_view_fails(cheater: type[Bot]) -> None:
    with pytest.raises(ConformanceError, match="changed the view it was given"):
        check_bot_plays(cheater, variant("sixtysix"), Seed(0), deals=1)


@pytest.mark.parametrize("honest", [RandomBot, HeuristicBot])
@pytest.mark.parametrize("name", VARIANTS)
def test_an_honest_bot_changes_no_choice(honest: type[Bot], name: str) -> None:
    check_bot_view_only(honest, variant(name), Seed(3), deals=4)


def test_the_kit_lists_the_view_only_check() -> None:
    names = [c.name for c in BotKit(RandomBot, [variant("sixtysix")]).checks()]
    assert "bot_view_only[random in sixtysix]" in names
    with pytest.raises(ConformanceError, match=r"bot_view_only\[frame-reader in sixtysix\]"):
        BotKit(FrameReader, [variant("sixtysix")], deals=2).run()
