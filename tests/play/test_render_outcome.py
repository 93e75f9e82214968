"""The end of a deal: why these game points, the sides' pooled points, the cards left, and the
match deal by deal."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from sixtysix.core.outcome import Outcome, Reason, schneider_scale
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.scoring_words import SCALE_THRESHOLD, pooled_points, why_line
from sixtysix.text.render_outcome import (
    DealSummary,
    render_match_summary,
    render_outcome,
)
from tests.play.conftest import make_variant

EN = Translator("en")
TR = Translator("tr")


def text_of(renderable: RenderableType, width: int = 100) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def finished(variant: Variant, seed: int) -> DealState:
    """A deal of ``variant`` played to its end by seeded random legal moves."""
    state = variant.new_deal(variant.deal(Seed(seed), ("deal", 0), seed % variant.seats))
    stream = Seed(seed).stream(("moves",))
    while not state.is_over:
        legal = state.legal_actions()
        state.apply_legal(legal[stream.below(len(legal))])
    return state


def test_the_threshold_is_the_cores() -> None:
    assert SCALE_THRESHOLD == 33
    assert schneider_scale(SCALE_THRESHOLD, 1) == 1
    assert schneider_scale(SCALE_THRESHOLD - 1, 1) == 2


def _view(name: str, **changes: object) -> tuple[Variant, View]:
    variant = make_variant(name)
    state = finished(variant, 1)
    return variant, replace(state.view(0), **changes)  # type: ignore[arg-type]


def _why(
    name: str, reason: Reason, gp: tuple[int, ...], tr: Translator = EN, **view: object
) -> str:
    variant, v = _view(name, **view)
    n = len(gp)
    return why_line(Outcome(reason, gp, (0,) * n, (1,) * n), v, variant, tr)


@pytest.mark.parametrize(
    ("gp", "fact"),
    [
        ((1, 0), "seat 1 — 33 points or more"),
        ((2, 0), "seat 1 — under 33 points, at least one trick (schneider)"),
        ((3, 0), "seat 1 — no trick (schwarz)"),
        ((0, 2), "you — under 33 points, at least one trick (schneider)"),
    ],
)
def test_the_scale_is_named(gp: tuple[int, int], fact: str) -> None:
    line = _why("66", Reason.REACHED_66, gp, closed_by=None)
    assert line == f"Why {max(gp)}: {fact}."


def test_a_closer_in_schnapsen_scores_from_the_moment_of_closing() -> None:
    line = _why("schnapsen", Reason.REACHED_66, (2, 0), closed_by=0)
    assert line.endswith("at least one trick (schneider), at the moment of closing.")
    # In 66 the final points count, even for a closer.
    assert "closing" not in _why("66", Reason.REACHED_66, (2, 0), closed_by=0)


def test_failed_close_false_claim_last_trick_draw() -> None:
    assert _why("66", Reason.FAILED_CLOSE, (0, 2), closed_by=0) == ("Why 2: a failed close by you.")
    assert _why("66", Reason.FAILED_CLOSE, (3, 0), closed_by=1) == (
        "Why 3: a failed close by seat 1, and no trick for you at the moment of closing."
    )
    assert _why("66", Reason.FALSE_CLAIM, (0, 2), closed_by=None) == (
        "Why 2: a false claim by you."
    )
    assert _why("schnapsen", Reason.FALSE_CLAIM, (3, 0), closed_by=None) == (
        "Why 3: a false claim by seat 1, and no trick for you."
    )
    assert _why("66", Reason.LAST_TRICK, (0, 1)) == (
        "Why 1: nobody reached 66; the last trick takes the deal: seat 1."
    )
    assert _why("66", Reason.DRAW, (0, 0)) == "Why 0: nobody reached 66: a draw, nobody scores."


def test_a_solo_counts_double_and_a_concession_is_named() -> None:
    line = _why("66-4", Reason.REACHED_66, (4, 0, 0, 0), solo=True, declarer=0)
    assert line == (
        "Why 4: seat 1 + seat 2 + seat 3 — under 33 points, at least one trick (schneider);"
        " a solo counts double."
    )
    # A failed solo scores the single scale by default.
    line = _why("66-4", Reason.REACHED_66, (0, 2, 2, 2), solo=True, declarer=0)
    assert line == "Why 2: you — under 33 points, at least one trick (schneider)."
    assert _why("66-3", Reason.CONCEDED, (0, 2, 2), declarer=0) == (
        "Why 2: a concession by you before the first card."
    )
    assert _why("66-3", Reason.CONCEDED, (0, 1, 1), declarer=0) == (
        "Why 1: a concession by you after the first card."
    )


def test_the_why_line_in_turkish() -> None:
    assert _why("66", Reason.REACHED_66, (2, 0), TR, closed_by=None) == (
        "Neden 2: oyuncu 1 — 33 puanın altında, en az bir el."
    )
    assert _why("66", Reason.FAILED_CLOSE, (0, 2), TR, closed_by=0) == (
        "Neden 2: başarısız kapatma: sen."
    )


@pytest.mark.parametrize("name", ["66", "schnapsen", "66-3", "66-4"])
def test_every_finished_deal_explains_its_scale(name: str) -> None:
    """For played deals, the words name the scale the core's own rule gives."""
    variant = make_variant(name)
    for seed in range(30):
        state = finished(variant, seed)
        outcome = state.outcome
        assert outcome is not None
        view = state.view(0)
        line = why_line(outcome, view, variant, EN)
        assert line.startswith(f"Why {max(outcome.game_points)}: ")
        if outcome.reason != Reason.REACHED_66 or state.closed_by >= 0 or state.solo:
            continue
        winners = state.sides[next(s for s in range(state.n) if outcome.game_points[s])]
        losers = [s for s in range(state.n) if state.sides[s] != winners]
        scale = schneider_scale(
            sum(state.valid_points(s) for s in losers), sum(state.tricks[s] for s in losers)
        )
        words = {1: "33 points or more", 2: "under 33 points", 3: "no trick"}[scale]
        assert words in line, (seed, line)


def test_the_end_of_a_deal_shows_pooled_points_and_the_cards_left() -> None:
    variant = make_variant("66-3")
    for seed in range(40):
        state = finished(variant, seed)
        outcome = state.outcome
        assert outcome is not None
        if outcome.reason == Reason.REACHED_66 and any(state.hands):
            break
    else:  # pragma: no cover - the seeds hold such a deal
        pytest.fail("no deal won before the cards ran out")
    view = state.view(0)
    pooled = pooled_points(outcome, view)
    assert pooled is not None
    for s in range(3):
        side = [t for t in range(3) if state.sides[t] == state.sides[s]]
        assert pooled[s] == sum(outcome.points[t] for t in side)
    shown = text_of(render_outcome(outcome, view, [0, 0, 0], EN, variant, "", state.hands))
    assert "side" in shown and "Why " in shown and "with" in shown
    winners = [s for s in range(3) if outcome.game_points[s]]
    assert ("together" in shown) is (len(winners) > 1)  # a lone declarer wins alone
    for s in range(1, 3):
        if state.hands[s]:
            assert f"seat {s}:" in shown
    compact = text_of(
        render_outcome(outcome, view, [0, 0, 0], EN, variant, "", state.hands), width=45
    )
    assert all(len(line) <= 45 for line in compact.splitlines())
    assert f"side {pooled[0]}" in compact


def test_a_lone_declarers_win_is_his_own_and_the_partners_win_together() -> None:
    variant = make_variant("66-3")
    said: dict[bool, str] = {}
    for seed in range(200):
        state = finished(variant, seed)
        outcome = state.outcome
        assert outcome is not None
        if outcome.reason != Reason.REACHED_66:
            continue
        view = state.view(0)
        winners = [s for s in range(3) if outcome.game_points[s]]
        shown = " ".join(text_of(render_outcome(outcome, view, [0, 0, 0], EN, variant)).split())
        said.setdefault(len(winners) == 1, shown)
        if len(said) == 2:
            break
    assert re.search(r"Won by (you|seat \d) with \d+ points\.", said[True])
    assert re.search(r"Won by \S+( \d)? \+ \S+( \d)? with \d+ points together\.", said[False])


def test_the_match_summary_keeps_running_totals() -> None:
    deals = [
        DealSummary(1, 1, Reason.REACHED_66, (2, 0)),
        DealSummary(2, 0, Reason.FAILED_CLOSE, (0, 2)),
        DealSummary(3, 1, Reason.REACHED_66, (3, 0)),
    ]
    wide = text_of(render_match_summary(deals, 2, 0, EN))
    assert "The match, deal by deal" in wide
    assert "+2 =2" in wide and "+2 =2" in wide and "+3 =5" in wide and "failed close" in wide
    narrow = text_of(render_match_summary(deals, 2, 0, TR), width=45)
    assert "Dağıtım dağıtım maç" in narrow and "+3 =5" in narrow
    assert all(len(line) <= 45 for line in narrow.splitlines())


def test_a_resumed_match_summarises_the_deals_played_before(tmp_path: Path) -> None:
    """The summary replays the deals finished before a resume from the record."""
    from sixtysix.play.autosave import load_saved_game
    from tests.play.conftest import REGISTRY, make_session
    from tests.play.scripted import AutoInput, RecordingScreen

    variant = make_variant("sixtysix", target=3)
    save = tmp_path / "g.json"
    first = make_session(variant, AutoInput(3, mistakes=False), RecordingScreen(), save=save)
    # Stop after the first deal: the person's input ends at the second deal's first move.
    first.source = _StopAfterDeals(first, 1)
    first.run()
    assert first.completed == 1
    resumed = load_saved_game(save, REGISTRY)
    screen = RecordingScreen()
    second = make_session(
        resumed.replay.variant,
        AutoInput(4, mistakes=False),
        screen,
        save=save,
        resume=resumed.replay,
    )
    result = second.run()
    summary = screen.text[screen.text.index("The match, deal by deal") :]
    rows = [line.split()[0] for line in summary.splitlines()[2:] if line.split()[:1] != ["+n:"]]
    assert rows[: result.deals_completed] == [str(n) for n in range(1, result.deals_completed + 1)]
    assert summary.count("=") >= result.deals_completed * 2


class _StopAfterDeals:
    """Plays like :class:`AutoInput` until ``deals`` deals are over, then ends the input."""

    def __init__(self, session: object, deals: int) -> None:
        from tests.play.scripted import AutoInput

        self.session = session
        self.deals = deals
        self.auto = AutoInput(3, mistakes=False)

    def read(self, prompt: str, view: View, tick: object) -> str | None:
        if getattr(self.session, "completed", 0) >= self.deals:
            raise EOFError
        return self.auto.read(prompt, view, None)
