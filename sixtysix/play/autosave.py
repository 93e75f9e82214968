"""Nothing is lost: the game is written as a record after every action, atomically.

The save file is an ordinary ``sixtysix-record/1`` record (RECORDS.md), so ``sixtysix replay``
and ``sixtysix analyse`` read it as it is. What the record format does not hold, how the game
was set up (the person's seat, the opponents, rated or not, the language, the external players'
deadlines), goes beside it into ``NAME.session.json``, so ``--resume NAME`` restores the same
table; the record stays exactly the public format.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sixtysix.core import bounded_json
from sixtysix.core.errors import RecordError
from sixtysix.core.files import FileTargetError, write_text_atomic
from sixtysix.core.records import MAX_RECORD_BYTES, Record, load_record_file
from sixtysix.core.replay import Replay, replay
from sixtysix.i18n import LANGUAGES
from sixtysix.plugins.manager import Registry

SESSION_FORMAT = "sixtysix-session/1"


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """How a game was set up, kept beside its record for ``--resume``."""

    seat: int
    #: Bot spec per seat, ``""`` for the person's seat.
    opponents: tuple[str, ...]
    level: str
    rated: bool
    #: The interface language the game was played in (None: from the locale, as before).
    lang: str | None = None
    #: The ``exec:`` players' deadlines, seconds (None: the command's defaults).
    start_timeout: float | None = None
    move_timeout: float | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "format": SESSION_FORMAT,
            "seat": self.seat,
            "opponents": list(self.opponents),
            "level": self.level,
            "rated": self.rated,
            "lang": self.lang,
            "start_timeout": self.start_timeout,
            "move_timeout": self.move_timeout,
        }

    @staticmethod
    def from_json(data: object, source: str) -> SessionSettings:
        bad = RecordError(f"{source} is not a sixtysix session file")
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise bad
        seat, opponents = data.get("seat"), data.get("opponents")
        level, rated = data.get("level"), data.get("rated")
        if (
            not isinstance(seat, int)
            or not isinstance(opponents, list)
            or not all(isinstance(o, str) for o in opponents)
            or not isinstance(level, str)
            or not isinstance(rated, bool)
        ):
            raise bad
        # Added later: a session file written before them has none (the defaults then).
        lang = data.get("lang")
        if lang is not None and lang not in LANGUAGES:
            raise bad
        timeouts = [data.get("start_timeout"), data.get("move_timeout")]
        for t in timeouts:
            if t is not None and (
                isinstance(t, bool) or not isinstance(t, int | float) or not 0 < t < math.inf
            ):
                raise bad
        start, move = (None if t is None else float(t) for t in timeouts)
        return SessionSettings(seat, tuple(opponents), level, rated, lang, start, move)


def session_path(record_path: Path) -> Path:
    """``game.json`` -> ``game.session.json``."""
    return record_path.with_name(record_path.stem + ".session.json")


def default_save_path(directory: Path, variant: str, now: datetime | None = None) -> Path:
    """A record path of this game alone, ``VARIANT-DATE-TIME.json`` (``-2``, ``-3``... when
    taken), claimed by creating the file exclusively: two games started in the same second
    never share a file. The empty file is filled by the game's first save."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileTargetError(f"cannot create the directory {directory}: {exc.strerror}") from None
    n = 1
    while True:
        path = directory / (f"{variant}-{stamp}.json" if n == 1 else f"{variant}-{stamp}-{n}.json")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            n += 1
            continue
        except OSError as exc:
            raise FileTargetError(
                f"cannot create a game record in {directory}: {exc.strerror}"
            ) from None
        if session_path(path).exists():  # an older game's settings: not this name
            path.unlink()
            n += 1
            continue
        return path


class AutoSave:
    """Writes the record (and the session settings once) as the game goes."""

    def __init__(self, path: Path, settings: SessionSettings) -> None:
        self.path = path
        self.settings = settings
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileTargetError(f"cannot write {path}: {exc.strerror}") from None
        write_text_atomic(session_path(path), json.dumps(settings.as_json(), indent=2) + "\n")

    def save(self, record: Record) -> None:
        record.save(self.path)


@dataclass
class Resumed:
    """A saved game read back and checked action by action."""

    replay: Replay
    settings: SessionSettings | None
    #: The record's seed: the deals still to come are dealt from it (None: securely).
    seed: int | None


def load_saved_game(path: Path, registry: Registry) -> Resumed:
    """Read and replay a saved record (every action is checked) and its session file."""
    raw = load_record_file(path)
    result = replay(raw, registry)
    side = session_path(path)
    settings = None
    if side.exists():
        try:
            text = side.read_text(encoding="utf-8")
            data = bounded_json.loads(text, max_bytes=MAX_RECORD_BYTES)
        except (OSError, ValueError) as exc:
            raise RecordError(f"cannot read {side}: {exc}") from None
        settings = SessionSettings.from_json(data, str(side))
    return Resumed(result, settings, raw.seed)
