"""A fuzzer of the command line: mutated records and ``--from`` rows, and every command's
numeric and text arguments. For every input the run exits 0 or 2; on error it prints exactly
one line on stderr and nothing on stdout; it never ends in a traceback.

Bounded in time: few examples (derandomized, so CI sees the same ones every run), and only
small values are ever accepted (a count is either refused or at most 3, bot budgets tiny), so
no example starts a long run. ``test_bad_input.py`` pins each case this found.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtysix.bots.base import parse_bot_spec
from sixtysix.cli import cli
from sixtysix.cli.common import MAX_RUN, MAX_WORKERS
from sixtysix.core.errors import SixtySixError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry
from tests.cli.conftest import played_record

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden"
RECORDS = {p.name: json.loads(p.read_text()) for p in sorted(GOLDEN.glob("*.record.json"))}
RUNNER = CliRunner()
FUZZ = settings(
    max_examples=50,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check(result: Result) -> None:
    """The contract for every input: 0, or 2 with one line on stderr and nothing on stdout."""
    assert result.exit_code in (0, 2), (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.stdout == "", result.stdout
        assert len(result.stderr.splitlines()) == 1, result.stderr


def run(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None) -> None:
    check(RUNNER.invoke(cli, list(args), input=stdin, env=env, prog_name="sixtysix"))


# ---------------------------------------------------------------------- values to try

#: Raw JSON text json.dumps cannot write: past int()'s 4300 digits, nesting past recursion.
RAW_JSON = st.sampled_from(
    [
        "9" * 5000,
        "-" + "7" * 4400,
        "[" * 5000 + "]" * 5000,
        '{"a":' * 3000 + "1" + "}" * 3000,
        "1e999",
        "-1e999",
        "NaN",
        "Infinity",
        "-0",
        "1.0",
        "1E2",
    ]
)
ODD_TEXT = st.sampled_from(
    ["²", "٣", "１", "३", "7", "0", "-1", "1.5", "", " ", "\x00", "\n", "\u202e", "no", "yes"]
)
JSON_VALUES = st.one_of(
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, -1, 1, 2, 3, 4, 99, 100, 1000, 1001, 2**63, -(2**63), 10**99, 10**100]),
    st.booleans(),
    st.none(),
    st.floats(),
    st.text(max_size=12),
    ODD_TEXT,
    st.sampled_from(["AS", "10H", "♠A", "play AS", "marry H", "close", "exchange", "auto"]),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 3), max_size=2),
)


def node_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (dict keys and list indices), the root excluded."""
    if isinstance(data, dict):
        items: list[tuple[Any, Any]] = list(data.items())
    elif isinstance(data, list):
        items = list(enumerate(data))
    else:
        return []
    out: list[tuple[Any, ...]] = []
    for key, value in items:
        out.append((*prefix, key))
        out.extend(node_paths(value, (*prefix, key)))
    return out


SLOT = "@@fuzz@@"


@st.composite
def mutated(draw: st.DrawFn, data: Any) -> str:
    """``data`` as JSON text with one to three mutations: a value replaced (by an odd JSON
    value or by raw text json.dumps cannot write), a key or an element deleted, an element
    repeated, or the text cut short."""
    data = json.loads(json.dumps(data))
    raw: str | None = None
    for _ in range(draw(st.integers(1, 3))):
        paths = node_paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(["value", "value", "raw", "delete", "repeat"]))
        if how == "value":
            parent[key] = draw(JSON_VALUES)
        elif how == "raw" and raw is None:
            raw = draw(RAW_JSON)
            parent[key] = SLOT
        elif how == "delete":
            del parent[key]
        elif how == "repeat" and isinstance(parent, list):
            parent.insert(key, parent[key])
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if raw is not None:
        text = text.replace(json.dumps(SLOT), raw, 1)
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text


# ------------------------------------------------------------------------- records


@FUZZ
@given(st.sampled_from(sorted(RECORDS)).flatmap(lambda name: mutated(RECORDS[name])), st.booleans())
def test_replay_of_a_mutated_record(text: str, as_json: bool) -> None:
    run("replay", "-", *(["--json"] if as_json else []), stdin=text)


@FUZZ
@given(
    st.sampled_from(sorted(RECORDS)).flatmap(lambda name: mutated(RECORDS[name])),
    st.binary(max_size=4),
    st.integers(0, 400),
)
def test_replay_of_a_record_with_bytes_spliced_in(text: str, junk: bytes, at: int) -> None:
    data = text.encode()
    run("replay", "-", stdin=data[:at] + junk + data[at:])


def position(data: dict[str, Any]) -> dict[str, Any]:
    """A record reduced to its deals' positions (no actions): nothing for analyse to search."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    for deal in out["deals"]:
        deal["actions"] = []
    return out


@FUZZ
@given(
    st.sampled_from(sorted(RECORDS)).flatmap(lambda name: mutated(position(RECORDS[name]))),
    st.integers(0, 4),
)
def test_analyse_of_a_mutated_position(text: str, seat: int) -> None:
    run("analyse", "-", "--seat", str(seat), stdin=text)


def sim_rows() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "g.jsonl"
        args = ["simulate", "66", "--games", "3", "--seed", "1", "--out", str(out)]
        assert RUNNER.invoke(cli, [*args, "--no-progress"]).exit_code == 0
        return [json.loads(line) for line in out.read_text().splitlines()]


ROWS = sim_rows()


@FUZZ
@given(st.sampled_from(range(len(ROWS))).flatmap(lambda i: mutated(ROWS[i])), st.integers(0, 3))
def test_replay_from_a_mutated_row(text: str, game: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rows.jsonl"
        path.write_text(text + "\n")
        run("replay", "--from", str(path), "--game", str(game))


# --------------------------------------------------------------- command-line arguments

DIGITS = re.compile(r"\+?[0-9]+")


def refused_or_small(maximum: int, small: int = 3) -> st.SearchStrategy[str]:
    """Text for an integer option of range 1..maximum: anything the option refuses, or a
    value no larger than ``small`` (so an accepted run stays short)."""

    def short_run(text: str) -> bool:
        text = text.strip()  # as the command line reads it
        return not DIGITS.fullmatch(text) or not small < int(text) <= maximum

    return st.one_of(
        st.integers(-(10**40), 0).map(str),
        st.integers(maximum + 1, 10**40).map(str),
        st.sampled_from([str(maximum + 1), "9" * 5000, "-" + "9" * 5000, "1" * 1001]),
        st.integers(1, small).map(str),
        st.sampled_from([" 2 ", "+1", "0x1", "1e3", "1_000", "nan", "--1", "1 2"]),
        ODD_TEXT,
        st.text(max_size=8).filter(short_run),
    )


ANY_TEXT = st.one_of(ODD_TEXT, st.text(max_size=12), st.sampled_from(["66", "-h", "--", "-"]))
SEEDS = st.one_of(
    st.integers(-(10**99), 10**99).map(str),
    st.sampled_from(["1" * 100, "1" * 101, "-" + "1" * 101, "9" * 5000]),
    ANY_TEXT,
)
REGISTRY = build_registry()
VARIANTS = sorted(REGISTRY.variants)
#: Every option name of every installed variant, and names none has.
NAMES = sorted({s.name for v in REGISTRY.variants.values() for s in v.options_class.specs()})
OPTION_NAMES = st.sampled_from([*NAMES, "x", "", "TARGET", "last-trick-bonus"])
OPTION_VALUES = st.one_of(SEEDS, st.sampled_from(["true", "no", "auto", "manual", "draw"]))
OPTIONS = st.builds(lambda name, value: f"{name}={value}", OPTION_NAMES, OPTION_VALUES)
BASE = {
    "simulate": ["simulate", "66", "--no-progress", "--json"],
    "duel": ["duel", "66", "random", "random", "--no-progress", "--json"],
    "tournament": ["tournament", "66", "--bots", "random,random", "--bootstrap", "0"],
}


@FUZZ
@given(
    st.sampled_from(
        [
            ("--games", refused_or_small(MAX_RUN)),
            ("--matches", refused_or_small(MAX_RUN, 2)),
            ("--workers", refused_or_small(MAX_WORKERS, 1)),
            ("--seed", SEEDS),
            ("-o", OPTIONS),
            ("--preset", ANY_TEXT),
            ("--bots", ANY_TEXT),
            ("--backend", ANY_TEXT),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1])),
    ANY_TEXT,
)
def test_simulate_arguments(option: tuple[str, str], variant: str) -> None:
    name, value = option
    run(*BASE["simulate"], "--games", "1", name, value)
    run("simulate", variant, "--games", "1", "--no-progress")
    if name == "-o":
        for each in VARIANTS:
            run("simulate", each, "--games", "1", "--no-progress", name, value)


@FUZZ
@given(
    st.sampled_from(
        [
            ("--deals", refused_or_small(MAX_RUN, 1)),
            ("--jobs", refused_or_small(MAX_WORKERS, 1)),
            ("--seed", SEEDS),
            ("-o", OPTIONS),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1])),
    st.sampled_from(["duel", "tournament"]),
)
def test_duel_and_tournament_arguments(option: tuple[str, str], command: str) -> None:
    name, value = option
    if command == "tournament" and name == "--jobs":
        name = "--workers"
    run(*BASE[command], "--deals", "1", name, value)


@FUZZ
@given(refused_or_small(100_000), ANY_TEXT)
def test_tournament_bootstrap_and_bots(bootstrap: str, bots: str) -> None:
    run("tournament", "66", "--bots", "random,random", "--deals", "1", "--bootstrap", bootstrap)
    run("tournament", "66", "--bots", bots, "--deals", "1", "--bootstrap", "0")


def bot_values(kind: str) -> st.SearchStrategy[str]:
    """Values for a bot parameter: for budgets, refused or tiny; for numbers, anything that
    does not change what a move costs."""
    if kind == "budget":
        return refused_or_small(10_000_000)
    numbers = st.one_of(
        st.floats().map(repr),
        st.sampled_from(["inf", "-inf", "nan", "1e999", "1e-999999", ".5", "5.", "0.0", "1"]),
    )
    return st.one_of(numbers, ODD_TEXT, st.text(max_size=6))


BOT_PARAMETERS = [
    ("pimc", name, "budget") for name in ("samples", "nodes", "time", "depth", "seed")
] + [
    ("pimc", "confidence", "number"),
    ("heuristic", "noise", "number"),
    ("heuristic", "deal_end", "number"),
    ("random", "seed", "number"),
]


@FUZZ
@given(
    st.sampled_from(BOT_PARAMETERS).flatmap(
        lambda b: st.tuples(st.just(b[0]), st.just(b[1]), bot_values(b[2]))
    )
)
def test_bot_parameters(spec: tuple[str, str, str]) -> None:
    bot, name, value = spec
    # A pimc bot searches one imagined deal with a few nodes, whichever parameter is fuzzed.
    cheap = {"samples": "1", "nodes": "40"} if bot == "pimc" else {}
    params = ",".join(f"{k}={v}" for k, v in {**cheap, name: value}.items())
    run("duel", "66", f"{bot}:{params}", "random", "--deals", "1", "--no-progress")


@FUZZ
@given(refused_or_small(10_000_000), ANY_TEXT)
def test_expert_parameters_refused_before_any_move(value: str, text: str) -> None:
    # Only refused values here: an accepted expert would search for seconds.
    for name in (
        "playouts",
        "crowd",
        "calls",
        "read",
        "margin",
        "random",
        "tie",
        "fitted",
        "open",
        "share",
        "presume",
        "presume_open",
        "mcts",
        "solver",
    ):
        for given_value in (value, text):
            spec = f"expert:{name}={given_value}"
            if _expert_accepts(spec):
                continue
            run("duel", "66", spec, "random", "--deals", "1", "--no-progress")


def _expert_accepts(spec: str) -> bool:
    try:
        name, params = parse_bot_spec(spec)
        REGISTRY.bot(name)(0, Seed(0), params)
    except SixtySixError:
        return False
    return True


POSITION = json.dumps(position(played_record()))


@contextmanager
def files() -> Iterator[tuple[Path, Path]]:
    """A position record and a ``simulate --out`` file, in a directory of their own."""
    with tempfile.TemporaryDirectory() as tmp:
        record, rows = Path(tmp) / "position.json", Path(tmp) / "rows.jsonl"
        record.write_text(POSITION)
        rows.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
        yield record, rows


@FUZZ
@given(
    st.sampled_from(
        [
            ("--seat", refused_or_small(99, 1)),
            ("--deal", refused_or_small(MAX_RUN, 1)),
            ("--seed", SEEDS),
            ("--lang", ANY_TEXT),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1])),
    ANY_TEXT,
)
def test_analyse_arguments(option: tuple[str, str], path: str) -> None:
    name, value = option
    seat = [] if name == "--seat" else ["--seat", "0"]
    with files() as (record, _):
        run("analyse", str(record), *seat, name, value)
    run("analyse", path, "--seat", "0")


@FUZZ
@given(refused_or_small(MAX_RUN), ANY_TEXT, ANY_TEXT)
def test_replay_arguments(game: str, path: str, from_path: str) -> None:
    with files() as (record, rows):
        run("replay", "--from", str(rows), "--game", game)
        run("replay", path)
        run("replay", "--from", from_path, "--game", "0")
        run("replay", str(record), "--from", str(rows))


@FUZZ
@given(
    st.sampled_from(
        [
            ("-o", OPTIONS),
            ("--preset", ANY_TEXT),
            ("--lang", ANY_TEXT),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1])),
    ANY_TEXT,
)
def test_rules_arguments(option: tuple[str, str], variant: str) -> None:
    run("rules", "66", *option)
    run("rules", variant)


@FUZZ
@given(
    st.sampled_from(
        [
            ("--seat", refused_or_small(99, 1)),
            ("--seed", SEEDS),
            ("--move-time", refused_or_small(10**6)),
            ("--vs", ANY_TEXT),
            ("-o", OPTIONS),
            ("--preset", ANY_TEXT),
            ("--resume", ANY_TEXT),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1]))
)
def test_play_arguments(option: tuple[str, str]) -> None:
    name, value = option
    with tempfile.TemporaryDirectory() as tmp:
        variant: list[str] = [] if name == "--resume" else ["66", "--save", f"{tmp}/g.json"]
        run("play", *variant, name, value, "--lang", "en", stdin="quit\n")


COMMAND_NAMES = ["analyse", "duel", "play", "replay", "rules", "simulate", "tournament"]


@FUZZ
@given(st.sampled_from(COMMAND_NAMES), st.lists(ANY_TEXT, max_size=3))
def test_any_words_after_a_command(command: str, words: list[str]) -> None:
    # Words that name no file, variant or bot: every command refuses them in one line.
    if command == "play":
        words = [*words, "--save", "/nonexistent/dir/g.json"]
    run(command, *words, stdin="quit\n")


@FUZZ
@given(ANY_TEXT, ANY_TEXT, st.sampled_from(["new-bot", "new-variant"]))
def test_listing_standings_and_scaffold_arguments(name: str, base: str, scaffold: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"SIXTYSIX_DATA_DIR": tmp}
        run("standings", "--variant", name, env=env)
        for listing in ("bots", "variants", "plugins"):
            run(listing, name)
        run(scaffold, name, "--dir", tmp)
        if scaffold == "new-variant":
            run(scaffold, "house-rules", "--dir", tmp, "--base", base)


@FUZZ
@given(st.text(max_size=12).filter(lambda t: "/" not in t), st.sampled_from(["jsonl", "parquet"]))
def test_simulate_out_names(name: str, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run(*BASE["simulate"], "--games", "2", "--seed", "1", "--out", f"{tmp}/{name}.{suffix}")
        run(*BASE["simulate"], "--games", "2", "--out", f"{tmp}/{name}")
