"""One match as a state that is stepped: deal the next deal, act in it (or end it by a forfeit),
settle it, and so on to the match's end; and the same state rebuilt from a record.

A driver that cannot block on a loop (a replay, a table server, a terminal session, a learning
environment) steps a :class:`MatchState` instead of keeping its own totals, dealer, record and
forfeits, and :func:`sixtysix.core.match.play_match` is a loop over one. The dealer of each deal,
the path each deal is dealt from (``(*path, "deal", number)``), the totals, the winners and the
record are stated here once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sixtysix.core.actions import ACTION_NAMES, parse_action
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import MatchError, NotationError, RecordError
from sixtysix.core.faults import FaultKind, forfeit
from sixtysix.core.match_view import MatchView
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import DealRecord, Forfeit, RawRecord, Record
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant

#: A match that has found no winner after this many deals is an error.
MAX_DEALS = 10_000

#: Told each checked step while a record is restored: seat, the legal actions before it (as
#: sorted names), the action's name.
StepHook = Callable[[int, list[str], str], None]
#: Told each deal as it is dealt while a record is restored.
DealHook = Callable[[DealState], None]


class MatchState:
    """A match of ``variant`` dealt from ``seed`` (each deal from ``(*path, "deal", number)``),
    the first dealer drawn from the seed as :meth:`Variant.first_dealer` draws it."""

    def __init__(
        self,
        variant: Variant,
        seed: Seed,
        path: Sequence[int | str] = (),
        *,
        max_deals: int = MAX_DEALS,
    ) -> None:
        self.variant = variant
        self.seed = seed
        self.path = tuple(path)
        self.max_deals = max_deals
        self.record = Record(variant.name, variant.options.diff(), seed.value)
        self.totals = [0] * variant.seats
        self.outcomes: list[Outcome] = []
        #: The seats that won the match (empty while it goes on).
        self.winners: list[int] = []
        #: The dealer of the deal being played, or of the next one once it is settled.
        self.dealer = variant.first_dealer(seed, self.path)
        #: The deal being played, until :meth:`settle`.
        self.deal: DealState | None = None
        #: The last deal settled (a screen shows its hands after the match).
        self.last: DealState | None = None

    # ------------------------------------------------------------------ facts

    @property
    def over(self) -> bool:
        """Whether the match format has ended the match."""
        return bool(self.winners)

    @property
    def dealt(self) -> int:
        """Deals dealt so far (the one being played included)."""
        return len(self.record.deals)

    @property
    def completed(self) -> int:
        """Deals settled so far."""
        return len(self.outcomes)

    # ------------------------------------------------------------------ steps

    def next_deal(self, setup: DealSetup | None = None) -> DealState:
        """Deal the next deal (from the seed, or ``setup`` as a record gives it, whose dealer
        must be the one whose turn it is, except in the first deal) and make it current."""
        if self.winners:
            raise MatchError("the match is over: no deal follows")
        if self.deal is not None:
            raise MatchError("the deal being played is not settled yet")
        number = len(self.record.deals)
        if number >= self.max_deals:
            raise MatchError(f"no match winner after {self.max_deals} deals")
        if setup is None:
            setup = self.variant.deal(self.seed, (*self.path, "deal", number), self.dealer)
        elif number and setup.dealer != self.dealer:
            raise MatchError(
                f"dealer should be seat {self.dealer} (the deal moves one seat on),"
                f" not seat {setup.dealer}"
            )
        state = self.variant.new_deal(setup)
        state.match = self.public(setup.dealer)
        self.dealer = setup.dealer
        self.record.deals.append(DealRecord(setup, state.history))
        self.deal = state
        return state

    def public(self, dealer: int) -> MatchView:
        """What every seat knows of the match at a deal dealt by ``dealer``."""
        fixed = self.variant.match_format.deals
        return MatchView(
            tuple(self.totals),
            None if fixed is not None else self.variant.match_format.target,
            fixed,
            len(self.outcomes),
            self.variant.next_dealer(dealer),
        )

    def current(self) -> DealState:
        """The deal being played."""
        if self.deal is None:
            raise MatchError("no deal is being played")
        return self.deal

    def forfeit(self, seat: int, kind: FaultKind) -> Outcome:
        """End the current deal by ``seat``'s fault (the one rule of
        :func:`sixtysix.core.faults.forfeit`), kept in the record."""
        outcome = forfeit(self.current(), seat)
        self.note_forfeit(seat, kind)
        return outcome

    def note_forfeit(self, seat: int, kind: FaultKind) -> None:
        """Keep in the record that ``seat``'s fault ended the current deal, which a turn's
        guard (:class:`sixtysix.core.turn.Turn`) has already ended by the fault rule."""
        state = self.current()
        if not state.is_over:
            raise MatchError("the deal is not over: forfeit() ends it")
        self.record.deals[-1].forfeit = Forfeit(seat, kind)

    def retake(self, state: DealState) -> None:
        """The current deal is replaced by ``state`` (a take-back that deals the unseen cards
        afresh): the record keeps its cards and actions instead."""
        state.match = self.current().match
        self.deal = state
        self.record.deals[-1] = DealRecord(state.setup, state.history)

    def settle(self) -> Outcome:
        """The current deal is over: its game points go to the totals, the match format says
        whether the match is won, and the deal moves one seat on."""
        state = self.current()
        outcome = state.outcome
        if outcome is None:
            raise MatchError("the deal is not over")
        for s, points in enumerate(outcome.game_points):
            self.totals[s] += points
        self.outcomes.append(outcome)
        self.winners = self.variant.match_winners(self.totals, len(self.outcomes)) or []
        self.dealer = self.variant.next_dealer(state.dealer)
        self.last = state
        self.deal = None
        return outcome

    # ------------------------------------------------------------------ records

    @classmethod
    def restore(
        cls,
        variant: Variant,
        raw: RawRecord,
        seed: Seed | None = None,
        path: Sequence[int | str] = (),
        *,
        dealt: DealHook | None = None,
        step: StepHook | None = None,
    ) -> MatchState:
        """The match a record holds, each action checked as it is played again and each
        forfeit applied; an unfinished last deal stays current. Later deals are dealt from
        ``seed`` (the record's own by default). A defect is one :class:`RecordError` naming the
        deal and step (from 1), the seat, the action and why; ``dealt`` is told each deal and
        ``step`` each step."""
        match = cls(variant, seed if seed is not None else Seed(raw.seed), path)
        for i, deal in enumerate(raw.deals):
            where = f"deal {i + 1}"
            if match.winners:
                raise RecordError(f"{where}: the match was already won after deal {i}")
            if match.deal is not None:
                raise RecordError(f"deal {i}: unfinished, but more deals follow")
            try:
                deal.setup.validate(variant.rules)
                state = match.next_deal(deal.setup)
            except (RecordError, MatchError) as exc:
                raise RecordError(f"{where}: {exc}") from None
            if dealt is not None:
                dealt(state)
            for j, (seat, text) in enumerate(deal.actions):
                _checked_step(state, seat, text, f"{where}, step {j + 1}", step)
            if deal.forfeit is not None:
                _recorded_forfeit(match, deal.forfeit, where)
            if state.is_over:
                match.settle()
        return match


class MatchFacts:
    """What a driver that holds a :class:`MatchState` (``self.match``) shows of it: the
    record, the totals and the deals settled."""

    match: MatchState

    @property
    def record(self) -> Record:
        return self.match.record

    @property
    def totals(self) -> list[int]:
        return self.match.totals

    @property
    def completed(self) -> int:
        return self.match.completed


def _checked_step(state: DealState, seat: int, text: str, at: str, step: StepHook | None) -> None:
    """Play a record's step again, or say in one line why it cannot be played."""
    try:
        action = parse_action(text)
    except NotationError as exc:
        raise RecordError(f"{at}: seat {seat}: {exc}") from None
    name = ACTION_NAMES[action]
    if state.is_over:
        raise RecordError(f"{at}: seat {seat} cannot {name}: the deal is over")
    if seat != state.to_act:
        raise RecordError(f"{at}: seat {seat} cannot {name}: seat {state.to_act} is to act")
    legal = state.legal_actions()
    if action not in legal:
        raise RecordError(f"{at}: seat {seat} cannot {name}: {state.explain(action)}")
    if step is not None:
        step(seat, sorted(ACTION_NAMES[a] for a in legal), name)
    state.apply_legal(action)


def _recorded_forfeit(match: MatchState, fault: Forfeit, where: str) -> None:
    """End the current deal by the record's ``forfeit``; a seat the variant has not, or a deal
    already over, is a one-line :class:`RecordError` naming ``where``."""
    state = match.current()
    at = f"{where}, forfeit"
    if not 0 <= fault.seat < state.n:
        raise RecordError(
            f"{at}: there is no seat {fault.seat} in this game (its seats are 0 to {state.n - 1})"
        )
    if state.is_over:
        raise RecordError(f"{at}: seat {fault.seat} cannot forfeit: the deal is already over")
    match.forfeit(fault.seat, fault.reason)


__all__ = ["MAX_DEALS", "DealHook", "MatchFacts", "MatchState", "StepHook"]
