"""The OpenSpiel classes of :mod:`sixtysix.envs.openspiel_game`: game, state and observers.

Imported only when a game is asked for (it imports ``pyspiel``). A state wraps the engine's
:class:`~sixtysix.core.state.DealState` once the cards are dealt; everything a player is shown
(information states, observations, legal actions) comes from that seat's
:class:`~sixtysix.core.view.View` through :mod:`sixtysix.envs.observation`, and the public and
private observations from it through :mod:`sixtysix.envs.public`.

OpenSpiel copies a Python state by deep-copying each attribute and serializes it by pickling
them, so a state keeps a single attribute, a :class:`_Deal`, that copies with the engine's own
cheap :meth:`DealState.copy` and pickles as the variant and the actions that led to it.
Undoing an action is not offered: OpenSpiel's Python game API keeps the history in C++ and has
no Python hook for ``UndoAction``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from sixtysix.bots.inference.sampling import Sampler
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import CARD_NAMES, NUM_CARDS, format_cards, iter_mask
from sixtysix.core.deal import deal_from_order
from sixtysix.core.errors import OptionError
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.envs.actions import NUM_ACTION_IDS, max_history
from sixtysix.envs.layout import Field, max_deal_game_points
from sixtysix.envs.observation import Encoder, encoder
from sixtysix.envs.openspiel_deal import (
    DEALER_PARAMETER,
    RANDOM_DEALER,
    check_dealer,
    deal_order,
    deal_returns,
)
from sixtysix.envs.public import PublicEncoder, private_string, private_tensor, public_encoder
from sixtysix.plugins.manager import get_registry, variant_from


def game_type(cls: type[Variant], short_name: str) -> Any:
    """The OpenSpiel game type of a variant: its options and the dealer as parameters."""
    defaults: dict[str, object] = dict(cls.options_class().as_dict())
    if DEALER_PARAMETER in defaults:
        raise OptionError(f"variant {cls.name} has an option named {DEALER_PARAMETER!r}")
    defaults[DEALER_PARAMETER] = 0
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"sixtysix {cls.name}: {cls.description or cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.seats,
        min_num_players=cls.seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


def register_variant(cls: type[Variant], short_name: str) -> None:
    """Register ``cls`` with OpenSpiel as ``short_name`` (nothing if that name is taken)."""
    if short_name in pyspiel.registered_names():
        return
    # A class per variant, as OpenSpiel's own Python games register: OpenSpiel keeps the
    # creator until after the interpreter has gone, and a class (unlike a function object) is
    # never freed by that last release.
    game_class: type[SixtySixGame] = type(
        f"SixtySixGame_{short_name}",
        (SixtySixGame,),
        {"variant_class": cls, "game_type": game_type(cls, short_name)},
    )
    pyspiel.register_game(game_class.game_type, game_class)


class SixtySixGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """One variant with its options and dealer, as an OpenSpiel game."""

    #: Set on the class registered for each variant.
    variant_class: type[Variant]
    game_type: Any

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        cls = self.variant_class
        values = dict(params or {})
        dealer = check_dealer(values.pop(DEALER_PARAMETER, 0), cls.seats)
        variant = cls.configure(overrides=values)
        n = cls.seats
        deck = variant.rules.deck.bit_count()
        bound = float(max_deal_game_points(cls))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTION_IDS,
            max_chance_outcomes=max(NUM_CARDS, n),
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_history(variant.rules),
        )
        super().__init__(self.game_type, info, {**values, DEALER_PARAMETER: dealer})
        self.variant = variant
        self.dealer = dealer
        self.encoder = encoder(variant)
        self._deck = deck

    def new_initial_state(self) -> SixtySixState:
        return SixtySixState(self)

    def state_of_deal(self, deal: DealState) -> SixtySixState:
        """The OpenSpiel state of an engine deal of this variant: a chance history that deals
        its cards (and names its dealer, with ``dealer=-1``), then its actions."""
        if self.dealer != RANDOM_DEALER and deal.dealer != self.dealer:
            raise OptionError(f"this game's dealer is seat {self.dealer}, not {deal.dealer}")
        head = [deal.dealer] if self.dealer == RANDOM_DEALER else []
        order = deal_order(self.variant.rules, deal.setup)
        return self._replayed(head + order + [a for _, a in deal.history])

    def _replayed(self, actions: list[int]) -> SixtySixState:
        state = self.new_initial_state()
        for a in actions:
            state.apply_action(a)
        return state

    def max_chance_nodes_in_history(self) -> int:
        return self._deck + (self.dealer == RANDOM_DEALER)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, object] | None = None
    ) -> _Observer:
        # OpenSpiel calls make_py_observer(params) for the default observation.
        if isinstance(iig_obs_type, Mapping):
            iig_obs_type, params = None, iig_obs_type
        return make_observer(self, iig_obs_type, params)


class _Deal:
    """What a state holds: the dealer, the cards dealt so far, then the engine's deal."""

    __slots__ = ("chance_dealer", "dealer", "order", "samplers", "state", "variant")

    def __init__(self, variant: Variant, dealer: int) -> None:
        self.variant = variant
        self.chance_dealer = dealer == RANDOM_DEALER
        self.dealer = dealer  # -1 until chance names it
        self.order: list[int] = []
        self.state: DealState | None = None
        #: Per seat, the sampler of its information set here (built once, dropped on a move).
        self.samplers: dict[int, Sampler] = {}

    def head(self) -> list[int]:
        """Chance's naming of the dealer, if it has named him."""
        return [self.dealer] if self.chance_dealer and self.dealer >= 0 else []

    def actions(self) -> list[int]:
        """Every action that led here, chance's too, in order."""
        tail = [] if self.state is None else [a for _, a in self.state.history]
        return self.head() + self.order + tail

    def apply(self, action: int) -> None:
        """Chance's outcome (the dealer, the next card) or the seat to act's action."""
        self.samplers = {}
        state = self.state
        if state is not None:
            state.apply(action)
            return
        if self.dealer < 0:
            self.dealer = action
            return
        self.order.append(action)
        rules = self.variant.rules
        if len(self.order) == rules.deck.bit_count():
            self.state = self.variant.new_deal(deal_from_order(rules, self.order, self.dealer))

    def __deepcopy__(self, memo: dict[int, object]) -> _Deal:
        other = _Deal.__new__(_Deal)
        other.variant = self.variant
        other.chance_dealer = self.chance_dealer
        other.dealer = self.dealer
        other.order = self.order[:]
        other.state = None if self.state is None else self.state.copy()
        other.samplers = {}
        return other

    def __reduce__(self) -> tuple[Callable[..., _Deal], tuple[object, ...]]:
        options = self.variant.options.as_dict()
        dealer = RANDOM_DEALER if self.chance_dealer else self.dealer
        return _rebuilt, (self.variant.name, options, dealer, self.actions())


def _rebuilt(name: str, options: dict[str, object], dealer: int, actions: list[int]) -> _Deal:
    """A pickled :class:`_Deal` again, by replaying its actions."""
    deal = _Deal(variant_from(get_registry(), name, options), dealer)
    for a in actions:
        deal.apply(a)
    return deal


class SixtySixState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A deal being dealt by chance, then played by the seats."""

    def __init__(self, game: SixtySixGame) -> None:
        super().__init__(game)
        self._deal = _Deal(game.variant, game.dealer)

    # ------------------------------------------------------------------ for callers

    def view(self, seat: int) -> View | None:
        """What ``seat`` may know (None while the cards are being dealt)."""
        state = self._deal.state
        return None if state is None else state.view(seat)

    @property
    def game_points(self) -> tuple[int, ...] | None:
        """The deal's game points per seat once it is over (else None)."""
        state = self._deal.state
        return None if state is None or state.outcome is None else state.outcome.game_points

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        state = self._deal.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.to_act

    def _legal_actions(self, player: int) -> list[int]:
        state = self._deal.state
        assert state is not None and player == state.to_act
        return list(state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deal = self._deal
        if deal.dealer < 0:
            n = deal.variant.seats
            return [(s, 1.0 / n) for s in range(n)]
        dealt = 0
        for c in deal.order:
            dealt |= 1 << c
        left = list(iter_mask(deal.variant.rules.deck & ~dealt))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        self._deal.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._deal.dealer < 0:
                return f"dealer {action}"
            return f"deal {CARD_NAMES[action]}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        state = self._deal.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        points = self.game_points
        if points is None:
            return [0.0] * self._deal.variant.seats
        return list(deal_returns(points))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SixtySixState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly among them by the
        project's :class:`~sixtysix.bots.inference.sampling.Sampler` from that seat's view alone.

        ``probability_sampler()`` (a float in [0, 1), as ``pyspiel.UniformProbabilitySampler``
        gives) seeds the draw, so the same sampler gives the same states. The new state has
        the chance history that deals its cards and the same public actions.
        """
        stream = Seed(int(probability_sampler() * (1 << 53))).stream(("openspiel", "resample"))
        deal = self._deal
        game: SixtySixGame = self.get_game()
        if deal.state is None:
            # While dealing nobody has seen a card: any cards dealt so far will do.
            deck = list(iter_mask(deal.variant.rules.deck))
            order = [deck.pop(stream.below(len(deck))) for _ in deal.order]
            return game._replayed(deal.head() + order)
        sampler = deal.samplers.get(player_id)
        if sampler is None:
            view = deal.state.view(player_id)
            sampler = deal.samplers[player_id] = Sampler(view, deal.variant)
        return game.state_of_deal(sampler.sample(stream))

    def __str__(self) -> str:
        deal = self._deal
        state = deal.state
        if state is None:
            dealer = "?" if deal.dealer < 0 else str(deal.dealer)
            return f"dealer {dealer}; dealt {format_cards(deal.order)}"
        hands = " | ".join(format_cards(iter_mask(h)) for h in state.hands)
        turnup = "-" if state.turnup < 0 else CARD_NAMES[state.turnup]
        trump = "-" if state.trump < 0 else "CDHS"[state.trump]
        moves = ", ".join(f"{s} {ACTION_NAMES[a]}" for s, a in state.history)
        points = " ".join(str(state.valid_points(s)) for s in range(state.n))
        return (
            f"dealer {state.dealer}; hands {hands}; trump {trump}; turn-up {turnup};"
            f" talon {format_cards(state.talon)}; points {points}; moves: {moves}"
        )


#: What :meth:`SixtySixGame.make_py_observer` offers, in words for its error.
OFFERED = (
    "a seat's own observation or information state (public and one player's private"
    " information), the public observation or information state (private info NONE), or a"
    " seat's private observation (public_info=False, perfect_recall=False: its hand)"
)


def make_observer(
    game: SixtySixGame, iig_obs_type: Any, params: Mapping[str, object] | None
) -> _Observer:
    """The observer of an OpenSpiel observation type (None: a seat's own observation)."""
    if params:
        raise ValueError(f"observation parameters are not supported; passed {dict(params)}")
    if iig_obs_type is None:
        iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
    recall = bool(iig_obs_type.perfect_recall)
    private = iig_obs_type.private_info
    if iig_obs_type.public_info:
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return Observer(game.encoder, recall)
        if private == pyspiel.PrivateInfoType.NONE:
            return Observer(public_encoder(game.variant), recall, "public_")
    elif private == pyspiel.PrivateInfoType.SINGLE_PLAYER and not recall:
        return PrivateObserver(game)
    raise ValueError(f"this observation type is not offered; offered are {OFFERED}")


class _Observer:
    """OpenSpiel's Python observer interface: a tensor filled in place, named by field."""

    def __init__(self, fields: tuple[Field, ...], size: int, whole: str) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {whole: self.tensor}
        offsets = [f.offset for f in fields]
        ends = [f.offset + f.size for f in fields]
        if fields and offsets[0] == 0 and ends[-1] == size and offsets[1:] == ends[:-1]:
            self.dict = {f.name: self.tensor[f.offset : f.offset + f.size] for f in fields}

    def set_from(self, state: SixtySixState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0)
            return
        out = self._vector(view)
        if out is not self.tensor:
            self.tensor[:] = out

    def string_from(self, state: SixtySixState, player: int) -> str:
        view = state.view(player)
        if view is None:
            return self._dealing(state)
        return self._string(view)

    def _vector(self, view: View) -> np.ndarray:
        raise NotImplementedError

    def _string(self, view: View) -> str:
        raise NotImplementedError

    def _dealing(self, state: SixtySixState) -> str:
        return f"dealing: {len(state._deal.order)} cards dealt"


class Observer(_Observer):
    """A seat's view through an encoder: its own (:class:`~sixtysix.envs.observation.Encoder`)
    or the public part of it (:class:`~sixtysix.envs.public.PublicEncoder`, the same whichever
    player is asked); the information state (perfect recall: the whole public history) or the
    observation (the table now)."""

    def __init__(self, enc: Encoder | PublicEncoder, recall: bool, prefix: str = "") -> None:
        self._encoder = enc
        self._recall = recall
        if recall:
            super().__init__(enc.info_fields, enc.info_size, prefix + "info_state")
        else:
            super().__init__(enc.obs_fields, enc.obs_size, prefix + "observation")

    def _vector(self, view: View) -> np.ndarray:
        enc = self._encoder
        if self._recall:
            return enc.info_state(view, self.tensor)
        return enc.observation(view, self.tensor)

    def _string(self, view: View) -> str:
        enc = self._encoder
        return enc.info_string(view) if self._recall else enc.obs_string(view)


class PrivateObserver(_Observer):
    """What only the seat knows: its cards."""

    def __init__(self, game: SixtySixGame) -> None:
        hand = Field("hand", 0, NUM_CARDS, "my cards, by card id")
        super().__init__((hand,), NUM_CARDS, "private_observation")

    def _vector(self, view: View) -> np.ndarray:
        return private_tensor(view, self.tensor)

    def _string(self, view: View) -> str:
        return private_string(view)

    def _dealing(self, state: SixtySixState) -> str:
        return "hand -"  # nobody has seen a card yet
