"""Outputs of ``tools/outputs.py`` that no single command prints: a match at a table server,
and research-environment episodes. Each driver prints one JSON document on stdout.

``python tools/outputs_drivers.py table-match``: ``sixtysix serve`` as a subprocess (its data
in the working directory), a 66-4 test table of two people and two bots opened and joined over
the wire, the people answering every ``decide`` by a fixed rule, to the end of the match.
Printed: every message each person received (tokens and table ids blanked: they are random),
and the game record in the table's file (its table part is the server's own business). Only
the wire protocol and the command line are used, so the output stays comparable across any
refactor of the server's insides.

``python tools/outputs_drivers.py env-episodes``: a PettingZoo episode of one deal of 66 and a
Gymnasium episode of a match of Schnapsen against ``heuristic``, both from fixed seeds, each
agent taking a fixed choice among the legal actions; printed: every step's agent, action,
reward and a digest of the observation and mask. Needs the ``rl`` extra.

A developer tool, as ``tools/outputs.py`` is: nothing in ``sixtysix`` or the tests imports it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

PROTOCOL = "sixtysix-table/1"
#: Seconds any one expected message may take.
WAIT = 60.0
SEATS = ["human", "@heuristic", "human", "@random"]
NAMES = {0: "ayse", 2: "mehmet"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _blanked(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` without what is random in it: tokens and table ids."""
    out = dict(message)
    for key in ("token", "table"):
        if out.get(key) is not None:
            out[key] = "<blank>"
    return out


async def _request(url: str, message: dict[str, Any]) -> dict[str, Any]:
    async with connect(url) as ws:
        await ws.send(json.dumps({"protocol": PROTOCOL, **message}))
        return dict(json.loads(await asyncio.wait_for(ws.recv(), WAIT)))


async def _person(url: str, table: str, seat: int) -> list[dict[str, Any]]:
    """A person at ``seat``: every message received, answering decision k with legal action
    number ``(7 * k) % len(legal)``."""
    seen: list[dict[str, Any]] = []
    decisions = 0
    join = {"type": "join", "table": table, "name": NAMES[seat], "seat": seat, "lang": "en"}
    async with connect(url) as ws:
        await ws.send(json.dumps({"protocol": PROTOCOL, **join}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            seen.append(_blanked(message))
            if message["type"] == "decide":
                legal = message["legal"]
                action = legal[(7 * decisions) % len(legal)]
                decisions += 1
                await ws.send(json.dumps({"type": "action", "action": action}))
            elif message["type"] in ("match_over", "error"):
                return seen


async def _table_match(url: str) -> tuple[str, dict[int, list[dict[str, Any]]]]:
    created = await _request(
        url,
        {"type": "create", "variant": "66-4", "seats": SEATS, "seed": 5, "options": {"target": 3}},
    )
    table = str(created["table"])
    people = await asyncio.gather(*(_person(url, table, seat) for seat in NAMES))
    return table, dict(zip(NAMES, people, strict=True))


def table_match() -> dict[str, Any]:
    data = Path.cwd() / "table-server"
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "sixtysix", "serve", "--port", str(port), "--data", str(data)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        for line in server.stderr:
            if "Serving tables on" in line:
                break
        else:
            raise SystemExit(f"the server ended before serving (status {server.wait()})")
        table, seen = asyncio.run(_table_match(f"ws://127.0.0.1:{port}"))
    finally:
        server.terminate()
        server.wait(30)
    saved = json.loads((data / "tables" / f"{table}.json").read_text(encoding="utf-8"))
    seen_by = {str(seat): messages for seat, messages in seen.items()}
    return {"seen": seen_by, "record": saved["record"]}


def _digest(value: Any) -> str:
    """A short digest of an observation (arrays, dicts of arrays, or text)."""
    import numpy as np

    h = hashlib.sha256()
    items = sorted(value.items()) if isinstance(value, dict) else [("", value)]
    for key, part in items:
        h.update(key.encode())
        h.update(np.asarray(part).tobytes() if not isinstance(part, str) else part.encode())
    return h.hexdigest()[:16]


def _choice(mask: Any, k: int) -> int:
    legal = [i for i, ok in enumerate(mask) if ok]
    return legal[(7 * k) % len(legal)]


def env_episodes() -> dict[str, Any]:
    from sixtysix.envs import gym_env, pettingzoo_env

    steps: list[dict[str, Any]] = []
    env = pettingzoo_env("66")
    env.reset(seed=3)
    for k, agent in enumerate(env.agent_iter()):
        observation, reward, done, truncated, _ = env.last()
        mask = observation["action_mask"]
        action = None if done or truncated else _choice(mask, k)
        steps.append(
            {"agent": agent, "reward": reward, "obs": _digest(observation), "action": action}
        )
        env.step(action)
    single: list[dict[str, Any]] = []
    gym = gym_env("schnapsen", opponents="heuristic", episode="match")
    observation, _ = gym.reset(seed=4)
    k = 0
    while True:
        action = _choice(observation["action_mask"], k)
        observation, reward, done, truncated, _ = gym.step(action)
        single.append({"action": action, "reward": reward, "obs": _digest(observation)})
        k += 1
        if done or truncated:
            break
    return {"pettingzoo-66-deal": steps, "gym-schnapsen-match": single}


DRIVERS = {"table-match": table_match, "env-episodes": env_episodes}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in DRIVERS:
        print(f"usage: outputs_drivers.py {'|'.join(DRIVERS)}", file=sys.stderr)
        return 2
    print(json.dumps(DRIVERS[argv[0]](), indent=1, ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
