"""The cheating bots of issue 21, as a bot author would write them, for the fair-play tests.

Each one tries one way of learning what its view hides, or of bending the game. Those that
find hidden cards choose by them (``legal[secret % len(legal)]``): not good play, but a choice
that depends on the hidden cards as strongly as possible, so a test sees any leak at once.
They live in an importable module because worker processes receive bot classes by pickle.
"""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Mapping
from typing import ClassVar

import numpy as np

from sixtysix.bots.base import Bot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import Action
from sixtysix.core.cards import iter_mask, mask_of
from sixtysix.core.deal import DealSetup
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry


def secret_choice(view: View, secret: int) -> Action:
    """The legal action that the hidden facts in ``secret`` pick."""
    legal = view.legal_actions
    return legal[secret % len(legal)]


def hidden_of(state: DealState, seat: int) -> int:
    """A number made of everything ``seat`` may not know: other hands, talon, partner."""
    others = sum(state.hands[s] << (24 * s) for s in range(state.n) if s != seat)
    return others + sum(state.talon) + state.partner


class FrameReader(Bot):
    """Reads the true deal from its caller's frame (every driver names it ``state``)."""

    name = "frame-reader"
    description = "reads sys._getframe(1).f_locals['state'] (tests only)"

    def choose(self, view: View) -> Action:
        state = sys._getframe(1).f_locals.get("state")
        if isinstance(state, DealState):
            return secret_choice(view, hidden_of(state, self.seat))
        return view.legal_actions[0]


class RulesReferrerReader(Bot):
    """Looks for the deal among what refers to ``view.rules`` (the engine's, once)."""

    name = "rules-referrer"
    description = "reads gc.get_referrers(view.rules) (tests only)"
    #: Deals found, over every instance (drivers make the instances).
    found: ClassVar[int] = 0

    def choose(self, view: View) -> Action:
        for ref in gc.get_referrers(view.rules):
            if isinstance(ref, DealState):
                RulesReferrerReader.found += 1
                return secret_choice(view, hidden_of(ref, self.seat))
        return view.legal_actions[0]


class GcReader(Bot):
    """Finds the deal among every object the garbage collector tracks."""

    name = "gc-reader"
    description = "scans gc.get_objects() for the deal (tests only)"

    def choose(self, view: View) -> Action:
        mine = mask_of(view.hand)
        for obj in gc.get_objects():
            if type(obj) in weakref.ProxyTypes:
                continue  # a proxy whose object died raises on any look at it, isinstance too
            if (
                isinstance(obj, DealState)
                and obj.to_act == self.seat
                and len(obj.history) == len(view.history)
                and (obj.hands[self.seat] & mine) == mine
            ):
                return secret_choice(view, hidden_of(obj, self.seat))
        return view.legal_actions[0]


#: What every copy of :class:`HandSharer` has seen of its own hand, by seat.
SHARED_HANDS: dict[int, int] = {}


class HandSharer(Bot):
    """Copies of one bot at a table telling each other their hands through a module global."""

    name = "hand-sharer"
    description = "shares its hand with its copies through a module global (tests only)"

    def choose(self, view: View) -> Action:
        SHARED_HANDS[self.seat] = mask_of(view.hand)
        others = sum(h << (24 * s) for s, h in SHARED_HANDS.items() if s != self.seat)
        return secret_choice(view, others)


class SeedRedealer(Bot):
    """Deals the cards again from its seed, trying every way the drivers derived it: as the
    game's own seed (a simulation's, once) and, when it has a seed value, from the master
    seed that value makes (the games of a simulation, the deals of a duel or a session)."""

    name = "seed-redealer"
    description = "recomputes the deal from its seed (tests only)"
    found: ClassVar[int] = 0
    #: Deals tried per derivation.
    SPAN = 16

    def __init__(self, seat: int, seed: Seed, params: Mapping[str, str] | None = None) -> None:
        super().__init__(seat, seed, params)
        self.deal: DealSetup | None = None

    def choose(self, view: View) -> Action:
        if self.deal is None and all(s != self.seat for s, _ in view.history):
            self.deal = self._find(view)
            if self.deal is not None:
                SeedRedealer.found += 1
        if self.deal is None:
            return view.legal_actions[0]
        hidden = sum(mask_of(h) << (24 * s) for s, h in enumerate(self.deal.hands))
        return secret_choice(view, hidden + sum(self.deal.talon))

    def _find(self, view: View) -> DealSetup | None:
        cls = get_registry().variant(view.variant)
        variant = cls(cls.options_class.build(dict(view.options)))
        n = view.seats
        candidates: list[tuple[Seed, tuple[int | str, ...], int]] = [
            (self.seed, ("deal",), view.dealer)
        ]
        if self.seed.value is not None:
            master = Seed(self.seed.value)
            for i in range(self.SPAN):
                candidates.append((master.child(("game", i)), ("deal",), i % n))
                candidates.append((master.child(("deal", i)), ("deal",), i % n))
                candidates.append((master, ("duel", "deal", i), i % n))
                candidates.append((master, ("deal", i), view.dealer))
                candidates.append((master.child(("match", i)), ("deal", 0), view.dealer))
        mine = sorted(view.hand)  # at its first decision: the cards dealt (or shown) so far
        for seed, path, dealer in candidates:
            if dealer != view.dealer:
                continue
            setup = variant.deal(seed, path, dealer)
            if sorted(setup.hands[self.seat][: len(mine)]) == mine:
                return setup
        return None


class RulesMutator(RandomBot):
    """Plays as the random bot does, after making the game one to 1000 points for everyone."""

    name = "rules-mutator"
    description = "object.__setattr__(view.rules, 'winning_points', 1000) (tests only)"

    def choose(self, view: View) -> Action:
        object.__setattr__(view.rules, "winning_points", 1000)
        return super().choose(view)


class ViewMutator(RandomBot):
    """Plays as the random bot does, after emptying the hand in its view."""

    name = "view-mutator"
    description = "object.__setattr__(view, 'hand', ()) (tests only)"

    def choose(self, view: View) -> Action:
        action = super().choose(view)
        object.__setattr__(view, "hand", ())
        return action


class AlwaysEqual(Action):
    """An action that says it equals anything."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = int.__hash__


class LyingAction(Bot):
    """Answers with a card it does not hold, dressed as an action equal to every action."""

    name = "lying-action"
    description = "an Action subclass whose __eq__ is always true (tests only)"

    def choose(self, view: View) -> Action:
        held = set(view.hand) | set(view.played) | set().union(*view.known)
        if view.turnup is not None:
            held.add(view.turnup)
        foreign = next(c for c in iter_mask(view.rules.deck) if c not in held)
        return AlwaysEqual(foreign)


class SneakyInt(int):
    """An int subclass (whose methods could say anything)."""

    __slots__ = ()


class IntSubclassAnswer(RandomBot):
    name = "int-subclass"
    description = "answers with an int subclass (tests only)"

    def choose(self, view: View) -> Action:
        return SneakyInt(super().choose(view))  # type: ignore[return-value]


class NumpyAnswer(RandomBot):
    name = "numpy-answer"
    description = "answers with a numpy integer (tests only)"

    def choose(self, view: View) -> Action:
        return np.int64(super().choose(view))  # type: ignore[return-value]


class BoolAnswer(Bot):
    name = "bool-answer"
    description = "answers with a bool (tests only)"

    def choose(self, view: View) -> Action:
        return 1 in view.legal_actions  # type: ignore[return-value]


class ActionSubclassAnswer(RandomBot):
    name = "action-subclass"
    description = "answers with a legal action as an Action subclass (tests only)"

    def choose(self, view: View) -> Action:
        return AlwaysEqual(super().choose(view))


NON_CANONICAL: tuple[type[Bot], ...] = (
    IntSubclassAnswer,
    NumpyAnswer,
    BoolAnswer,
    ActionSubclassAnswer,
)
