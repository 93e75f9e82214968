"""The names of the environments, and every installed variant registered with Gymnasium.

Gymnasium 1.x has no plugin group for third-party environments (its ``gym.envs`` entry points
were removed in 1.0): a package registers its ids when it is imported. ``import sixtysix.envs``
calls :func:`register_gym_envs` when Gymnasium is installed, so after it, or through
Gymnasium's ``module:id`` form with no import at all::

    gym.make("sixtysix/66-v0", opponents="random")
    gym.make("sixtysix.envs:sixtysix/66-v0", opponents="random")

An id is ``sixtysix/`` and the variant's first alias (else its name), then ``-v0``:
``sixtysix/66-v0``, ``sixtysix/schnapsen-v0``, ``sixtysix/66-3-v0``, ``sixtysix/66-4-v0``,
``sixtysix/santase-v0`` (a plugin's). Every keyword of :func:`sixtysix.envs.gym_env.gym_env`
passes through ``gym.make`` (``opponents``, ``seat``, ``episode``, ``table_only``,
``match_state``, options).
The PettingZoo environment's ``metadata["name"]`` follows OpenSpiel's short name:
``sixtysix_66_v0``.
"""

from __future__ import annotations

import re
from importlib.util import find_spec
from typing import TYPE_CHECKING

from sixtysix.envs.extras import require
from sixtysix.plugins.manager import get_registry

if TYPE_CHECKING:
    from sixtysix.core.variant import Variant

__all__ = [
    "ENTRY_POINT",
    "NAMESPACE",
    "gym_id",
    "gym_ids",
    "pettingzoo_name",
    "register_gym_envs",
    "register_on_import",
]

#: The namespace of every Gymnasium id.
NAMESPACE = "sixtysix"
#: The version of every id; raised when an environment's behaviour changes.
VERSION = 0
#: What ``gym.make`` calls with the spec's keywords (a string, so specs pickle).
ENTRY_POINT = "sixtysix.envs.gym_env:gym_env"


def label(variant: type[Variant]) -> str:
    """What people call a variant: its first alias, else its name."""
    return variant.aliases[0] if variant.aliases else variant.name


def gym_id(variant: type[Variant], by_name: bool = False) -> str:
    """``sixtysix/66-v0``: the namespace, the variant's label (its name with ``by_name``),
    anything Gymnasium's ids cannot hold made ``_``, and the version."""
    name = variant.name if by_name else label(variant)
    return f"{NAMESPACE}/{re.sub(r'[^a-z0-9_.-]+', '_', name.lower()).strip('_')}-v{VERSION}"


def pettingzoo_name(variant: type[Variant]) -> str:
    """``sixtysix_66_v0``: OpenSpiel's short name of the variant and the version."""
    slug = re.sub(r"[^a-z0-9]+", "_", label(variant).lower()).strip("_")
    return f"sixtysix_{slug}_v{VERSION}"


def gym_ids() -> dict[str, str]:
    """Variant name -> Gymnasium id, for every installed variant (two variants with the same
    label: the later one by its name, as OpenSpiel's short names)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for cls in get_registry().variants.values():
        env_id = gym_id(cls)
        if env_id in used:
            env_id = gym_id(cls, by_name=True)
        used.add(env_id)
        out[cls.name] = env_id
    return out


def register_gym_envs() -> list[str]:
    """Register every installed variant with Gymnasium (again after a plugin was added in
    this process; an id already registered alike is left as it is); the ids."""
    require("gymnasium", "rl", "registering the Gymnasium environments")
    from gymnasium.envs.registration import register, registry  # the rl extra

    ids = gym_ids()
    for name, env_id in ids.items():
        kwargs = {"variant": name}
        spec = registry.get(env_id)
        if spec is None or spec.entry_point != ENTRY_POINT or spec.kwargs != kwargs:
            register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs)
    return list(ids.values())


def register_on_import() -> None:
    """What ``import sixtysix.envs`` does: register the ids when Gymnasium is installed, and
    nothing otherwise (the adapters say which extra is missing when they are called)."""
    if find_spec("gymnasium") is None:
        return
    try:
        register_gym_envs()
    except ImportError:  # a gymnasium that cannot be imported: as if it were missing
        return
