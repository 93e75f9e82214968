"""Every installed variant as a PettingZoo AEC environment (the ``rl`` extra).

``pettingzoo_env("66")`` is a raw AEC environment: agents ``player_0`` .. ``player_{n-1}`` are
the seats, one acts at a time (``agent_selection`` is the seat to act), and each observes
``{"observation": Encoder.info_state(view), "action_mask": legal_mask(view)}`` of its own
view only, computed when asked (``observe`` / ``last``), a fresh array every time. Actions are
the 42 action ids of :mod:`sixtysix.envs.actions` (``Discrete(42)``); the mask says which are
legal, and is all zeros for an agent that is not to act.

An action in the space but not legal is a fault: by the project's one fault rule
(:func:`sixtysix.core.faults.forfeit`) the acting seat's side forfeits the deal, the deal ends
there and is paid like any other, and every agent's info says ``fault`` (as PettingZoo's own
``TerminateIllegalWrapper`` ends a game on an illegal move). Anything outside the space
(``-1``, ``42``, ``"play QD"``) raises :class:`~sixtysix.envs.errors.ActionIdError`.

Rewards: see :mod:`sixtysix.envs.episodes` (game points at the end of a deal, or +1/-1 at the
end of a match). Infos are empty until a deal ends, then hold its public outcome and the totals;
they never hold the state, a hand or the talon.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from sixtysix.core.errors import OptionError, shown
from sixtysix.core.faults import PlayerFault
from sixtysix.core.state import DealState
from sixtysix.core.turn import Turn
from sixtysix.core.variant import Variant
from sixtysix.envs.actions import NUM_ACTION_IDS
from sixtysix.envs.episodes import check_episode, make_variant
from sixtysix.envs.errors import ActionIdError
from sixtysix.envs.extras import require

if TYPE_CHECKING:
    import numpy as np

#: The render modes: ``human`` prints the table of the agent to act, ``ansi`` returns it.
RENDER_MODES = ("human", "ansi")

Observation = dict[str, "np.ndarray[Any, Any]"]


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(RENDER_MODES)
        raise OptionError(f"render_mode must be one of {modes} or None, not {shown(render_mode)}")


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
    from sixtysix.core.actions import ACTION_NAMES

    public = {"seat": fault.seat, "kind": str(fault.kind), "action": ACTION_NAMES[action]}
    return [
        {**public, "reason": fault.detail} if s == fault.seat else dict(public)
        for s in range(seats)
    ]


def observation_space(size: int) -> Any:
    """``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1, (42,), int8))``."""
    import gymnasium
    import numpy as np

    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTION_IDS,), np.int8),
        }
    )


def pettingzoo_env(
    variant: str | Variant,
    *,
    episode: str = "deal",
    preset: str | None = None,
    render_mode: str | None = None,
    **options: object,
) -> Any:
    """A PettingZoo AEC environment of ``variant`` (a name or alias, with a preset and
    options; or a configured :class:`~sixtysix.core.variant.Variant`).

    ``episode="deal"``: an episode is one deal, paid in game points
    (:func:`sixtysix.envs.episodes.deal_rewards`); ``episode="match"``: a whole match, +1 to
    its winners and -1 to the others at its end. ``reset(seed=s)`` deals reproducibly.
    """
    require("pettingzoo", "rl", "the PettingZoo environment")
    from sixtysix.envs.pettingzoo_aec import SixtySixAEC

    return SixtySixAEC(make_variant(variant, preset, options), check_episode(episode), render_mode)
