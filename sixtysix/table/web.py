"""The page a browser opens at the table server: its files, its headers and who may load it.

The server answers plain HTTP ``GET`` on the same port as its WebSockets (websockets'
``process_request``): ``/`` and ``/t/TABLE`` are the page, ``/static/...`` its files (shipped
in ``sixtysix/table/page``, read once, gzipped once), ``/api/setup`` what the lobby's form and
the page's words need. Everything else is 404; a request that asks for a WebSocket goes on to
the handshake once its Origin passes :func:`origin_allowed`.

Who may load the page: a browser that names this server by an IP address, by ``localhost``, by
the name it listens on, or by an origin the operator allowed (``--allow-origin``). Any other
host name could be an attacker's name pointed at this address (DNS rebinding), so its
requests are refused, pages and WebSockets alike.
"""

from __future__ import annotations

import gzip
import hashlib
import http
import ipaddress
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: The page's files, by the path they are served at, with their content types.
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
#: The page may run its own scripts and styles, talk to this server, and nothing else.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none';"
    " form-action 'none'; frame-ancestors 'none'"
)
#: Headers on every answer of the page's.
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
#: Files smaller than this are sent as they are (gzip would not pay).
GZIP_FROM = 512


@dataclass(frozen=True, slots=True)
class Asset:
    """One file of the page, as sent: its bytes, gzipped bytes and validator."""

    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str


def asset(body: bytes, content_type: str) -> Asset:
    """A file of the page, gzipped once when that pays."""
    packed = gzip.compress(body, 9, mtime=0) if len(body) >= GZIP_FROM else None
    if packed is not None and len(packed) >= len(body):
        packed = None
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Asset(body, packed, content_type, etag)


def load_page() -> dict[str, Asset]:
    """The page's files as served: ``/static/NAME`` for each file of ``table/page``."""
    folder = resources.files("sixtysix.table") / "page"
    files: dict[str, Asset] = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in TYPES:
            files["/static/" + entry.name] = asset(entry.read_bytes(), TYPES[suffix])
    return files


def host_name(host: str) -> str:
    """The name in a ``Host`` header or an origin's authority, without port or brackets,
    lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Policy:
    """Which host names and origins the page is served to."""

    #: The origins the operator allowed (``--allow-origin``).
    origins: Sequence[str] = ()
    #: The name the server listens on (``--host``), when it is a name.
    listen_host: str = ""
    #: Whether the server speaks TLS (its own page's origin is then ``https://``).
    tls: bool = False

    def host_allowed(self, host: str | None) -> bool:
        """Whether a request naming this server ``host`` comes from a name the operator
        owns: an address, ``localhost``, the listening name, or an allowed origin's host."""
        if not host:
            return False
        name = host_name(host)
        if _is_address(name) or name == "localhost" or name.endswith(".localhost"):
            return True
        if self.listen_host and name == host_name(self.listen_host):
            return True
        return any(name == host_name(urlsplit(o).netloc) for o in self.origins)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Whether a WebSocket handshake from ``origin`` may go on: a program (no Origin), an
        origin the operator allowed, or this server's own page at an allowed host."""
        if origin is None:
            return True
        if origin in self.origins:
            return True
        if host is None or not self.host_allowed(host):
            return False
        scheme = "https" if self.tls else "http"
        return origin.lower() == f"{scheme}://{host.strip().lower()}"


def response(
    status: http.HTTPStatus,
    body: bytes,
    content_type: str,
    extra: Mapping[str, str] | None = None,
) -> Response:
    """An HTTP answer with the page's security headers."""
    headers = Headers(SECURITY_HEADERS)
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    # The server ends the connection after every plain HTTP answer (websockets sends EOF):
    # saying so keeps a browser from sending its next request down the closing socket.
    headers["Connection"] = "close"
    for key, value in (extra or {}).items():
        headers[key] = value
    return Response(status.value, status.phrase, headers, body)


def plain(status: http.HTTPStatus, text: str) -> Response:
    """A short plain-text answer (an error)."""
    return response(status, (text + "\n").encode(), "text/plain; charset=utf-8")


class Site:
    """Answers the page's HTTP requests; ``setup`` builds the ``/api/setup`` JSON for a
    language (cached: it depends on the installed variants only)."""

    def __init__(
        self,
        policy: Policy,
        setup: Callable[[str], object],
        files: Mapping[str, Asset] | None = None,
    ) -> None:
        self.policy = policy
        self.files = dict(files) if files is not None else load_page()
        self._setup = setup
        self._setups: dict[str, Asset] = {}

    def setup_asset(self, lang: str) -> Asset:
        found = self._setups.get(lang)
        if found is None:
            body = json.dumps(self._setup(lang), ensure_ascii=False, separators=(",", ":"))
            found = self._setups[lang] = asset(body.encode(), TYPES[".json"])
        return found

    def answer(self, request: Request) -> Response | None:
        """The answer to ``request``, or None to go on with a WebSocket handshake."""
        headers = request.headers
        host, origin = one(headers, "Host"), one(headers, "Origin")
        if host is MANY or origin is MANY:  # which one would the browser have meant?
            return plain(http.HTTPStatus.BAD_REQUEST, "One Host and at most one Origin, please")
        upgrade = ", ".join(headers.get_all("Upgrade"))
        if "websocket" in upgrade.lower():
            if not self.policy.origin_allowed(origin, host):
                return plain(http.HTTPStatus.FORBIDDEN, "Origin not allowed")
            return None
        if not self.policy.host_allowed(host):
            return plain(
                http.HTTPStatus.MISDIRECTED_REQUEST,
                "This server does not answer to that host name (see --allow-origin).",
            )
        path = urlsplit(request.path).path
        query = parse_qs(urlsplit(request.path).query)
        if path == "/" or (path.startswith("/t/") and _table_id(path[3:])):
            found = self.files.get("/static/index.html")
        elif path == "/api/setup":
            lang = (query.get("lang") or ["en"])[0]
            found = self.setup_asset(lang if lang in ("en", "tr") else "en")
        else:
            found = self.files.get(path)
        if found is None:
            return plain(http.HTTPStatus.NOT_FOUND, "Not found")
        return self.send(found, headers)

    def send(self, found: Asset, headers: Headers) -> Response:
        """``found``, or 304 when the browser holds it already; gzipped when accepted."""
        if found.etag in headers.get_all("If-None-Match"):
            return response(
                http.HTTPStatus.NOT_MODIFIED, b"", found.content_type, {"ETag": found.etag}
            )
        extra = {"ETag": found.etag, "Vary": "Accept-Encoding"}
        if found.gzipped is not None and "gzip" in ", ".join(headers.get_all("Accept-Encoding")):
            extra["Content-Encoding"] = "gzip"
            return response(http.HTTPStatus.OK, found.gzipped, found.content_type, extra)
        return response(http.HTTPStatus.OK, found.body, found.content_type, extra)


#: A header sent more than once where one is meant (:func:`one`).
MANY = "\x00many"


def one(headers: Headers, name: str) -> str | None:
    """The header's value, None without one, :data:`MANY` when sent twice or more (a
    client's request must not end in a traceback)."""
    values = headers.get_all(name)
    if len(values) > 1:
        return MANY
    return values[0] if values else None


def _table_id(text: str) -> bool:
    """Whether ``text`` may be a table id (the page then asks the server about it)."""
    return 0 < len(text) <= 40 and all(c.isalnum() or c in "-_" for c in text)
