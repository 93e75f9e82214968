"""A seat's view as fixed-size float32 vectors, for learning agents and search libraries.

:class:`Encoder` turns a :class:`~sixtysix.core.view.View` (and nothing else) into the
information state (the table now plus the whole public history) and a shorter observation (the
table now), in the layout of :mod:`sixtysix.envs.layout`. Seats are relative to the viewer
(0 = me, 1 = the next seat in turn order, ...), so one policy serves every seat. An encoder
made with ``match=True`` adds the match's public state (``View.match``: totals, target or
deals, deals played, next dealer) as the ``match`` field, for a policy that plays for the match.

Encoding runs at every step of an environment, so it is built for speed: every run of floats a
field can take is made ahead as bytes (:mod:`sixtysix.envs.chunks`), per viewing seat where
seats are involved, and a view is encoded by looking its runs up and joining them; numpy only
wraps the result.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import numpy.typing as npt

from sixtysix.core.actions import NUM_ACTIONS
from sixtysix.core.match_view import MatchView
from sixtysix.core.rules import Rules
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.chunks import (
    CARD,
    DTYPE,
    HALF,
    NO_CARDS,
    ONE,
    ZERO,
    card_set,
    floats,
    one_hot,
    one_hots,
)
from sixtysix.envs.errors import EncodingError
from sixtysix.envs.layout import (
    ENCODING_VERSION,
    PHASE_NAMES,
    Field,
    Layout,
    history_action_names,
    make_layout,
    match_slot_names,
    max_deal_game_points,
)
from sixtysix.envs.text import info_text, obs_text

Vector = npt.NDArray[np.float32]

__all__ = ["Encoder", "Field", "Vector", "encoder", "match_floats"]

#: Match runs kept per encoder before the memo starts afresh (a run is per match state and
#: viewing seat, and a match has a few dozen).
_MATCH_MEMO = 4096


class _Seat:
    """The runs that depend on who is looking: seats become relative to ``me``."""

    __slots__ = ("history", "seat", "seats")

    def __init__(self, layout: Layout, me: int) -> None:
        n = layout.seats
        rel = [(s - me) % n for s in range(n)]
        self.seat = one_hot(n, me)
        #: A one-hot by relative seat, indexed by absolute seat; index -1: nobody.
        self.seats = one_hots(n, rel)
        #: ``history[(seat, action)]``: the run of one history slot, keyed like the pairs
        #: of ``View.history`` (a missing key: an action the rules never offer).
        self.history: dict[tuple[int, int], bytes] = {
            (s, a): self.seats[s] + one_hot(len(layout.usable), k)
            for s in range(n)
            for k, a in enumerate(layout.usable)
        }


class Encoder:
    """One variant's (with its options) fixed-size encodings of a seat's view.

    ``info_state`` and ``observation`` return float32 vectors of :attr:`info_size` and
    :attr:`obs_size` (or fill ``out``); ``info_string`` and ``obs_string`` are their text forms.
    :attr:`info_fields` and :attr:`obs_fields` say what each run of a vector means. With
    ``match`` the vectors and strings also hold the match's public state.
    """

    def __init__(self, variant: Variant, match: bool = False) -> None:
        self.variant_name = variant.name
        self.rules: Rules = variant.rules
        self.option_pairs = tuple(
            (spec.name, getattr(variant.options, spec.name)) for spec in variant.options.specs()
        )
        layout = self.layout = make_layout(
            variant.rules, variant.options, match, max_deal_game_points(type(variant))
        )
        #: Whether the vectors and strings hold the match's public state.
        self.match = match
        self.info_size: int = layout.info_size
        self.obs_size: int = layout.obs_size
        self.info_fields: tuple[Field, ...] = layout.info_fields
        self.obs_fields: tuple[Field, ...] = layout.obs_fields
        self.max_history = layout.max_history
        self.usable_ids = layout.usable
        self.seats = layout.seats
        self._by_seat = tuple(_Seat(layout, me) for me in range(layout.seats))
        self._phase = one_hots(len(PHASE_NAMES))
        # Index 4: trump not yet named (a slot of its own only where trump is called).
        self._trump = (
            *one_hots(4 + layout.trump_call)[:4],
            one_hot(5, 4) if layout.trump_call else ZERO * 4,
        )
        self._turnup = CARD if layout.has_turnup else ()
        self._talon = one_hots(layout.talon + 1) if layout.talon else ()
        self._tricks = one_hots(layout.max_tricks + 1)
        scale = 1.0 / max(layout.deck_points, 1)
        self._points = tuple(floats([p * scale]) for p in range(layout.deck_points + 1))
        self._marriages: dict[tuple[int, ...], bytes] = {}
        if layout.marriages:
            for k in range(5):
                for suits in permutations(range(4), k):
                    self._marriages[suits] = b"".join(ONE if s in suits else ZERO for s in range(4))
        self._called = one_hots(4) if layout.partner_call else ()
        self._options = floats(layout.option_values)
        slot = layout.history_slot
        self._padding = tuple(
            ZERO * slot * (layout.max_history - k) for k in range(layout.max_history + 1)
        )
        self._obs_bytes = 4 * self.obs_size
        #: A card set per seat, all empty (an empty trick; no card known anywhere).
        self._no_cards = NO_CARDS * self.seats
        self._info_bytes = 4 * self.info_size
        self._options_seen: object = None
        self._no_match = ZERO * len(match_slot_names(layout.seats)) if match else b""
        self._match_runs: dict[tuple[MatchView, int], bytes] = {}

    # ------------------------------------------------------------------ vectors

    def info_state(self, view: View, out: Vector | None = None) -> Vector:
        """The information state: the table now and every public action so far."""
        if view.options is not self._options_seen or view.variant != self.variant_name:
            self._check(view)
        history = view.history
        try:
            runs = self._table(view)
            runs += map(self._by_seat[view.seat].history.__getitem__, history)
            runs.append(self._padding[len(history)])
        except (IndexError, KeyError):
            raise self._misfit(view) from None
        return self._vector(runs, self._info_bytes, out)

    def observation(self, view: View, out: Vector | None = None) -> Vector:
        """The observation: the table as it is now, without the history."""
        if view.options is not self._options_seen or view.variant != self.variant_name:
            self._check(view)
        try:
            runs = self._table(view)
        except (IndexError, KeyError):
            raise self._misfit(view) from None
        return self._vector(runs, self._obs_bytes, out)

    def _check(self, view: View) -> None:
        """Refuse a view of another variant or other options. Views share their options'
        pairs (the engine caches them), so once one view's are found equal, the others' are
        recognised by identity."""
        if view.variant != self.variant_name or view.options != self.option_pairs:
            raise EncodingError(
                f"a view of {view.variant} with {dict(view.options)} cannot be encoded for"
                f" {self.variant_name} with {dict(self.option_pairs)}"
            )
        self._options_seen = view.options

    def _misfit(self, view: View) -> EncodingError:
        """A view of this variant that its rules could not have made (a plugin's own engine
        going beyond its rules: a longer history, an action they never offer)."""
        if len(view.history) > self.max_history:
            return EncodingError(
                f"a history of {len(view.history)} actions is longer than {self.variant_name}'s"
                f" rules allow ({self.max_history})"
            )
        return EncodingError(f"the view does not fit {self.variant_name}'s encoding")

    @staticmethod
    def _vector(runs: list[bytes], size: int, out: Vector | None) -> Vector:
        """The runs joined (``size`` bytes) into a new vector, or copied into ``out``."""
        data = bytearray().join(runs)
        if len(data) != size:
            raise EncodingError(
                f"the view does not fit this encoding ({len(data)} bytes, not {size})"
            )
        if out is None:
            return np.frombuffer(data, dtype=DTYPE)
        if out.shape != (size // 4,) or out.dtype != np.float32:
            raise EncodingError(
                f"out must be a float32 vector of {size // 4}, not {out.dtype} {out.shape}"
            )
        if out.flags.c_contiguous and out.flags.writeable:
            out.data.cast("B")[:] = data
        else:  # a strided view into a larger buffer: numpy copies element by element
            out[...] = np.frombuffer(data, dtype=DTYPE)
        return out

    def _table(self, view: View) -> list[bytes]:
        """The runs of every field but the history, in the layout's order."""
        me = view.seat
        t = self._by_seat[me]
        layout = self.layout
        mask = 0
        for c in view.hand:
            mask |= 1 << c
        trump = view.trump
        runs = [
            t.seat,
            t.seats[view.dealer],
            self._phase[view.phase],
            t.seats[view.to_act],  # -1 once the deal is over: all 0
            t.seats[view.leader],
            HALF[mask & 4095],
            HALF[mask >> 12],
            self._trump[4 if trump is None else trump],
        ]
        if self._turnup:
            turnup = view.turnup
            runs.append(self._turnup[-1 if turnup is None else turnup])
        if self._talon:
            runs.append(self._talon[view.talon_size])
        if layout.closing:
            closed = view.closed_by
            runs.append(t.seats[-1 if closed is None else closed])
        n = self.seats
        trick = view.trick
        if trick:
            cards = [NO_CARDS] * n
            for seat, card in trick:
                cards[(seat - me) % n] = CARD[card]
            runs += cards
        else:
            runs.append(self._no_cards)
        tricks = view.tricks
        runs += map(self._tricks.__getitem__, tricks[me:] + tricks[:me])
        points = view.card_points
        runs += map(self._points.__getitem__, points[me:] + points[:me])
        if self._marriages:
            married = view.marriages
            runs += map(self._marriages.__getitem__, married[me:] + married[:me])
        known = view.known
        if any(known):
            for cards_known in known[me:] + known[:me]:
                if cards_known:
                    mask = 0
                    for c in cards_known:
                        mask |= 1 << c
                    runs.append(card_set(mask))
                else:
                    runs.append(NO_CARDS)
        else:
            runs.append(self._no_cards)
        mask = 0
        for c in view.played:
            mask |= 1 << c
        runs.append(HALF[mask & 4095])
        runs.append(HALF[mask >> 12])
        if layout.trump_call:
            declarer = view.declarer
            runs.append(t.seats[-1 if declarer is None else declarer])
            if layout.partner_call:
                ace = view.called_ace
                runs.append(self._called[-1 if ace is None else ace // 6])
                partner = view.partner
                runs.append(t.seats[-1 if partner is None else partner])
                runs.append(ONE if view.solo else ZERO)
        runs.append(self._options)
        if self.match:
            runs.append(self._match_run(view.match, me))
        return runs

    def _match_run(self, match: MatchView | None, me: int) -> bytes:
        """The ``match`` field's run of ``match`` seen from ``me``, made once per pair: every
        view of a deal carries an equal copy of the same match state."""
        if match is None:
            return self._no_match
        key = (match, me)
        found = self._match_runs.get(key)
        if found is None:
            if len(self._match_runs) >= _MATCH_MEMO:
                self._match_runs.clear()
            values = match_floats(match, me, self.seats, self.layout.deal_points)
            found = self._match_runs[key] = floats(values)
        return found

    # ------------------------------------------------------------------ text

    def info_string(self, view: View) -> str:
        """The information state as text: the same for two views exactly when the seat cannot
        tell them apart (every field of the view the seat sees, in a fixed order)."""
        return info_text(view, self.layout)

    def obs_string(self, view: View) -> str:
        """The observation as text: the table now, without the history."""
        return obs_text(view, self.layout)

    # ------------------------------------------------------------------ description

    def metadata(self) -> dict[str, object]:
        """Sizes, field layouts and action names as JSON-able values (for tools and docs)."""
        layout = self.layout
        out: dict[str, object] = {
            "version": ENCODING_VERSION,
            "variant": self.variant_name,
            "options": dict(self.option_pairs),
            "match": self.match,
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
        if self.match:
            out["match_slots"] = list(match_slot_names(self.seats))
        return out


def match_floats(match: MatchView, me: int, seats: int, deal_points: int) -> tuple[float, ...]:
    """The ``match`` field of ``match`` as seat ``me`` sees it (seats relative to ``me``), as
    :func:`sixtysix.envs.layout.match_meaning` states it; ``deal_points``: the most game
    points one seat scores in a deal."""
    totals = match.totals
    if len(totals) != seats or not 0 <= match.next_dealer < seats:
        raise EncodingError(
            f"a match state of {len(totals)} seats (next dealer {match.next_dealer}) does not"
            f" fit a {seats}-seat encoding"
        )
    order = [(me + r) % seats for r in range(seats)]
    target, deals = match.target, match.deals
    if deals is None:
        goal = max(target or 0, 1)
        shares = [_clip(totals[s] / goal) for s in order]
        to_go = [_clip((match.to_go(s) or 0) / goal) for s in order]
        left = 0.0
        played = _clip(match.played / (seats * goal))
    else:
        shares = [_clip(totals[s] / max(deal_points * deals, 1)) for s in order]
        to_go = [0.0] * seats
        left = _clip((match.deals_left or 0) / max(deals, 1))
        played = _clip(match.played / max(deals, 1))
    dealer = [float(s == match.next_dealer) for s in order]
    return (*shares, *to_go, left, played, *dealer, 1.0)


def _clip(value: float) -> float:
    return min(max(value, 0.0), 1.0)


_ENCODERS: dict[tuple[type[Variant], object, Rules, bool], Encoder] = {}


def encoder(variant: Variant, match: bool = False) -> Encoder:
    """The :class:`Encoder` of ``variant`` (with the match's public state when ``match``),
    made once per variant class, options, rules and ``match``."""
    key = (type(variant), variant.options, variant.rules, match)
    found = _ENCODERS.get(key)
    if found is None:
        found = _ENCODERS[key] = Encoder(variant, match)
    return found
