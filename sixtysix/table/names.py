"""The server's names and their secret tokens: identity without accounts.

The first join of a name anywhere on the server claims it and issues a random token
(:func:`secrets.token_urlsafe`); later joins of that name must show the token. Only the
SHA-256 hash of a token is stored, so a copy of the database lets nobody play under another's
name, and hashes are compared in constant time (:func:`hmac.compare_digest`).

Names are 1-32 letters, digits, ``_``, ``-`` or ``.``, unique without regard to case: ``Ayşe``
and ``AYŞE`` are one name, kept as first spelled. The key is the name in Unicode NFC, case-folded.

The names live in the server's SQLite database (the table ``names``; the server's standings
may share the file). Each call opens its own connection with a busy timeout, so the server may
call from worker threads. A damaged database is an error, never set aside quietly: starting
afresh would let anyone claim everyone's names.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import unicodedata
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
    claimed_at TEXT NOT NULL
)
"""


class NamesError(SixtySixError):
    """The names database cannot be read or written; the message says what and where."""


class BadName(SixtySixError, ValueError):
    """A name that breaks the rules for names; the message says which rule."""


class NameTaken(SixtySixError):
    """The name is already claimed (by this spelling or another case of it)."""


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


def token_hash(token: str) -> str:
    """The hex SHA-256 of a token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Names:
    """The names claimed on one server and the hashes of their tokens."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT)
        except (OSError, sqlite3.Error) as exc:
            raise NamesError(f"cannot open the names database {self.path}: {exc}") from None
        try:
            conn.execute(_SCHEMA)
        except sqlite3.Error as exc:
            conn.close()
            raise NamesError(f"the names database {self.path} is unusable: {exc}") from None
        return conn

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

    def claim(self, name: str) -> str:
        """Claim a free name and return its new token (shown once: only its hash is kept).

        :class:`NameTaken` when the name is claimed already, even in the same instant by
        another connection (the key is the table's primary key)."""
        text = normalize_name(name)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        row = (
            name_key(text),
            text,
            token_hash(token),
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
        conn = self._connect()
        try:
            with conn:
                conn.execute(
                    "INSERT INTO names (key, name, token_sha256, claimed_at) VALUES (?, ?, ?, ?)",
                    row,
                )
        except sqlite3.IntegrityError:
            raise NameTaken(f"the name {text} is taken") from None
        except sqlite3.Error as exc:
            raise NamesError(f"cannot write the names database {self.path}: {exc}") from None
        finally:
            conn.close()
        return token

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
