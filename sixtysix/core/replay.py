"""Replay a record, checking every action; the engine behind ``sixtysix replay``.

The result follows RECORDS.md's ``replay --json`` contract exactly. Any defect raises a
:class:`RecordError` whose one-line message names the deal and step (counted from 1), the seat,
the action and why it is wrong. A deal's ``forfeit`` ends it after its actions by the one
fault rule, :func:`sixtysix.core.faults.forfeit`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sixtysix.core.errors import OptionError, RecordError, UnknownVariantError
from sixtysix.core.match_state import MatchState
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
    #: The match the record holds, to be played on (``play --resume``).
    match: MatchState

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


def replay(raw: RawRecord, registry: VariantSource) -> Replay:
    """The record played again step by step (:meth:`MatchState.restore`: every action
    checked, every forfeit applied), with each step's legal actions for the JSON contract."""
    variant = configure_variant(registry, raw.variant, raw.options)
    deals: list[ReplayedDeal] = []

    def dealt(state: DealState) -> None:
        deals.append(ReplayedDeal(state, forfeit=raw.deals[len(deals)].forfeit))

    def step(seat: int, legal: list[str], action: str) -> None:
        deals[-1].steps.append(ReplayStep(seat, legal, action))

    match = MatchState.restore(variant, raw, dealt=dealt, step=step)
    return Replay(variant, deals, list(match.totals), list(match.winners), match)
