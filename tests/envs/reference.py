"""A plain, slow encoder written straight from the documented layout: the tests' oracle.

It sets each slot one at a time from the field offsets the encoder publishes, so the fast
encoder (runs of bytes joined in a fixed order) is checked against the layout it documents.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sixtysix.core.view import View
from sixtysix.envs.observation import Encoder


def reference(encoder: Encoder, view: View, *, history: bool = True) -> npt.NDArray[np.float32]:
    fields = {f.name: f for f in (encoder.info_fields if history else encoder.obs_fields)}
    size = encoder.info_size if history else encoder.obs_size
    out = np.zeros(size, dtype=np.float32)
    layout = encoder.layout
    n = view.seats

    def rel(seat: int) -> int:
        return (seat - view.seat) % n

    def put(name: str, index: int, value: float = 1.0) -> None:
        field = fields[name]
        assert 0 <= index < field.size, (name, index)
        out[field.offset + index] = value

    put("seat", view.seat)
    put("dealer", rel(view.dealer))
    put("phase", view.phase)
    if view.to_act >= 0:
        put("to_act", rel(view.to_act))
    put("leader", rel(view.leader))
    for card in view.hand:
        put("hand", card)
    if view.trump is not None:
        put("trump", view.trump)
    elif "trump" in fields and fields["trump"].size == 5:
        put("trump", 4)
    if view.turnup is not None:
        put("turnup", view.turnup)
    if "talon_size" in fields:
        put("talon_size", view.talon_size)
    if view.closed_by is not None:
        put("closed_by", rel(view.closed_by))
    for seat, card in view.trick:
        put("trick", rel(seat) * 24 + card)
    for seat, count in enumerate(view.tricks):
        put("tricks", rel(seat) * (layout.max_tricks + 1) + count)
    for seat, points in enumerate(view.card_points):
        put("card_points", rel(seat), points / layout.deck_points)
    for seat, suits in enumerate(view.marriages):
        for suit in suits:
            put("marriages", rel(seat) * 4 + suit)
    for seat, cards in enumerate(view.known):
        for card in cards:
            put("known", rel(seat) * 24 + card)
    for card in view.played:
        put("played", card)
    if view.declarer is not None:
        put("declarer", rel(view.declarer))
    if view.called_ace is not None:
        put("called_ace", view.called_ace // 6)
    if view.partner is not None:
        put("partner", rel(view.partner))
    if view.solo:
        put("solo", 0)
    for k, value in enumerate(layout.option_values):
        put("options", k, value)
    match = view.match
    if "match" in fields and match is not None:
        # n totals, n still to go, deals left, deals played, n next dealer, the flag.
        fixed = match.deals is not None
        for seat in range(n):
            r = rel(seat)
            total = match.totals[seat]
            if fixed:
                assert match.deals is not None
                put("match", r, min(total / (layout.deal_points * match.deals), 1.0))
            else:
                assert match.target is not None
                put("match", r, min(total / match.target, 1.0))
                put("match", n + r, max(match.target - total, 0) / match.target)
        if fixed:
            assert match.deals is not None
            put("match", 2 * n, (match.deals - match.played) / match.deals)
            put("match", 2 * n + 1, min(match.played / match.deals, 1.0))
        else:
            assert match.target is not None
            put("match", 2 * n + 1, min(match.played / (n * match.target), 1.0))
        put("match", 2 * n + 2 + rel(match.next_dealer))
        put("match", 3 * n + 2)
    if history:
        slot = layout.history_slot
        for k, (seat, action) in enumerate(view.history):
            put("history", k * slot + rel(seat))
            put("history", k * slot + n + layout.usable.index(action))
    return out
