"""What the PettingZoo and Gymnasium adapters share: render modes, the observation space, action
ids checked, an illegal action's fault and what each seat is told of it, and the mask at an
episode's end. Imports no extra (gymnasium only when a space is made)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.errors import OptionError, shown
from sixtysix.core.faults import PlayerFault
from sixtysix.core.state import DealState
from sixtysix.core.turn import Turn
from sixtysix.envs.actions import NUM_ACTION_IDS
from sixtysix.envs.errors import ActionIdError
from sixtysix.envs.observation import Encoder

#: The render modes: ``human`` prints the table of the agent to act, ``ansi`` returns it.
RENDER_MODES = ("human", "ansi")

Observation = dict[str, "np.ndarray[Any, Any]"]


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(RENDER_MODES)
        raise OptionError(f"render_mode must be one of {modes} or None, not {shown(render_mode)}")


def check_flag(name: str, value: object) -> bool:
    """A keyword that must be a bool (a one-line error otherwise)."""
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, not {shown(value)}")
    return value


def action_index(action: object) -> int:
    """``action`` as an action id (numpy integers too), or
    :class:`~sixtysix.envs.errors.ActionIdError` if it is none of 0..41."""
    try:
        a = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise ActionIdError(f"an action id is an integer, not {shown(action)}") from None
    if not 0 <= a < NUM_ACTION_IDS or isinstance(action, bool):
        raise ActionIdError(f"action id {a} is not one of 0..{NUM_ACTION_IDS - 1}")
    return a


def illegal(state: DealState, action: int) -> PlayerFault:
    """The fault of the seat to act for an action that is not legal: the deal is forfeited
    by the fault rule (through the referee's :class:`~sixtysix.core.turn.Turn`)."""
    with Turn(state, state.to_act) as turn:
        state.apply(action)
    assert turn.fault is not None
    return turn.fault


def fault_infos(fault: PlayerFault, action: int, seats: int) -> list[dict[str, object]]:
    """What each seat is told of a fault: who, what kind, which action; the engine's reason
    only to the seat that faulted (it may speak of that seat's own cards)."""
    public = {"seat": fault.seat, "kind": str(fault.kind), "action": ACTION_NAMES[action]}
    return [
        {**public, "reason": fault.detail} if s == fault.seat else dict(public)
        for s in range(seats)
    ]


def observation_space(size: int) -> Any:
    """``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1, (42,), int8))``."""
    import gymnasium  # the rl extra

    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTION_IDS,), np.int8),
        }
    )


def end_mask(enc: Encoder) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The mask of the observation that ends a Gymnasium episode: 1 at the variant's lowest
    usable id only. Nothing is left to play, but a library that samples an action from every
    observation (a vector environment's autoreset step takes one and ignores it) needs a legal
    id; with one id the masked choice is certain, so that step adds nothing to a policy
    gradient or its entropy."""
    mask = np.zeros(NUM_ACTION_IDS, dtype=np.int8)
    mask[enc.usable_ids[0]] = 1
    return mask
