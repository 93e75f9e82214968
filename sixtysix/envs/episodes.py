"""The deals of an environment's episodes, and what they pay: shared by the PettingZoo and the
Gymnasium adapters, so both deal, score and end a match exactly alike.

An episode is one deal (``episode="deal"``) or one whole match (``episode="match"``). Episode
``k`` after ``reset(seed=s)`` deals from ``Seed(s)`` on the path :func:`episode_path` ``(k)``
exactly as :func:`sixtysix.core.match.play_match` does: episode 0 on the empty path, so its
cards are those of ``sixtysix play VARIANT --seed s`` (its first deal, or its whole match).

The views of a match episode carry the match's public state (``View.match``, which an
encoder made with ``match=True`` encodes); those of a deal episode, a deal played alone, carry
none.

Rewards are in game points at the end of a deal (:func:`deal_rewards`), or the match's result at
its end (:func:`match_rewards`: +1 to a sole winner, the others sharing -1); nothing is paid
before. Both sum to zero in every variant.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sixtysix.core.errors import OptionError, shown
from sixtysix.core.match_state import MatchState
from sixtysix.core.outcome import Outcome
from sixtysix.core.rng import PathPart, Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.plugins.manager import get_registry, variant_from

#: The two kinds of episode.
EPISODES = ("deal", "match")


def make_variant(
    variant: str | Variant, preset: str | None, options: Mapping[str, object]
) -> Variant:
    """The variant an adapter plays: a name or alias of an installed variant (with a preset
    and options), or a configured :class:`Variant` as it is."""
    if isinstance(variant, Variant):
        if preset is not None or options:
            raise OptionError("a configured variant takes no preset or options")
        return variant
    if not isinstance(variant, str):
        raise OptionError(f"a variant is a name or a Variant, not {shown(variant)}")
    return variant_from(get_registry(), variant, options, preset)


def check_episode(episode: str) -> bool:
    """Whether ``episode`` is a whole match (else one deal); a one-line error if neither."""
    if episode not in EPISODES:
        raise OptionError(f"episode must be one of {', '.join(EPISODES)}, not {shown(episode)}")
    return episode == "match"


def episode_path(number: int) -> tuple[PathPart, ...]:
    """The seed path of episode ``number`` (the first one's is empty: ``play --seed``'s)."""
    return () if number == 0 else ("episode", number)


def deal_rewards(game_points: Sequence[int]) -> tuple[float, ...]:
    """Each seat's reward for a deal: its game points minus the mean of the other seats'.

    Two seats: own minus the opponent's (``+3``/``-3`` at most). With more seats the rewards
    still sum to zero, and the seats of one side (who score alike) get the same reward: in
    four-player 66 a partnership that scores 2 each gets ``2 - 2/3`` each and the losers
    ``-4/3``; a soloist who scores 4 gets ``+4`` and each opponent ``-4/3``.
    """
    n = len(game_points)
    total = sum(game_points)
    return tuple(float(g - (total - g) / (n - 1)) for g in game_points)


def match_rewards(winners: Sequence[int], seats: int) -> tuple[float, ...]:
    """The match's result by the deal's formula, a win counted 1: each seat's win minus the
    mean of the other seats' wins, so the rewards sum to zero in every variant.

    A sole winner gets +1 and the others share -1 (two seats: +1/-1; three: +1, -1/2, -1/2;
    four: +1 and -1/3 each); seats that share the win split it (two of four: +2/3 each, the
    others -2/3); a win shared by every seat pays 0.
    """
    return deal_rewards([int(s in winners) for s in range(seats)])


@dataclass(frozen=True, slots=True)
class DealEnded:
    """A finished deal of an episode, with the match's totals after it."""

    #: The deal's number in its episode (0 for the first).
    number: int
    outcome: Outcome
    totals: tuple[int, ...]
    #: The match's winners (empty while it goes on, and in deal episodes).
    winners: tuple[int, ...]
    #: Whether the episode is over (always, in deal episodes).
    over: bool
    rewards: tuple[float, ...]

    def info(self) -> dict[str, object]:
        """What every seat may be told of it (all public: the outcome, the totals)."""
        out: dict[str, object] = {
            "deal": self.number,
            "outcome": self.outcome.as_json(),
            "totals": list(self.totals),
        }
        if self.winners:
            out["winners"] = list(self.winners)
        return out


class Episodes:
    """The running episode of an environment: its seed, and the match it steps
    (:class:`~sixtysix.core.match_state.MatchState`: deals, dealer, totals, winners)."""

    __slots__ = ("episode", "game", "match", "seed", "state", "variant")

    def __init__(self, variant: Variant, match: bool) -> None:
        self.variant = variant
        #: Whether an episode is a whole match (else one deal).
        self.match = match
        self.seed: Seed | None = None
        self.episode = -1
        self.game: MatchState | None = None
        #: The deal being played, or the one the episode ended with (read at every step).
        self.state: DealState | None = None

    @property
    def path(self) -> tuple[PathPart, ...]:
        return self.game.path if self.game is not None else ()

    @property
    def number(self) -> int:
        """The number of the deal being played (or that ended the episode) in its episode."""
        return self.game.dealt - 1 if self.game is not None else 0

    @property
    def totals(self) -> list[int]:
        """The match's totals after the deals settled so far."""
        return self.game.totals if self.game is not None else [0] * self.variant.seats

    def reset(self, seed: int | None) -> DealState:
        """Start the next episode: with a seed, episode 0 of that seed; without, the episode
        after the last one (of a secure random seed if none was ever given)."""
        if seed is not None:
            self.seed = Seed(int(seed))
            self.episode = 0
        elif self.seed is None:
            self.seed = Seed()
            self.episode = 0
        else:
            self.episode += 1
        self.game = MatchState(self.variant, self.seed, episode_path(self.episode))
        self.state = state = self.game.next_deal()
        if not self.match:
            state.match = None  # a deal episode is a deal played alone: no match to know of
        return state

    def deal_over(self) -> DealEnded:
        """Score the deal that just ended; in a match not yet won, deal the next one."""
        game = self.game
        assert game is not None
        outcome = game.settle()
        number = game.completed - 1
        totals = tuple(game.totals)
        n = self.variant.seats
        if not self.match:
            return DealEnded(number, outcome, totals, (), True, deal_rewards(outcome.game_points))
        winners = tuple(game.winners)
        if winners:
            return DealEnded(number, outcome, totals, winners, True, match_rewards(winners, n))
        self.state = game.next_deal()
        return DealEnded(number, outcome, totals, (), False, (0.0,) * n)


def render_text(view: View, episodes: Episodes, players: Sequence[str]) -> str:
    """The table as ``view``'s seat sees it, as plain text, through the play command's own
    renderer (nothing from another seat's cards can reach it: it draws from the view alone)."""
    from rich.console import Console  # start-up

    from sixtysix.service.facts import TableInfo, points_shown  # start-up
    from sixtysix.text.render import render_view  # start-up

    variant = episodes.variant
    info = TableInfo(
        variant=variant.name,
        deal_number=episodes.number + 1,
        totals=tuple(episodes.totals),
        target=variant.target,
        players=tuple(players),
        show_points=points_shown(variant),
        rated=False,
        deals=variant.match_format.deals,
    )
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(render_view(view, info, Translator()))
    return console.export_text()
