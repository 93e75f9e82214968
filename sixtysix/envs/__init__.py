"""Every variant as a standard research environment: action ids, masks and encodings.

``sixtysix.envs`` needs numpy (the ``rl``, ``openspiel``, ``fast`` or ``test`` extra); without
it the import raises :class:`~sixtysix.envs.errors.MissingExtraError` in one line. The
PettingZoo, Gymnasium and OpenSpiel adapters import their libraries only when called.
"""

from __future__ import annotations

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
from sixtysix.envs.layout import Field
from sixtysix.envs.observation import Encoder, encoder

__all__ = [
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
