"""Post-game analysis: each move of one seat against the expert's evaluation.

For every decision of the chosen seat in a record, the seat's view at that moment (and nothing
more) goes to :func:`sixtysix.bots.analysis.analyse`, which values every legal action in
expected game points. The review marks the best action and the chosen one's loss: how many
expected game points the move gave away. Forced moves (a single legal action) are not analysed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.replay import Replay
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View

Analyser = Callable[..., Iterable[tuple[int, float]]]

#: Loss thresholds (expected game points) for the marks shown beside a move.
INACCURACY = 0.1
MISTAKE = 0.3
BLUNDER = 0.8


@dataclass(frozen=True, slots=True)
class MoveReview:
    deal: int  # counted from 1
    step: int  # counted from 1, as in replay errors
    seat: int
    action: str
    value: float | None
    best: str
    best_value: float | None
    loss: float
    forced: bool

    @property
    def mark(self) -> str:
        if self.forced or self.loss < INACCURACY:
            return ""
        if self.loss < MISTAKE:
            return "?!"
        if self.loss < BLUNDER:
            return "?"
        return "??"

    def as_json(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "step": self.step,
            "seat": self.seat,
            "action": self.action,
            "value": self.value,
            "best": self.best,
            "best_value": self.best_value,
            "loss": self.loss,
            "forced": self.forced,
            "mark": self.mark,
        }


def load_analyser() -> Analyser | None:
    """The expert's :func:`~sixtysix.bots.analysis.analyse`, or None where it is not
    installed. It loads the expert's searches, so only when a hint or a review asks."""
    try:
        from sixtysix.bots.analysis import analyse  # start-up
    except ImportError:
        return None
    return analyse


def call_analyser(
    analyser: Analyser, view: View, seed: Seed | None = None, variant: Variant | None = None
) -> list[tuple[int, float]]:
    """``analyser(view)`` with the seed and the variant when it accepts them."""
    kwargs: dict[str, object] = {}
    try:
        accepted = set(inspect.signature(analyser).parameters)
    except (TypeError, ValueError):
        accepted = set()
    if seed is not None and "seed" in accepted:
        kwargs["seed"] = seed
    if variant is not None and "variant" in accepted:
        kwargs["variant"] = variant
    return [(int(a), float(v)) for a, v in analyser(view, **kwargs)]


def review(
    replayed: Replay,
    seat: int,
    analyser: Analyser,
    seed: Seed | None = None,
    deals: Sequence[int] | None = None,
) -> list[MoveReview]:
    """Every decision of ``seat`` in the replayed record (only ``deals``, counted from 1, if
    given), valued by ``analyser`` from the seat's view at that moment."""
    variant = replayed.variant
    out: list[MoveReview] = []
    for number, deal in enumerate(replayed.deals, 1):
        if deals is not None and number not in deals:
            continue
        state = deal.state.redealt()
        for step, (acting, action) in enumerate(deal.state.history, 1):
            if acting == seat:
                legal = state.legal_actions()
                name = ACTION_NAMES[action]
                if len(legal) == 1:
                    out.append(MoveReview(number, step, seat, name, None, name, None, 0.0, True))
                else:
                    branch = None if seed is None else seed.child(("review", number, step))
                    values = dict(call_analyser(analyser, state.view(seat), branch, variant))
                    best_action = max(values, key=lambda a: (values[a], -a))
                    best_value = values[best_action]
                    chosen = values.get(action, best_value)
                    out.append(
                        MoveReview(
                            number,
                            step,
                            seat,
                            name,
                            chosen,
                            ACTION_NAMES[best_action],
                            best_value,
                            max(0.0, best_value - chosen),
                            False,
                        )
                    )
            state.apply_legal(action)
    return out
