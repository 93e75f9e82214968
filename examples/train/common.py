"""What the training recipes share: one policy file for every library, that policy as a
sixtysix bot, and its measurement by ``sixtysix.sim.duel``.

Every recipe ends by exporting its policy network (the layers from the observation to the 42
action logits) to one ``.npz`` file: the weights and biases of its linear layers, the
activation between them, and the variant with its options and the observation it was trained
on (the table alone or the information state, with the match's public state or without, and
the encoding's version). :class:`PolicyBot` plays such a file from its own seat's view alone,
through the encoder and ``legal_mask`` of ``sixtysix.envs``, with numpy only, so a duel, a
tournament or a best response can take it in-process where the training library is not
installed:

    Contestant("ppo", PolicyBot, {"model": "runs/ppo-1.npz"})

A file may hold one network for every seat (the PPO recipes) or one per seat (NFSP trains a
policy for each player); the bot uses its own seat's.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from sixtysix.bots.base import Bot
from sixtysix.bots.levels import resolve_player
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs import ENCODING_VERSION, NUM_ACTION_IDS, encoder, legal_mask
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.duel import Contestant, DuelSummary, duel
from sixtysix.sim.exploit import ExploitSummary, exploit
from sixtysix.sim.stats import Estimate

Floats = npt.NDArray[np.float32]

#: The activations a policy file may name, as numpy functions.
ACTIVATIONS: dict[str, Callable[[Floats], Floats]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}

#: The opponents of the baselines, and the deals of each duel (the expert is slow).
OPPONENTS = ("random", "heuristic", "expert")


# ------------------------------------------------------------------------- the policy file


@dataclass(frozen=True)
class Network:
    """A multilayer perceptron: linear layers with ``activation`` between them."""

    layers: tuple[tuple[Floats, Floats], ...]
    activation: str

    def logits(self, x: Floats) -> Floats:
        act = ACTIVATIONS[self.activation]
        for i, (w, b) in enumerate(self.layers):
            x = x @ w.T + b
            if i + 1 < len(self.layers):
                x = act(x)
        return x


def linear_layers(modules: Iterable[Any]) -> list[tuple[Floats, Floats]]:
    """The weights and biases of torch ``Linear`` modules, as float32 arrays."""
    return [
        (
            m.weight.detach().cpu().numpy().astype(np.float32),
            m.bias.detach().cpu().numpy().astype(np.float32),
        )
        for m in modules
    ]


def save_policy(
    path: Path,
    networks: Sequence[Network],
    variant: Variant,
    *,
    table_only: bool,
    meta: Mapping[str, object],
    match_state: bool = False,
) -> None:
    """Write the policy file: one network for every seat, or one per seat in seat order;
    ``match_state``: the observation held the match's public state (``match_state=True``)."""
    arrays: dict[str, Floats] = {}
    for n, net in enumerate(networks):
        for i, (w, b) in enumerate(net.layers):
            arrays[f"net{n}_w{i}"], arrays[f"net{n}_b{i}"] = w, b
    info = {
        "variant": variant.name,
        "options": variant.options.diff(),
        "table_only": table_only,
        "match_state": match_state,
        "encoding_version": ENCODING_VERSION,
        "networks": len(networks),
        "activations": [net.activation for net in networks],
        **meta,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, info=np.array(json.dumps(info)), **arrays)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Policy:
    """A loaded policy file: its networks, its variant and what it observes."""

    networks: tuple[Network, ...]
    variant: Variant
    table_only: bool
    info: Mapping[str, Any]
    #: Whether the observation holds the match's public state (files without the key: no).
    match_state: bool = False

    def observe(self, view: View) -> Floats:
        enc = encoder(self.variant, match=self.match_state)
        return enc.observation(view) if self.table_only else enc.info_state(view)

    def logits(self, seat: int, x: Floats) -> Floats:
        return self.networks[seat % len(self.networks)].logits(x)


def load_policy(path: Path) -> Policy:
    """Read a policy file (cached by path and modification time)."""
    return _load(str(path.resolve()), path.stat().st_mtime)


@lru_cache(maxsize=16)
def _load(path: str, mtime: float) -> Policy:
    with np.load(path) as data:
        info: dict[str, Any] = json.loads(str(data["info"]))
        networks = []
        for n, activation in enumerate(info["activations"]):
            count = sum(1 for k in data.files if k.startswith(f"net{n}_w"))
            layers = tuple((data[f"net{n}_w{i}"], data[f"net{n}_b{i}"]) for i in range(count))
            networks.append(Network(layers, activation))
    variant = get_registry().variant(info["variant"]).configure(None, info["options"])
    match_state = bool(info.get("match_state", False))
    return Policy(tuple(networks), variant, bool(info["table_only"]), info, match_state)


# --------------------------------------------------------------------------------- the bot


class PolicyBot(Bot):
    """A trained policy file as a player: the best legal action of its network (or one drawn
    in proportion to the network's probabilities with ``play=sample``), from its view alone."""

    name = "policy"
    description = "a policy network trained by a recipe of examples/train"
    parameters: ClassVar[Mapping[str, str]] = {
        "model": "the .npz policy file a recipe wrote",
        "play": "greedy (the most probable legal action, the default) or sample",
        "seed": "an integer seed of its own (for play=sample)",
    }

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        path = Path(self.params.get("model", "policy.npz"))
        if not path.is_file():
            raise UnknownBotError(f"bot parameter model: no file {str(path)!r}")
        self.play = self.params.get("play", "greedy")
        if self.play not in ("greedy", "sample"):
            raise UnknownBotError(f"bot parameter play: greedy or sample, not {self.play!r}")
        self.policy = load_policy(path)
        self.rng = np.random.default_rng(self.seed.words(("policy",), 2))

    def choose(self, view: View) -> Action:
        if view.variant != self.policy.variant.name:
            raise UnknownBotError(
                f"this policy plays {self.policy.variant.name}, not {view.variant}"
            )
        mask = legal_mask(view) > 0
        logits = self.policy.logits(self.seat, self.policy.observe(view)).astype(np.float64)
        logits = np.where(mask, logits, -np.inf)
        if self.play == "greedy":
            return ACTIONS[int(np.argmax(logits))]
        p = np.exp(logits - logits.max())
        return ACTIONS[int(self.rng.choice(NUM_ACTION_IDS, p=p / p.sum()))]


# ------------------------------------------------------------------------- the measurement


def evaluate(
    model: Path,
    against: Sequence[str],
    deals: int | Mapping[str, int],
    seed: int,
    play: str = "greedy",
) -> list[DuelSummary]:
    """A duel of the policy against each opponent spec: every deal twice, seats swapped."""
    variant = load_policy(model).variant
    me = Contestant("policy", PolicyBot, {"model": str(model), "play": play})
    registry = get_registry()
    out = []
    for spec in against:
        label, cls, params = resolve_player(spec, registry, seats=variant.seats)
        n = deals if isinstance(deals, int) else deals[spec]
        out.append(duel(variant, me, Contestant(label, cls, params), n, Seed(seed)))
    return out


def exploitability(model: Path, deals: int, seed: int, jobs: int = 1) -> ExploitSummary:
    """What ``sixtysix exploit`` measures, for the policy played greedily: game points per deal
    a local best response takes from it, on the deals ``duel`` plays for ``seed``."""
    variant = load_policy(model).variant
    me = Contestant("policy", PolicyBot, {"model": str(model)})
    rival = Contestant("heuristic", get_registry().bot("heuristic"))
    return exploit(variant, me, rival, deals, Seed(seed), jobs=jobs)


def describe(summary: DuelSummary) -> str:
    rate, margin = summary.win_rate[0], summary.margin
    faults = "" if summary.faults == ({}, {}) else f"; faults {summary.faults}"
    return (
        f"vs {summary.labels[1]}: {summary.games} games of {summary.deals} deals,"
        f" won {summary.wins}, lost {summary.losses};"
        f" win rate {rate.value:.1%} (95% Wilson {rate.low:.1%}-{rate.high:.1%});"
        f" game points per deal {margin.value:+.3f} ({margin.low:+.3f} to {margin.high:+.3f})"
        f"{faults}"
    )


#: Student's t, two-sided 95%, by degrees of freedom (the interval over a few seeds).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def across_seeds(values: Sequence[float]) -> Estimate:
    """The mean over seeds with its 95% t interval (seeds are the independent unit)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Estimate(mean, None, None)
    t = T95.get(len(values) - 1, 1.96)
    half = t * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half)


# ------------------------------------------------------------------------------- recipes


def recipe_args(doc: str, steps: int, out: str) -> argparse.ArgumentParser:
    """The options every recipe takes."""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (1)")
    parser.add_argument("--steps", type=int, default=steps, help=f"agent steps ({steps:,})")
    parser.add_argument("--out", type=Path, default=Path(out), help=f"policy file ({out})")
    parser.add_argument(
        "--threads", type=int, default=1, help="torch threads (1: runs share the machine)"
    )
    return parser


class Clock:
    """Wall-clock and CPU seconds since it was made, for the recipes' last line."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __str__(self) -> str:
        wall, cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu
        return f"{wall:.0f} s wall clock, {cpu:.0f} s CPU"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
