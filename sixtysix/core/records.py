"""Game records (``sixtysix-record/1``): reading, validating and writing them.

The JSON shape is a public interface (RECORDS.md): reading is forgiving in notation only
(any case, ``10`` for ``T``, suit symbols), never in structure; every defect becomes a
:class:`RecordError` whose message names the deal (counted from 1) and what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from sixtysix.core import bounded_json
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.bounded_json import JSONInputError
from sixtysix.core.cards import parse_card
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import NotationError, RecordError, shown
from sixtysix.core.faults import FaultKind
from sixtysix.core.files import write_text_atomic
from sixtysix.core.rng import MAX_SEED_DIGITS

FORMAT = "sixtysix-record/1"
#: The largest record read: far beyond a long match (a deal takes about 2 KB).
MAX_RECORD_BYTES = 64 << 20
#: Seats and dealers are numbered from 0; no table has this many (the variant checks its own).
MAX_SEATS = 100


#: The keys of a deal's ``forfeit``, exactly these.
FORFEIT_KEYS = frozenset({"seat", "reason"})


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A deal ended by a player's fault after its last action (RECORDS.md): the seat that
    faulted and the kind of fault. The record says only who and why; the score is the one
    rule of :func:`sixtysix.core.faults.forfeit`."""

    seat: int
    reason: FaultKind

    def as_json(self) -> dict[str, object]:
        return {"seat": self.seat, "reason": str(self.reason)}


@dataclass
class DealRecord:
    setup: DealSetup
    #: (seat, action) in order; a raw string where the action could not be read yet.
    actions: list[tuple[int, int]] = field(default_factory=list)
    #: The fault that ended the deal after its actions, if one did.
    forfeit: Forfeit | None = None

    def as_json(self) -> dict[str, object]:
        out = self.setup.as_json()
        out["actions"] = [{"seat": s, "action": ACTION_NAMES[a]} for s, a in self.actions]
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit.as_json()
        return out


@dataclass
class Record:
    variant: str
    options: dict[str, object] = field(default_factory=dict)
    seed: int | None = None
    deals: list[DealRecord] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "deals": [d.as_json() for d in self.deals],
        }

    def dumps(self) -> str:
        return json.dumps(self.as_json(), indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write atomically, so an interrupted write never leaves half a record, through a
        temporary file of this write alone, and only over a regular file."""
        write_text_atomic(Path(path), self.dumps())


@dataclass
class RawDeal:
    """A deal as read from JSON: cards parsed, actions still strings (checked on replay)."""

    setup: DealSetup
    actions: list[tuple[int, str]]
    #: The fault that ended the deal after its actions (its seat is checked on replay).
    forfeit: Forfeit | None = None


@dataclass
class RawRecord:
    variant: str
    options: dict[str, object]
    seed: int | None
    deals: list[RawDeal]


def load_record_text(text: str, source: str = "record") -> RawRecord:
    return parse_record(json_value(text, source))


def json_value(text: str, source: str) -> object:
    """``text`` parsed as JSON within bounds, where every way it can fail is a one-line
    :class:`RecordError`: broken syntax, a number longer than Python reads (4300 digits) or not
    finite, nesting deeper than any record's (:data:`~sixtysix.core.bounded_json.MAX_DEPTH`)."""
    try:
        return bounded_json.loads(text, max_bytes=MAX_RECORD_BYTES)
    except JSONInputError as exc:
        if exc.kind == "size":
            message = f"{source} is larger than {MAX_RECORD_BYTES >> 20} MiB: not a record"
        elif exc.kind in ("depth", "syntax"):
            message = f"{source} is {exc}"
        else:
            message = f"{source} has {exc}"
        raise RecordError(message) from None


def load_record_file(path: str | Path) -> RawRecord:
    p = Path(path)
    try:
        with p.open("rb") as stream:
            return load_record_stream(stream, str(p))
    except OSError as exc:
        raise RecordError(f"cannot read {p}: {exc.strerror or exc}") from None


def load_record_stream(stream: BinaryIO, source: str) -> RawRecord:
    """A record read from ``stream`` (a file, stdin) in UTF-8, at most
    :data:`MAX_RECORD_BYTES` of it: a special file such as ``/dev/zero`` is refused, not read
    until memory runs out."""
    data = stream.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{source} is larger than {MAX_RECORD_BYTES >> 20} MiB: not a record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"cannot read {source}: {exc}") from None
    return load_record_text(text, source)


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise RecordError(f'{where}: a card must be a string like "AS", not {shown(value)}')
    try:
        return int(parse_card(value))
    except NotationError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _seat(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_SEATS:
        raise RecordError(
            f"{what} must be a seat number (0 to {MAX_SEATS - 1}), not {shown(value)}"
        )
    return value


def parse_record(data: object) -> RawRecord:
    """Check the record's structure and read its cards (rules are checked by replay)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"unsupported record format {shown(fmt)} (expected {FORMAT!r})")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant:
        raise RecordError("record: 'variant' must be a variant name")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError("record: 'options' must be an object of option names to values")
    seed = data.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 10**MAX_SEED_DIGITS
    ):
        raise RecordError(
            f"record: 'seed' must be an integer of at most {MAX_SEED_DIGITS} digits or null"
        )
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError("record: 'deals' must be a list")
    return RawRecord(variant, options, seed, [_parse_deal(d, i + 1) for i, d in enumerate(deals)])


def _parse_deal(d: object, number: int) -> RawDeal:
    where = f"deal {number}"
    if not isinstance(d, dict):
        raise RecordError(f"{where}: a deal must be an object")
    dealer = _seat(d.get("dealer"), f"{where}: 'dealer'")
    hands = d.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError(f"{where}: 'hands' must be a list of lists of cards")
    parsed_hands = tuple(
        tuple(_card(c, f"{where}, hand of seat {s}") for c in h) for s, h in enumerate(hands)
    )
    trump = d.get("trump_card")
    trump_card = None if trump is None else _card(trump, f"{where}, trump_card")
    talon = d.get("talon", [])
    if not isinstance(talon, list):
        raise RecordError(f"{where}: 'talon' must be a list of cards")
    parsed_talon = tuple(_card(c, f"{where}, talon") for c in talon)
    actions = d.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where}: 'actions' must be a list")
    steps: list[tuple[int, str]] = []
    for i, a in enumerate(actions):
        at = f"{where}, step {i + 1}"
        if not isinstance(a, dict):
            raise RecordError(f"{at}: an action must be an object with 'seat' and 'action'")
        seat = _seat(a.get("seat"), f"{at}: 'seat'")
        text = a.get("action")
        if not isinstance(text, str):
            raise RecordError(f"{at}: 'action' must be a string")
        steps.append((seat, text))
    setup = DealSetup(dealer, parsed_hands, trump_card, parsed_talon)
    forfeit = _forfeit(d["forfeit"], where) if "forfeit" in d else None
    return RawDeal(setup, steps, forfeit)


def _forfeit(value: object, where: str) -> Forfeit:
    """A deal's ``forfeit``: an object of exactly a seat and one of the fault kinds."""
    at = f"{where}, forfeit"
    if not isinstance(value, dict):
        raise RecordError(
            f'{at}: must be an object like {{"seat": 1, "reason": "timeout"}}, not {shown(value)}'
        )
    keys = set(value)
    if keys != FORFEIT_KEYS:
        extra = sorted(str(k) for k in keys - FORFEIT_KEYS)
        missing = sorted(FORFEIT_KEYS - keys)
        what = (
            f"has no {shown(missing[0])}" if missing else f"has an unknown field {shown(extra[0])}"
        )
        raise RecordError(f"{at}: {what} (it holds exactly 'seat' and 'reason')")
    seat = _seat(value["seat"], f"{at}: 'seat'")
    reason = value["reason"]
    kinds = [str(k) for k in FaultKind]
    if not isinstance(reason, str) or reason not in kinds:
        raise RecordError(f"{at}: 'reason' must be one of {', '.join(kinds)}, not {shown(reason)}")
    return Forfeit(seat, FaultKind(reason))
