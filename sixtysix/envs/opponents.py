"""Who plays the other seats of a Gymnasium environment: a bot by name or level, a
:class:`~sixtysix.bots.base.Bot` class or instance, or any ``policy(observation, mask)``.

Each other seat is asked through the project's one turn (:func:`sixtysix.core.match.take_turn`)
with its own view, so whatever it answers that is not a legal action, or whatever it raises,
is that seat's fault and forfeits the deal by the fault rule (``info["faults"]``).

A policy is handed what the agent is handed, made from its own seat's view alone: the
observation ``{"observation": vector, "action_mask": int8 mask}`` (the information state, or
the table alone with ``table_only``) and the same mask as ``bool``, the form of
:meth:`~sixtysix.envs.gym_single.SixtySixGym.action_masks`. So a frozen copy of a learner plays
as it was trained: ``lambda obs, mask: model.predict(obs, action_masks=mask)[0]``. It answers an
action id: an ``int``, a numpy integer, or an integer array of one element.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from sixtysix.bots.base import Bot
from sixtysix.bots.levels import resolve_player
from sixtysix.core.actions import Action
from sixtysix.core.errors import OptionError, SixtySixError, shown
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.actions import legal_mask
from sixtysix.envs.observation import Encoder
from sixtysix.plugins.manager import get_registry

__all__ = [
    "Opponent",
    "OpponentSpec",
    "Policy",
    "PolicyBot",
    "opponents_of",
]

#: ``policy(observation, mask) -> action id``: the agent's kind of observation and its mask as
#: ``bool``, both of the policy's own seat.
Policy = Callable[[dict[str, "npt.NDArray[Any]"], "npt.NDArray[np.bool_]"], object]
#: One other seat's player as the caller gives it.
OpponentSpec = str | Bot | type[Bot] | Policy


class Opponent(Protocol):
    """One other seat's player: its label, and its bot for an episode."""

    @property
    def label(self) -> str: ...

    def bot(self, seat: int, seed: Seed) -> Bot:
        """The bot that plays ``seat`` in an episode whose bot seed for the seat is ``seed``."""
        ...


@dataclass(frozen=True)
class _Made:
    """A bot class (by name, level or class), made afresh each episode with its own seed."""

    label: str
    cls: type[Bot]
    params: dict[str, str]

    def bot(self, seat: int, seed: Seed) -> Bot:
        return self.cls(seat, seed, dict(self.params))


@dataclass(frozen=True)
class _Given:
    """A bot made by the caller, asked as it is every episode (its own seed, never reseeded)."""

    label: str
    given: Bot

    def bot(self, seat: int, seed: Seed) -> Bot:
        return self.given


@dataclass(frozen=True)
class _Policy:
    """A ``policy(observation, mask)`` callable, asked through a :class:`PolicyBot`."""

    label: str
    policy: Policy
    encoder: Encoder
    table_only: bool

    def bot(self, seat: int, seed: Seed) -> Bot:
        return PolicyBot(seat, seed, self.policy, self.encoder, self.table_only)


class PolicyBot(Bot):
    """A policy on observations as a bot: its view encoded as the agent's is, its answer
    made a plain ``int`` when it is a numpy integer (anything else goes to the referee as it
    is, which refuses it as the seat's fault)."""

    name = "policy"

    def __init__(
        self, seat: int, seed: Seed, policy: Policy, encoder: Encoder, table_only: bool
    ) -> None:
        super().__init__(seat, seed)
        self.policy = policy
        self.encoder = encoder
        self.table_only = table_only

    def choose(self, view: View) -> Action:
        enc = self.encoder
        vector = enc.observation(view) if self.table_only else enc.info_state(view)
        mask = legal_mask(view)
        answer = self.policy({"observation": vector, "action_mask": mask}, mask.astype(np.bool_))
        # Not always an Action: the turn's referee (canonical_action) checks whatever it is.
        return cast(Action, plain_answer(answer))


def plain_answer(answer: object) -> object:
    """A numpy integer, or an integer array of one element, as a plain ``int``; anything
    else unchanged."""
    if isinstance(answer, np.integer):
        return int(answer)
    if isinstance(answer, np.ndarray) and answer.size == 1 and answer.dtype.kind in "iu":
        return int(answer.reshape(()))
    return answer


def _bot_label(bot: Bot | type[Bot]) -> str:
    return str(getattr(bot, "name", None) or getattr(bot, "__name__", type(bot).__name__))


def _opponent(
    spec: object, seat: int, variant: Variant, encoder: Encoder, table_only: bool
) -> Opponent:
    """One other seat's player, checked (one-line errors)."""
    n = variant.seats
    if isinstance(spec, str):
        return _Made(*resolve_player(spec, get_registry(), seats=n))
    if isinstance(spec, type):
        if not issubclass(spec, Bot):
            raise OptionError(f"an opponent class must be a Bot subclass, not {spec.__name__}")
        try:
            spec(seat, Seed(0), {})  # a class that cannot be made fails here, before any play
        except SixtySixError:
            raise
        except Exception as error:
            raise OptionError(
                f"the bot class {spec.__name__} cannot be made for seat {seat}:"
                f" {type(error).__name__}: {error}"
            ) from None
        return _Made(_bot_label(spec), spec, {})
    if isinstance(spec, Bot):
        if spec.seat != seat:
            raise OptionError(
                f"the {_bot_label(spec)} bot given was made for seat {shown(spec.seat)} and"
                f" cannot play seat {seat}: give its class to seat it anywhere"
            )
        return _Given(_bot_label(spec), spec)
    if callable(spec):
        return _Policy("policy", cast(Policy, spec), encoder, table_only)
    raise OptionError(
        "an opponent is a bot name or level, a Bot class or instance, or a"
        f" policy(observation, mask) callable, not {shown(spec)}"
    )


def opponents_of(
    variant: Variant,
    seat: int,
    opponents: OpponentSpec | Sequence[OpponentSpec],
    encoder: Encoder,
    table_only: bool,
) -> list[Opponent]:
    """The players of the seats other than ``seat``, in seat order, checked: one spec for
    all of them, or a list or tuple of one per other seat."""
    n = variant.seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise OptionError(f"seat must be a seat 0..{n - 1} of {variant.name}, not {shown(seat)}")
    specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * (n - 1)
    if len(specs) != n - 1:
        raise OptionError(
            f"opponents must be one opponent or {n - 1} of them (one per other seat),"
            f" not {shown(opponents)}"
        )
    others = [s for s in range(n) if s != seat]
    return [
        _opponent(spec, s, variant, encoder, table_only)
        for s, spec in zip(others, specs, strict=True)
    ]
