"""``sixtysix serve``: run a table server that hosts many tables at once (WebSockets)."""

from __future__ import annotations

import asyncio
import gc
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sixtysix.cli.common import EXIT_INTERRUPTED, InputError, bounded, registry, reports_errors
from sixtysix.cli.localized import LocalizedCommand, lang_option

if TYPE_CHECKING:
    from sixtysix.i18n import Translator
    from sixtysix.table.server import TableServer


@click.command(cls=LocalizedCommand)
@click.option("--host", default="127.0.0.1", help="Address to listen on (default: 127.0.0.1).")
@click.option(
    "--port", type=bounded(1, 65535), default=6666, help="Port to listen on (default: 6666)."
)
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the table files and the names and standings database (default: your"
    " data directory / server).",
)
@click.option(
    "--reconnect-time",
    type=bounded(1, 86400),
    default=180,
    help="Seconds a dropped person keeps the seat (default: 180); later the seat has left"
    " the table.",
)
@click.option(
    "--certfile",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="TLS certificate (PEM): serve wss:// instead of ws://.",
)
@click.option(
    "--keyfile",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The certificate's private key (PEM), if not in the certificate file.",
)
@lang_option()
@reports_errors
def serve(
    host: str,
    port: int,
    data: Path | None,
    reconnect_time: int,
    certfile: Path | None,
    keyfile: Path | None,
    lang: str | None,
) -> None:
    """Run a table server: people join its tables from their own terminals with `sixtysix
    join`, and open tables with `sixtysix table new`.

    Every table is written to its file after each action; started again after a crash, the
    server resumes every unfinished table and the players reconnect. Ctrl-C stops it with
    every table saved (exit status 130).

    \b
    Examples:
      sixtysix serve
      sixtysix serve --host 0.0.0.0 --port 6666 --certfile cert.pem --keyfile key.pem
    """
    import ssl

    from sixtysix.i18n import translator
    from sixtysix.play.standings import data_dir
    from sixtysix.table.server import tls_context

    tr = translator(lang)
    if keyfile is not None and certfile is None:
        raise InputError(tr._("--keyfile needs --certfile"))
    context = None
    if certfile is not None:
        try:
            context = tls_context(str(certfile), None if keyfile is None else str(keyfile))
        except (OSError, ssl.SSLError) as exc:
            reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
            raise InputError(
                tr._("cannot use the certificate {path}: {reason}").format(
                    path=certfile, reason=reason
                )
            ) from None
    root = data if data is not None else data_dir() / "server"
    scheme = "wss" if context is not None else "ws"
    stopped_by = asyncio.run(_run(tr, root, host, port, reconnect_time, context, scheme))
    click.echo(tr._("Server stopped; every table is saved."), err=True)
    if stopped_by == signal.SIGINT:
        raise click.exceptions.Exit(EXIT_INTERRUPTED)


def _say(line: str) -> None:
    click.echo(line, err=True)


def _server(tr: Translator, root: Path, reconnect_time: int) -> TableServer:
    from sixtysix.table.names import Names
    from sixtysix.table.server import TableServer
    from sixtysix.table.standings_db import ServerStandings

    database = root / "server.sqlite3"
    root.mkdir(parents=True, exist_ok=True)
    return TableServer(
        root,
        registry(),
        Names(database),
        ServerStandings(database),
        reconnect_time=float(reconnect_time),
        tr=tr,
        say=_say,
    )


#: Objects allocated before a young collection, and young collections before an old one: the
#: defaults (700, 10, 10) make a busy server with a thousand tables run full collections of
#: half a million objects, each pausing every table (docs/benchmarks.md).
GC_YOUNG_THRESHOLD = 50_000
GC_OLD_THRESHOLD = 1000


def _long_lived_heap() -> None:
    """Collect rarely, and leave what exists once the tables are resumed (the registry, the
    variants, the loaded tables) out of every later collection: a server's heap is long-lived."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, max(old, GC_OLD_THRESHOLD))


async def _run(
    tr: Translator,
    root: Path,
    host: str,
    port: int,
    reconnect_time: int,
    context: object,
    scheme: str,
) -> int:
    """Serve until SIGINT or SIGTERM; the signal that stopped the server."""
    import ssl

    try:
        server = _server(tr, root, reconnect_time)
    except OSError as exc:
        raise InputError(
            tr._("cannot use the data folder {path}: {reason}").format(
                path=root, reason=exc.strerror or exc
            )
        ) from None
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[int] = loop.create_future()

    def stopping(sig: int) -> None:
        if not stop.done():
            stop.set_result(sig)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping, sig)
    try:
        resumed = await server.resume_all()
        _long_lived_heap()
        for problem in server.problems:
            _say(tr._("Warning: a table file was not resumed: {problem}").format(problem=problem))
        try:
            ws = await server.start(
                host, port, context if isinstance(context, ssl.SSLContext) else None
            )
        except OSError as exc:
            raise InputError(
                tr._("cannot listen on {host}:{port}: {reason}").format(
                    host=host, port=port, reason=exc.strerror or exc
                )
            ) from None
        if resumed:
            _say(tr._("Resumed {count} unfinished tables.").format(count=resumed))
        _say(
            tr._("Serving tables on {url} (data: {path}). Ctrl-C stops.").format(
                url=f"{scheme}://{host}:{port}", path=root
            )
        )
        try:
            return await stop
        finally:
            ws.close()
            await ws.wait_closed()
    finally:
        await server.stop()
        from sixtysix.bots.external import close_players

        await asyncio.to_thread(close_players)
