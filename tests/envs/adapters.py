"""What the PettingZoo and Gymnasium adapter tests share: the variants, a third party's
variant plugin, the engine's own replay of an episode, and the check that infos hold only
plain public data."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import pytest

from sixtysix.core.match import play_deal, play_match
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.episodes import Episodes, episode_path
from sixtysix.plugins import hookimpl, manager
from sixtysix.plugins.manager import build_registry
from sixtysix.variants.schnapsen import Schnapsen, SchnapsenOptions

#: Every built-in variant, by the names people type.
VARIANTS = ["66", "schnapsen", "66-3", "66-4"]


@dataclass(frozen=True)
class _ShortOptions(SchnapsenOptions):
    variant_name: ClassVar[str] = "short-schnapsen"

    target: int = 3


class ShortSchnapsen(Schnapsen):
    """Schnapsen to 3 game points: a third party's plugin, registered through the hook."""

    name = "short-schnapsen"
    aliases: ClassVar[tuple[str, ...]] = ("short",)
    description = "Schnapsen, a short match"
    options_class = _ShortOptions


def _plugin() -> ModuleType:
    module = ModuleType("short_plugin")

    def register_variants(register: Callable[[type[Variant]], None]) -> None:
        register(ShortSchnapsen)

    module.register_variants = hookimpl(register_variants)  # type: ignore[attr-defined]
    return module


def install_third_party(monkeypatch: pytest.MonkeyPatch) -> str:
    """Install a third party's variant plugin in the process registry (for this test only);
    the alias it is found by."""
    registry = build_registry(autoload=False, extra=(_plugin(),))
    assert not registry.errors
    monkeypatch.setattr(manager, "_cached", registry)
    return "short"


class Recorder:
    """Keeps the history of every deal an environment finishes (a spy on the driver)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.histories: list[list[tuple[int, int]]] = []
        original = Episodes.deal_over

        def deal_over(episodes: Episodes) -> Any:
            assert episodes.state is not None
            self.histories.append(list(episodes.state.history))
            return original(episodes)

        monkeypatch.setattr(Episodes, "deal_over", deal_over)


def scripted(history: Sequence[tuple[int, int]]) -> list[Callable[[View], int]]:
    """Players of every seat that answer the recorded actions in order (checking the seat)."""
    moves = iter(history)

    def player(view: View) -> int:
        seat, action = next(moves)
        assert seat == view.seat
        return action

    return [player] * 8


def replay_deal(
    variant: Variant, seed: int, episode: int, history: Sequence[tuple[int, int]]
) -> Outcome:
    """The outcome the engine's own loop gives the first deal of ``episode`` with these moves."""
    root = Seed(seed)
    path = episode_path(episode)
    setup = variant.deal(root, (*path, "deal", 0), variant.first_dealer(root, path))
    return play_deal(variant.new_deal(setup), scripted(history))


def replay_match(
    variant: Variant, seed: int, episode: int, histories: Sequence[Sequence[tuple[int, int]]]
) -> tuple[list[Outcome], list[int], list[int]]:
    """The engine's own match with these moves: outcomes, totals, winners."""
    result = play_match(
        variant,
        scripted([move for h in histories for move in h]),
        Seed(seed),
        episode_path(episode),
    )
    return result.outcomes, result.totals, result.winners


def assert_plain(data: object) -> None:
    """``data`` is made only of plain JSON-like values: no state, view, bot or setup that an
    agent could read another seat's cards from."""
    if isinstance(data, dict):
        for key, value in data.items():
            assert isinstance(key, str)
            assert_plain(value)
    elif isinstance(data, list | tuple):
        for value in data:
            assert_plain(value)
    else:
        assert data is None or type(data) in (str, int, float, bool), type(data)


def pick(mask: np.ndarray[Any, Any], rnd: random.Random) -> int:
    """A random legal action id of a mask."""
    return int(rnd.choice(np.flatnonzero(mask)))
