"""Replay a record, checking every action; the engine behind ``sixtysix replay``.

The result follows RECORDS.md's ``replay --json`` contract exactly. Any defect raises a
:class:`RecordError` whose one-line message names the deal and step (counted from 1), the seat,
the action and why it is wrong. A deal's ``forfeit`` ends it after its actions by the one
fault rule, :func:`sixtysix.core.faults.forfeit`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sixtysix.core.actions import ACTION_NAMES, parse_action
from sixtysix.core.errors import NotationError, OptionError, RecordError, UnknownVariantError
from sixtysix.core.faults import forfeit
from sixtysix.core.outcome import Outcome
from sixtysix.core.records import Forfeit, RawRecord
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant


class VariantSource(Protocol):
    """Where a record's variant is found by name: the plugin registry, handed in by the
    driver (the core imports nothing above it)."""

    def variant(self, name: str) -> type[Variant]: ...


@dataclass
class ReplayStep:
    seat: int
    legal: list[str]
    action: str


@dataclass
class ReplayedDeal:
    state: DealState
    steps: list[ReplayStep] = field(default_factory=list)
    #: The fault that ended the deal after its steps, if one did.
    forfeit: Forfeit | None = None

    @property
    def result(self) -> Outcome | None:
        return self.state.outcome


@dataclass
class Replay:
    variant: Variant
    deals: list[ReplayedDeal]
    totals: list[int]
    winners: list[int]

    def as_json(self) -> dict[str, object]:
        return {
            "variant": self.variant.name,
            "deals": [
                {
                    "steps": [
                        {"seat": st.seat, "legal": st.legal, "action": st.action} for st in d.steps
                    ],
                    "result": None if d.result is None else d.result.as_json(),
                }
                for d in self.deals
            ],
            "match": {"game_points": list(self.totals), "winners": list(self.winners)},
        }


def configure_variant(registry: VariantSource, name: str, options: dict[str, object]) -> Variant:
    try:
        cls = registry.variant(name)
        return cls(cls.options_class.build(options, strict=True))
    except (UnknownVariantError, OptionError) as exc:
        raise RecordError(f"record: {exc}") from None


def apply_forfeit(state: DealState, fault: Forfeit, where: str) -> None:
    """End ``state`` by the record's ``forfeit`` (the one fault rule); a seat the variant has
    not, or a deal already over, is a one-line :class:`RecordError` naming ``where``."""
    at = f"{where}, forfeit"
    if not 0 <= fault.seat < state.n:
        raise RecordError(
            f"{at}: there is no seat {fault.seat} in this game (its seats are 0 to {state.n - 1})"
        )
    if state.is_over:
        raise RecordError(f"{at}: seat {fault.seat} cannot forfeit: the deal is already over")
    forfeit(state, fault.seat)


def replay(raw: RawRecord, registry: VariantSource) -> Replay:
    variant = configure_variant(registry, raw.variant, raw.options)
    n = variant.seats
    totals = [0] * n
    deals: list[ReplayedDeal] = []
    winners: list[int] = []
    prev_dealer: int | None = None
    for i, raw_deal in enumerate(raw.deals):
        where = f"deal {i + 1}"
        if winners:
            raise RecordError(f"{where}: the match was already won after deal {i}")
        if deals and deals[-1].result is None:
            raise RecordError(f"deal {i}: unfinished, but more deals follow")
        setup = raw_deal.setup
        try:
            setup.validate(variant.rules)
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if prev_dealer is not None and setup.dealer != variant.next_dealer(prev_dealer):
            raise RecordError(
                f"{where}: dealer should be seat {variant.next_dealer(prev_dealer)}"
                f" (the deal moves one seat on), not seat {setup.dealer}"
            )
        prev_dealer = setup.dealer
        state = variant.new_deal(setup)
        replayed = ReplayedDeal(state)
        for j, (seat, text) in enumerate(raw_deal.actions):
            at = f"{where}, step {j + 1}"
            try:
                action = parse_action(text)
            except NotationError as exc:
                raise RecordError(f"{at}: seat {seat}: {exc}") from None
            name = ACTION_NAMES[action]
            if state.is_over:
                raise RecordError(f"{at}: seat {seat} cannot {name}: the deal is over")
            if seat != state.to_act:
                raise RecordError(f"{at}: seat {seat} cannot {name}: seat {state.to_act} is to act")
            legal = sorted(ACTION_NAMES[a] for a in state.legal_actions())
            if action not in state.legal_actions():
                raise RecordError(f"{at}: seat {seat} cannot {name}: {state.explain(action)}")
            state.apply_legal(action)
            replayed.steps.append(ReplayStep(seat, legal, name))
        if raw_deal.forfeit is not None:
            apply_forfeit(state, raw_deal.forfeit, where)
            replayed.forfeit = raw_deal.forfeit
        deals.append(replayed)
        if state.outcome is not None:
            for s in range(n):
                totals[s] += state.outcome.game_points[s]
            winners = variant.match_winners(totals, len(deals))
    return Replay(variant, deals, totals, winners)
