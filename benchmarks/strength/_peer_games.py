"""What both peer yardsticks share (the ``schnapsen`` package, ``_peer_adapter.py``;
cpatrasciuc/schnapsen-card-game, ``_patrasciuc_adapter.py``): what a game and a Bummerl in a
peer's engine come to from our bot's side, and our view after a marriage, where each peer
makes one move of what is two of ours. It imports neither peer, as each lives in its own
environment.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sixtysix.bots.compiled import available as compiled_available
from sixtysix.core.actions import ACTIONS, MARRY, Action
from sixtysix.core.cards import CARDS, KING, QUEEN
from sixtysix.core.records import Record
from sixtysix.core.view import View
from sixtysix.sim.stats import TimeStats


@dataclass(frozen=True)
class Game:
    """One deal played in a peer's engine."""

    deal: int
    #: Our bot led the deal's first trick.
    ours_led: bool
    won: bool
    #: The game points the deal's winner scored.
    game_points: int
    our_times: tuple[float, ...]
    their_times: tuple[float, ...]
    #: Who closed the talon: ``"ours"``, ``"theirs"`` or ``None`` (nobody, or not recorded).
    closer: str | None = None


@dataclass(frozen=True)
class Bummerl:
    """One Bummerl in one seating: its deals, in order, and who won it."""

    bummerl: int
    #: Our bot led the first deal (or sat in the seat that does).
    ours_first: bool
    games: tuple[Game, ...]
    #: Game points: ours, theirs.
    totals: tuple[int, int]
    #: The Bummerl as our game record, where the yardstick keeps one.
    record: Record | None = None
    #: The opponent's decisions as its shadows answered them, where the yardstick asks them.
    choices: tuple[Any, ...] = ()

    @property
    def won(self) -> bool:
        return self.totals[0] > self.totals[1]


def after_marriage(view: View, action: Action, king_only: bool) -> View:
    """Our view right after ``marry``: the pair is known, and the card it leads is to choose
    (the king alone where the peer's marriage always leads it)."""
    suit = action - MARRY
    king, queen = CARDS[suit * 6 + KING], CARDS[suit * 6 + QUEEN]
    seat = view.seat
    known = tuple(k | {king, queen} if s == seat else k for s, k in enumerate(view.known))
    marriages = tuple((*m, suit) if s == seat else m for s, m in enumerate(view.marriages))
    leads = (king,) if king_only else (queen, king)
    return replace(
        view,
        history=(*view.history, (seat, ACTIONS[action])),
        known=known,
        marriages=marriages,
        legal_actions=tuple(ACTIONS[int(card)] for card in leads),
    )


def note_without_numba() -> None:
    """Say so where the expert would play without its compiled search (a peer's environment
    built without the ``fast`` extra): its figures would not be the ones measured."""
    if not compiled_available():
        print(
            "note: numba (the 'fast' extra) is not installed here: search-based bots play"
            " without the compiled search, weaker than measured in docs/benchmarks.md",
            file=sys.stderr,
        )


def move_times(games: Sequence[Game]) -> dict[str, Any]:
    """Each side's time per move over ``games`` (mean, median, p95), as the reports give it."""
    return {
        "ours": TimeStats.of([t for g in games for t in g.our_times]).as_json(),
        "theirs": TimeStats.of([t for g in games for t in g.their_times]).as_json(),
    }


def outcomes(games: Sequence[Game]) -> dict[str, Any]:
    """How the deals were won: each side's deals by the game points they brought, and each
    side's closes by who won the deal and for how many. Bummerls are lost in the 2s and 3s and
    in failed closes as much as in the count of deals, so the report shows them apart."""
    points = {who: dict.fromkeys("123", 0) for who in ("ours", "theirs")}
    closes = {
        who: {"won": dict.fromkeys("123", 0), "lost": dict.fromkeys("123", 0)} for who in points
    }
    for g in games:
        winner = "ours" if g.won else "theirs"
        points[winner][str(g.game_points)] += 1
        if g.closer is not None:
            closes[g.closer]["won" if g.closer == winner else "lost"][str(g.game_points)] += 1
    return {"deals_by_game_points": points, "closes": closes}


def outcome_lines(data: dict[str, Any]) -> list[str]:
    """The report's lines for :func:`outcomes`' figures."""
    points, closes = data["deals_by_game_points"], data["closes"]

    def counts(by_points: dict[str, int]) -> str:
        return ", ".join(f"{by_points[p]} for {p}" for p in sorted(by_points))

    return [
        f"deals won, {who}: {counts(points[who])}; its closes won {counts(closes[who]['won'])},"
        f" lost {counts(closes[who]['lost'])}"
        for who in ("ours", "theirs")
    ]


def time_lines(times: dict[str, Any]) -> list[str]:
    """The report's lines for :func:`move_times`' figures, ours then theirs."""
    return [
        f"time per move, {who}: mean {t['mean_ms']} ms, median {t['median_ms']} ms,"
        f" p95 {t['p95_ms']} ms ({t['moves']} moves)"
        for who, t in ((w, times[w]) for w in ("ours", "theirs"))
    ]
