"""OpenSpiel's ISMCTS as a bot that OpenSpiel's own match runner can seat.

``open_spiel.python.algorithms.evaluate_bots.evaluate_bots(state, bots, rng)`` calls
``restart_at`` on every bot before the deal and ``inform_action`` after each action of another
player (chance's too); OpenSpiel's ``ISMCTSBot`` has neither, so the runner stops with
"RestartAt(state) not implemented". :class:`ISMCTSBot` adds them and draws every world it
searches with the game's ``resample_from_infostate`` from the acting seat's information alone,
seeded by its own random state, so a seeded bot plays the same moves whatever the hidden cards.

Imports ``pyspiel`` and ``open_spiel`` (the ``openspiel`` extra; without it, importing this
module raises :class:`~sixtysix.envs.errors.MissingExtraError` in one line).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.envs.errors import missing_extra

try:
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as error:
    raise missing_extra("the OpenSpiel ISMCTS bot", "openspiel") from error

from sixtysix.envs.openspiel_state import SixtySixGame, SixtySixState

__all__ = ["ISMCTSBot"]


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel is untyped
    """Information-set Monte Carlo tree search (OpenSpiel's, UCT over the acting seat's
    information states), ready for ``evaluate_bots``.

    Every simulation starts from a world drawn by ``state.resample_from_infostate(player,
    sampler)`` with ``sampler`` the bot's own random state: the true state's hidden cards are
    never searched. The default evaluator is random roll-outs on the same random state, so
    ``random_state`` (a seed or a ``numpy.random.RandomState``) fixes every choice. The search
    tree is built afresh at each decision; ``restart_at`` and ``restart`` drop it, and
    ``inform_action`` keeps nothing: in particular the cards chance deals, which
    ``evaluate_bots`` tells every bot (the other seats' hands among them), are not looked at.
    Any other keyword is ``ismcts.ISMCTSBot``'s (``max_world_samples``, ``final_policy_type``,
    ``child_selection_policy``...).
    """

    def __init__(
        self,
        game: SixtySixGame,
        *,
        simulations: int = 100,
        uct_c: float = 2.0,
        random_state: np.random.RandomState | int | None = None,
        evaluator: Any = None,
        rollouts: int = 1,
        **options: Any,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        rng = (
            random_state
            if isinstance(random_state, np.random.RandomState)
            else np.random.RandomState(random_state)
        )
        if evaluator is None:
            evaluator = mcts.RandomRolloutEvaluator(rollouts, rng)
        super().__init__(game, evaluator, uct_c, simulations, random_state=rng, **options)
        self.set_resampler(self._resample)

    def _resample(self, state: SixtySixState, player: int) -> SixtySixState:
        """A world ``player`` cannot tell from ``state``, drawn with this bot's randomness."""
        resampled: SixtySixState = state.resample_from_infostate(player, self.random_number)
        return resampled

    def restart_at(self, state: SixtySixState) -> None:
        """A new deal (or any state) from here: the search tree is dropped."""
        self.reset()

    def restart(self) -> None:
        self.reset()

    def inform_action(self, state: SixtySixState, player_id: int, action: int) -> None:
        """Nothing to keep: each decision searches afresh from the information state."""

    def inform_actions(self, state: SixtySixState, actions: list[int]) -> None:
        """Nothing to keep (the games are sequential; for the interface's sake)."""
