"""Tiny external players for the protocol tests, written to a temporary directory.

Each is a stdlib-only Python program: :data:`PREAMBLE` (send a message, answer the hello,
answer a decision with its first legal action) and a body that misbehaves in one way.
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

PREAMBLE = """\
import json, os, sys, time

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

def hello(name="test", variants=("*",), protocol="sixtysix-player/1"):
    send({"type": "hello", "protocol": protocol, "name": name, "variants": list(variants)})

def messages():
    for line in sys.stdin:
        yield json.loads(line)

def first_legal(msg):
    send({"type": "action", "action": msg["legal"][0]})

def count(path):
    # how many processes started before this one (a file of the test's own)
    with open(path, "a+") as fh:
        fh.seek(0)
        n = len(fh.read())
        fh.write("x")
    return n
"""

#: A well-behaved player: the first legal action at every decision.
FIRST_LEGAL = """
for msg in messages():
    if msg["type"] == "hello":
        hello()
    elif msg["type"] == "decide":
        first_legal(msg)
    elif msg["type"] == "quit":
        break
"""


def misbehaving(on_decide: str) -> str:
    """A player that answers the hello and runs ``on_decide`` (with ``msg``) at decisions."""
    return f"""
for msg in messages():
    if msg["type"] == "hello":
        hello()
    elif msg["type"] == "decide":
{textwrap.indent(textwrap.dedent(on_decide).strip(), " " * 8)}
    elif msg["type"] == "quit":
        break
"""


def write_player(directory: Path, body: str, name: str = "player.py") -> list[str]:
    """The argv of a player program ``PREAMBLE + body`` written into ``directory``."""
    path = directory / name
    path.write_text(PREAMBLE + textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` is gone (or a zombie awaiting its reaper) within ``within``
    seconds: waiting for an exit that a SIGKILL has made certain, not timing anything."""
    deadline = time.monotonic() + within
    while True:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except (FileNotFoundError, ProcessLookupError):
            return True
        if stat.rpartition(")")[2].split()[0] in ("Z", "X"):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
