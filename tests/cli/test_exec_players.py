"""``exec:`` players in every driver: the same games as in-process bots, bad specs refused in
one line before any game, faults forfeited and counted with the run finishing, and no player
process left behind by Ctrl-C or a killed referee."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sixtysix.bots.external import Deadlines, exec_bot_class, players_closed
from sixtysix.bots.players.heuristic import HeuristicBot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.cli import cli
from sixtysix.core.faults import FORFEIT_POINTS
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import build_registry
from sixtysix.protocol.referee import live_players
from sixtysix.sim.duel import Contestant, iter_deals
from sixtysix.sim.readers import read_rows
from sixtysix.variants.sixtysix import SixtySix
from tests.protocol.scripts import FIRST_LEGAL, gone, misbehaving, write_player
from tests.sim import bots_for_tests


@pytest.fixture(autouse=True)
def with_test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's registry with the test bots (``first`` among them)."""
    monkeypatch.setattr("sixtysix.plugins.manager._cached", build_registry(extra=(bots_for_tests,)))


HEURISTIC = f"exec:{shlex.quote(sys.executable)} -m sixtysix player heuristic"


def run(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    assert not live_players()  # every command closes its players
    return data


def spec(argv: list[str]) -> str:
    return "exec:" + shlex.join(argv)


def faulty(tmp_path: Path, every: int = 4, how: str = "garbage") -> str:
    """A player that misbehaves at every ``every``-th decision of each of its processes."""
    wrong = {
        "garbage": 'sys.stdout.write("not json\\n"); sys.stdout.flush()',
        "exit": "sys.exit(3)",
        "sleep": "time.sleep(30)",
        "illegal": 'send({"type": "action", "action": "play 7X"})',
    }[how]
    body = misbehaving(
        f"""
        n = globals().get("n", 0) + 1
        globals()["n"] = n
        if n % {every} == 0:
            {wrong}
        else:
            first_legal(msg)
        """
    )
    return spec(write_player(tmp_path, body, f"{how}.py"))


# ---------------------------------------------------------------------- the same games


def test_an_exec_heuristic_plays_the_in_process_heuristics_games() -> None:
    """The heuristic draws nothing at random, so through the protocol it must make exactly
    the in-process bot's moves: every game of every deal has the same outcome."""
    v = SixtySix()
    cls = exec_bot_class(HEURISTIC, v)
    random = Contestant("random", RandomBot)
    with players_closed():
        external = list(iter_deals(v, (Contestant("x", cls), random), Seed(5), 12))
    internal = list(iter_deals(v, (Contestant("h", HeuristicBot), random), Seed(5), 12))
    assert [[g.outcome for g in d.games] for d in external] == [
        [g.outcome for g in d.games] for d in internal
    ]
    assert not any(g.faults for d in external for g in d.games)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_duel_of_exec_heuristic_equals_the_in_process_duel(jobs: str) -> None:
    args = ["--deals", "10", "--seed", "3", "--jobs", jobs]
    external = run("duel", "66", HEURISTIC, "random", *args)
    internal = run("duel", "66", "heuristic", "random", *args)
    for key in ("games_won", "game_points_per_deal", "faults"):
        assert external[key] == internal[key]
    assert external["bots"]["a"] == HEURISTIC and external["faults"] == {"a": {}, "b": {}}


def test_simulate_and_tournament_take_exec_bots(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    sim = ["simulate", "66", "--bots", f"{HEURISTIC},random", "--games", "30", "--seed", "2"]
    external = run(*sim, "--workers", "2", "--out", str(out))
    internal = run("simulate", "66", "--bots", "heuristic,random", "--games", "30", "--seed", "2")
    assert external["wins"] == internal["wins"] and external["faults"] == [{}, {}]
    assert {tuple(r["bots"]) for r in read_rows(out)} == {(HEURISTIC, "random")}
    data = run("tournament", "66", "--bots", f"{HEURISTIC},first", "--deals", "4", "--seed", "1")
    assert {s["bot"] for s in data["standings"]} == {HEURISTIC, "first"}
    assert data["faults"] == 0


def test_matches_with_an_exec_bot_equal_the_in_process_matches() -> None:
    args = ["--matches", "3", "--seed", "6"]
    external = run("simulate", "66", "--bots", f"{HEURISTIC},random", *args)
    internal = run("simulate", "66", "--bots", "heuristic,random", *args)
    for key in ("wins", "game_points", "deals", "reasons", "faults"):
        assert external[key] == internal[key]


def test_the_player_is_told_each_match_deal_event_and_result(tmp_path: Path) -> None:
    log = tmp_path / "told"
    body = f"""
for msg in messages():
    open({str(log)!r}, "a").write(msg["type"] + "\\n")
    if msg["type"] == "hello":
        hello()
    elif msg["type"] == "decide":
        first_legal(msg)
    elif msg["type"] == "quit":
        break
"""
    player = spec(write_player(tmp_path, body, "told.py"))
    run("simulate", "66", "--bots", f"{player},first", "--matches", "1", "--seed", "2")
    told = log.read_text().split()
    assert told[0] == "hello" and told[-1] == "quit"  # the handshake check
    match = told[told.index("quit") + 1 :]
    assert match[:3] == ["hello", "match", "deal"] and match[-2:] == ["match_over", "quit"]
    deals, results = match.count("deal"), match.count("result")
    assert deals == results >= 1 and "event" in match and "decide" in match
    # every result comes after its deal's events, before the next deal
    assert all(match[i - 1] in ("event", "decide") for i, t in enumerate(match) if t == "result")


# ---------------------------------------------------------------------- bad specs


def one_line_error(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    return result.output


@pytest.mark.parametrize("command", ["duel", "simulate", "tournament", "play"])
def test_bad_exec_specs_are_one_line_before_any_game(tmp_path: Path, command: str) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("not a program")
    wrong = spec(write_player(tmp_path, 'hello(protocol="sixtysix-player/9")\ninput()', "v9.py"))
    other = spec(write_player(tmp_path, 'hello(variants=["schnapsen"])\ninput()', "s.py"))
    cases = {
        "exec:./no-such-bot": "no such program",
        f"exec:{plain}": "not an executable file",
        "exec:": "names no program",
        wrong: "sixtysix-player/9",
        other: "does not play sixtysix",
    }
    for bad, message in cases.items():
        if command == "duel":
            out = one_line_error("duel", "66", bad, "random", "--deals", "2")
        elif command == "play":
            out = one_line_error("play", "66", "--vs", bad, "--seed", "1")
        else:
            out = one_line_error(command, "66", "--bots", f"{bad},random", "--seed", "1")
        assert message in out, (bad, out)
    assert not live_players()


@pytest.mark.parametrize("value", ["0", "-1", "4000", "soon"])
def test_deadline_options_are_bounded(value: str) -> None:
    for option in ("--start-timeout", "--move-timeout"):
        result = CliRunner().invoke(cli, ["duel", "66", "random", "random", option, value])
        assert result.exit_code == 2 and option in result.output


# ---------------------------------------------------------------------- faults


@pytest.mark.parametrize("how", ["garbage", "exit", "illegal"])
def test_a_faulting_exec_player_forfeits_and_the_duel_finishes(tmp_path: Path, how: str) -> None:
    kind = {"garbage": "garbage", "exit": "crash", "illegal": "illegal"}[how]
    data = run("duel", "66", faulty(tmp_path, 4, how), "first", "--deals", "8", "--seed", "2")
    assert data["deals"] == 8 and data["games"] == 16
    assert data["faults"]["a"][kind] > 0 and data["faults"]["b"] == {}


def test_a_timeout_is_a_fault_with_the_move_timeout(tmp_path: Path) -> None:
    slow = faulty(tmp_path, 9, "sleep")
    args = ["duel", "66", slow, "first", "--deals", "2", "--seed", "2", "--move-timeout", "0.3"]
    data = run(*args)
    assert data["games"] == 4 and data["faults"]["a"]["timeout"] > 0


def test_simulate_counts_exec_faults_in_summary_rows_and_json(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    bots = f"{faulty(tmp_path, 5)},first"
    args = ["simulate", "66", "--bots", bots, "--games", "24", "--seed", "1", "--out", str(out)]
    data = run(*args, "--workers", "2")
    faults = data["faults"][0]["garbage"]
    assert faults > 0 and data["reasons"]["forfeit"] == faults and data["games"] == 24
    rows = list(read_rows(out))
    faulted = [r for r in rows if r.get("faults")]
    assert len(faulted) == faults
    for row in faulted:
        assert row["faults"] == [{"seat": 0, "kind": "garbage"}]
        assert row["game_points"] == [0, FORFEIT_POINTS]
    shown = CliRunner().invoke(cli, ["simulate", "66", "--bots", bots, "--games", "8"])
    assert shown.exit_code == 0 and "Faults (each forfeited a deal): seat 0" in shown.output
    assert re.search(r"garbage \d", shown.output)


def test_every_fault_kind_has_its_words() -> None:
    from sixtysix.core.faults import FaultKind
    from sixtysix.i18n import Translator
    from sixtysix.service.terms import FAULT_KINDS, fault_kind

    assert set(FAULT_KINDS) == set(FaultKind)
    turkish = fault_kind(Translator("tr"))
    assert all(turkish(k) != k for k in FaultKind) and turkish("other") == "other"


@pytest.mark.parametrize("command", ["simulate", "duel", "tournament"])
def test_fault_kinds_are_reported_in_the_commands_language(tmp_path: Path, command: str) -> None:
    bad = faulty(tmp_path, 5)
    args = {
        "simulate": ["--bots", f"{bad},first", "--games", "8"],
        "duel": [bad, "first", "--deals", "4"],
        "tournament": ["--bots", f"{bad},first", "--deals", "2"],
    }[command]
    env = {"COLUMNS": "200", "LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None}
    shown = CliRunner().invoke(cli, [command, "66", *args, "--seed", "1", "--lang", "tr"], env=env)
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert re.search(r"bozuk ileti \d", text) and not re.search(r"garbage \d", text), text


def test_tournament_counts_an_exec_bots_faults(tmp_path: Path) -> None:
    bots = f"{faulty(tmp_path, 5)},first,random"
    data = run("tournament", "66", "--bots", bots, "--deals", "3", "--seed", "4")
    by_bot = {s["bot"]: s for s in data["standings"]}
    assert sum(by_bot[s]["faults"].get("garbage", 0) for s in by_bot if "exec" in s) > 0
    assert data["faults"] == data["reasons"]["forfeit"]


# ---------------------------------------------------------------------- play


def test_play_against_an_exec_player(tmp_path: Path) -> None:
    first = spec(write_player(tmp_path, FIRST_LEGAL))
    save = tmp_path / "g.json"
    moves = "".join(f"{i % 6 + 1}\n" for i in range(400))
    env = {"COLUMNS": "120", "LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None}
    args = ["play", "66", "-o", "target=3", "--vs", first, "--seed", "3", "--lang", "en"]
    args += ["--save", str(save)]
    result = CliRunner().invoke(cli, args, input=moves, env=env)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "Match over" in result.output
    assert not live_players()


def test_play_goes_on_after_an_exec_players_fault(tmp_path: Path) -> None:
    bad = faulty(tmp_path, 3)
    moves = "".join(f"{i % 6 + 1}\n" for i in range(400))
    env = {"COLUMNS": "120", "LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None}
    args = ["play", "66", "-o", "target=4", "--vs", bad, "--seed", "3", "--lang", "en"]
    args += ["--save", str(tmp_path / "g.json")]
    result = CliRunner().invoke(cli, args, input=moves, env=env)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "faulted (garbage" in text and "forfeits the deal" in text and "Match over" in text
    assert not live_players()


# ---------------------------------------------------------------------- no orphans


def pid_logger(tmp_path: Path, log: Path) -> str:
    """A well-behaved player (exits on EOF) that appends its pid to ``log`` when it starts."""
    body = f"open({str(log)!r}, 'a').write(str(os.getpid()) + '\\n')\n" + FIRST_LEGAL
    return spec(write_player(tmp_path, body, "logger.py"))


def started(log: Path, count: int) -> list[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        pids = [int(p) for p in log.read_text().split()] if log.exists() else []
        if len(pids) >= count:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"only {log.read_text() if log.exists() else 'no'} players started")


def duel_process(tmp_path: Path, log: Path, jobs: int) -> subprocess.Popen[bytes]:
    player = pid_logger(tmp_path, log)
    command = [sys.executable, "-m", "sixtysix", "duel", "66", player, player]
    command += ["--deals", "100000", "--seed", "1", "--jobs", str(jobs), "--no-progress"]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # Ctrl-C must reach the duel even when pytest runs with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_of_a_duel_leaves_no_player_behind(tmp_path: Path, jobs: int) -> None:
    log = tmp_path / "pids"
    proc = duel_process(tmp_path, log, jobs)
    # The handshake check, then two seats of each contestant per process that plays.
    pids = started(log, 3)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr.decode()
    assert b"Traceback" not in stderr
    for pid in [int(p) for p in log.read_text().split()]:
        assert gone(pid), f"player {pid} outlived the duel"
    assert pids


def test_a_killed_duel_leaves_no_well_behaved_player_behind(tmp_path: Path) -> None:
    log = tmp_path / "pids"
    proc = duel_process(tmp_path, log, 2)
    started(log, 3)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    # The players read EOF when their referee is gone, and exit.
    for pid in [int(p) for p in log.read_text().split()]:
        assert gone(pid), f"player {pid} outlived its killed referee"


def test_deadlines_reach_the_players() -> None:
    cls = exec_bot_class(HEURISTIC, SixtySix(), Deadlines(2.5, 0.5))
    assert cls.deadlines == Deadlines(2.5, 0.5) and cls.name == HEURISTIC
