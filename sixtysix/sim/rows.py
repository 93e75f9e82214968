"""A simulation file's rows: one per game, as JSON Lines or Parquet, and how each is checked.

A row (format ``sixtysix-sim/1``) holds everything needed to play its game again:

- ``index``: the game's index in the run (its randomness is ``seed.child(("game", index))``);
- ``variant`` and ``options``: the variant's name and the options that differ from its
  defaults (an object in JSON Lines, the same object as a JSON string in Parquet);
- ``seed``: the master seed, or null when the run drew a secure random key;
- ``path``: the game's path under the master seed, ``game/<index>``;
- ``key``: the game's own 32-byte key in hex when ``seed`` is null (else null), so that an
  unseeded game can still be regenerated and replayed;
- ``seats`` and ``bots``: the number of seats and each seat's bot as ``name`` or
  ``name:key=value,...``;
- ``dealer``: the dealer's seat;
- ``reason``, ``game_points``, ``points``, ``tricks``: the result, as in a replay's ``result``;
- ``duration``: seconds spent on the game; on the compiled path, which plays whole batches
  at once, the batch's time divided by its games;
- ``faults``: only when a player faulted (the game then ended by forfeit), the list of
  ``{"seat": S, "kind": K}`` (``kind`` one of :class:`~sixtysix.core.faults.FaultKind`). In
  JSON Lines the field is absent when there is none, so rows without faults are exactly those
  of earlier versions; in Parquet it is a column of lists, empty when there is none (read back
  as a row without the field), and files without the column (written before it existed) are
  still read and resumed.

Writing the rows is :mod:`sixtysix.sim.output`, reading them back :mod:`sixtysix.sim.readers`,
continuing a file :mod:`sixtysix.sim.resume`; this module is what the three share.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sixtysix.sim.errors import OutputError

if TYPE_CHECKING:
    import pyarrow as pa

FORMAT = "sixtysix-sim/1"
FIELDS: tuple[str, ...] = (
    "index",
    "variant",
    "options",
    "seed",
    "path",
    "key",
    "seats",
    "bots",
    "dealer",
    "reason",
    "game_points",
    "points",
    "tricks",
    "duration",
)
Kind = Literal["jsonl", "parquet"]
_SUFFIXES: dict[str, Kind] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
#: The optional field that lists a game's faults (absent from older files).
FAULTS = "faults"


def output_kind(path: str | Path) -> Kind:
    """JSON Lines or Parquet, by the file's suffix."""
    kind = _SUFFIXES.get(Path(path).suffix.lower())
    if kind is None:
        raise OutputError(
            f"cannot tell the output format of {str(path)!r}: name it *.jsonl or *.parquet"
        )
    return kind


def require_pyarrow() -> None:
    """Fail in one line when Parquet is asked for without pyarrow."""
    try:
        import pyarrow  # the parquet extra
        import pyarrow.parquet  # noqa: F401  # the parquet extra
    except ImportError:
        raise OutputError(
            "Parquet output needs pyarrow: pip install 'sixtysix[parquet]' (or use *.jsonl)"
        ) from None


def bot_label(name: str, params: Mapping[str, str]) -> str:
    """A bot as ``--bots`` names it: ``random`` or ``random:seed=3``."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in sorted(params.items()))


def options_text(options: Mapping[str, object]) -> str:
    """The canonical JSON text of a row's options (Parquet's ``options`` column)."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class RunInfo:
    """What every row of one run repeats; checked when a file is resumed."""

    variant: str
    options: Mapping[str, object]
    seed: int | None
    bots: tuple[str, ...]

    @property
    def seats(self) -> int:
        return len(self.bots)

    def mismatch(self, row: Mapping[str, Any]) -> str | None:
        """Why ``row`` belongs to another run (None when it belongs to this one)."""
        if row["variant"] != self.variant:
            return f"variant {row['variant']!r}, not {self.variant!r}"
        if dict(row["options"]) != dict(self.options):
            return f"options {options_text(row['options'])}, not {options_text(self.options)}"
        if row["seed"] != self.seed:
            theirs = "no seed" if row["seed"] is None else f"--seed {row['seed']}"
            ours = "no seed" if self.seed is None else f"--seed {self.seed}"
            return f"{theirs}, not {ours}"
        if tuple(row["bots"]) != self.bots:
            return f"bots {','.join(row['bots'])}, not {','.join(self.bots)}"
        return None


def faults_type() -> pa.DataType:
    import pyarrow as pa  # the parquet extra

    return pa.list_(pa.struct([("seat", pa.int64()), ("kind", pa.string())]))


def with_faults(table: pa.Table) -> pa.Table:
    """``table`` with a ``faults`` column (empty lists for a file written before it existed)."""
    import pyarrow as pa  # the parquet extra

    if FAULTS in table.column_names:
        return table
    return table.append_column(FAULTS, pa.array([[]] * table.num_rows, type=faults_type()))


def parquet_schema() -> pa.Schema:
    import pyarrow as pa  # the parquet extra

    ints = pa.list_(pa.int64())
    return pa.schema(
        [
            ("index", pa.int64()),
            ("variant", pa.string()),
            ("options", pa.string()),
            ("seed", pa.int64()),
            ("path", pa.string()),
            ("key", pa.string()),
            ("seats", pa.int64()),
            ("bots", pa.list_(pa.string())),
            ("dealer", pa.int64()),
            ("reason", pa.string()),
            ("game_points", ints),
            ("points", ints),
            ("tricks", ints),
            ("duration", pa.float64()),
            (FAULTS, faults_type()),
        ],
        metadata={"format": FORMAT},
    )


# --------------------------------------------------------------------------- checking


def check_row(row: object, where: str) -> dict[str, Any]:
    """A row with every field of the right type, else an :class:`OutputError` naming it."""
    if not isinstance(row, dict):
        raise OutputError(f"{where}: a row must be a JSON object")
    missing = [f for f in FIELDS if f not in row]
    if missing:
        raise OutputError(f"{where}: not a sixtysix simulation row (no {', '.join(missing)})")

    def is_int(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    seats = row["seats"]
    if not is_int(seats) or seats < 1:
        raise OutputError(f"{where}: 'seats' must be a positive integer")
    if not is_int(row["index"]) or row["index"] < 0:
        raise OutputError(f"{where}: 'index' must be a game index (0 or more)")
    for name in ("game_points", "points", "tricks"):
        value = row[name]
        if not isinstance(value, list) or len(value) != seats or not all(map(is_int, value)):
            raise OutputError(f"{where}: '{name}' must list {seats} integers")
    bots = row["bots"]
    if (
        not isinstance(bots, list)
        or len(bots) != seats
        or not all(isinstance(b, str) for b in bots)
    ):
        raise OutputError(f"{where}: 'bots' must list {seats} bot names")
    if not isinstance(row["options"], dict):
        raise OutputError(f"{where}: 'options' must be an object")
    if row["seed"] is not None and not is_int(row["seed"]):
        raise OutputError(f"{where}: 'seed' must be an integer or null")
    key = row["key"]
    if key is not None and (not isinstance(key, str) or len(key) != 64):
        raise OutputError(f"{where}: 'key' must be 64 hex digits or null")
    if row["seed"] is None and key is None:
        raise OutputError(f"{where}: a row without a seed needs its 'key'")
    for name in ("variant", "reason"):
        if not isinstance(row[name], str):
            raise OutputError(f"{where}: '{name}' must be a string")
    if not is_int(row["dealer"]):
        raise OutputError(f"{where}: 'dealer' must be a seat number")
    faults = row.get(FAULTS, [])
    if not isinstance(faults, list) or not all(
        isinstance(f, dict)
        and is_int(f.get("seat"))
        and 0 <= f["seat"] < seats
        and isinstance(f.get("kind"), str)
        for f in faults
    ):
        raise OutputError(f"{where}: 'faults' must list {{seat, kind}} objects")
    return row
