"""One seat of any installed variant as a Gymnasium environment, the others played by bots or
policies (the ``rl`` extra).

``gym_env("66", opponents="random")``, or ``gym.make("sixtysix/66-v0", opponents="random")``
(:mod:`sixtysix.envs.registration`): the agent plays seat ``seat``; every other seat is played
by one opponent for all of them or one per other seat, in seat order
(:mod:`sixtysix.envs.opponents`): a registered bot or level (``"heuristic"``,
``"expert:samples=8"``, ``"@hard"``) or a :class:`~sixtysix.bots.base.Bot` class, made each
episode with a seed drawn from the environment's, so ``reset(seed=s)`` replays the same episodes
move for move; a ``Bot`` instance, asked as it is; or any ``policy(observation, mask)``
callable (a frozen learner), handed its own seat's observation. Each is asked with its own
view only.

Observations and actions are the PettingZoo adapter's:
``{"observation": info_state, "action_mask": legal_mask}`` of the agent's view (with
``table_only=True`` the table alone, ``Encoder.observation``; with ``match_state=True`` the
match's public state too, all 0 in deal episodes), and the 42 action ids
(``Discrete(42)``); :meth:`~sixtysix.envs.gym_single.SixtySixGym.action_masks` gives the mask as
``bool`` (sb3-contrib's MaskablePPO reads it). The observation that ends an episode has one id
in its mask, the variant's lowest usable id: nothing is left to play, and an autoreset's step
(Gymnasium's vector environments) takes that action and ignores it.

An illegal action (in the space, not in the mask) is the agent's fault: its side forfeits the
deal by the project's fault rule (:func:`sixtysix.core.faults.forfeit`), which is paid like
any deal, and ``info["fault"]`` says so (in a match, the match goes on with the next deal). An
opponent's fault (an illegal answer, an answer that is no action, an exception) forfeits the
deal for its side in the same way (``info["faults"]``).

Rewards: :mod:`sixtysix.envs.episodes` (game points at the end of a deal, or the match's result
at the end of a match). ``reset`` never returns a finished episode: a deal that ends before the
agent's first turn (a three-player declarer who concedes at once) is skipped, and the next one
dealt (``info["skipped"]`` counts them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.core.variant import Variant
from sixtysix.envs.adapters import check_flag, check_render_mode
from sixtysix.envs.episodes import check_episode, make_variant
from sixtysix.envs.extras import require
from sixtysix.envs.observation import encoder
from sixtysix.envs.opponents import OpponentSpec, opponents_of
from sixtysix.envs.registration import ENTRY_POINT, gym_id


def gym_env(
    variant: str | Variant,
    *,
    opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
    seat: int = 0,
    episode: str = "deal",
    table_only: bool = False,
    match_state: bool = False,
    preset: str | None = None,
    render_mode: str | None = None,
    **options: object,
) -> Any:
    """A Gymnasium environment of one seat of ``variant`` against opponents (see the module).

    Its ``spec`` is the one ``gym.make`` would give it (the variant's id, these keywords), so
    ``env.spec.make(render_mode="ansi")`` makes another like it and Gymnasium's
    ``check_env`` runs its render checks.
    """
    gymnasium = require("gymnasium", "rl", "the Gymnasium environment")
    configured = make_variant(variant, preset, options)
    match = check_episode(episode)
    check_render_mode(render_mode)
    table = check_flag("table_only", table_only)
    with_match = check_flag("match_state", match_state)
    enc = encoder(configured, match=with_match)
    resolved = opponents_of(configured, seat, opponents, enc, table)
    from sixtysix.envs.gym_single import SixtySixGym  # the rl extra

    env = SixtySixGym(configured, resolved, seat, match, render_mode, table, with_match)
    kwargs: dict[str, Any] = {
        "variant": variant,
        "opponents": opponents,
        "seat": seat,
        "episode": episode,
        "table_only": table_only,
        "match_state": match_state,
        "preset": preset,
        "render_mode": render_mode,
        **options,
    }
    env.spec = gymnasium.envs.registration.EnvSpec(
        id=gym_id(type(configured)), entry_point=ENTRY_POINT, kwargs=kwargs
    )
    return env
