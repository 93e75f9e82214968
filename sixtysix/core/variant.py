"""The base class every variant plugin subclasses.

A variant is class metadata (name, aliases, seats, deck, options, presets) plus a few rule
parts it may override: :meth:`make_rules` turns options into engine knobs,
:meth:`make_match_format` says how a match ends, :meth:`deal` shuffles and deals, :meth:`settle`
scores a finished deal, :meth:`match_winners` ends a match. The engine
(:class:`~sixtysix.core.state.DealState`) does the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Self

from sixtysix.core.cards import iter_mask
from sixtysix.core.deal import DealSetup, deal_from_order
from sixtysix.core.errors import OptionError
from sixtysix.core.options import Options
from sixtysix.core.outcome import DealEnd, Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.rules import MatchFormat, Rules
from sixtysix.core.state import DealState
from sixtysix.core.view import View

#: The option whose value is the match's target when a variant keeps the default
#: :meth:`Variant.make_match_format` (the family's options and most plugins declare it).
TARGET_OPTION = "target"


class Variant:
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    seats: ClassVar[int]
    description: ClassVar[str] = ""
    options_class: ClassVar[type[Options]]
    #: Named option sets: preset name -> {option: value}.
    presets: ClassVar[Mapping[str, Mapping[str, object]]] = {}
    #: Set by the plugin manager: the plugin that registered this variant.
    plugin: ClassVar[str] = ""
    #: The most game points one seat scores in a deal (the bound of a learning environment's
    #: rewards). None: the bound of the family's scoring for the seats (3, or 6 with four
    #: seats, where a soloist scores double); a variant that scores more states it.
    max_deal_game_points: ClassVar[int | None] = None

    def __init__(self, options: Options | None = None) -> None:
        opts = options if options is not None else self.options_class()
        if not isinstance(opts, self.options_class):
            raise OptionError(f"{self.name} takes {self.options_class.__name__}")
        self.options = opts
        self.rules: Rules = self.make_rules(opts)
        self.match_format: MatchFormat = self.make_match_format(opts)

    @classmethod
    def configure(
        cls, preset: str | None = None, overrides: Mapping[str, object] | None = None
    ) -> Self:
        """The variant with a preset (if any) and then the given options applied."""
        values: dict[str, object] = {}
        if preset is not None:
            key = preset.strip().lower()
            if key not in cls.presets:
                names = ", ".join(sorted(cls.presets)) or "none"
                raise OptionError(f"unknown preset {preset!r} for {cls.name}; presets: {names}")
            values.update(cls.presets[key])
        values.update(overrides or {})
        return cls(cls.options_class.build(values))

    def make_rules(self, options: Options) -> Rules:
        raise NotImplementedError

    def make_match_format(self, options: Options) -> MatchFormat:
        """How a match ends: by default, once a total reaches the :data:`TARGET_OPTION` for
        options that declare it (an integer option), else :class:`MatchFormat`'s own default
        target. A variant with another format states it by overriding this."""
        for spec in options.specs():
            if spec.name == TARGET_OPTION and spec.kind == "int":
                return MatchFormat(getattr(options, spec.name))
        return MatchFormat()

    @property
    def target(self) -> int:
        """Game points that end a match (:attr:`match_format`'s; unused by a match of a fixed
        number of deals)."""
        return self.match_format.target

    # ----------------------------------------------------------------- dealing

    def first_dealer(self, seed: Seed, path: tuple[int | str, ...] = ()) -> int:
        return seed.words((*path, "first-dealer"), 1)[0] % self.seats

    def next_dealer(self, dealer: int) -> int:
        """The dealer moves one seat on after every deal."""
        return (dealer + 1) % self.seats

    def deal(self, seed: Seed, path: tuple[int | str, ...], dealer: int) -> DealSetup:
        order = seed.shuffled(list(iter_mask(self.rules.deck)), (*path, "shuffle"))
        return deal_from_order(self.rules, order, dealer)

    def new_deal(self, setup: DealSetup) -> DealState:
        return DealState(self, setup)

    # ----------------------------------------------------------------- scoring

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        """Score a finished deal. Every variant defines its own scoring."""
        raise NotImplementedError

    def conceded_points(self, view: View) -> tuple[int, ...] | None:
        """The game points each seat scores if ``view``'s seat concedes now, as :meth:`settle`
        would score it (what a screen says the concession costs); None where the variant
        says nothing of it before the deal ends."""
        return None

    def match_winners(self, totals: Sequence[int], deals: int | None = None) -> list[int]:
        """Seats that won the match after ``deals`` finished deals with these totals (else
        empty), by :attr:`match_format` (``deals`` is needed only by a fixed number of deals)."""
        return self.match_format.winners(totals, deals)

    # ----------------------------------------------------------------- documentation

    def summary(self) -> str:
        """A short rules summary for ``sixtysix rules`` (the class docstring by default)."""
        return (self.__class__.__doc__ or self.description).strip()

    def options_json(self) -> list[dict[str, object]]:
        return [
            {
                "name": s.name,
                "type": s.kind,
                "default": s.default,
                "value": getattr(self.options, s.name),
                "choices": list(s.choices) if s.choices else None,
                "doc": s.doc,
            }
            for s in self.options_class.specs()
        ]
