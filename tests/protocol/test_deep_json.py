"""JSON from outside read within bounds: the bounded reader itself, and a player that answers
with a line nested tens of thousands deep (well under the 64 KiB limit), which ``json.loads``
would meet with a RecursionError: one line for a bad hello, a ``garbage`` fault for a bad action,
one line and status 2 from ``sixtysix player`` fed such a line."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.cli import cli
from sixtysix.core import bounded_json
from sixtysix.core.bounded_json import MAX_DEPTH, JSONInputError, depth
from sixtysix.core.errors import RecordError
from sixtysix.core.records import json_value
from sixtysix.protocol import messages
from sixtysix.protocol.messages import ProtocolError
from sixtysix.testing import invoke_cli

#: Far past the interpreter's recursion limit, and well under 64 KiB as an unclosed run.
DEEP = 50_000


def arrays(n: int) -> str:
    return "[" * n + "]" * n


def objects(n: int) -> str:
    return '{"a":' * n + "1" + "}" * n


def refused(text: str | bytes, kind: str, **limits: int) -> str:
    with pytest.raises(JSONInputError) as caught:
        bounded_json.loads(text, **limits)
    assert caught.value.kind == kind
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 100
    return str(caught.value)


# ---------------------------------------------------------------------- the reader


@pytest.mark.parametrize("nested", [arrays, objects])
def test_the_depth_limit_is_exact(nested: Any) -> None:
    assert depth(nested(MAX_DEPTH)) == MAX_DEPTH
    assert bounded_json.loads(nested(MAX_DEPTH)) is not None
    assert "more than 64 levels" in refused(nested(MAX_DEPTH + 1), "depth")
    assert bounded_json.loads(nested(3), max_depth=3) is not None
    refused(nested(4), "depth", max_depth=3)


@pytest.mark.parametrize(
    "text", [arrays(DEEP), "[" * DEEP, objects(DEEP), '{"a":' * DEEP, '[{"a":' * DEEP]
)
def test_deep_arrays_and_objects_are_refused_not_a_recursion_error(text: str) -> None:
    refused(text, "depth", max_bytes=1 << 20)
    refused(text.encode(), "depth", max_bytes=1 << 20)


def test_the_size_limit_is_exact_and_counts_bytes_of_utf8() -> None:
    text = json.dumps("é" * 10, ensure_ascii=False)  # 22 bytes, 12 characters
    assert bounded_json.loads(text, max_bytes=22) == "é" * 10
    assert bounded_json.loads(text.encode(), max_bytes=22) == "é" * 10
    assert "larger than 21 bytes" in refused(text, "size", max_bytes=21)
    refused(text.encode(), "size", max_bytes=21)
    refused(" " * 65 * 1024 + "1", "size")


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "1e999", "[-1e400]"])
def test_numbers_that_are_not_finite_are_refused(text: str) -> None:
    refused(text, "number")


def test_finite_numbers_and_the_digit_limit() -> None:
    big = 12345678901234567890
    assert bounded_json.loads(f"[1.5, -0.0, 1e308, {big}]") == [1.5, -0.0, 1e308, big]
    assert "digits" in refused("9" * 5000, "number")


def test_brackets_in_strings_do_not_count() -> None:
    value = ["[" * 1000, "{" * 1000, '\\"[[[', "\\", '"', "]]]}}}", '[\\"' * 100]
    for ensure_ascii in (True, False):
        text = json.dumps(value, ensure_ascii=ensure_ascii)
        assert depth(text) == 1
        assert bounded_json.loads(text) == value
    # A string that ends in a backslash: its closing quote still closes it.
    assert depth('["\\\\", "[[[["]') == 1


def test_unicode_outside_ascii_reads_as_it_is() -> None:
    value = {"ad": "Ayşe ♠ 🂡 你好", "ğ[": ["ü{", "ı"]}
    for ensure_ascii in (True, False):
        text = json.dumps(value, ensure_ascii=ensure_ascii)
        assert bounded_json.loads(text) == value
        assert bounded_json.loads(text.encode()) == value
        assert depth(text) == 2


def test_broken_text_is_one_error() -> None:
    assert "not valid JSON (line 1, column 2" in refused("[", "syntax")
    assert refused(b"\xff\xfe[]", "syntax") == "not UTF-8"
    refused("[1,]", "syntax")
    refused('"unterminated [[[', "syntax")


def _nested(leaf: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=30,
    )


def _true_depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_true_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_true_depth, value.values()), default=0)
    return 0


@given(
    _nested(st.none() | st.integers() | st.text(alphabet='[]{}"\\ aé\n\u2028')),
    st.booleans(),
)
def test_the_scan_finds_the_depth_of_any_value(value: Any, ensure_ascii: bool) -> None:
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    assert depth(text) == _true_depth(value)
    assert bounded_json.loads(text) == value


def test_a_record_deeper_than_the_limit_is_its_one_line_error() -> None:
    ok = '{"a": ' + arrays(MAX_DEPTH - 1) + "}"
    assert json_value(ok, "r.json") == {"a": json.loads(arrays(MAX_DEPTH - 1))}
    deep = '{"a": ' + arrays(MAX_DEPTH) + "}"
    with pytest.raises(RecordError, match=r"^r\.json is nested too deeply \(more than 64"):
        json_value(deep, "r.json")
    with pytest.raises(RecordError, match=r"^r\.json has NaN, which is not a JSON number$"):
        json_value('{"seed": NaN}', "r.json")


# ---------------------------------------------------------------------- lines of the protocol


def test_a_deep_line_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError, match="a line nested too deeply"):
        messages.parse_line("[" * DEEP)
    with pytest.raises(ProtocolError, match="a line nested too deeply"):
        messages.parse_line('{"type": "action", "action": ' + arrays(MAX_DEPTH) + "}")
    with pytest.raises(ProtocolError, match=r"^a line with NaN, which is not a JSON number$"):
        messages.parse_line('{"type": "action", "action": NaN}')


def evil_player(tmp_path: Path, on_hello: str, on_decide: str) -> str:
    """The exec spec of a stdlib-only player (``sys.stdout.write`` lines)."""
    script = tmp_path / "evil.py"
    script.write_text(
        "import json, sys\n"
        "def send(line):\n"
        "    sys.stdout.write(line + '\\n')\n"
        "    sys.stdout.flush()\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'hello':\n"
        f"        send({on_hello})\n"
        "    elif msg['type'] == 'decide':\n"
        f"        send({on_decide})\n"
        "    elif msg['type'] == 'quit':\n"
        "        break\n",
        encoding="utf-8",
    )
    return f"exec:{shlex.quote(sys.executable)} evil.py"


GOOD_HELLO = repr(json.dumps({"type": "hello", "protocol": "sixtysix-player/1", "name": "evil"}))
GOOD_ACTION = "json.dumps({'type': 'action', 'action': msg['legal'][0]})"


def test_a_deep_hello_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = evil_player(tmp_path, repr("[" * DEEP), GOOD_ACTION)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["duel", "66", spec, "random", "--deals", "1"])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert "nested too deeply" in line


def test_a_deep_action_is_a_garbage_fault_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = evil_player(tmp_path, GOOD_HELLO, repr("[" * DEEP))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["duel", "66", spec, "random", "--deals", "1", "--json"])
    assert result.exit_code == 0, (result.output, result.exception)
    summary = json.loads(result.stdout)
    assert summary["faults"]["a"] == {"garbage": summary["games"]}
    assert summary["games_won"]["b"] == summary["games"]  # every deal forfeited


def test_sixtysix_player_fed_a_deep_line_stops_with_one_line_and_status_2() -> None:
    hello = messages.encode_line(messages.hello()).decode()
    for deep in ("[" * DEEP, '{"type": "decide", "view": ' + "[" * DEEP):
        result = invoke_cli(["player", "random", "--seed", "1"], input=hello + deep + "\n")
        assert result.exit_code == 2, (result.output, result.exception)
        assert json.loads(result.stdout.splitlines()[0])["type"] == "hello"
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("Error: ") and "nested too deeply" in line
