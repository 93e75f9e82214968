"""The conformance kit fails on broken variants and bots, each with a message that says why.

A kit that passes everything would be worse than none: each test here breaks one contract on
purpose, on top of a correct built-in, and expects that contract's check to catch it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from sixtysix.bots.base import Bot
from sixtysix.core.actions import Action
from sixtysix.core.deal import DealSetup
from sixtysix.core.options import Options, option
from sixtysix.core.outcome import DealEnd, Outcome
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.view import View, make_view
from sixtysix.testing import BotKit, ConformanceError, ConformanceKit
from sixtysix.testing import variant_checks as vc
from sixtysix.testing.bot_checks import check_bot_reproducible
from sixtysix.variants.sixtysix import SixtySix, SixtySixOptions


@dataclass(frozen=True)
class HouseOptions(SixtySixOptions):
    variant_name: ClassVar[str] = "house"


class House(SixtySix):
    """A correct house variant: 66 under another name."""

    name = "house"
    aliases = ()
    description = "66 under another name"
    options_class = HouseOptions


def run(cls: type[House], check: str) -> None:
    kit = ConformanceKit(cls, [{}], deals=6)
    for c in kit.checks():
        if c.name.startswith(check + "["):
            c()
            return
    raise AssertionError(f"no check {check}")


def test_the_correct_house_variant_passes() -> None:
    ConformanceKit(House, deals=4).run()


def test_kit_run_lists_every_failure() -> None:
    class Unnamed(House):
        """66."""

        description = ""

    with pytest.raises(ConformanceError, match=r"1 conformance check\(s\) failed") as info:
        ConformanceKit(Unnamed, [{}], deals=2).run()
    assert "metadata[house]" in str(info.value) and "description" in str(info.value)


def test_options_class_must_name_the_variant() -> None:
    class Misnamed(House):
        """66."""

        options_class = SixtySixOptions

    with pytest.raises(ConformanceError, match="variant_name is 'sixtysix'"):
        vc.check_metadata(Misnamed)


def test_aliases_must_not_repeat_the_name() -> None:
    class Echo(House):
        """66."""

        aliases = ("house",)

    with pytest.raises(ConformanceError, match="repeat"):
        vc.check_metadata(Echo)


def test_undocumented_option_is_caught() -> None:
    @dataclass(frozen=True)
    class Opts(HouseOptions):
        jokers: bool = option(False, "")

    class Jokers(House):
        """66."""

        options_class = Opts

    with pytest.raises(ConformanceError, match="'jokers' has no one-line doc"):
        vc.check_metadata(Jokers)


def test_option_that_breaks_make_rules_is_caught() -> None:
    @dataclass(frozen=True)
    class Opts(HouseOptions):
        fast: bool = option(False, "a switch make_rules cannot handle")

    class Fragile(House):
        """66."""

        options_class = Opts

        def make_rules(self, options: Options) -> Rules:
            assert isinstance(options, Opts)
            if options.fast:
                raise ValueError("fast is not implemented")
            return super().make_rules(options)

    with pytest.raises(ValueError, match="fast is not implemented"):
        vc.check_options(Fragile)


def test_deal_that_ignores_the_seed_is_caught() -> None:
    class Stacked(House):
        """66."""

        def deal(self, seed: Seed, path: tuple[int | str, ...], dealer: int) -> DealSetup:
            return super().deal(Seed(1), ("fixed",), dealer)

    with pytest.raises(ConformanceError, match="ignores the seed"):
        run(Stacked, "deal")


def test_deal_with_a_card_twice_is_caught() -> None:
    class Doubled(House):
        """66."""

        def deal(self, seed: Seed, path: tuple[int | str, ...], dealer: int) -> DealSetup:
            s = super().deal(seed, path, dealer)
            hands = (s.hands[0], (s.hands[0][0], *s.hands[1][1:]))
            return DealSetup(s.dealer, hands, s.trump_card, s.talon)

    with pytest.raises(ConformanceError, match="dealt twice"):
        run(Doubled, "deal")


def test_outcome_that_misreports_tricks_is_caught() -> None:
    class Miscount(House):
        """66."""

        def settle(self, state: DealState, end: DealEnd) -> Outcome:
            out = super().settle(state, end)
            return dataclasses.replace(out, tricks=(0,) * state.n)

    with pytest.raises(ConformanceError, match=r"outcome\.tricks"):
        run(Miscount, "random_play")


class _ForgetfulDeal(DealState):
    __slots__ = ()

    def copy(self) -> DealState:
        twin = super().copy()
        twin.hands = self.hands  # shared: play on the copy changes the original
        return twin


def test_copy_sharing_hands_is_caught() -> None:
    class Shared(House):
        """66."""

        def new_deal(self, setup: DealSetup) -> DealState:
            return _ForgetfulDeal(self, setup)

    with pytest.raises(ConformanceError, match="changed the original"):
        run(Shared, "copy")


class _LeakyDeal(DealState):
    """Shows the opponent's whole hand as "known" in every view."""

    __slots__ = ()

    def view(self, seat: int) -> View:
        view = make_view(self, seat)
        from sixtysix.core.cards import cards_of

        known = tuple(frozenset(cards_of(h)) for h in self.hands)
        return dataclasses.replace(view, known=known)


def test_view_that_leaks_a_hand_is_caught() -> None:
    class Leaky(House):
        """66."""

        def new_deal(self, setup: DealSetup) -> DealState:
            return _LeakyDeal(self, setup)

    with pytest.raises(ConformanceError, match="sees hidden cards"):
        run(Leaky, "views")


class _LyingDeal(DealState):
    """Offers ``close`` in its legal actions but the engine's apply refuses it."""

    __slots__ = ()

    def legal_actions(self) -> list[int]:
        from sixtysix.core.actions import CLOSE

        legal = super().legal_actions()
        if self.trick or CLOSE in legal or self.is_over or self.lead_marry >= 0:
            return legal
        return [*legal, CLOSE] if self.turnup < 0 else legal

    def apply(self, action: int) -> None:
        from sixtysix.core.actions import CLOSE
        from sixtysix.core.errors import IllegalActionError

        if action == CLOSE and self.turnup < 0:
            raise IllegalActionError(self.to_act, "close", "the talon is gone")
        super().apply(action)


def test_legal_actions_that_apply_refuses_are_caught() -> None:
    class Liar(House):
        """66."""

        def new_deal(self, setup: DealSetup) -> DealState:
            return _LyingDeal(self, setup)

    with pytest.raises(ConformanceError, match="apply refused 'close'"):
        run(Liar, "legal_actions")


def test_record_that_does_not_replay_is_caught() -> None:
    class Renamed(House):
        """66."""

        def new_deal(self, setup: DealSetup) -> DealState:
            state = super().new_deal(setup)
            self.name = "elsewhere"  # records would name a variant nobody registered
            return state

    with pytest.raises(ConformanceError, match="does not replay"):
        run(Renamed, "records")


class _PickyBot(Bot):
    name = "picky"
    description = "always plays its first card, legal or not"

    def choose(self, view: View) -> Action:
        from sixtysix.core.actions import ACTIONS

        return ACTIONS[int(view.hand[0])] if view.hand else view.legal_actions[0]


class _MoodyBot(Bot):
    name = "moody"
    description = "random choices from an unseeded generator"
    parameters: ClassVar[Mapping[str, str]] = {}

    def choose(self, view: View) -> Action:
        import secrets

        return secrets.choice(view.legal_actions)


def test_bot_choosing_an_illegal_action_is_caught() -> None:
    with pytest.raises(ConformanceError, match="not a legal action"):
        BotKit(_PickyBot, deals=4).run()


def test_bot_without_seeded_randomness_is_caught() -> None:
    variant = SixtySix()
    with pytest.raises(ConformanceError, match="same seed gave different choices"):
        check_bot_reproducible(_MoodyBot, variant, Seed(3), deals=3)


def test_compiled_games_that_disagree_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from sixtysix.compiled import available
    from sixtysix.compiled.games import GP0
    from sixtysix.sim.random_games import RandomGames

    if not available():
        pytest.skip("needs numba")
    real = RandomGames.rows

    def one_point_more(self: RandomGames, master: Any, start: int, stop: int) -> Any:
        rows = real(self, master, start, stop)
        rows[len(rows) // 2, GP0] += 1
        return rows

    monkeypatch.setattr(RandomGames, "rows", one_point_more)
    with pytest.raises(ConformanceError, match="compiled rules"):
        run(House, "fast_simulation")


def test_compiled_rules_that_disagree_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from sixtysix.compiled import available, position
    from sixtysix.compiled.layout import K_GOAL

    if not available():
        pytest.skip("needs numba")
    real = position.knobs

    def wrong_goal(variant: Any) -> Any:
        k = real(variant)
        k[K_GOAL] -= 6
        return k

    monkeypatch.setattr(position, "knobs", wrong_goal)
    with pytest.raises(ConformanceError, match="compiled"):
        run(House, "compiled_play")
