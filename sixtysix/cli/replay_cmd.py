"""``sixtysix replay FILE``: check every action of a record and show or emit the result."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from sixtysix.cli.common import bounded, registry
from sixtysix.cli.errors import EXIT_BAD_INPUT, single_line
from sixtysix.cli.localized import LocalizedCommand, current_translator
from sixtysix.core.errors import RecordError, SixtySixError
from sixtysix.core.records import load_record_file, load_record_stream


@click.command(cls=LocalizedCommand)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True), required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the replay contract's JSON object.")
@click.option(
    "--from",
    "sim_file",
    type=click.Path(dir_okay=False),
    help="Instead of FILE: a `simulate --out` file (.jsonl/.parquet); replays game --game.",
)
@click.option("--game", type=bounded(0), help="With --from: the game's index.")
def replay(file: str | None, as_json: bool, sim_file: str | None, game: int | None) -> None:
    """Replay the game record FILE (`-` for stdin), checking every action.

    Without --json, prints a readable account of each deal. With --json, prints one JSON
    object: every step with the legal actions before it, each deal's result and the match
    totals (see RECORDS.md). A record that breaks the format or the rules exits with status 2
    and one line on stderr naming the deal, the step, the seat, the action and why.

    With --from FILE --game I, game I of a simulation output is regenerated from its row
    (seed, bots, variant and options) into a full record and replayed the same way.
    """
    from sixtysix.core.replay import replay as run_replay  # start-up

    if (file is None) == (sim_file is None):
        raise click.UsageError("give a record FILE, or --from FILE --game I")
    if (sim_file is None) != (game is None):
        raise click.UsageError("--from and --game go together")
    try:
        if sim_file is not None and game is not None:
            from sixtysix.sim.regenerate import load_row_record  # start-up

            if Path(sim_file).exists() and not Path(sim_file).is_file():
                # A device or a pipe (/dev/zero named *.jsonl) would be read without end.
                raise RecordError(f"{sim_file} is not a regular file")
            raw = load_row_record(sim_file, game, registry())
        elif file == "-":
            raw = load_record_stream(sys.stdin.buffer, "stdin")
        else:
            raw = load_record_file(str(file))
        result = run_replay(raw, registry())
    except SixtySixError as exc:
        # Exactly one line, the message alone, so tools can match it (RECORDS.md).
        click.echo(single_line(str(exc)), err=True)
        sys.exit(EXIT_BAD_INPUT)
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False))
        return
    from sixtysix.cli.render import describe_replay  # start-up

    for line in describe_replay(result, current_translator()):
        click.echo(line)
