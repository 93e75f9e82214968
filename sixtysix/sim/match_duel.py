"""Duels in whole matches: how often one bot wins a match (a Bummerl) against another.

Match ``m`` of a duel is played once in every seating of :func:`~sixtysix.sim.duel.arrangements`
by :func:`~sixtysix.core.match.play_match`, the one match loop: the variant's own format (to the
target, or a fixed number of deals), its first dealer and dealer order. Every seating draws its
deals from the same seed paths, so deal ``k`` of match ``m`` has the identical cards and dealer
in every seating that reaches it (the seatings' matches may last different numbers of deals).
Each seating's bots are made once for the whole match, each from its own seed path, so a duel
with a seed is reproducible match by match, whatever the number of worker processes.

Who won a match: with two seats, the bot whose seat won it (a shared win, possible only in a
match of a fixed number of deals, is a drawn match). With three or four seats one bot sits
alone: it won the match if its seat is among the match's winners (a partner who is the other
bot shares that win, as in a game), else the other bot won. Every seating's match counts, so
``N`` matches of a two-player duel are ``2 N`` results, paired by cards, for the Wilson
interval of the match win rate; the per-deal figures of :func:`~sixtysix.sim.duel.summarize`
are reported beside it over every deal those matches played (a deal reached by only some
seatings counts their games only).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from sixtysix.bots.external import match_over
from sixtysix.bots.seating import bot_seats
from sixtysix.core.deal import DealSetup
from sixtysix.core.match import Player, Seats, play_match
from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.sim.backends import Backend, StopFlag
from sixtysix.sim.duel import (
    A,
    B,
    Contestant,
    DealResult,
    DuelGame,
    DuelJob,
    DuelSummary,
    arrangements,
    closing_of,
    run_units,
    summarize,
)
from sixtysix.sim.stats import Estimate, mean_of, wilson


def match_path(match: int) -> tuple[str | int, ...]:
    """The seed path of match ``match``: its first dealer and the cards of its deals."""
    return ("duel", "match", match)


@dataclass(frozen=True)
class SeatedMatch:
    """One seating's whole match: its deals as duel games, the totals and the winning seats."""

    #: Per seat, A (0) or B (1).
    seating: tuple[int, ...]
    games: tuple[DuelGame, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """A or B, whichever won this match by the module's rule; None: a drawn match."""
        if len(self.seating) == 2:
            sides = {self.seating[s] for s in self.winners}
            return sides.pop() if len(sides) == 1 else None
        lone = A if self.seating.count(A) == 1 else B
        return lone if self.seating.index(lone) in self.winners else 1 - lone


@dataclass(frozen=True)
class DuelMatch:
    """Match ``match`` of a duel, in every seating."""

    match: int
    seatings: tuple[SeatedMatch, ...]

    def deal_results(self, first: int) -> list[DealResult]:
        """The match's deals as duel deals numbered from ``first``: deal ``k`` holds the
        games of every seating that reached it."""
        longest = max(len(s.games) for s in self.seatings)
        return [
            DealResult(first + k, tuple(s.games[k] for s in self.seatings if k < len(s.games)))
            for k in range(longest)
        ]


def play_seating(
    variant: Variant,
    contestants: Sequence[Contestant],
    seed: Seed,
    match: int,
    game: int,
    seating: tuple[int, ...],
    on_deal: Callable[[DealSetup, DealState], None] | None = None,
) -> SeatedMatch:
    """Match ``match`` with the bots seated as ``seating`` says (``game``: its index among
    the seatings); ``on_deal`` as for :func:`~sixtysix.core.match.play_match`."""
    path = match_path(match)
    bots = [
        contestants[who].make(s, seed.child((*path, "game", game, "seat", s)))
        for s, who in enumerate(seating)
    ]
    base = bot_seats(bots, direct=False)
    current: tuple[list[float], list[float]] = ([], [])
    ended: list[tuple[tuple[tuple[float, ...], tuple[float, ...]], int, int]] = []

    def timed(seat: int, choose: Player) -> Player:
        times = current[seating[seat]]

        def player(view: View) -> int:
            start = time.perf_counter()
            answer = choose(view)
            times.append(time.perf_counter() - start)
            return answer

        return player

    def over(state: DealState) -> None:
        ended.append(((tuple(current[A]), tuple(current[B])), *closing_of(state)))
        for times in current:
            times.clear()
        if base.over is not None:
            base.over(state)

    seats = Seats([timed(s, p) for s, p in enumerate(base.players)], base.picks, over)
    result = play_match(variant, seats, seed, path, on_deal=on_deal, faults=True)
    match_over(bots, result.totals, result.winners)
    # A fault forfeits its deal and nothing else does: the faults, in order, are the
    # forfeited deals'.
    faults = iter(result.faults)
    games = tuple(
        DuelGame(
            k,
            seating,
            outcome,
            times,
            closed_by,
            closed_with,
            (next(faults),) if outcome.reason == Reason.FORFEIT else (),
        )
        for k, (outcome, (times, closed_by, closed_with)) in enumerate(
            zip(result.outcomes, ended, strict=True)
        )
    )
    return SeatedMatch(seating, games, tuple(result.totals), tuple(result.winners))


def play_duel_match(
    variant: Variant, contestants: Sequence[Contestant], seed: Seed, match: int
) -> DuelMatch:
    """Match ``match`` in every seating."""
    return DuelMatch(
        match,
        tuple(
            play_seating(variant, contestants, seed, match, g, seating)
            for g, seating in enumerate(arrangements(variant.seats))
        ),
    )


@dataclass(frozen=True)
class MatchChunk:
    """Matches ``start..stop-1`` of a duel, each in every seating."""

    start: int
    stop: int
    seconds: float
    matches: tuple[DuelMatch, ...]


def play_match_chunk(job: DuelJob, start: int, stop: int) -> MatchChunk:
    """The kernel the backend runs: matches ``start..stop-1``."""
    t0 = time.perf_counter()
    matches = tuple(
        play_duel_match(job.variant, job.contestants, job.seed, m) for m in range(start, stop)
    )
    return MatchChunk(start, stop, time.perf_counter() - t0, matches)


def iter_matches(
    variant: Variant,
    contestants: Sequence[Contestant],
    seed: Seed,
    matches: int,
    jobs: int = 1,
    backend: Backend | None = None,
    stop: StopFlag | None = None,
) -> Iterator[DuelMatch]:
    """Matches ``0..matches-1``, each in every seating; in order with one job, else as done.

    As :func:`~sixtysix.sim.duel.iter_deals` runs deals (Ctrl-C as
    :func:`~sixtysix.sim.duel.run_units` says), and the results do not depend on ``jobs`` nor
    on the backend.
    """
    job = DuelJob(variant, tuple(contestants), seed)
    for chunk in run_units(play_match_chunk, job, matches, jobs, backend, stop):
        yield from chunk.matches


@dataclass(frozen=True)
class MatchDuelSummary:
    """A duel in matches: the match figures, and the per-deal ones over all their deals."""

    #: Per-deal figures over every deal of the finished matches.
    deals: DuelSummary
    matches: int
    #: Matches played over all seatings (``matches`` times the number of seatings).
    games: int
    #: Seated matches A won, drew, lost.
    wins: int
    draws: int
    losses: int
    win_rate: tuple[Estimate, Estimate]
    #: Deals per seated match.
    length: Estimate

    def as_json(self) -> dict[str, object]:
        """The per-deal duel's JSON, with the match figures under ``"matches"``."""
        data = self.deals.as_json()
        data["matches"] = {
            "played": self.matches,
            "games": self.games,
            "won": {"a": self.wins, "b": self.losses, "draws": self.draws},
            "win_rate": {
                "a": self.win_rate[A].as_json(key="estimate"),
                "b": self.win_rate[B].as_json(key="estimate"),
            },
            "deals_per_match": self.length.as_json(key="estimate"),
        }
        return data


def summarize_matches(
    variant: str,
    labels: tuple[str, str],
    results: Sequence[DuelMatch],
    seed: int | None = None,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> MatchDuelSummary:
    """Totals and intervals over finished matches (in match order, whatever order parallel
    workers finished them in)."""
    ordered = sorted(results, key=lambda r: r.match)
    deals: list[DealResult] = []
    for result in ordered:
        deals.extend(result.deal_results(len(deals)))
    seated = [s for r in ordered for s in r.seatings]
    won = [s.winner for s in seated]
    wins, losses = won.count(A), won.count(B)
    return MatchDuelSummary(
        deals=summarize(variant, labels, deals, seed, seconds, interrupted),
        matches=len(ordered),
        games=len(seated),
        wins=wins,
        draws=len(seated) - wins - losses,
        losses=losses,
        win_rate=(wilson(wins, len(seated)), wilson(losses, len(seated))),
        length=mean_of([len(s.games) for s in seated]),
    )


def duel_matches(
    variant: Variant,
    a: Contestant,
    b: Contestant,
    matches: int,
    seed: Seed,
    jobs: int = 1,
    backend: Backend | None = None,
) -> MatchDuelSummary:
    """Play a whole duel in matches in this process (or ``jobs`` workers, or on ``backend``)
    and summarize it."""
    start = time.perf_counter()
    results = list(iter_matches(variant, (a, b), seed, matches, jobs, backend))
    return summarize_matches(
        variant.name, (a.label, b.label), results, seed.value, time.perf_counter() - start
    )
