"""Many deals of two-player 66 or Schnapsen as one Gymnasium vector environment (the ``rl``
and ``fast`` extras), stepped in compiled code (:mod:`sixtysix.compiled.batch`).

``vector_env("66", num_envs=1024, opponents="random", seed=1)``: environment ``j`` is a single
Gymnasium environment (``gym_env("66", opponents="random")``, the agent in ``seat``) or, with
``opponents="self"``, the PettingZoo environment with every seat an agent, observed by the
seat to act (``infos["seat"]``). Observations are the single environments' Dict,
``{"observation": ..., "action_mask": int8}``, batched: the observation in ``uint8`` by
default (``dtype=np.float32``: exactly ``Encoder.info_state``, converted at each step; see
:func:`sixtysix.compiled.batch.to_float32` for the ``uint8`` form), ``table_only=True`` for
``Encoder.observation`` instead. ``action_masks()`` gives the masks as ``bool``. Every
episode is one deal: with ``match_state=True`` the observation has the ``match`` field all 0,
as the single environments' deal episodes have it (:mod:`sixtysix.envs.batched`).

Autoreset is Gymnasium's same-step mode (``metadata["autoreset_mode"]``): a deal that ends
is paid (the reward of the seat that acted, game points own minus the opponent's), its game
points and reason are in ``infos["final_info"]``, and the observation returned is already the
next episode's, so every mask has a legal action. There is no final observation: a finished
deal has no move to make. An illegal action raises
:class:`~sixtysix.core.errors.IllegalActionError` naming the environment.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.core.errors import OptionError, shown
from sixtysix.core.variant import Variant
from sixtysix.envs.batched import batch_env
from sixtysix.envs.extras import require

#: The observation dtypes: compact, or the single environments' own.
DTYPES: dict[str, type[np.generic]] = {"uint8": np.uint8, "float32": np.float32}


def vector_env(
    variant: str | Variant,
    *,
    num_envs: int = 64,
    opponents: str = "random",
    seat: int = 0,
    seed: int | None = None,
    dtype: Any = np.uint8,
    table_only: bool = False,
    match_state: bool = False,
    preset: str | None = None,
    **options: object,
) -> Any:
    """A Gymnasium vector environment of ``num_envs`` deals of ``variant`` (see the module)."""
    require("gymnasium", "rl", "the Gymnasium vector environment")
    chosen = next((d for name, d in DTYPES.items() if dtype in (name, d)), None)
    if chosen is None:
        raise OptionError(f"dtype must be uint8 or float32, not {shown(dtype)}")
    batch = batch_env(
        variant,
        num_envs,
        opponents=opponents,
        seat=seat,
        seed=seed,
        table_only=table_only,
        match_state=match_state,
        preset=preset,
        **options,
    )
    from sixtysix.envs.gym_vector import SixtySixVector  # the rl extra

    return SixtySixVector(batch, chosen)
