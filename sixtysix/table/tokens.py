"""The client's tokens: the secret the server issued for each name, kept per server URL.

The file is ``tokens.json`` in the user data directory (``$SIXTYSIX_DATA_DIR`` when set, as
for the standings), ``{server_url: {name: token}}``, written whole or not at all (a temporary
file renamed over it) with mode 0600, under a lock so two terminals joining at once keep both
tokens. Server URLs are compared with the scheme and host in lower case and no trailing
slash; names as the server compares them, without regard to case.

A damaged file (not JSON, or not that shape) costs no join: reading reports it in one line and
finds no token; saving a new token moves the damaged file aside, says so, and starts afresh.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from sixtysix.core import bounded_json
from sixtysix.core.errors import SixtySixError
from sixtysix.core.files import FileTargetError, aside_name, locked_beside, write_text_atomic
from sixtysix.i18n import Translator
from sixtysix.service.standings import data_dir
from sixtysix.table.names import BadName, name_key

TOKENS_FILE = "tokens.json"
#: A token file larger than this is damage, not tokens.
MAX_FILE = 1 << 20

Tokens = dict[str, dict[str, str]]


class TokenFileError(SixtySixError):
    """The token file cannot be written; the message says where and why."""


def tokens_path() -> Path:
    """Where the client keeps its tokens."""
    return data_dir() / TOKENS_FILE


def server_key(url: str) -> str:
    """The URL as the file keys it: scheme and host in lower case, no trailing slash."""
    parts = urlsplit(url.strip())
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), parts.query, "")
    )


def _same_name(a: str, b: str) -> bool:
    try:
        return name_key(a) == name_key(b)
    except BadName:
        return a == b


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


class TokenFile:
    """One token file. ``warn`` gets the one line about a damaged file (stderr by default),
    in the language of ``tr``."""

    def __init__(
        self,
        path: Path | None = None,
        warn: Callable[[str], None] | None = None,
        tr: Translator | None = None,
    ) -> None:
        self.path = path if path is not None else tokens_path()
        self.warn = warn if warn is not None else _stderr
        self.tr = tr if tr is not None else Translator()

    def _read(self) -> tuple[Tokens, str | None]:
        """The tokens and what is wrong with the file (None: sound or absent)."""
        try:
            with open(self.path, "rb") as f:
                raw = f.read(MAX_FILE + 1)
        except FileNotFoundError:
            return {}, None
        except IsADirectoryError:
            return {}, self.tr._("it is a directory")
        except OSError as exc:
            return {}, str(exc.strerror or exc)
        if len(raw) > MAX_FILE:
            return {}, self.tr._("it is larger than a token file can be")
        try:
            data = bounded_json.loads(raw, max_bytes=MAX_FILE)
        except ValueError:
            return {}, self.tr._("it is not JSON")
        if not isinstance(data, dict) or not all(
            isinstance(names, dict)
            and all(isinstance(n, str) and isinstance(t, str) for n, t in names.items())
            for names in data.values()
        ):
            return {}, self.tr._("it is not a map of server URLs to names and tokens")
        return data, None

    def _damaged(self, reason: str) -> str:
        return self.tr._("The token file {path} is damaged ({reason}).").format(
            path=self.path, reason=reason
        )

    def load(self, url: str, name: str) -> str | None:
        """The token kept for ``name`` on the server at ``url``, or None."""
        tokens, reason = self._read()
        if reason is not None:
            self.warn(self._damaged(reason) + " " + self.tr._("No saved token is used."))
            return None
        for saved, token in tokens.get(server_key(url), {}).items():
            if _same_name(saved, name):
                return token
        return None

    def _locked(self) -> AbstractContextManager[None]:
        """Only one client at a time reads, changes and writes the file."""
        return locked_beside(
            self.path,
            lambda exc: TokenFileError(
                f"cannot keep the token in {self.path.parent}: {exc.strerror or exc}"
            ),
            0o600,
        )

    def _set_aside(self, reason: str) -> None:
        aside = aside_name(self.path)
        try:
            self.path.rename(aside)
        except OSError as exc:
            raise TokenFileError(
                f"the token file {self.path} is damaged ({reason}) and cannot be moved aside:"
                f" {exc.strerror or exc}"
            ) from None
        self.warn(
            self._damaged(reason)
            + " "
            + self.tr._("It is kept as {aside} and a new one is started.").format(aside=aside)
        )

    def save(self, url: str, name: str, token: str) -> None:
        """Keep ``token`` for ``name`` on the server at ``url`` (replacing any other case of
        the name there); :class:`TokenFileError` when it cannot be written."""
        with self._locked():
            tokens, reason = self._read()
            if reason is not None:
                self._set_aside(reason)
            names = tokens.setdefault(server_key(url), {})
            for saved in [n for n in names if _same_name(n, name)]:
                del names[saved]
            names[name] = token
            try:
                write_text_atomic(self.path, json.dumps(tokens, indent=2) + "\n", mode=0o600)
                os.chmod(self.path, 0o600)
            except (FileTargetError, OSError) as exc:
                raise TokenFileError(str(exc)) from None


def load(
    url: str, name: str, *, path: Path | None = None, tr: Translator | None = None
) -> str | None:
    """The token kept for ``name`` at ``url`` in the user's token file, or None."""
    return TokenFile(path, tr=tr).load(url, name)


def save(url: str, name: str, token: str, *, path: Path | None = None) -> None:
    """Keep ``token`` for ``name`` at ``url`` in the user's token file."""
    TokenFile(path).save(url, name, token)
