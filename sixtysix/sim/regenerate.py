"""Turn a simulation row back into a full game record.

A row stores no cards and no actions: it stores what produced them. The master seed and the
index (or, for an unseeded run, the game's own key) regenerate the deal and every bot's
choices, the variant, options and bot specs say who played by which rules. The game is played
again and its result compared with the row, so a row that no longer regenerates (another
version of sixtysix or of a bot plugin, a bot that is not reproducible) is reported instead of
silently replaying a different game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sixtysix.bots.base import parse_bot_spec
from sixtysix.core.errors import SixtySixError
from sixtysix.core.faults import FaultKind
from sixtysix.core.records import DealRecord, Forfeit, RawRecord, Record, parse_record
from sixtysix.core.rng import Seed
from sixtysix.core.turn import Fault
from sixtysix.plugins.manager import Registry
from sixtysix.sim.errors import OutputError
from sixtysix.sim.games import BotSpec, play_one
from sixtysix.sim.readers import find_row


def game_seed(row: Mapping[str, Any]) -> Seed:
    """The seed game ``row['index']`` drew from: from the master seed, or its stored key."""
    if row["seed"] is not None:
        return Seed(row["seed"]).child(("game", row["index"]))
    try:
        key = bytes.fromhex(row["key"])
    except (TypeError, ValueError):
        raise OutputError(f"game {row['index']}: 'key' is not hex") from None
    if len(key) != 32:
        raise OutputError(f"game {row['index']}: 'key' must be 32 bytes")
    return Seed.from_key(key)


def row_record(row: Mapping[str, Any], registry: Registry) -> Record:
    """The record of the game a row describes, regenerated and checked against the row."""
    where = f"game {row['index']}"
    try:
        cls = registry.variant(row["variant"])
        variant = cls(cls.options_class.build(row["options"], strict=True))
        bots: list[BotSpec] = []
        for spec in row["bots"]:
            name, params = parse_bot_spec(spec)
            bots.append((registry.bot(name), params))
    except SixtySixError as exc:
        raise OutputError(f"{where}: {exc}") from None
    if len(bots) != variant.seats:
        raise OutputError(f"{where}: {len(bots)} bots for {variant.seats} seats")
    faults: list[Fault] = []
    state = play_one(variant, bots, game_seed(row), row["dealer"], faults=faults)
    outcome = state.outcome
    assert outcome is not None
    recorded = (row["reason"], list(row["game_points"]), list(row["points"]), list(row["tricks"]))
    found = (str(outcome.reason), *map(list, (outcome.game_points, outcome.points, outcome.tricks)))
    if recorded != found:
        raise OutputError(
            f"{where} does not regenerate: the row says {recorded[0]} {recorded[1]}, playing it"
            f" again gives {found[0]} {found[1]} (another version of sixtysix or of a bot?)"
        )
    record = Record(variant.name, variant.options.diff(), row["seed"])
    # A game a fault ended is recorded as it ended: its forfeit after the last action.
    forfeit = Forfeit(faults[0][0], FaultKind(faults[0][1])) if faults else None
    record.deals.append(DealRecord(state.setup, list(state.history), forfeit))
    return record


def load_row_record(path: str | Path, index: int, registry: Registry) -> RawRecord:
    """Game ``index`` of a simulation file as a record ready for ``replay``."""
    record = row_record(find_row(path, index), registry)
    return parse_record(record.as_json())
