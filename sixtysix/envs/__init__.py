"""Every variant as a standard research environment: action ids, masks and encodings, and
the PettingZoo, Gymnasium and OpenSpiel adapters.

``sixtysix.envs`` needs numpy (the ``rl``, ``openspiel``, ``fast`` or ``test`` extra); without
it the import raises :class:`~sixtysix.envs.errors.MissingExtraError` in one line. The
adapters import their libraries only when called (:func:`sixtysix.envs.extras.require`), but
for one: when Gymnasium is installed, importing this package registers every installed variant
with it (``gym.make("sixtysix/66-v0")``, :mod:`sixtysix.envs.registration`), as Gymnasium
expects of a package that brings environments.
"""

from __future__ import annotations

import importlib
from importlib.util import find_spec

from sixtysix.envs.errors import MissingExtraError, missing_extra

try:
    import numpy  # noqa: F401  (only to check that it is installed)
except ImportError:  # pragma: no cover - the test extra installs numpy
    raise missing_extra("sixtysix.envs", "rl") from None

from sixtysix.envs.actions import (
    NUM_ACTION_IDS,
    action_id,
    action_of,
    legal_mask,
    usable_ids,
)
from sixtysix.envs.errors import ActionIdError, EncodingError
from sixtysix.envs.layout import ENCODING_VERSION, Field
from sixtysix.envs.observation import Encoder, encoder

__all__ = [
    "ENCODING_VERSION",
    "NUM_ACTION_IDS",
    "ActionIdError",
    "Encoder",
    "EncodingError",
    "Field",
    "MissingExtraError",
    "action_id",
    "action_of",
    "encoder",
    "legal_mask",
    "usable_ids",
]

#: The adapters' modules and the functions each gives this package. Their modules import no
#: extra at import time, so they are imported here, after the encodings they build on; a
#: module not in this build is left out. The names are bound once every module is loaded:
#: loading a module binds its name here to the module, and one adapter may load another's.
ADAPTERS: dict[str, tuple[str, ...]] = {
    "sixtysix.envs.registration": ("register_gym_envs",),
    "sixtysix.envs.pettingzoo_env": ("pettingzoo_env",),
    "sixtysix.envs.gym_env": ("gym_env",),
    "sixtysix.envs.batched": ("batch_env",),
    "sixtysix.envs.vector": ("vector_env",),
    "sixtysix.envs.openspiel_game": ("openspiel_game", "register_openspiel_games"),
}
_adapters = {m: importlib.import_module(m) for m in ADAPTERS if find_spec(m) is not None}
for _module, _loaded in _adapters.items():
    for _name in ADAPTERS[_module]:
        globals()[_name] = getattr(_loaded, _name)
        __all__.append(_name)

# Last, once every name above is bound: a plugin that imports this package while the plugins
# load finds it complete.
_adapters["sixtysix.envs.registration"].register_on_import()
