from __future__ import annotations

from pathlib import Path

import pytest

from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.i18n import Translator
from sixtysix.play.autosave import AutoSave, SessionSettings
from sixtysix.play.session import GameSetup, InputSource, Screen, Session
from sixtysix.plugins.manager import Registry, build_registry
from sixtysix.service.players import build_bots
from sixtysix.service.standings import Standings
from tests.play.scripted import FakeClock

REGISTRY: Registry = build_registry()


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Standings and saves of every test go to its own directory, never the user's."""
    path = tmp_path / "data"
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(path))
    return path


def make_variant(name: str, **options: object) -> Variant:
    cls = REGISTRY.variant(name)
    return cls(cls.options_class.build(options))


def make_session(
    variant: Variant,
    source: InputSource,
    screen: Screen,
    *,
    lang: str = "en",
    seat: int = 0,
    seed: int = 1,
    rated: bool = False,
    move_time: float | None = None,
    clock: FakeClock | None = None,
    save: Path | None = None,
    standings: Standings | None = None,
    resume: object = None,
    vs: str = "random",
    pause: bool = False,
    auto_last: bool = False,
) -> Session:
    specs = ["" if s == seat else vs for s in range(variant.seats)]
    master = Seed(seed)
    setup = GameSetup(
        variant=variant,
        seat=seat,
        bots=build_bots(specs, REGISTRY, master),
        labels=tuple(specs),
        seed=master,
        rated=rated,
        move_time=move_time if rated else None,
        level=vs,
    )
    autosave = None
    if save is not None:
        autosave = AutoSave(save, SessionSettings(seat, tuple(specs), vs, rated))
    return Session(
        setup,
        Translator(lang),
        source,
        screen,
        clock=clock or FakeClock(),
        autosave=autosave,
        standings=standings,
        resume=resume,  # type: ignore[arg-type]
        pause=pause,
        auto_last=auto_last,
    )
