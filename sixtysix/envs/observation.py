"""A seat's view as fixed-size float32 vectors, for learning agents and search libraries.

:class:`Encoder` turns a :class:`~sixtysix.core.view.View` (and nothing else) into the
information state (the table now plus the whole public history) and a shorter observation (the
table now), in the layout of :mod:`sixtysix.envs.layout`. Seats are relative to the viewer
(0 = me, 1 = the next seat in turn order, ...), so one policy serves every seat.

Encoding runs at every step of an environment, so it is built for speed: every slot a view can
set is looked up in tables made once per viewing seat, the 1s are collected as one list of
indices and written with a single numpy assignment, and the history goes through numpy in a
few whole-array operations.
"""

from __future__ import annotations

from operator import getitem

import numpy as np
import numpy.typing as npt

from sixtysix.core.actions import NUM_ACTIONS
from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.rules import Rules
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.errors import EncodingError
from sixtysix.envs.layout import Field, Layout, history_action_names, make_layout
from sixtysix.envs.text import info_text, obs_text

Vector = npt.NDArray[np.float32]

__all__ = ["Encoder", "Field", "encoder"]


class _Seat:
    """The indices of every slot one viewing seat's view can set, by absolute seat or card."""

    __slots__ = (
        "closed",
        "dealer",
        "declarer",
        "hist_seat",
        "known",
        "leader",
        "marriages",
        "partner",
        "seat",
        "to_act",
        "trick",
        "tricks",
    )

    def __init__(self, layout: Layout, me: int) -> None:
        n = layout.seats
        rel = [(s - me) % n for s in range(n)]
        f = {field.name: field.offset for field in layout.info_fields}

        def by_seat(name: str) -> tuple[int, ...]:
            base = f.get(name, -1)
            return tuple(base + r for r in rel) if base >= 0 else ()

        def by_seat_card(name: str, width: int) -> tuple[tuple[int, ...], ...]:
            base = f.get(name, -1)
            if base < 0:
                return ()
            return tuple(tuple(base + r * width + c for c in range(width)) for r in rel)

        self.seat = f["seat"] + me
        self.dealer = by_seat("dealer")
        self.to_act = by_seat("to_act")
        self.leader = by_seat("leader")
        self.closed = by_seat("closed_by")
        self.declarer = by_seat("declarer")
        self.partner = by_seat("partner")
        self.trick = tuple(i for row in by_seat_card("trick", NUM_CARDS) for i in row)
        self.tricks = by_seat_card("tricks", layout.max_tricks + 1)
        self.marriages = by_seat_card("marriages", 4)
        self.known = by_seat_card("known", NUM_CARDS)
        self.hist_seat = np.array(rel, dtype=np.intp)


class Encoder:
    """One variant's (with its options) fixed-size encodings of a seat's view.

    ``info_state`` and ``observation`` return float32 vectors of :attr:`info_size` and
    :attr:`obs_size` (or fill ``out``); ``info_string`` and ``obs_string`` are their text forms.
    :attr:`info_fields` and :attr:`obs_fields` say what each run of a vector means.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant_name = variant.name
        self.rules: Rules = variant.rules
        self.option_pairs = tuple(
            (spec.name, getattr(variant.options, spec.name)) for spec in variant.options.specs()
        )
        layout = self.layout = make_layout(variant.rules, variant.options)
        self.info_size: int = layout.info_size
        self.obs_size: int = layout.obs_size
        self.info_fields: tuple[Field, ...] = layout.info_fields
        self.obs_fields: tuple[Field, ...] = layout.obs_fields
        self.max_history = layout.max_history
        self.usable_ids = layout.usable
        n = self.seats = layout.seats
        f = {field.name: field.offset for field in layout.info_fields}
        self._seats = tuple(_Seat(layout, me) for me in range(n))
        self._phase = tuple(f["phase"] + p for p in range(4))
        self._hand = tuple(f["hand"] + c for c in range(NUM_CARDS))
        self._played = tuple(f["played"] + c for c in range(NUM_CARDS))
        self._trump = tuple(f["trump"] + s for s in range(4 + layout.trump_call))
        self._turnup = tuple(f["turnup"] + c for c in range(NUM_CARDS)) if "turnup" in f else ()
        talon = f.get("talon_size", -1)
        self._talon = tuple(talon + k for k in range(layout.talon + 1)) if talon >= 0 else ()
        self._called = tuple(f["called_ace"] + s for s in range(4)) if layout.partner_call else ()
        self._solo = f.get("solo", -1)
        self._points = f["card_points"]
        self._points_scale = 1.0 / max(layout.deck_points, 1)
        self._options = f.get("options", -1)
        self._option_row = np.array(layout.option_values, dtype=np.float32)
        history = layout.info_fields[-1]
        slot = layout.history_slot
        self._slot_base = history.offset + slot * np.arange(layout.max_history, dtype=np.intp)
        # An action the rules never offer points past the vector: numpy refuses it.
        act = np.full(NUM_ACTIONS, self.info_size + slot * layout.max_history, dtype=np.intp)
        for k, a in enumerate(layout.usable):
            act[a] = n + k
        self._act_offset = act

    # ------------------------------------------------------------------ vectors

    def info_state(self, view: View, out: Vector | None = None) -> Vector:
        """The information state: the table now and every public action so far."""
        out = _fresh(out, self.info_size)
        self._table(view, out)
        history = view.history
        if history:
            seats, actions = zip(*history, strict=True)
            k = len(actions)
            if k > self.max_history:
                raise EncodingError(
                    f"a history of {k} actions is longer than {self.variant_name}'s rules allow"
                    f" ({self.max_history})"
                )
            base = self._slot_base[:k]
            rel = self._seats[view.seat].hist_seat
            try:
                out[base + rel[np.frombuffer(bytes(seats), dtype=np.uint8)]] = 1.0
                out[base + self._act_offset[np.frombuffer(bytes(actions), dtype=np.uint8)]] = 1.0
            except IndexError:
                raise EncodingError(
                    f"the history holds an action {self.variant_name}'s rules never offer"
                ) from None
        return out

    def observation(self, view: View, out: Vector | None = None) -> Vector:
        """The observation: the table as it is now, without the history."""
        out = _fresh(out, self.obs_size)
        self._table(view, out)
        return out

    def _table(self, view: View, out: Vector) -> None:
        """Write the fields every view sets (all but the history) into a zeroed ``out``."""
        me = view.seat
        t = self._seats[me]
        idx = [t.seat, t.dealer[view.dealer], self._phase[view.phase], t.leader[view.leader]]
        to_act = view.to_act
        if to_act >= 0:
            idx.append(t.to_act[to_act])
        idx += map(self._hand.__getitem__, view.hand)
        trump = view.trump
        if trump is not None:
            idx.append(self._trump[trump])
        elif self.layout.trump_call:
            idx.append(self._trump[4])
        turnup = view.turnup
        if turnup is not None and self._turnup:
            idx.append(self._turnup[turnup])
        if self._talon:
            idx.append(self._talon[view.talon_size])
        closed = view.closed_by
        if closed is not None and t.closed:
            idx.append(t.closed[closed])
        trick_slots = t.trick
        for seat, card in view.trick:
            idx.append(trick_slots[seat * NUM_CARDS + card])
        idx += map(getitem, t.tricks, view.tricks)
        if t.marriages:
            for row, suits in zip(t.marriages, view.marriages, strict=True):
                if suits:
                    idx += map(row.__getitem__, suits)
        for row, cards in zip(t.known, view.known, strict=True):
            if cards:
                idx += map(row.__getitem__, cards)
        idx += map(self._played.__getitem__, view.played)
        if t.declarer:
            declarer = view.declarer
            if declarer is not None:
                idx.append(t.declarer[declarer])
            if self._called:
                ace = view.called_ace
                if ace is not None:
                    idx.append(self._called[ace // 6])
                partner = view.partner
                if partner is not None:
                    idx.append(t.partner[partner])
                if view.solo:
                    idx.append(self._solo)
        out[idx] = 1.0
        points = view.card_points
        scale = self._points_scale
        base = self._points
        out[base : base + self.seats] = [p * scale for p in points[me:] + points[:me]]
        if self._options >= 0:
            out[self._options : self._options + len(self._option_row)] = self._option_row

    # ------------------------------------------------------------------ text

    def info_string(self, view: View) -> str:
        """The information state as text: the same for two views exactly when the seat cannot
        tell them apart (every field of the view the seat sees, in a fixed order)."""
        return info_text(view)

    def obs_string(self, view: View) -> str:
        """The observation as text: the table now, without the history."""
        return obs_text(view)

    # ------------------------------------------------------------------ description

    def metadata(self) -> dict[str, object]:
        """Sizes, field layouts and action names as JSON-able values (for tools and docs)."""
        layout = self.layout
        return {
            "variant": self.variant_name,
            "options": dict(self.option_pairs),
            "seats": self.seats,
            "info_size": self.info_size,
            "obs_size": self.obs_size,
            "num_action_ids": NUM_ACTIONS,
            "usable_ids": list(layout.usable),
            "max_history": layout.max_history,
            "history_slot": layout.history_slot,
            "history_actions": history_action_names(layout),
            "option_slots": list(layout.option_names),
            "info_fields": [field.as_json() for field in self.info_fields],
            "obs_fields": [field.as_json() for field in self.obs_fields],
        }


def _fresh(out: Vector | None, size: int) -> Vector:
    """A zeroed vector of ``size``: ``out`` cleared, or a new one."""
    if out is None:
        return np.zeros(size, dtype=np.float32)
    if out.shape != (size,) or out.dtype != np.float32:
        raise EncodingError(f"out must be a float32 vector of {size}, not {out.dtype} {out.shape}")
    out.fill(0.0)
    return out


_ENCODERS: dict[tuple[type[Variant], object, Rules], Encoder] = {}


def encoder(variant: Variant) -> Encoder:
    """The :class:`Encoder` of ``variant``, made once per variant class, options and rules."""
    key = (type(variant), variant.options, variant.rules)
    found = _ENCODERS.get(key)
    if found is None:
        found = _ENCODERS[key] = Encoder(variant)
    return found
