"""A cheating external player learns nothing: it finds no seed, record path or referee
variable in its argv, environment or working directory, and no message it receives names a
card of another seat's hand, the talon, or a hidden partner.

The cheater dumps everything it can reach and every line it receives; the referee loop
notes what was hidden from each seat when each message went out (the true state), and every
received message is checked against that.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from sixtysix.core.cards import CARD_NAMES, iter_mask
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState, Phase
from sixtysix.plugins.manager import Registry
from sixtysix.protocol import messages
from sixtysix.protocol.referee import ExternalPlayer
from tests.protocol.loop import play_match
from tests.protocol.scripts import write_player

SECRET_SEED = "9182736450"

CHEATER = """
import os, sys, json
dump = open(sys.argv[1], "w")
def read(path):
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError as exc:
        return "unreadable: %s" % exc
reach = {
    "argv": sys.argv,
    "env": dict(os.environ),
    "cwd": os.getcwd(),
    "listdir": os.listdir("."),
    "home": os.listdir(os.environ.get("HOME", ".")),
    "tmp": os.listdir(os.environ.get("TMPDIR", ".")),
    "self_cmdline": read("/proc/self/cmdline"),
    "self_environ": read("/proc/self/environ"),
    # The referee's own command line and environment: readable by a process of the same
    # user. They are the operator's (docs/protocol.md: a separate user or a container closes
    # this), so the test asserts nothing of them; the referee puts no seed of its own there.
    "parent_cmdline": read("/proc/%d/cmdline" % os.getppid()),
    "parent_environ": read("/proc/%d/environ" % os.getppid()),
}
fds = {}
for fd in os.listdir("/proc/self/fd"):
    try:
        fds[fd] = os.readlink("/proc/self/fd/" + fd)
    except OSError:
        pass
reach["fds"] = fds
dump.write(json.dumps(reach) + "\\n")
dump.flush()
for line in sys.stdin:
    dump.write(line)
    dump.flush()
    msg = json.loads(line)
    if msg["type"] == "hello":
        hello(name="cheater")
    elif msg["type"] == "decide":
        first_legal(msg)
    elif msg["type"] == "quit":
        break
"""

CARD = re.compile(r"\b[9JQKTA][CDHS]\b")
#: ``partner AD`` names an ace to call (any ace not in one's hand may be called), not where
#: it lies: such mentions are left out of the scan.
CALL = re.compile(r"partner A[CDHS]")


class Snapshots:
    """Per deal, after each action: per seat, the cards hidden from it, the view it may have,
    and whether the partner is hidden from it."""

    def __init__(self) -> None:
        self.deals: list[list[list[tuple[set[str], str, bool]]]] = []

    def __call__(self, state: DealState) -> None:
        if not state.history:
            self.deals.append([])
        self.deals[-1].append([self.hidden(state, s) for s in range(state.n)])

    @staticmethod
    def hidden(state: DealState, seat: int) -> tuple[set[str], str, bool]:
        cards: set[int] = set(state.talon)  # face down, in an order nobody may know
        for other in range(state.n):
            if other != seat:
                cards |= set(iter_mask(state.hands[other] & ~state.known[other]))
        if state.phase == Phase.TRUMP_CALL:  # own cards not dealt yet
            cards |= set(state.setup.hands[seat][state.rules.call_after :])
        if state.called_ace >= 0:  # the called ace is named in public; its holder is not
            cards.discard(state.called_ace)
        view = json.dumps(messages.encode_view(state.view(seat)), sort_keys=True)
        partner_hidden = state.partner >= 0 and not (
            state.revealed or state.is_over or seat == state.partner
        )
        return {CARD_NAMES[c] for c in cards}, view, partner_hidden


def check_messages(
    lines: list[str], seat: int, snaps: Snapshots, talons: list[set[str]]
) -> tuple[int, int]:
    """Every message seat ``seat`` received, against what was hidden from it then; the
    numbers of messages checked and of views sent while its partner was hidden."""
    deal = -1
    step = 0
    checked = hidden_partner_views = 0
    for line in lines:
        message: dict[str, Any] = json.loads(line)
        kind = message["type"]
        if kind == "deal":
            deal += 1
            step = 0
        elif kind == "event":
            step += 1
        if kind in ("hello", "match", "match_over", "quit"):
            assert not CARD.search(line), line
            continue
        if kind == "result":  # the hands are turned face up; the talon stays face down
            assert not set(CARD.findall(line)) & talons[deal], line
            continue
        hidden, view, partner_hidden = snaps.deals[deal][step][seat]
        leaked = set(CARD.findall(CALL.sub("partner", line))) & hidden
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}: {line}"
        if kind == "decide":
            assert json.dumps(message["view"], sort_keys=True) == view
            if partner_hidden:
                assert message["view"]["partner"] is None
                hidden_partner_views += 1
        checked += 1
    return checked, hidden_partner_views


@pytest.mark.parametrize("name", ["sixtysix", "schnapsen", "sixtysix-3", "sixtysix-4"])
def test_a_cheating_player_finds_nothing_it_may_not_know(
    tmp_path: Path, registry: Registry, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the referee holds: a seed and a record path in its environment and its cwd.
    monkeypatch.setenv("SIXTYSIX_SEED", SECRET_SEED)
    record = tmp_path / "referee" / "game-record.json"
    record.parent.mkdir()
    record.write_text("{}", encoding="utf-8")
    monkeypatch.setenv("SIXTYSIX_RECORD", str(record))
    monkeypatch.chdir(record.parent)
    variant = registry.variant(name)()
    n = variant.seats
    dumps = [tmp_path / f"dump-{s}.jsonl" for s in range(n)]
    script = write_player(tmp_path, CHEATER, name="cheater.py")
    players = [ExternalPlayer([*script, str(dumps[s])], start_timeout=30) for s in range(n)]
    snaps = Snapshots()
    talons: list[set[str]] = []  # per deal, the cards left face down in the talon at its end

    def observe(state: DealState) -> None:
        if not state.history:
            talons.append(set())
        talons[-1] = {CARD_NAMES[c] for c in state.talon}
        snaps(state)

    try:
        for p in players:
            p.start(variant)
        for m in range(3):
            for deal in play_match(variant, players, Seed(int(SECRET_SEED) + m), observe=observe):
                assert deal.fault is None, deal.fault
    finally:
        for p in players:
            p.close()

    hidden_partner_views = 0
    for seat, dump in enumerate(dumps):
        first, *lines = dump.read_text(encoding="utf-8").splitlines()
        reach = json.loads(first)
        # Its own argv, environment and directory hold nothing of the referee's.
        assert reach["argv"] == [script[1], str(dumps[seat])]
        assert set(reach["env"]) <= {"PATH", "LANG", "LC_ALL", "HOME", "TMPDIR"}
        assert reach["env"]["HOME"] == reach["env"]["TMPDIR"] == reach["cwd"]
        assert reach["listdir"] == reach["home"] == reach["tmp"] == []
        reached = json.dumps(
            {k: reach[k] for k in ("argv", "env", "cwd", "self_cmdline", "self_environ")}
        )
        assert SECRET_SEED not in reached
        assert "game-record" not in reached and str(record.parent) not in reached
        assert "SIXTYSIX" not in reached
        # Open files: its three pipes and the dump file (and the listing's own directory).
        fds = reach["fds"]
        assert all(fds[fd].startswith("pipe:") for fd in ("0", "1", "2"))
        others = {t for fd, t in fds.items() if fd not in ("0", "1", "2")}
        assert others <= {str(dumps[seat])} | {t for t in others if t.startswith("/proc/")}
        # Nothing it received names a card hidden from it, the talon, or a hidden partner.
        checked, partner_views = check_messages(lines, seat, snaps, talons)
        assert checked > 20
        hidden_partner_views += partner_views
        assert not any(SECRET_SEED in line for line in lines)
    if name == "sixtysix-4":  # the partner was really hidden from somebody for a while
        assert hidden_partner_views > 0
    assert len(snaps.deals) == len(talons) > 3
    assert sys.executable  # the cheater ran with the referee's interpreter, by path
