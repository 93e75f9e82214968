"""Preparing the compiled search ahead of the expert's first move: in the background when a game
starts (:func:`sixtysix.bots.compiled.warm_up`) or once after installing (``python -m
sixtysix.bots.warm``), without changing a single choice of the expert's."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sixtysix.bots import compiled, warm
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry

ROOT = Path(__file__).resolve().parents[2]
needs_numba = pytest.mark.skipif(
    not compiled.available(), reason="needs numba (pip install 'sixtysix[fast]')"
)

#: A child process: the expert's choices in two seeded deals against random play, with the
#: kernels prepared in the background from the start ("race": the first search may begin before
#: they are ready) or not at all ("plain"); and what numba's cache gave the search's root kernel.
GAMES = """
import json, random, sys
from sixtysix.bots import compiled
from sixtysix.bots.players.expert import ExpertBot
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import get_registry

variant = get_registry().variant("66").configure(None, {})
started = compiled.warm_up(variant) if sys.argv[1] == "race" else False
bot = ExpertBot(0, Seed(7), {"samples": "4", "playouts": "4"})
rnd = random.Random(7)
choices = []
for n in range(2):
    state = variant.new_deal(variant.deal(Seed(n), ("deal",), 1))
    while not state.is_over:
        if state.to_act == 0:
            action = bot.choose(state.view(0))
            choices.append(int(action))
        else:
            action = rnd.choice(state.legal_actions())
        state.apply(action)
from sixtysix.bots import _search_kernels
stats = _search_kernels._root.stats
print(json.dumps({
    "started": started,
    "choices": choices,
    "hits": sum(stats.cache_hits.values()),
    "misses": sum(stats.cache_misses.values()),
}))
"""


def run(args: list[str], cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ)
    environ.pop("SIXTYSIX_NO_NUMBA", None)
    environ.update({"NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT), **env})
    return subprocess.run(
        [sys.executable, *args], env=environ, capture_output=True, text=True, timeout=600
    )


def games(mode: str, cache: Path) -> dict[str, object]:
    done = run(["-c", GAMES, mode], cache)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@needs_numba
def test_the_warm_up_fills_a_fresh_cache_and_changes_no_choice(tmp_path: Path) -> None:
    """Cold, with the preparation racing the expert's first search, the kernels are compiled
    and written to an empty cache; a later process loads them from it; the expert chooses the
    same actions both times, and the same again once the install step has run."""
    cache = tmp_path / "numba"
    cold = games("race", cache)
    assert cold["started"] is True
    assert cold["misses"] == 1 and cold["hits"] == 0  # compiled here: the cache was empty
    assert any(p.name.startswith("_search_kernels._root") for p in cache.rglob("*.nbi"))
    warm_run = games("plain", cache)
    assert warm_run["hits"] == 1 and warm_run["misses"] == 0  # loaded, not compiled again
    assert warm_run["choices"] == cold["choices"]
    assert len(cold["choices"]) > 10  # type: ignore[arg-type]

    installed = run(["-m", "sixtysix.bots.warm"], cache, LANG="C.UTF-8")
    assert installed.returncode == 0, installed.stderr
    assert "The expert's compiled search is ready" in installed.stdout
    assert games("race", cache)["choices"] == cold["choices"]


@needs_numba
def test_the_install_step_compiles_into_an_empty_cache(tmp_path: Path) -> None:
    cache = tmp_path / "numba"
    done = run(["-m", "sixtysix.bots.warm"], cache, LANG="tr_TR.UTF-8")
    assert done.returncode == 0, done.stderr
    assert "Uzmanın derlenmiş araması hazır" in done.stdout
    names = {p.name.split("-")[0] for p in cache.rglob("*.nbi")}
    assert {"_search_kernels._root", "_search_kernels._search", "rules._apply"} <= names


def test_without_numba_nothing_is_prepared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_NO_NUMBA", "1")
    monkeypatch.setattr(compiled, "_warming", None)
    variant = get_registry().variant("66").configure(None, {})
    assert not compiled.warm_up(variant)
    assert not warm.for_game(variant, [None, ExpertBot(1, Seed(1))], hints=True)
    assert compiled._warming is None
    done = run(["-m", "sixtysix.bots.warm"], tmp_path / "numba", SIXTYSIX_NO_NUMBA="1")
    assert done.returncode == 0, done.stderr
    assert "nothing to prepare" in done.stdout
    assert not (tmp_path / "numba").exists()


@needs_numba
@pytest.mark.parametrize(
    ("name", "expert", "hints", "started"),
    [
        ("66", True, False, True),  # a rated game against the expert
        ("66", False, True, True),  # a test game against random play: hints use the expert
        ("66", False, False, False),  # a rated game against random play
        ("schnapsen", True, True, True),
        ("66-4", True, True, False),  # the compiled search is for two players
    ],
)
def test_a_game_warms_up_only_where_the_compiled_search_will_play(
    monkeypatch: pytest.MonkeyPatch, name: str, expert: bool, hints: bool, started: bool
) -> None:
    monkeypatch.setattr(compiled, "_warming", None)
    variant = get_registry().variant(name).configure(None, {})
    bot = ExpertBot(1, Seed(1)) if expert else RandomBot(1, Seed(1))
    bots = [None, bot] + [RandomBot(s, Seed(s)) for s in range(2, variant.seats)]
    try:
        assert warm.for_game(variant, bots, hints) is started
        assert (compiled._warming is not None) is started
        # Once is enough: a second game in the same process finds it started.
        assert not (started and compiled.warm_up(variant))
    finally:
        thread = compiled._warming
        if thread is not None:
            thread.join()


@needs_numba
def test_the_search_waits_for_a_preparation_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels are taken only once the background preparation is over, so the first search
    never starts compiling on its own beside it."""
    compiled._kernels()  # imported already: taking them is instant unless it waits
    release = threading.Event()
    order: list[str] = []

    def preparing() -> None:
        release.wait()
        order.append("prepared")

    thread = threading.Thread(target=preparing, daemon=True)
    monkeypatch.setattr(compiled, "_warming", thread)
    thread.start()
    threading.Timer(0.2, release.set).start()
    compiled._kernels()
    order.append("taken")
    assert order == ["prepared", "taken"]


def test_a_fork_waits_for_a_preparation_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process forked mid-compilation would inherit numba's compiler lock held by a thread it
    does not have and hang: the fork waits for the preparation instead."""
    release = threading.Event()
    thread = threading.Thread(target=release.wait, daemon=True)
    monkeypatch.setattr(compiled, "_warming", thread)
    thread.start()
    threading.Timer(0.2, release.set).start()
    child = multiprocessing.get_context("fork").Process(target=int)
    child.start()
    assert not thread.is_alive()  # the fork happened after the preparation was over
    child.join()
    assert child.exitcode == 0


def test_kernels_compile_uncached_where_no_cache_can_be_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numba refuses ``cache=True`` when no cache directory is writable (read-only
    site-packages, no writable home): the kernels are then compiled in each process instead."""
    pytest.importorskip("numba")
    from sixtysix.compiled import jit

    def refuse(fn: object) -> object:
        raise RuntimeError("cannot cache function 'f': no locator available for file 'f.py'")

    monkeypatch.setattr(jit, "_njit", refuse)

    def double(x: int) -> int:
        return 2 * x

    kernel = jit.jit(double)
    assert kernel(21) == 42
    assert kernel.py_func is double  # type: ignore[attr-defined]  # numba's, only not cached
