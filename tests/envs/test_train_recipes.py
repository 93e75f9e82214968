"""The training recipes of docs/research.md (examples/train): each one's wiring for a few
steps, its policy written to the common policy file, that file equal to the library's own
network, and played as a sixtysix bot in a duel with no faults. Skipped, each by the library
it needs, where the ``train`` extra is not installed."""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra")
pytest.importorskip("numba", reason="needs the fast extra")

from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.envs import ENCODING_VERSION, encoder
from sixtysix.envs.gym_single import SixtySixGym
from sixtysix.plugins.manager import get_registry

TRAIN = Path(__file__).resolve().parents[2] / "examples" / "train"
MODULES = ("common", "evaluate", "maskable_ppo", "cleanrl_ppo", "rllib_ppo", "nfsp", "baselines")


@pytest.fixture
def recipes(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, ModuleType]]:
    """The folder's modules, importable by name (each imported when a test asks for it)."""
    monkeypatch.syspath_prepend(str(TRAIN))
    for name in MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)

    class Lazy(dict[str, ModuleType]):
        def __missing__(self, name: str) -> ModuleType:
            self[name] = importlib.import_module(name)
            return self[name]

    yield Lazy()
    for name in MODULES:
        sys.modules.pop(name, None)


def needs(*modules: str) -> None:
    for module in modules:  # an installed module whose own imports fail counts as missing
        pytest.importorskip(module, reason="needs the train extra", exc_type=ImportError)


def needs_table_only() -> None:
    """The Gymnasium registration, ``action_masks()`` and ``table_only`` of sixtysix.envs."""
    from sixtysix.envs.pettingzoo_env import pettingzoo_env

    table_only = "table_only" in inspect.signature(pettingzoo_env).parameters
    if not (hasattr(SixtySixGym, "action_masks") and table_only):
        pytest.skip("needs the Gymnasium registration, action_masks() and table_only of envs")


def plays_cleanly(common: ModuleType, path: Path, play: str = "greedy") -> None:
    """The policy file plays a short duel against random as a bot: no faults."""
    (summary,) = common.evaluate(path, ["random"], 3, 1, play)
    assert summary.games == 6 and summary.faults == ({}, {})


def same_file(a: Path, b: Path) -> bool:
    with np.load(a) as x, np.load(b) as y:
        return x.files == y.files and all(np.array_equal(x[k], y[k]) for k in x.files)


def log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # type: ignore[no-any-return]


# ------------------------------------------------------------------------- the common parts


def test_a_policy_file_plays_its_networks_as_a_bot(
    recipes: dict[str, ModuleType], tmp_path: Path
) -> None:
    common = recipes["common"]
    variant = get_registry().variant("66").configure()
    size = encoder(variant).obs_size
    rng = np.random.default_rng(1)

    def net(activation: str) -> Any:
        shapes = [(16, size), (42, 16)]
        layers = tuple(
            (rng.normal(size=s).astype(np.float32), rng.normal(size=s[0]).astype(np.float32))
            for s in shapes
        )
        return common.Network(layers, activation)

    nets = [net("relu"), net("tanh")]
    path = tmp_path / "p.npz"
    common.save_policy(path, nets, variant, table_only=True, meta={"library": "test"})
    policy = common.load_policy(path)
    assert policy.info["library"] == "test" and policy.table_only
    x = rng.random(size).astype(np.float32)
    for seat, n in enumerate(nets):
        w0, b0 = n.layers[0]
        hidden = np.maximum(x @ w0.T + b0, 0) if seat == 0 else np.tanh(x @ w0.T + b0)
        w1, b1 = n.layers[1]
        assert np.allclose(policy.logits(seat, x), hidden @ w1.T + b1, atol=1e-5)
    plays_cleanly(common, path)
    plays_cleanly(common, path, play="sample")


def test_a_policy_file_says_whether_it_observes_the_match(
    recipes: dict[str, ModuleType], tmp_path: Path
) -> None:
    """A file trained with the match's state observes it; a file from before the field (no
    ``match_state`` key) observes without it."""
    common = recipes["common"]
    variant = get_registry().variant("66").configure()
    rng = np.random.default_rng(2)
    for match_state, size in ((True, 265), (False, 256)):
        assert encoder(variant, match=match_state).obs_size == size
        shapes = [(16, size), (42, 16)]
        layers = tuple(
            (rng.normal(size=s).astype(np.float32), rng.normal(size=s[0]).astype(np.float32))
            for s in shapes
        )
        path = tmp_path / f"match-{match_state}.npz"
        net = common.Network(layers, "tanh")
        common.save_policy(path, [net], variant, table_only=True, meta={}, match_state=match_state)
        policy = common.load_policy(path)
        assert policy.match_state is match_state and policy.info["match_state"] is match_state
        assert policy.info["encoding_version"] == ENCODING_VERSION
        view = variant.new_deal(variant.deal(Seed(1), ("deal", 0), 0)).view(1)
        assert policy.observe(view).shape == (size,)
        plays_cleanly(common, path)
    old = tmp_path / "old.npz"
    info = {"variant": "sixtysix", "options": {}, "table_only": True, "networks": 1}
    arrays = {f"net0_{k}{i}": a for i, (w, b) in enumerate(layers) for k, a in (("w", w), ("b", b))}
    np.savez(old, info=np.array(json.dumps({**info, "activations": ["tanh"]})), **arrays)  # type: ignore[arg-type]
    assert not common.load_policy(old).match_state


def random_policy(common: ModuleType, path: Path, seed: int = 1) -> None:
    """A policy file of one small random network for every seat."""
    variant = get_registry().variant("66").configure()
    rng = np.random.default_rng(seed)
    shapes = [(16, encoder(variant).obs_size), (42, 16)]
    layers = tuple(
        (rng.normal(size=s).astype(np.float32), rng.normal(size=s[0]).astype(np.float32))
        for s in shapes
    )
    common.save_policy(
        path, [common.Network(layers, "tanh")], variant, table_only=True, meta={"library": "test"}
    )


def test_the_baselines_measure_each_policys_exploitability(
    recipes: dict[str, ModuleType], tmp_path: Path
) -> None:
    baselines = recipes["baselines"]
    for seed in (1, 2):
        random_policy(recipes["common"], tmp_path / f"nfsp-{seed}.npz", seed)
    args = ["exploit", "nfsp", "--seeds", "1", "2", "--deals", "2", "--out", str(tmp_path)]
    assert baselines.main(args) == 0
    lines = [json.loads(x) for x in (tmp_path / "exploit.jsonl").read_text().splitlines()]
    assert [(x["recipe"], x["seed"]) for x in lines] == [("nfsp", 1), ("nfsp", 2)]
    for x in lines:
        e = x["exploit"]
        assert (e["bot"], e["deals"], e["games"], e["seed"]) == ("policy", 2, 4, 7)
        assert e["faults"] == {"lbr": {}, "bot": {}}
    gains = [x["exploit"]["game_points_taken_per_deal"]["estimate"] for x in lines]
    cell = baselines.exploit_cells(tmp_path / "exploit.jsonl")["nfsp"]
    assert cell.startswith(f"**{sum(gains) / 2:+.2f}** (") and cell.endswith(", 2 seeds")
    with pytest.raises(SystemExit, match="no policy file"):
        baselines.main([*args[:3], "3", "--out", str(tmp_path)])


def test_the_bot_refuses_bad_parameters(recipes: dict[str, ModuleType], tmp_path: Path) -> None:
    common = recipes["common"]
    with pytest.raises(UnknownBotError, match="no file"):
        common.PolicyBot(0, Seed(1), {"model": str(tmp_path / "none.npz")})
    with pytest.raises(UnknownBotError, match="no parameter"):
        common.PolicyBot(0, Seed(1), {"weights": "x"})


def test_the_interval_over_seeds_is_students(recipes: dict[str, ModuleType]) -> None:
    common = recipes["common"]
    estimate = common.across_seeds([0.70, 0.72, 0.74, 0.76, 0.78])
    half = 2.776 * np.std([0.70, 0.72, 0.74, 0.76, 0.78], ddof=1) / np.sqrt(5)
    assert estimate.value == pytest.approx(0.74)
    assert estimate.low == pytest.approx(0.74 - half) and estimate.high == pytest.approx(
        0.74 + half
    )
    assert common.across_seeds([0.5]).low is None


# --------------------------------------------------------------------------- the recipes


def test_cleanrl_ppo_trains_reproducibly_and_its_policy_plays(
    recipes: dict[str, ModuleType], tmp_path: Path
) -> None:
    needs("torch")
    ppo, common = recipes["cleanrl_ppo"], recipes["common"]
    paths, agents = [], []
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        args = ppo.Args(seed=seed, total_timesteps=256, num_envs=8, num_steps=16, hidden=16)
        agent, envs, history = ppo.train(args)
        assert len(history) == 2  # two rollouts of 8 x 16 steps
        agents.append(agent)
        paths.append(tmp_path / f"{name}.npz")
        meta = {"seed": seed}
        common.save_policy(paths[-1], [ppo.actor(agent)], envs.variant, table_only=True, meta=meta)
    assert same_file(paths[0], paths[1]) and not same_file(paths[0], paths[2])

    import torch  # the train extra (checked above)

    policy = common.load_policy(paths[0])
    x = np.random.default_rng(0).random((5, encoder(policy.variant).obs_size), np.float32)
    with torch.no_grad():
        own = agents[0].actor(torch.from_numpy(x)).numpy()
    assert np.allclose(policy.logits(0, x), own, atol=1e-5)
    plays_cleanly(common, paths[0])


def test_cleanrl_ppo_main_writes_its_file(recipes: dict[str, ModuleType], tmp_path: Path) -> None:
    needs("torch")
    out = tmp_path / "c.npz"
    assert recipes["cleanrl_ppo"].main(["--steps", "64", "--envs", "4", "--out", str(out)]) == 0
    assert recipes["common"].load_policy(out).info["library"] == "CleanRL-style PPO"


def test_nfsp_trains_reproducibly_and_each_seat_plays(
    recipes: dict[str, ModuleType], tmp_path: Path
) -> None:
    needs("torch", "pyspiel", "tree")
    nfsp, common = recipes["nfsp"], recipes["common"]
    paths = []
    for name in ("a", "b"):
        agents, game, returns = nfsp.train(1200, seed=2)
        assert len(returns) >= 1200 // 40
        paths.append(tmp_path / f"{name}.npz")
        nets = [nfsp.average_policy(a) for a in agents]
        common.save_policy(paths[-1], nets, game.variant, table_only=True, meta={})
    assert same_file(paths[0], paths[1])

    import torch  # the train extra (checked above)

    policy = common.load_policy(paths[0])
    assert len(policy.networks) == 2
    x = np.random.default_rng(0).random((3, encoder(policy.variant).obs_size), np.float32)
    for seat, agent in enumerate(agents):
        with torch.no_grad():
            own = agent._avg_network(torch.from_numpy(x)).numpy()
        assert np.allclose(policy.logits(seat, x), own, atol=1e-5)
    plays_cleanly(common, paths[0], play="sample")


def test_maskable_ppo_trains_reproducibly_and_its_policy_plays(
    recipes: dict[str, ModuleType], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    needs("torch", "sb3_contrib")
    needs_table_only()
    ppo, common = recipes["maskable_ppo"], recipes["common"]
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    paths = []
    for name in ("a", "b"):
        model = ppo.train("sixtysix/66-v0", "random", 512, seed=5, envs=2)
        paths.append(tmp_path / f"{name}.npz")
        variant = model.get_env().envs[0].unwrapped.variant
        common.save_policy(paths[-1], [ppo.actor(model)], variant, table_only=True, meta={})
    assert same_file(paths[0], paths[1])
    assert not list(temp.glob("SB3-*"))  # training leaves no log folder behind

    import torch  # the train extra (checked above)

    policy = common.load_policy(paths[0])
    x = np.random.default_rng(0).random((4, encoder(policy.variant).obs_size), np.float32)
    with torch.no_grad():
        own = model.policy.get_distribution(torch.from_numpy(x)).distribution.logits.numpy()
    assert np.allclose(log_softmax(policy.logits(0, x)), own, atol=1e-4)
    plays_cleanly(common, paths[0])


def test_rllib_ppo_trains_reproducibly_and_its_policy_plays(
    recipes: dict[str, ModuleType], tmp_path: Path
) -> None:
    needs("torch", "ray.rllib.algorithms.ppo", "ray.tune.registry")
    needs_table_only()
    import ray  # the train extra (checked above)
    import torch  # the train extra (checked above)

    ppo, common = recipes["rllib_ppo"], recipes["common"]
    variant = ppo.MaskedPettingZoo({}).env.unwrapped.variant
    paths = [tmp_path / "a.npz", tmp_path / "b.npz"]
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        for path in paths:
            algo = ppo.train(200, seed=1, batch=200)
            module = algo.get_module("shared")
            common.save_policy(path, [ppo.actor(module)], variant, table_only=True, meta={})
            algo.stop()
    finally:
        ray.shutdown()
    assert same_file(paths[0], paths[1])

    policy = common.load_policy(paths[1])
    x = np.random.default_rng(0).random((3, encoder(variant).obs_size), np.float32)
    mask = torch.ones((3, 42))
    batch = {"obs": {"observations": torch.from_numpy(x), "action_mask": mask}}
    with torch.no_grad():
        own = module.forward_inference(batch)["action_dist_inputs"].numpy()
    assert np.allclose(policy.logits(0, x), own, atol=1e-5)
    plays_cleanly(common, paths[1])
