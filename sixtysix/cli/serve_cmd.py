"""``sixtysix serve``: run a table server that hosts many tables at once (WebSockets)."""

from __future__ import annotations

import contextlib
import gc
import ipaddress
import re
import shlex
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sixtysix.cli.common import bounded, registry, reports_errors
from sixtysix.cli.errors import EXIT_INTERRUPTED, InputError
from sixtysix.cli.localized import LocalizedCommand, lang_option
from sixtysix.i18n import Translator, translator
from sixtysix.protocol.referee import PlayerStartError, parse_exec_spec, resolve_argv

if TYPE_CHECKING:
    from sixtysix.table.server import TableServer
    from sixtysix.table.settings import Limits


#: A program's name as the operator gives it (``--player NAME=COMMAND``), seated as ``@NAME``.
_PROGRAM_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
#: An origin as a browser sends it: scheme, host and an optional port, nothing else.
_ORIGIN = re.compile(r"https?://[^\s/?#]+")


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
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME=COMMAND",
    help="A program tables may seat as @NAME (repeatable), e.g. mybot='python3 bot.py'. Only"
    " the operator names programs: no client can make the server run one.",
)
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    help="A web page origin whose browsers may connect (repeatable), e.g."
    " https://club.example; pages of any other origin are refused.",
)
@click.option(
    "--tables-per-address",
    type=bounded(1, 100_000),
    default=20,
    help="Unfinished tables one address may open (default: 20).",
)
@click.option(
    "--tables-per-name",
    type=bounded(1, 100_000),
    default=10,
    help="Unfinished tables one name may sit at (default: 10).",
)
@click.option(
    "--creates-per-minute",
    type=bounded(1, 100_000),
    default=10,
    help="Tables one address may open a minute (default: 10).",
)
@click.option(
    "--open-table-expiry",
    type=bounded(1, 100_000),
    default=30,
    help="Minutes an open table waits with nobody at it before it is removed (default: 30).",
)
@click.option(
    "--bot-threads",
    type=bounded(1, 1024),
    default=None,
    help="Threads the bots think in (default: one per core).",
)
@click.option(
    "--no-chat",
    is_flag=True,
    help="No chat at this server's tables: people's chat messages are refused.",
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
    players: tuple[str, ...],
    origins: tuple[str, ...],
    tables_per_address: int,
    tables_per_name: int,
    creates_per_minute: int,
    open_table_expiry: int,
    bot_threads: int | None,
    no_chat: bool,
    lang: str | None,
) -> None:
    """Run a table server: people join its tables from their own terminals with `sixtysix
    join`, and open tables with `sixtysix table new`.

    Every table is written to its file after each action; started again after a crash, the
    server listens at once and resumes every unfinished table. Ctrl-C stops it with every
    table saved (exit status 130).

    Programs are the operator's choice: name them with --player, and tables seat them as
    @NAME. `sixtysix table new` run on this machine by this user may also seat exec:
    programs (it reads the operator's token from the data folder). docs/together.md says who
    can reach the server and what each may do.

    \b
    Examples:
      sixtysix serve
      sixtysix serve --player mybot='python3 bot.py'
      sixtysix serve --host 0.0.0.0 --port 6666 --certfile cert.pem --keyfile key.pem
    """
    import asyncio  # start-up
    import ssl  # start-up

    from sixtysix.service.standings import data_dir  # start-up
    from sixtysix.table.settings import Limits, tls_context  # start-up

    tr = translator(lang)
    host = _check_host(host, tr)
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
    programs = _programs(players, tr)
    for origin in origins:
        if not _ORIGIN.fullmatch(origin):
            raise InputError(
                tr._("{origin!r} is not an origin: give scheme and host, e.g. {example}").format(
                    origin=origin, example="https://club.example"
                )
            )
    limits = Limits(
        tables_per_address=tables_per_address,
        tables_per_name=tables_per_name,
        creates_per_minute=creates_per_minute,
        open_expiry=open_table_expiry * 60.0,
    )
    root = data if data is not None else data_dir() / "server"
    scheme = "wss" if context is not None else "ws"
    options = _Options(
        programs, tuple(o.rstrip("/") for o in origins), limits, bot_threads, chat=not no_chat
    )
    unsaved: list[str] = []
    stopped_by = asyncio.run(
        _run(tr, root, host, port, reconnect_time, context, scheme, options, unsaved)
    )
    if unsaved:
        line = tr.n_(
            "Server stopped; {count} table could not be saved (its file holds what its"
            " players were last told).",
            "Server stopped; {count} tables could not be saved (their files hold what their"
            " players were last told).",
            len(unsaved),
        )
        click.echo(line.format(count=len(unsaved)), err=True)
    else:
        click.echo(tr._("Server stopped; every table is saved."), err=True)
    if stopped_by == signal.SIGINT:
        raise click.exceptions.Exit(EXIT_INTERRUPTED)


@dataclass(frozen=True)
class _Options:
    programs: dict[str, str]
    origins: tuple[str, ...]
    limits: Limits
    bot_threads: int | None
    chat: bool = True


def _check_host(host: str, tr: Translator) -> str:
    """``host`` if it can be listened on by name or address: never empty (that would be every
    interface, which must be asked for as 0.0.0.0 or ::)."""
    text = host.strip()
    if not text:
        raise InputError(
            tr._("--host is empty: give an address, e.g. 127.0.0.1 (0.0.0.0 for every interface)")
        )
    try:
        ipaddress.ip_address(text)
        return text
    except ValueError:
        pass
    try:
        text.encode("idna")
    except UnicodeError:
        message = tr._("--host {host!r} is not a host name or address")
        raise InputError(message.format(host=host)) from None
    return text


def _programs(players: tuple[str, ...], tr: Translator) -> dict[str, str]:
    """``--player NAME=COMMAND`` as name -> ``exec:`` spec, each program found now (relative
    paths are taken from where the server starts)."""
    from sixtysix.bots.levels import LEVELS  # start-up

    reg = registry()
    out: dict[str, str] = {}
    for item in players:
        name, sep, command = item.partition("=")
        name = name.strip().lower()
        if not sep or not command.strip():
            raise InputError(tr._("--player takes NAME=COMMAND, not {item!r}").format(item=item))
        if not _PROGRAM_NAME.fullmatch(name):
            raise InputError(
                tr._(
                    "--player {name!r}: a name is 1-32 lowercase letters, digits, _ or -,"
                    " starting with a letter or digit"
                ).format(name=name)
            )
        if name in LEVELS or name in reg.bots or name == "exec" or name in out:
            raise InputError(
                tr._(
                    "--player {name!r}: that name is taken by a level, a bot or another program"
                ).format(name=name)
            )
        try:
            argv = resolve_argv(parse_exec_spec("exec:" + command))
        except PlayerStartError as exc:
            raise InputError(
                tr._("--player {name}: {reason}").format(name=name, reason=exc)
            ) from None
        out[name] = "exec:" + shlex.join(argv)
    return out


def _say(line: str) -> None:
    click.echo(line, err=True)


def _server(tr: Translator, root: Path, reconnect_time: int, options: _Options) -> TableServer:
    from sixtysix.table.names import Names  # start-up
    from sixtysix.table.server import TableServer  # start-up
    from sixtysix.table.settings import Settings, write_operator_token  # start-up
    from sixtysix.table.standings_db import ServerStandings  # start-up

    database = root / "server.sqlite3"
    root.mkdir(parents=True, exist_ok=True)
    settings = Settings(
        programs=options.programs,
        operator_token=write_operator_token(root),
        origins=options.origins,
        limits=options.limits,
        bot_threads=options.bot_threads,
        chat=options.chat,
    )
    return TableServer(
        root,
        registry(),
        Names(database),
        ServerStandings(database),
        reconnect_time=float(reconnect_time),
        tr=tr,
        say=_say,
        settings=settings,
    )


#: Seconds the tables' programs have to quit when the server stops (a stop takes a second).
STOP_GRACE = 0.3

#: Objects allocated before a young collection, and young collections before an old one: the
#: defaults (700, 10, 10) make a busy server with a thousand tables run full collections of
#: half a million objects, each pausing every table (docs/history.md, "What the server spends
#: its time on").
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
    options: _Options,
    unsaved: list[str],
) -> int:
    """Serve until SIGINT or SIGTERM; the signal that stopped the server (``unsaved`` gets
    the tables a full disk kept from being saved). It listens first and reads its tables back
    after, so a restart answers at once however much it resumes."""
    import asyncio  # start-up
    import ssl  # start-up

    try:
        server = _server(tr, root, reconnect_time, options)
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
    resuming: asyncio.Task[None] | None = None
    try:
        try:
            ws = await server.start(
                host, port, context if isinstance(context, ssl.SSLContext) else None
            )
        except (OSError, UnicodeError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise InputError(
                tr._("cannot listen on {host}:{port}: {reason}").format(
                    host=host, port=port, reason=reason
                )
            ) from None
        shown_host = f"[{host}]" if ":" in host else host
        _say(
            tr._("Serving tables on {url} (data: {path}). Ctrl-C stops.").format(
                url=f"{scheme}://{shown_host}:{port}", path=root
            )
        )
        resuming = asyncio.ensure_future(_resume(server, tr))
        try:
            return await stop
        finally:
            await server.close_connections(ws)
    finally:
        if resuming is not None and not resuming.done():
            resuming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await resuming
        await server.stop()
        unsaved.extend(server.unsaved)
        from sixtysix.bots.external import close_players  # start-up

        await asyncio.to_thread(close_players, STOP_GRACE)


async def _resume(server: TableServer, tr: Translator) -> None:
    """Read the tables back and say what came back (and what could not)."""
    resumed = await server.resume_all()
    _long_lived_heap()
    for problem in server.problems:
        _say(tr._("Warning: a table file was not resumed: {problem}").format(problem=problem))
    if server.store.removed_leftovers:
        _say(
            tr.n_(
                "Removed {count} temporary file of an unfinished write.",
                "Removed {count} temporary files of unfinished writes.",
                server.store.removed_leftovers,
            ).format(count=server.store.removed_leftovers)
        )
    if resumed:
        text = tr.n_(
            "Resumed {count} unfinished table.", "Resumed {count} unfinished tables.", resumed
        )
        _say(text.format(count=resumed))
