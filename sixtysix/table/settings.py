"""The operator's choices for a table server: the programs tables may seat, the operator's
token, the browser origins allowed in, the rations of tables, chat, and TLS.

Kept apart from the server so that the command line builds them and the server only reads
them; ``docs/together.md`` ("Who can reach the server") says what each one is for.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sixtysix.table.wire import CHAT_BURST, CHAT_EVERY


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may open; the operator's token is not rationed."""

    #: Unfinished tables opened from one address.
    tables_per_address: int = 20
    #: Unfinished tables one name sits at.
    tables_per_name: int = 10
    #: Tables one address may open a minute (a burst of that many, then that rate).
    creates_per_minute: int = 10
    #: Seconds an open table waits with nobody at it before it is removed.
    open_expiry: float = 1800.0


@dataclass(frozen=True, slots=True)
class Settings:
    """The operator's choices for a server: its programs, its token, origins and limits."""

    #: Programs clients may seat as ``@NAME``: name -> ``exec:`` spec.
    programs: Mapping[str, str] = field(default_factory=dict)
    #: The operator's token (None: no request is the operator's).
    operator_token: str | None = None
    #: Browser origins allowed to connect (a connection without an Origin always may).
    origins: Sequence[str] = ()
    limits: Limits = Limits()
    #: Threads the bots think in (None: one per core).
    bot_threads: int | None = None
    #: Whether the people at a table may chat (``--no-chat``: they may not).
    chat: bool = True
    #: Chat messages one seat may send at once, then one every ``chat_every`` seconds.
    chat_burst: int = CHAT_BURST
    chat_every: float = CHAT_EVERY


OPERATOR_TOKEN_FILE = "operator.token"


def write_operator_token(root: Path) -> str:
    """A fresh operator token in ``root/operator.token``, readable by this user alone."""
    token = secrets.token_urlsafe(32)
    path = root / OPERATOR_TOKEN_FILE
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(token + "\n")
    return token


def tls_context(certfile: str, keyfile: str | None) -> ssl.SSLContext:
    """The server's TLS context; :class:`ssl.SSLError` or :class:`OSError` for a
    certificate or key it cannot use."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certfile, keyfile)
    return context
