"""What every seat knows, as vectors and text: the public observation of a deal.

Public-belief methods (and OpenSpiel's ``IIGObservationType(private_info=NONE)``) need the
table without any seat's hand: the same for every seat, and the same for two deals that differ
only in their hidden cards. :class:`PublicEncoder` makes it from one seat's
:class:`~sixtysix.core.view.View` by dropping what only that seat knows (its seat, its cards,
and the caller's partner while only the partner knows it) and encoding the rest with the
seat's encoder (:mod:`sixtysix.envs.observation`) as seen from seat 0, so seats are absolute
and every field keeps its layout (:mod:`sixtysix.envs.layout`). The private part is the seat's
hand alone: together the two give back everything the seat's own observation holds.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import CARD_NAMES, SUITS
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.chunks import DTYPE, card_set
from sixtysix.envs.layout import PHASE_NAMES, Field
from sixtysix.envs.observation import Encoder, Vector, encoder

__all__ = [
    "PRIVATE_FIELDS",
    "PublicEncoder",
    "private_string",
    "private_tensor",
    "public_encoder",
    "public_view",
]

#: The seat's own fields of the encoder's layout: no other seat sees them.
PRIVATE_FIELDS = frozenset({"seat", "hand"})

_RELATIVE = "one-hot by relative seat (0 = me, 1 = next in turn order, ...)"


def public_view(view: View) -> View:
    """``view`` as any seat sees it, from seat 0: no hand, no legal actions, and the caller's
    partner only once everyone knows it (the called ace has fallen, or the deal is over)."""
    partner = view.partner
    if partner is not None and not (view.called_ace in view.played or view.is_over):
        partner = None
    return dataclasses.replace(view, seat=0, hand=(), legal_actions=(), partner=partner)


def _public_meaning(field: Field) -> str:
    if field.name == "partner":
        return (
            "the caller's partner, one-hot by seat, once the called ace has fallen or the deal"
            " is over"
        )
    meaning = field.meaning.replace(_RELATIVE, "one-hot by seat")
    return meaning.replace("relative seat", "seat")


def _public_fields(fields: tuple[Field, ...]) -> tuple[tuple[Field, ...], np.ndarray]:
    """The public fields at their new offsets, and where each float comes from."""
    out: list[Field] = []
    index: list[np.ndarray] = []
    offset = 0
    for f in fields:
        if f.name in PRIVATE_FIELDS:
            continue
        out.append(Field(f.name, offset, f.size, _public_meaning(f)))
        index.append(np.arange(f.offset, f.offset + f.size))
        offset += f.size
    return tuple(out), np.concatenate(index)


class PublicEncoder:
    """One variant's public observation (the table now) and public information state (the
    table and every public action in order): float32 vectors and their text.

    :attr:`obs_fields` and :attr:`info_fields` name each run, as the encoder's do, without
    ``seat`` and ``hand``; every seat is absolute (one-hot by seat number).
    """

    def __init__(self, enc: Encoder) -> None:
        self.encoder = enc
        self.obs_fields, self._obs_index = _public_fields(enc.obs_fields)
        self.info_fields, self._info_index = _public_fields(enc.info_fields)
        self.obs_size = len(self._obs_index)
        self.info_size = len(self._info_index)
        layout = enc.layout
        #: The text's optional parts, as the layout has room for them.
        self._parts = (
            layout.has_turnup,
            bool(layout.talon),
            layout.closing,
            layout.marriages,
            layout.trump_call,
            layout.partner_call,
        )

    def observation(self, view: View, out: Vector | None = None) -> Vector:
        """The public table of ``view`` (any seat's view of the same deal gives the same)."""
        full = self.encoder.observation(public_view(view))
        return _taken(full, self._obs_index, out)

    def info_state(self, view: View, out: Vector | None = None) -> Vector:
        """The public table and the public history."""
        full = self.encoder.info_state(public_view(view))
        return _taken(full, self._info_index, out)

    def obs_string(self, view: View) -> str:
        """The public table as text, seats by number."""
        v = public_view(view)
        turnup, talon, closing, marriages, trump_call, partner_call = self._parts
        n = v.seats

        def seat(s: int | None) -> str:
            return "-" if s is None or s < 0 else str(s)

        def per_seat(values: tuple[object, ...]) -> str:
            return ", ".join(f"{s} {values[s]}" for s in range(n))

        parts = [
            f"seats {n}; dealer {v.dealer}; phase {PHASE_NAMES[v.phase]};"
            f" to act {seat(v.to_act)}; leader {seat(v.leader)}",
            f"trump {'-' if v.trump is None else SUITS[v.trump]}",
        ]
        if turnup:
            parts.append(f"turnup {'-' if v.turnup is None else CARD_NAMES[v.turnup]}")
        if talon:
            parts.append(f"talon {v.talon_size}")
        if closing:
            parts.append(f"closed {seat(v.closed_by)}")
        trick = ", ".join(f"{s} {CARD_NAMES[c]}" for s, c in v.trick) or "-"
        parts += [
            f"trick {trick}",
            f"tricks {per_seat(v.tricks)}",
            f"points {per_seat(v.card_points)}",
        ]
        if marriages:
            parts.append(f"marriages {per_seat(tuple(map(_suits, v.marriages)))}")
        parts += [
            f"known {per_seat(tuple(map(_cards, v.known)))}",
            f"played {_cards(v.played)}",
        ]
        if trump_call:
            parts.append(f"declarer {seat(v.declarer)}")
        if partner_call:
            called = "-" if v.called_ace is None else CARD_NAMES[v.called_ace]
            parts += [
                f"called {called}",
                f"partner {seat(v.partner)}",
                f"solo {'yes' if v.solo else 'no'}",
            ]
        return "; ".join(parts)

    def info_string(self, view: View) -> str:
        """The public table and, after it, every public action in order."""
        history = ", ".join(f"{s} {ACTION_NAMES[a]}" for s, a in view.history) or "-"
        return f"{self.obs_string(view)}; history {history}"


def _cards(cards: frozenset[int] | tuple[int, ...]) -> str:
    return " ".join(CARD_NAMES[c] for c in sorted(cards)) or "-"


def _suits(suits: tuple[int, ...]) -> str:
    return "".join(SUITS[s] for s in suits) or "-"


def _taken(full: Vector, index: np.ndarray, out: Vector | None) -> Vector:
    if out is None:
        taken: Vector = full[index]
        return taken
    np.take(full, index, out=out)
    return out


def private_tensor(view: View, out: Vector | None = None) -> Vector:
    """What only the seat knows: its cards, by card id (24 floats)."""
    mask = 0
    for c in view.hand:
        mask |= 1 << c
    data = np.frombuffer(card_set(mask), dtype=DTYPE)
    if out is None:
        return data.copy()
    out[:] = data
    return out


def private_string(view: View) -> str:
    """The seat's cards as text."""
    return f"hand {_cards(view.hand)}"


_PUBLIC: dict[Encoder, PublicEncoder] = {}


def public_encoder(variant: Variant) -> PublicEncoder:
    """The :class:`PublicEncoder` of ``variant``, made once per encoder."""
    enc = encoder(variant)
    found = _PUBLIC.get(enc)
    if found is None:
        found = _PUBLIC[enc] = PublicEncoder(enc)
    return found
