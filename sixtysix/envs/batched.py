"""Many deals stepped at once as plain numpy arrays (the ``fast`` extra: numba): the batch of
:mod:`sixtysix.compiled.batch` with the single environments' observation layout.

``batch_env("66", 1024, opponents="random", seed=1)`` is a
:class:`~sixtysix.compiled.batch.Batch`: ``reset()`` gives ``uint8`` observations
``(1024, info_size)`` and ``bool`` masks ``(1024, 42)``, ``step(actions)`` the same with the
rewards and the deals that ended (dealt anew in the same step). ``batch.to_float32(obs)`` are
exactly the vectors ``Encoder.info_state`` (or ``observation``, with ``table_only=True``) of
the single environments. Only the rule sets the compiled rules play
(:func:`sixtysix.compiled.allowed.deals_supported`): two-player 66 and Schnapsen with their
options.

A batch plays single deals, never a match: with ``match_state=True`` its vectors have the
encoder's ``match`` field all 0 (its flag 0 too), exactly the single environments' vectors in
deal episodes, so a policy trained here has the input of one that plays match episodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.envs.adapters import check_flag
from sixtysix.envs.episodes import make_variant
from sixtysix.envs.extras import require
from sixtysix.envs.observation import Encoder, encoder

if TYPE_CHECKING:
    from sixtysix.compiled.batch import Batch, Plan


def plan_of(enc: Encoder) -> Plan:
    """Where ``enc``'s vectors put each field, for the compiled batch."""
    from sixtysix.compiled.batch import Plan  # the fast extra

    layout = enc.layout
    return Plan(
        fields={f.name: (f.offset, f.size) for f in layout.info_fields},
        info_size=layout.info_size,
        obs_size=layout.obs_size,
        usable=layout.usable,
        max_history=layout.max_history,
        max_tricks=layout.max_tricks,
        deck_points=layout.deck_points,
        option_values=layout.option_values,
    )


def batch_env(
    variant: str | Variant,
    num_envs: int,
    *,
    opponents: str = "random",
    seat: int = 0,
    seed: int | Seed | None = None,
    table_only: bool = False,
    match_state: bool = False,
    preset: str | None = None,
    **options: object,
) -> Batch:
    """``num_envs`` deals of ``variant`` stepped at once (see the module): against a random
    player with the agent in ``seat``, or with every seat an agent (``opponents="self"``);
    ``match_state``: the vectors have room for the match's public state, all 0 here."""
    require("numba", "fast", "the batched environment")
    from sixtysix.compiled.batch import Batch  # the fast extra

    configured = make_variant(variant, preset, options)
    enc = encoder(configured, match=check_flag("match_state", match_state))
    return Batch(
        configured,
        num_envs,
        plan_of(enc),
        opponents=opponents,
        seat=seat,
        seed=seed,
        table_only=table_only,
    )
