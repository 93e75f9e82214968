"""Many deals of one two-player variant stepped at once, for learning: a plain numpy API over
the compiled rules (``sixtysix.envs.batch_env`` makes one; ``sixtysix.envs.vector_env`` wraps
one as a Gymnasium vector environment).

Environment ``j`` of a :class:`Batch` is the single environment of :mod:`sixtysix.envs` whose
episodes are drawn from ``Seed.from_key(key(j))`` (:meth:`Batch.env_key`): the same deals, the
same random opponent's moves, the same observations and masks (in ``uint8``: :func:`to_float32`
gives the single environment's float32 vectors exactly) and the same rewards, all made in
compiled kernels for the whole batch at each call (:mod:`sixtysix.compiled.stepping`).

``opponents="random"``: the agent plays ``seat``, a random player the other seat (the single
Gymnasium environment with ``opponents="random"``). ``opponents="self"``: every seat is an
agent and each observation is the seat to act's (the PettingZoo environment's
``observe(agent_selection)``); :attr:`Batch.seats` says which seat that is.

A finished deal is settled and the environment's next episode dealt in the same step, so
every observation returned is of a seat to act, with at least one legal action; the reward,
game points and reason of the deal that ended are returned or kept for that step
(:attr:`Batch.final_points`, :attr:`Batch.final_reasons`). An illegal action raises
:class:`~sixtysix.core.errors.IllegalActionError` naming the environment, before any
environment is stepped (the single environments forfeit the deal instead).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from sixtysix.compiled import stepping
from sixtysix.compiled.allowed import deals_supported
from sixtysix.compiled.batch_layout import (
    EXTRA,
    HISTORY_SEAT,
    P_SLOT,
    P_SLOTS,
    P_TRICKS_SIZE,
    P_WIDTH,
    PLAN,
    PLAN_FIELDS,
    X_ACTIONS,
    X_DEALER,
    X_EPISODE,
    X_SKIPPED,
)
from sixtysix.compiled.dealing import env_keys
from sixtysix.compiled.layout import SIZE, TOACT
from sixtysix.compiled.position import REASONS, knobs
from sixtysix.compiled.rules import _legal
from sixtysix.core.actions import ACTION_NAMES, NUM_ACTIONS
from sixtysix.core.cards import iter_mask
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.errors import IllegalActionError, OptionError, shown
from sixtysix.core.outcome import Reason
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant

#: The opponents a batch plays against.
OPPONENTS = ("random", "self")
#: The most environments one batch holds (its arrays stay well under a few gigabytes).
MAX_ENVS = 1 << 20

Compact = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Plan:
    """Where the single environments' vectors put each field, from their encoder's layout
    (``sixtysix.envs.batched.plan_of``): the compiled layer writes those vectors without
    importing the encoder."""

    #: Each field's (offset, size) in the information state, by the encoder's field name.
    fields: Mapping[str, tuple[int, int]]
    info_size: int
    obs_size: int
    #: The ids the variant can ever use, ascending (a history slot's action one-hot).
    usable: tuple[int, ...]
    max_history: int
    max_tricks: int
    #: The points a card-points float is divided by.
    deck_points: int
    #: The options run's floats.
    option_values: tuple[float, ...]

    def offset(self, name: str) -> int:
        return self.fields[name][0] if name in self.fields else -1


def to_float32(obs: Compact, plan: Plan) -> Floats:
    """The single environments' float32 vectors of compact observations (``(..., width)``),
    exactly: 0 and 1 as they are, the card points over the deck's points as the encoder
    divides them, the options run's 1s as the options' floats."""
    out = obs.astype(np.float32)
    at, size = plan.fields["card_points"]
    scale = 1.0 / max(plan.deck_points, 1)
    points = np.array([p * scale for p in range(256)], dtype=np.float32)
    out[..., at : at + size] = points[obs[..., at : at + size]]
    at, size = plan.fields["options"]
    values = np.array(plan.option_values, dtype=np.float32)
    out[..., at : at + size] = values * obs[..., at : at + size]
    return out


def _master(seed: int | Seed | None) -> Seed:
    """The master seed of a batch: a secure random one, or one from a number."""
    if seed is None or isinstance(seed, Seed):
        return Seed() if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise OptionError(f"seed must be an integer or a Seed, not {shown(seed)}")
    return Seed(int(seed))


def _int_array(values: Sequence[int]) -> npt.NDArray[np.int64]:
    return np.array(values, dtype=np.int64)


class Batch:
    """``num_envs`` deals of one variant stepped at once (see the module)."""

    def __init__(
        self,
        variant: Variant,
        num_envs: int,
        plan: Plan,
        *,
        opponents: str = "random",
        seat: int = 0,
        seed: int | Seed | None = None,
        table_only: bool = False,
    ) -> None:
        if not deals_supported(variant) or type(variant).first_dealer is not Variant.first_dealer:
            raise OptionError(
                f"the compiled rules do not play {variant.name} with these options:"
                " use the single environments (sixtysix.envs.gym_env, pettingzoo_env)"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int):
            raise OptionError(f"num_envs must be an integer, not {shown(num_envs)}")
        if not 1 <= num_envs <= MAX_ENVS:
            raise OptionError(f"num_envs must be 1..{MAX_ENVS}, not {num_envs}")
        if opponents not in OPPONENTS:
            raise OptionError(
                f"opponents must be one of {', '.join(OPPONENTS)}, not {shown(opponents)}"
            )
        if isinstance(seat, bool) or seat not in (0, 1):
            raise OptionError(f"seat must be 0 or 1, not {shown(seat)}")
        self.variant = variant
        self.num_envs = num_envs
        self.plan = plan
        self.opponents = opponents
        self.mode = stepping.SELF if opponents == "self" else stepping.RANDOM
        #: The agent's seat against the random opponent.
        self.seat = seat
        self.table_only = table_only
        #: Elements of one observation.
        self.width = plan.obs_size if table_only else plan.info_size
        rules = variant.rules
        self._knobs = knobs(variant)
        self._deck = _int_array(list(iter_mask(rules.deck)))
        self._rounds = _int_array(rules.deal_rounds)
        turnup = rules.turnup_after_round
        self._turnup_after = -1 if turnup is None else turnup
        self._plan = self._plan_array(plan)
        self._slot_of = np.full(NUM_ACTIONS, -1, dtype=np.int64)
        self._slot_of[list(plan.usable)] = np.arange(len(plan.usable))
        self._options = (np.array(plan.option_values) != 0).astype(np.uint8)
        n = num_envs
        self._pos = np.zeros((n, SIZE), dtype=np.int64)
        self._extra = np.zeros((n, EXTRA), dtype=np.int64)
        self._history = np.zeros((n, max(plan.max_history, 1)), dtype=np.int64)
        self._orders = np.zeros((n, len(self._deck)), dtype=np.int64)
        self._keys = np.zeros((n, 4), dtype=np.uint64)
        self._bots = np.zeros((n, 4), dtype=np.uint64)
        self._lanes = np.zeros((n, 25), dtype=np.uint64)
        self._seed(_master(seed))
        self._ready = False
        #: The masks of the last observations, kept apart from the ones handed out: the
        #: actions of the next step are checked against them.
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        #: Per environment, the game points of each seat and the reason code of the deal that
        #: ended at the last step (reason -1 and points 0 where none did).
        self.final_points = np.zeros((n, 2), dtype=np.int8)
        self.final_reasons = np.full(n, -1, dtype=np.int8)

    def _plan_array(self, plan: Plan) -> npt.NDArray[np.int64]:
        out = np.full(PLAN, -1, dtype=np.int64)
        for slot, name in enumerate(PLAN_FIELDS):
            out[slot] = plan.offset(name)
        out[P_WIDTH] = self.width
        out[P_TRICKS_SIZE] = plan.max_tricks + 1
        out[P_SLOT] = 2 + len(plan.usable)
        out[P_SLOTS] = 0 if self.table_only else plan.max_history
        return out

    def _seed(self, master: Seed) -> None:
        env_keys(np.frombuffer(master.key, dtype=np.uint64).copy(), 0, self._keys)
        self._extra[:, X_EPISODE] = 0
        self._extra[:, X_SKIPPED] = 0

    # ------------------------------------------------------------------ stepping

    def _arrays(self) -> list[Any]:
        return [
            self._pos,
            self._knobs,
            self._extra,
            self._history,
            self._orders,
            self._keys,
            self._bots,
            self._lanes,
            self.mode,
            self.seat,
            self._deck,
            self._rounds,
            self._turnup_after,
            self._plan,
            self._slot_of,
            self._options,
        ]

    def _outputs(self) -> tuple[Compact, npt.NDArray[np.bool_]]:
        return (
            np.empty((self.num_envs, self.width), dtype=np.uint8),
            np.empty((self.num_envs, NUM_ACTIONS), dtype=np.bool_),
        )

    def reset(self, seed: int | Seed | None = None) -> tuple[Compact, npt.NDArray[np.bool_]]:
        """Every environment's next episode (episode 0 of each under ``seed`` when given):
        the observations ``(num_envs, width)`` ``uint8`` and the masks ``(num_envs, 42)``."""
        if seed is not None:
            self._seed(_master(seed))
        obs, masks = self._outputs()
        stepping.reset(*[*self._arrays(), obs, masks])
        self._masks = masks.copy()
        self.final_points[:] = 0
        self.final_reasons[:] = -1
        self._ready = True
        return obs, masks

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Compact, npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """One action id per environment: the observations and masks after it (of the next
        episode where a deal ended), the rewards of the acting seat (game points, own minus
        the opponent's, when its deal ended; else 0) and which deals ended."""
        if not self._ready:
            raise OptionError("reset() the batch first")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise OptionError(
                f"actions must be {self.num_envs} integer action ids, not {a.dtype} {a.shape}"
            )
        a = a.astype(np.int64, copy=False)
        known = (a >= 0) & (a < NUM_ACTIONS)
        legal = known & self._masks[np.arange(self.num_envs), np.where(known, a, 0)]
        if not legal.all():
            bad = int(np.argmin(legal))
            raise self._illegal(bad, int(a[bad]))
        obs, masks = self._outputs()
        rewards = np.empty(self.num_envs, dtype=np.float64)
        ended = np.empty(self.num_envs, dtype=np.bool_)
        outputs = [obs, masks, rewards, ended, self.final_points, self.final_reasons]
        stepping.step(*[*self._arrays(), a, *outputs])
        self._masks = masks.copy()
        return obs, masks, rewards, ended

    def _illegal(self, env: int, action: int) -> IllegalActionError:
        seat = int(self.seats[env])
        if not 0 <= action < NUM_ACTIONS:
            return IllegalActionError(
                seat, str(action), f"not an action id 0..{NUM_ACTIONS - 1} (environment {env})"
            )
        legal = ", ".join(ACTION_NAMES[i] for i in self.legal(env))
        return IllegalActionError(
            seat, ACTION_NAMES[action], f"not legal in environment {env} (legal: {legal})"
        )

    # ------------------------------------------------------------------ reading

    @property
    def seats(self) -> npt.NDArray[np.int64]:
        """The seat each environment's observation is of (the seat to act)."""
        if self.mode == stepping.SELF:
            return self._pos[:, TOACT].copy()
        return np.full(self.num_envs, self.seat, dtype=np.int64)

    @property
    def skipped(self) -> npt.NDArray[np.int64]:
        """Per environment, the deals that ended before the agent's first turn and were
        skipped (as the single Gymnasium environment skips them)."""
        return self._extra[:, X_SKIPPED].copy()

    def to_float32(self, obs: Compact) -> Floats:
        """The single environments' float32 vectors of this batch's observations."""
        return to_float32(obs, self.plan)

    def final_reason(self, env: int) -> Reason | None:
        """The reason of the deal environment ``env`` ended at the last step (None: none)."""
        code = int(self.final_reasons[env])
        return None if code < 0 else REASONS[code]

    def env_key(self, env: int) -> bytes:
        """The key environment ``env`` draws its episodes from (``Seed.from_key``)."""
        return self._keys[operator.index(env)].tobytes()

    def episode(self, env: int) -> int:
        """The number of the episode environment ``env`` plays."""
        return int(self._extra[env, X_EPISODE]) - 1

    def setup(self, env: int) -> DealSetup:
        """The cards of environment ``env``'s deal as dealt (for the engine)."""
        order = [int(c) for c in self._orders[env]]
        return deal_from_order(self.variant.rules, order, int(self._extra[env, X_DEALER]))

    def history(self, env: int) -> list[tuple[int, int]]:
        """The public actions of environment ``env``'s deal so far: (seat, action id)."""
        count = int(self._extra[env, X_ACTIONS])
        return [divmod(int(h), HISTORY_SEAT) for h in self._history[env, :count]]

    def legal(self, env: int) -> list[int]:
        """The legal action ids of environment ``env``'s seat to act."""
        acts = np.zeros(32, dtype=np.int64)
        n = _legal(self._pos[env], self._knobs, acts)
        return [int(a) for a in acts[:n]]
