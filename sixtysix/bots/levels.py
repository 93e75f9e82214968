"""Difficulty levels for people: ``easy``, ``medium``, ``hard``, ``expert``.

A level is a bot *name* and its parameters (the budget included), resolved through the plugin
registry the caller hands in, never imported directly: the search players come from their own
plugin modules, and a level works as soon as its bot is installed. Each level is meant to be
measurably stronger than the one below; ``benchmarks/strength/strength.py`` measures exactly
that with duels, and the figures live in ``docs/benchmarks.md``.

On the command line a level is written ``@name`` wherever a bot is expected
(``sixtysix duel 66 @hard @medium``), optionally with extra parameters (``@hard:seed=3``).

A level may play differently at tables of three or more seats (:attr:`Level.crowded`): there
the search gains little over the rule player, so the levels below ``expert`` spread beneath
the rule player instead of above it, and every step stays one a person can feel.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sixtysix.bots.base import Bot, parse_bot_spec
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.rng import Seed
from sixtysix.plugins.manager import Registry

#: The prefix that marks a level where a bot spec is expected.
LEVEL_PREFIX = "@"

#: Tables of at least this many seats play a level's :attr:`Level.crowded` form.
CROWDED_SEATS = 3


@dataclass(frozen=True)
class Level:
    name: str
    #: The registered bot that plays this level.
    bot: str
    #: Its parameters, including the per-move budget.
    params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: The budget in words, for people.
    budget: str = ""
    description: str = ""
    #: The level at tables of :data:`CROWDED_SEATS` or more, where it plays another way.
    crowded: Level | None = None

    def at(self, seats: int) -> Level:
        """This level as played at a table of ``seats``."""
        if self.crowded is not None and seats >= CROWDED_SEATS:
            return self.crowded
        return self

    @property
    def spec(self) -> str:
        """The level as a bot spec: ``pimc:samples=12``."""
        if not self.params:
            return self.bot
        return self.bot + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())

    def bot_class(self, registry: Registry) -> type[Bot]:
        """This level's bot class among ``registry``'s bots (the caller's registry)."""
        if self.bot.lower() not in registry.bots:
            raise UnknownBotError(
                f"level {self.name!r} is played by the bot {self.bot!r}, which is not installed"
            )
        return registry.bot(self.bot)

    def make(
        self,
        seat: int,
        seed: Seed,
        registry: Registry,
        extra: Mapping[str, str] | None = None,
        *,
        seats: int,
    ) -> Bot:
        """This level's bot for ``seat`` at a table of ``seats``; ``extra`` parameters
        override the level's."""
        form = self.at(seats)
        return form.bot_class(registry)(seat, seed, {**form.params, **(extra or {})})


def _crowded(
    name: str, bot: str, params: Mapping[str, str], budget: str, description: str
) -> Level:
    return Level(name, bot, MappingProxyType(dict(params)), budget, description)


LEVELS: Mapping[str, Level] = MappingProxyType(
    {
        level.name: level
        for level in (
            Level(
                "easy",
                "heuristic",
                MappingProxyType({"noise": "0.5"}),
                budget="instant",
                description="the rule-based player, who plays a random card half the time",
            ),
            Level(
                "medium",
                "heuristic",
                budget="instant",
                description="the rule-based player: sound leads, trumps, marriages, closing",
                crowded=_crowded(
                    "medium",
                    "heuristic",
                    {"noise": "0.2"},
                    "instant",
                    "the rule-based player, who plays a random card one time in five",
                ),
            ),
            Level(
                "hard",
                "expert",
                MappingProxyType({"samples": "8", "margin": "0", "open": "search"}),
                budget="8 sampled deals per move, searched, no second opinion",
                description="search over a few deals consistent with what it has seen",
                crowded=_crowded(
                    "hard",
                    "heuristic",
                    {},
                    "instant",
                    "the rule-based player: sound calls, leads, trumps, marriages",
                ),
            ),
            Level(
                "expert",
                "expert",
                budget="the expert's default budget",
                description="the strongest player: exact play whenever its information is complete",
            ),
        )
    }
)


def level(name: str) -> Level:
    """The level called ``name`` (case-insensitive), or a one-line error listing them."""
    key = name.strip().lower().removeprefix(LEVEL_PREFIX)
    found = LEVELS.get(key)
    if found is None:
        names = ", ".join(LEVEL_PREFIX + n for n in LEVELS)
        raise UnknownBotError(f"unknown level {name!r}; levels: {names}")
    return found


def resolve_player(
    spec: str, registry: Registry, *, seats: int
) -> tuple[str, type[Bot], dict[str, str]]:
    """A bot spec (``expert:samples=64``) or a level (``@hard``, ``@hard:seed=3``) as
    ``(label, bot class, parameters)`` among the caller's ``registry``, for a table of
    ``seats``; unknown names and parameters raise one-line errors."""
    text = spec.strip()
    if text.startswith(LEVEL_PREFIX):
        name, extra = parse_bot_spec(text[len(LEVEL_PREFIX) :])
        named = level(LEVEL_PREFIX + name)
        lvl = named.at(seats)
        params = {**lvl.params, **extra}
        cls = lvl.bot_class(registry)
        label = LEVEL_PREFIX + named.name + ("" if not extra else ":" + _params(extra))
        if lvl is not named:
            try:
                cls(0, Seed(0), params)
            except UnknownBotError as err:
                raise UnknownBotError(
                    f"at a table of {seats} seats {LEVEL_PREFIX}{named.name} is {lvl.spec}: {err}"
                ) from None
    else:
        name, params = parse_bot_spec(text)
        cls = registry.bot(name)
        label = name + ("" if not params else ":" + _params(params))
    cls(0, Seed(0), params)  # unknown or bad parameters fail here, before any play
    return label, cls, params


def _params(params: Mapping[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items())
