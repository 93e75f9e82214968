"""Every installed variant as a PettingZoo AEC environment (the ``rl`` extra).

``pettingzoo_env("66")`` is a raw AEC environment: agents ``player_0`` .. ``player_{n-1}`` are
the seats, one acts at a time (``agent_selection`` is the seat to act), and each observes
``{"observation": Encoder.info_state(view), "action_mask": legal_mask(view)}`` of its own
view only (with ``table_only=True`` the table alone, ``Encoder.observation(view)``; with
``match_state=True`` the encoder's ``match`` field too: the match's public state, all 0 in deal
episodes, whose deals are played alone), computed when asked (``observe`` / ``last``), a fresh
array every time. Actions are the 42 action ids of :mod:`sixtysix.envs.actions`
(``Discrete(42)``); the mask says which are legal, and is all zeros for an agent that is not
to act (PettingZoo's convention for turn-based games: such an
agent steps ``None`` once the episode is over, and is never asked before). Its
``metadata["name"]`` is per variant, OpenSpiel's short name and the version:
``sixtysix_66_v0`` (:func:`sixtysix.envs.registration.pettingzoo_name`).

An action in the space but not legal is a fault: by the project's one fault rule
(:func:`sixtysix.core.faults.forfeit`) the acting seat's side forfeits the deal, the deal ends
there and is paid like any other, and every agent's info says ``fault`` (as PettingZoo's own
``TerminateIllegalWrapper`` ends a game on an illegal move). Anything outside the space
(``-1``, ``42``, ``"play QD"``) raises :class:`~sixtysix.envs.errors.ActionIdError`.

Rewards: see :mod:`sixtysix.envs.episodes` (game points at the end of a deal, or the match's
result at the end of a match; both sum to zero). Infos are empty until a deal ends, then hold
its public outcome and the totals; they never hold the state, a hand or the talon.
"""

from __future__ import annotations

from typing import Any

from sixtysix.core.variant import Variant
from sixtysix.envs.adapters import check_flag
from sixtysix.envs.episodes import check_episode, make_variant
from sixtysix.envs.extras import require


def pettingzoo_env(
    variant: str | Variant,
    *,
    episode: str = "deal",
    table_only: bool = False,
    match_state: bool = False,
    preset: str | None = None,
    render_mode: str | None = None,
    **options: object,
) -> Any:
    """A PettingZoo AEC environment of ``variant`` (a name or alias, with a preset and
    options; or a configured :class:`~sixtysix.core.variant.Variant`).

    ``episode="deal"``: an episode is one deal, paid in game points
    (:func:`sixtysix.envs.episodes.deal_rewards`); ``episode="match"``: a whole match, paid
    its result at its end (:func:`sixtysix.envs.episodes.match_rewards`). ``table_only``: the
    observation is the table alone. ``match_state``: the observation holds the match's
    public state (``encoder(variant, match=True)``). ``reset(seed=s)`` deals reproducibly.
    """
    require("pettingzoo", "rl", "the PettingZoo environment")
    from sixtysix.envs.pettingzoo_aec import SixtySixAEC  # the rl extra

    configured = make_variant(variant, preset, options)
    match = check_episode(episode)
    return SixtySixAEC(
        configured,
        match,
        render_mode,
        check_flag("table_only", table_only),
        check_flag("match_state", match_state),
    )
