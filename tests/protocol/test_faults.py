"""Faults over a real pipe: every way an external program can fail is one PlayerFault (or,
before any game, one PlayerStartError), its process is killed and reaped, and the next deal
starts a fresh process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import pytest

from sixtysix.core.faults import FaultKind, PlayerFault
from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import Registry
from sixtysix.protocol.referee import (
    STDERR_KEEP,
    ExternalPlayer,
    InProcessPlayer,
    PlayerStartError,
    close_all,
    external_player,
    live_players,
    parse_exec_spec,
)
from tests.interrupts import sigint_beside_the_wait
from tests.protocol.loop import play_deal
from tests.protocol.scripts import FIRST_LEGAL, gone, misbehaving, write_player

SHORT = 0.5  # seconds: the deadline where a test waits for a timeout
LONG = 30.0  # seconds: every other deadline (a loaded machine must not make a test fail)


@pytest.fixture
def variant(registry: Registry) -> Variant:
    return registry.variant("66")()


def player(argv: list[str], **kwargs: float) -> ExternalPlayer:
    kwargs.setdefault("start_timeout", LONG)
    kwargs.setdefault("move_timeout", LONG)
    return ExternalPlayer(argv, **kwargs)  # type: ignore[arg-type]


def one_deal(
    variant: Variant, ext: ExternalPlayer, registry: Registry, number: int = 1
) -> tuple[PlayerFault | None, Reason]:
    """Deal ``number`` with ``ext`` in seat 0 against the random bot."""
    bot = registry.bot("random")(1, Seed(number))
    state = variant.new_deal(variant.deal(Seed(7), ("deal", number), number % 2))
    played = play_deal(state, [ext, InProcessPlayer(bot.choose)], number)
    assert played.outcome is not None
    return played.fault, played.outcome.reason


def assert_fault_then_fresh(
    tmp_path: Path,
    variant: Variant,
    registry: Registry,
    on_decide: str,
    kind: FaultKind,
    detail: str,
    move_timeout: float = LONG,
) -> PlayerFault:
    """The first process faults as ``kind`` at its first decision (the deal is forfeited and
    the process is gone); the next deal's fresh process plays a whole deal."""
    counter = tmp_path / "starts"
    body = misbehaving(
        "if FIRST:\n" + textwrap.indent(on_decide.strip(), "    ") + "\nfirst_legal(msg)\n"
    )
    argv = write_player(tmp_path, f"FIRST = count({str(counter)!r}) == 0\n" + body)
    with player(argv, move_timeout=move_timeout) as ext:
        ext.start(variant)
        ext.new_match(variant, 0)
        fault, reason = one_deal(variant, ext, registry, 1)
        assert fault is not None and fault.kind == kind and fault.seat == 0
        assert detail in fault.detail
        assert reason == Reason.FORFEIT
        assert not ext.running and gone(ext.pids[0])
        ext.move_timeout = LONG
        fault2, reason2 = one_deal(variant, ext, registry, 2)
        assert fault2 is None and reason2 != Reason.FORFEIT
        assert len(ext.pids) == 2 and ext.pids[1] != ext.pids[0]
    assert gone(ext.pids[1])
    return fault


# ---------------------------------------------------------------------- start-up


def test_a_player_that_never_answers_the_hello_cannot_start(
    tmp_path: Path, variant: Variant
) -> None:
    ext = player(write_player(tmp_path, "time.sleep(60)"), start_timeout=SHORT)
    with pytest.raises(PlayerStartError, match="did not send the hello in time"):
        ext.start(variant)
    assert not ext.running and gone(ext.pids[0])


def test_a_wrong_protocol_version_cannot_start(tmp_path: Path, variant: Variant) -> None:
    body = 'next(messages()); hello(protocol="sixtysix-player/2"); time.sleep(60)'
    ext = player(write_player(tmp_path, body))
    with pytest.raises(PlayerStartError, match="speaks 'sixtysix-player/2', not sixtysix-player/1"):
        ext.start(variant)
    assert gone(ext.pids[0])


def test_a_variant_the_player_does_not_list_cannot_start(tmp_path: Path, variant: Variant) -> None:
    body = 'next(messages()); hello(variants=["schnapsen"]); time.sleep(60)'
    ext = player(write_player(tmp_path, body))
    with pytest.raises(PlayerStartError, match=r"does not play sixtysix \(it plays: schnapsen\)"):
        ext.start(variant)
    assert gone(ext.pids[0])


def test_a_player_listing_an_alias_plays_the_variant(tmp_path: Path, variant: Variant) -> None:
    body = 'next(messages()); hello(variants=["66"]); time.sleep(60)'
    with player(write_player(tmp_path, body)) as ext:
        ext.start(variant)
        assert ext.name == "test" and ext.variants == ("66",)
    for unchecked in (None, "*"):  # no variant to check
        with player(write_player(tmp_path, body)) as ext:
            ext.start(unchecked)
    with player(write_player(tmp_path, body)) as ext, pytest.raises(PlayerStartError):
        ext.start("schnapsen")


def test_missing_or_not_executable_programs_are_refused_before_any_process(
    tmp_path: Path,
) -> None:
    with pytest.raises(PlayerStartError, match=r"no such program: \./nothing-here"):
        external_player("exec:./nothing-here")
    with pytest.raises(PlayerStartError, match="program not found on PATH: no-such-program-x"):
        external_player("exec:no-such-program-x --flag")
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o644)
    with pytest.raises(PlayerStartError, match="not an executable file"):
        external_player(f"exec:{script}")
    with pytest.raises(PlayerStartError, match="names no program"):
        parse_exec_spec("exec:  ")
    with pytest.raises(PlayerStartError, match="cannot read"):
        parse_exec_spec("exec:node 'bot.js")


def test_an_exec_spec_finds_its_files_from_the_callers_directory(
    tmp_path: Path, variant: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_player(tmp_path, FIRST_LEGAL, name="bot.py")
    monkeypatch.chdir(tmp_path)
    ext = external_player(f"exec:{sys.executable} bot.py --depth 3", start_timeout=20)
    assert ext.argv[1:] == [str(tmp_path / "bot.py"), "--depth", "3"]
    with ext:
        ext.start(variant)
        assert ext.running


@pytest.mark.usefixtures("sigint_as_at_a_terminal")
def test_a_ctrl_c_that_does_not_interrupt_the_wait_for_a_player_still_stops_it(
    tmp_path: Path, variant: Variant
) -> None:
    ext = player(write_player(tmp_path, "time.sleep(60)"))
    started = time.monotonic()
    try:
        with sigint_beside_the_wait(), pytest.raises(KeyboardInterrupt):
            ext.start(variant)
        elapsed = time.monotonic() - started
    finally:
        ext.close()
    assert elapsed < 10, elapsed  # a wait that missed it lasts the 30 s start timeout
    assert gone(ext.pids[0])


# ---------------------------------------------------------------------- faults in play


def test_a_move_timeout_forfeits_the_deal_and_the_next_deal_runs_a_fresh_process(
    tmp_path: Path, variant: Variant, registry: Registry
) -> None:
    assert_fault_then_fresh(
        tmp_path, variant, registry, "time.sleep(60)", FaultKind.TIMEOUT, "did not send", SHORT
    )


def test_a_player_that_exits_mid_deal_crashed(
    tmp_path: Path, variant: Variant, registry: Registry
) -> None:
    fault = assert_fault_then_fresh(
        tmp_path,
        variant,
        registry,
        'sys.stderr.write("oops, giving up\\n"); sys.exit(3)',
        FaultKind.CRASH,
        "exited with status 3",
    )
    assert "oops, giving up" in fault.detail  # the program's last stderr line


def test_a_player_that_closes_its_output_closed(
    tmp_path: Path, variant: Variant, registry: Registry
) -> None:
    assert_fault_then_fresh(
        tmp_path,
        variant,
        registry,
        "os.close(1); time.sleep(60)",
        FaultKind.CLOSED,
        "closed its output",
    )


@pytest.mark.parametrize(
    ("on_decide", "detail"),
    [
        ('sys.stdout.write("hello there\\n"); sys.stdout.flush(); time.sleep(60)', "not a JSON"),
        ('sys.stdout.write("[1, 2]\\n"); sys.stdout.flush(); time.sleep(60)', "not a JSON obj"),
        ('send({"action": "play 9H"}); time.sleep(60)', "without a string type"),
        ('send({"type": "move", "action": "x"}); time.sleep(60)', "expected an action"),
        ('send({"type": "action", "action": 7}); time.sleep(60)', "must be a string"),
        ('sys.stdout.write("\\xff\\n"); sys.stdout.flush(); time.sleep(60)', "not a JSON"),
    ],
)
def test_garbage_is_a_garbage_fault(
    tmp_path: Path, variant: Variant, registry: Registry, on_decide: str, detail: str
) -> None:
    assert_fault_then_fresh(tmp_path, variant, registry, on_decide, FaultKind.GARBAGE, detail)


def test_a_ten_megabyte_line_is_garbage_and_the_referee_reads_only_the_limit(
    tmp_path: Path, variant: Variant
) -> None:
    body = misbehaving(
        """
        sys.stdout.write("x" * 10_000_000 + "\\n"); sys.stdout.flush(); time.sleep(60)
        """
    )
    with player(write_player(tmp_path, body), max_line=4096) as ext:
        ext.start(variant)
        ext.new_match(variant, 0)
        ext.new_deal(1, 1)
        state = variant.new_deal(variant.deal(Seed(1), ("deal", 1), 1))
        view = state.view(state.to_act)
        tracemalloc.start()
        try:
            with pytest.raises(PlayerFault) as caught:
                ext.choose(view)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert caught.value.kind == FaultKind.GARBAGE
        assert "a line of more than 4096 bytes" in caught.value.detail
        assert peak < 1_000_000  # far below the 10 MB the program wrote
        assert gone(ext.pids[0])


@pytest.mark.parametrize(
    ("on_decide", "detail"),
    [
        ('send({"type": "action", "action": "concede"}); time.sleep(60)', "is not legal now"),
        ('send({"type": "action", "action": "fly away"}); time.sleep(60)', "unknown action"),
        ('send({"type": "action", "action": "play XX"}); time.sleep(60)', "unknown card"),
    ],
)
def test_an_illegal_or_unknown_action_is_an_illegal_fault(
    tmp_path: Path, variant: Variant, registry: Registry, on_decide: str, detail: str
) -> None:
    assert_fault_then_fresh(tmp_path, variant, registry, on_decide, FaultKind.ILLEGAL, detail)


def test_a_line_the_player_was_not_asked_for_is_garbage(
    tmp_path: Path, variant: Variant, registry: Registry
) -> None:
    # The hello and a line nobody asked for, in one write: both are in the pipe together.
    body = """
for msg in messages():
    if msg["type"] == "hello":
        reply = {"type": "hello", "protocol": "sixtysix-player/1", "name": "eager"}
        sys.stdout.write(json.dumps(reply) + "\\n" + '{"type": "action", "action": "close"}\\n')
        sys.stdout.flush()
    elif msg["type"] == "decide":
        first_legal(msg)
"""
    with player(write_player(tmp_path, body)) as ext:
        ext.start(variant)
        ext.new_match(variant, 0)
        fault, _ = one_deal(variant, ext, registry)
        assert fault is not None and fault.kind == FaultKind.GARBAGE
        assert "not asked for" in fault.detail


def test_forgiving_notation_is_accepted(
    tmp_path: Path, variant: Variant, registry: Registry
) -> None:
    body = misbehaving(
        """
        a = msg["legal"][0]
        send({"type": "action", "action": "  " + a.upper().replace("T", "10") + " "})
        """
    )
    with player(write_player(tmp_path, body)) as ext:
        ext.start(variant)
        ext.new_match(variant, 0)
        fault, reason = one_deal(variant, ext, registry)
        assert fault is None and reason != Reason.FORFEIT


def test_a_player_spamming_stderr_neither_blocks_nor_fills_memory(
    tmp_path: Path, variant: Variant, registry: Registry
) -> None:
    body = misbehaving(
        """
        sys.stderr.write(("noise " * 100 + "\\n") * 2000); sys.stderr.flush()
        first_legal(msg)
        """
    )
    with player(write_player(tmp_path, body)) as ext:
        ext.start(variant)
        ext.new_match(variant, 0)
        fault, reason = one_deal(variant, ext, registry)
        assert fault is None and reason != Reason.FORFEIT
        assert len(ext._stderr) <= STDERR_KEEP


def test_a_player_that_stops_reading_times_out_instead_of_blocking_the_referee(
    tmp_path: Path, variant: Variant
) -> None:
    body = "next(messages()); hello(); time.sleep(60)"  # never reads again
    with player(write_player(tmp_path, body), move_timeout=SHORT) as ext:
        ext.start(variant)
        with pytest.raises(PlayerFault) as caught:
            for _ in range(100_000):  # far more than a pipe holds
                ext.event(0, 0)
        assert caught.value.kind == FaultKind.TIMEOUT
        assert "did not read its input" in caught.value.detail


# ---------------------------------------------------------------------- no orphans


def test_close_leaves_no_process_even_one_that_ignores_quit_and_forks(
    tmp_path: Path, variant: Variant
) -> None:
    body = """
import signal, subprocess
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
next(messages())
hello(name=str(child.pid))
for msg in messages():
    pass  # ignores quit
time.sleep(60)
"""
    ext = player(write_player(tmp_path, body))
    ext.start(variant)
    grandchild = int(ext.name)
    assert os.path.exists(f"/proc/{grandchild}")
    home = ext._dir
    assert home is not None and os.path.isdir(home)
    ext.close()
    assert not ext.running
    assert gone(ext.pids[0]) and gone(grandchild)
    assert not os.path.exists(home)  # its working directory is removed
    assert ext not in live_players()


def test_a_well_behaved_player_quits_when_asked(tmp_path: Path, variant: Variant) -> None:
    ext = player(write_player(tmp_path, FIRST_LEGAL + "\nsys.exit(0)\n"))
    ext.start(variant)
    pid = ext.pids[0]
    ext.close()
    assert gone(pid)
    ext.close()  # closing twice is harmless


def test_close_all_closes_every_live_player(tmp_path: Path, variant: Variant) -> None:
    stubborn = "next(messages()); hello()\nwhile True:\n    time.sleep(1)\n"  # ignores quit
    players = [
        player(write_player(tmp_path, FIRST_LEGAL, name="good.py")),
        player(write_player(tmp_path, stubborn, name="stubborn.py")),
    ]
    for p in players:
        p.start(variant)
    assert set(players) <= set(live_players())
    close_all()
    assert not live_players()
    assert all(gone(p.pids[0]) for p in players)


def test_ctrl_c_in_the_referee_leaves_no_child_behind(tmp_path: Path) -> None:
    argv = write_player(tmp_path, FIRST_LEGAL)
    referee = tmp_path / "referee.py"
    referee.write_text(
        textwrap.dedent(
            f"""
            import sys, time
            from sixtysix.plugins.manager import build_registry
            from sixtysix.protocol.referee import ExternalPlayer
            variant = build_registry(autoload=False).variant("66")()
            players = [ExternalPlayer({argv!r}, start_timeout=20) for _ in range(2)]
            for p in players:
                p.start(variant)
            print(" ".join(str(p.pid) for p in players), flush=True)
            time.sleep(120)  # interrupted here: atexit closes the players
            """
        ),
        encoding="utf-8",
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, str(referee)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
        text=True,
        # Ctrl-C reaches it even where this runs with SIGINT ignored (a background job).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 2 and all(os.path.exists(f"/proc/{p}") for p in pids)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "KeyboardInterrupt" in err
    assert all(gone(p) for p in pids)
