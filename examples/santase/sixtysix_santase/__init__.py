"""Bulgarian Santase (Сантасе) as a third-party sixtysix plugin.

Santase is the Bulgarian two-player 66. It is built here on sixtysix's two-player 66
(:class:`sixtysix.variants.sixtysix.SixtySix`) and changes only what the Bulgarian rules
change; README.md lists every difference with its source. The plugin uses nothing but the
public extension points a third party has: an options dataclass that re-declares defaults,
``make_rules`` for the engine knobs, a :class:`~sixtysix.core.state.DealState` subclass for
the two legality rules the knobs do not cover, and ``settle`` for the scoring differences.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from sixtysix.core.actions import CLAIM, CLOSE, MARRY
from sixtysix.core.deal import DealSetup
from sixtysix.core.options import Options, option
from sixtysix.core.outcome import DealEnd, EndKind, Outcome, Reason
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins import hookimpl
from sixtysix.variants.sixtysix import SixtySix, SixtySixOptions

__version__ = "0.1.0"


@dataclass(frozen=True)
class SantaseOptions(SixtySixOptions):
    """Every option of two-player 66, with Santase's defaults, plus three of its own."""

    variant_name: ClassVar[str] = "santase"

    claim: str = option(
        "manual",
        "manual: the seat on lead goes out by claiming 66 (a false claim gives the opponent 2);"
        " auto: the deal ends the moment a seat has 66",
        choices=("auto", "manual"),
    )
    target: int = option(11, "game points that end a match (Santase plays to 11)")
    failed_close: str = option(
        "2or3",
        "a failed close gives the opponent 3 if he had no trick when the talon was closed,"
        " else 2 (2or3); or always 2 (flat2)",
        choices=("flat2", "2or3"),
    )
    tie: str = option(
        "draw",
        "nobody at 66 when the cards run out (65-65): a draw, or the last trick's winner scores 1",
        choices=("last_trick_wins", "draw"),
    )
    close_needs_trick: bool = option(
        True, "closing needs a trick won first: nobody closes before a card is played"
    )
    marriage_needs_trick: bool = option(
        True, "a marriage (and going out) needs a trick won first: nothing on the first lead"
    )
    close_min_talon: int = option(
        4,
        "closing needs at least this talon size, the turn-up counted"
        " (4: not with only two cards left; 1 allows it at any size, as in 66)",
    )


class SantaseDeal(DealState):
    """The engine's deal with Santase's two extra legality rules.

    ``legal_actions`` removes what Santase forbids from what the generic engine offers, and
    ``explain`` names the Santase rule when such an action is tried. Both stay exact for
    ``apply``, replay and views, which all ask ``legal_actions``.
    """

    __slots__ = ()

    def _options(self) -> SantaseOptions:
        options = self.variant.options
        assert isinstance(options, SantaseOptions)
        return options

    def _forbidden(self, action: int) -> str:
        """Why Santase forbids an action the generic engine allows ("" if it does not)."""
        seat = self.to_act
        o = self._options()
        if MARRY <= action < MARRY + 4 and o.marriage_needs_trick and not self.tricks[seat]:
            return "a marriage needs a trick won first (none on the first lead in Santase)"
        if action == CLAIM and o.marriage_needs_trick and not self.tricks[seat]:
            return "going out needs a trick won first"
        if action == CLOSE and self.talon_size < o.close_min_talon:
            return (
                f"closing needs a talon of at least {o.close_min_talon} cards"
                f" (it holds {self.talon_size})"
            )
        return ""

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = [a for a in super().legal_actions() if not self._forbidden(a)]
            self._legal = legal
        return legal

    def explain(self, a: int) -> str:
        if a in self.legal_actions():
            return ""
        if not self.is_over and a in self._generate():
            return self._forbidden(a)
        return super().explain(a)


class Santase(SixtySix):
    """Bulgarian Santase: two-player 66 with 24 cards (9 to ace), 6 each, dealt 3, the trump
    turned up, then 3. Free play while the talon is open, follow suit and head the trick
    (else trump) once it is closed or exhausted. Marriages 20/40 and the trump-9 exchange
    only after winning a trick; closing after a trick, with more than two cards in the talon.
    Players go out by claiming 66 (a false claim gives the opponent 2). If the cards run out,
    the last trick earns 10 and the higher total wins 1, 2 or 3 (a tie is a draw). A failed
    close gives the opponent 2, or 3 if he had no trick when the talon was closed. A match
    is played to 11."""

    name = "santase"
    aliases = ()
    description = "Bulgarian Santase (Сантасе): 66 to 11, marriages after a trick"
    options_class = SantaseOptions
    presets: ClassVar[dict[str, dict[str, object]]] = {
        "standard": {},
        "auto": {"claim": "auto"},
    }

    def make_rules(self, options: Options) -> Rules:
        assert isinstance(options, SantaseOptions)
        rules = super().make_rules(options)
        if options.talonless:
            return rules
        # Santase turns the trump up between the two rounds of three cards.
        return dataclasses.replace(rules, turnup_after_round=0)

    def new_deal(self, setup: DealSetup) -> DealState:
        return SantaseDeal(self, setup)

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        outcome = super().settle(state, end)
        closer = state.closed_by
        if end.kind == EndKind.REACHED and closer >= 0 and end.seat != closer:
            # The closer's opponent went out first: a flat 2, whatever his tricks at the close.
            gp = [0, 0]
            gp[end.seat] = 2
            return dataclasses.replace(outcome, game_points=tuple(gp))
        if end.kind == EndKind.CARDS_OUT and closer < 0 and state.rules.manual_claim:
            # Nobody went out: the higher total (last trick included) wins on the usual scale.
            points = outcome.points
            if points[0] == points[1]:
                return Outcome(Reason.DRAW, (0, 0), points, outcome.tricks)
            winner = 0 if points[0] > points[1] else 1
            gp = [0, 0]
            gp[winner] = self._scale(state, 1 - winner, points)
            return Outcome(Reason.PLAYED_OUT, tuple(gp), points, outcome.tricks)
        return outcome


@hookimpl
def register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(Santase)
