"""One seat of any installed variant as a Gymnasium environment, the others played by bots
(the ``rl`` extra).

``gym_env("66", opponents="random")``: the agent plays seat ``seat``; every other seat is a
registered bot or level (``"heuristic"``, ``"expert:samples=8"``, ``"@hard"``; one spec for
all of them or one per other seat, in seat order), each asked with its own view only and
seeded from the environment's seed, so ``reset(seed=s)`` replays the same episodes move for
move. Observations and actions are the PettingZoo adapter's:
``{"observation": info_state, "action_mask": legal_mask}`` of the agent's view, and the 42
action ids (``Discrete(42)``).

An illegal action (in the space, not in the mask) is the agent's fault: its side forfeits the
deal by the project's fault rule (:func:`sixtysix.core.faults.forfeit`), which is paid like
any deal, and ``info["fault"]`` says so (in a match, the match goes on with the next deal). A
bot's fault forfeits the deal for the bot's side in the same way (``info["faults"]``).

Rewards: :mod:`sixtysix.envs.episodes` (game points at the end of a deal, or +1/-1 at the end
of a match). ``reset`` never returns a finished episode: a deal that ends before the agent's
first turn (a three-player declarer who concedes at once) is skipped, and the next one dealt
(``info["skipped"]`` counts them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.bots.levels import resolve_player
from sixtysix.core.errors import OptionError, shown
from sixtysix.core.variant import Variant
from sixtysix.envs.adapters import Opponent, check_render_mode
from sixtysix.envs.episodes import check_episode, make_variant
from sixtysix.envs.extras import require
from sixtysix.plugins.manager import get_registry


def opponents_of(variant: Variant, seat: int, opponents: str | Sequence[str]) -> list[Opponent]:
    """The bots of the seats other than ``seat``, resolved (one-line errors for bad specs)."""
    n = variant.seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise OptionError(f"seat must be a seat 0..{n - 1} of {variant.name}, not {shown(seat)}")
    specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
    if len(specs) != n - 1 or not all(isinstance(s, str) for s in specs):
        raise OptionError(
            f"opponents must be one bot spec or {n - 1} of them (one per other seat),"
            f" not {shown(opponents)}"
        )
    registry = get_registry()
    return [resolve_player(spec, registry, seats=n) for spec in specs]


def gym_env(
    variant: str | Variant,
    *,
    opponents: str | Sequence[str] = "heuristic",
    seat: int = 0,
    episode: str = "deal",
    preset: str | None = None,
    render_mode: str | None = None,
    **options: object,
) -> Any:
    """A Gymnasium environment of one seat of ``variant`` against bots (see the module)."""
    require("gymnasium", "rl", "the Gymnasium environment")
    configured = make_variant(variant, preset, options)
    match = check_episode(episode)
    check_render_mode(render_mode)
    resolved = opponents_of(configured, seat, opponents)
    from sixtysix.envs.gym_single import SixtySixGym  # the rl extra

    return SixtySixGym(configured, resolved, seat, match, render_mode)
