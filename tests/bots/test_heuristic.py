"""The ``heuristic`` bot: its key decisions on hand-built positions, legality on any reachable
state of every variant (a third-party one included), reproducibility, and that it reads the
view alone."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix.bots.players.heuristic import DEFAULT_WEIGHTS, HeuristicBot, Weights, decide
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import FULL_DECK, POINTS, mask_of, parse_card
from sixtysix.core.errors import UnknownBotError
from sixtysix.core.options import Options, option
from sixtysix.core.outcome import DealEnd, EndKind, Outcome, Reason
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.plugins.manager import build_registry
from sixtysix.sim.duel import Contestant, duel
from sixtysix.testing import BotKit
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4
from tests.helpers import act, deal, position


def choice(state: DealState) -> str:
    """The heuristic's action for the seat to act, in notation."""
    return ACTION_NAMES[decide(state.view(state.to_act))]


# ---------------------------------------------------------------------- two players, open talon


def test_leads_a_low_non_trump_early() -> None:
    state = deal(SixtySix(), ["9C AD TD 9H JS QS", "JC QC KC JD QD KD"], trump_card="KH")
    action = choice(state)
    card = parse_card(action.split()[1])
    assert action.startswith("play") and card.suit != 2 and POINTS[card] <= 3, action


def test_takes_a_ten_with_the_ace() -> None:
    state = deal(SixtySix(), ["TH 9C JC QC KC 9D", "AH JD QD 9S QS KS"], trump_card="KD")
    act(state, "TH")
    assert choice(state) == "play AH"


def test_trumps_an_ace_with_a_low_trump() -> None:
    state = deal(SixtySix(), ["AC 9D JD QD KD 9S", "JH TD JS QS KS AS"], trump_card="KH")
    act(state, "AC")
    assert choice(state) == "play JH"


def test_does_not_spend_a_trump_on_a_nine() -> None:
    state = deal(SixtySix(), ["9C 9D JD QD KD 9S", "JH TD JS QS KS AS"], trump_card="KH")
    act(state, "9C")
    action = choice(state)
    assert action == "play JS", action  # the cheapest discard: no trump, no ten, no marriage


def test_keeps_marriage_cards_when_discarding() -> None:
    state = deal(SixtySix(), ["AC 9D JD QD KD 9S", "KH QH 9C JS QS KS"], trump_card="TD")
    act(state, "AC")
    assert choice(state) not in {"play KH", "play QH", "play KS", "play QS"}


def test_declares_the_trump_marriage_first_and_then_leads_from_it() -> None:
    state = deal(SixtySix(), ["KH QH KS QS 9C JC", "JD QD KD AD TD 9D"], trump_card="AS")
    assert choice(state) == "marry S"
    act(state, "marry S")
    assert choice(state) in {"play KS", "play QS"}


def test_exchanges_the_trump_jack_in_schnapsen() -> None:
    state = deal(Schnapsen(), ["JH TC JC KD QS", "AD TD KC QC AC"], trump_card="AH")
    assert choice(state) == "exchange"


def test_exchanges_the_trump_nine_in_66_once_it_has_a_trick() -> None:
    state = deal(SixtySix(), ["9H TC JC KD QS AC", "AD TD KC QC 9C JS"], trump_card="AH")
    act(state, "AC", "9C")
    assert "exchange" in [ACTION_NAMES[a] for a in state.legal_actions()]
    assert choice(state) == "exchange"


def test_closes_with_enough_points_and_sure_trumps() -> None:
    state = position(
        SixtySix(),
        ["AS TS KS QS AH 9C", "AD TD KC QC 9H JH"],
        trump="S",
        turnup="9S",
        talon="JC 9D JD QD",
        tricks=[3, 1],
        card_points=[40, 10],
    )
    assert choice(state) == "close"


def weak_hand() -> DealState:
    """40 points and one sure trump: the close would reach 54, not 66."""
    return position(
        SixtySix(),
        ["AS JS 9C JD QH 9H", "AD TD KC QC KS QS"],
        trump="S",
        turnup="TS",
        talon="JC 9D AC QD",
        tricks=[3, 1],
        card_points=[40, 10],
    )


def test_does_not_close_a_weak_hand() -> None:
    assert choice(weak_hand()) != "close"


def test_close_slack_closes_short_of_the_winning_total() -> None:
    """The weak hand reaches 54 (40 + the sure ace of trumps and a low card): twelve points of
    slack make it close, eleven do not; the weight reaches the bot as a parameter."""
    state = weak_hand()
    view = state.view(state.to_act)
    assert ACTION_NAMES[decide(view, Weights(close_slack=12))] == "close"
    assert ACTION_NAMES[decide(view, Weights(close_slack=11))] != "close"
    bot = HeuristicBot(state.to_act, Seed(1), {"close_slack": "12"})
    assert ACTION_NAMES[bot.choose(view)] == "close"


def test_default_weights_are_the_heuristics_own() -> None:
    assert HeuristicBot(0, Seed(1)).weights == Weights() == DEFAULT_WEIGHTS
    bot = HeuristicBot(0, Seed(1), {"deal_end": "50", "later_card": "3"})
    assert bot.weights == Weights(deal_end=50.0, later_card=3.0)
    assert set(Weights.fields()) <= set(HeuristicBot.parameters)


@pytest.mark.parametrize("value", ["lots", "nan", "inf", ""])
def test_a_weight_that_is_not_a_number_is_one_clear_error(value: str) -> None:
    with pytest.raises(UnknownBotError, match="heuristic weight deal_end must be a number"):
        HeuristicBot(0, Seed(1), {"deal_end": value})


# ---------------------------------------------------------------------- manual claims


def classic(**tallies: list[int]) -> DealState:
    return position(
        SixtySix.configure("classic"),
        ["AS KH QH 9C", "AD TD KC QC"],
        trump="S",
        tricks=tallies["tricks"],
        card_points=tallies["card_points"],
    )


def test_claims_exactly_at_66_valid_points() -> None:
    assert choice(classic(tricks=[4, 2], card_points=[66, 20])) == "claim"
    assert choice(classic(tricks=[4, 2], card_points=[65, 20])) != "claim"


def test_declares_a_marriage_and_then_claims_with_it() -> None:
    state = classic(tricks=[4, 2], card_points=[50, 20])
    assert choice(state) == "marry H"
    act(state, "marry H")
    assert choice(state) == "claim"


def test_a_pending_marriage_does_not_count_for_a_claim() -> None:
    state = classic(tricks=[0, 6], card_points=[0, 50])
    state.marriages[0] = [3]  # 40 in trumps, declared before any trick of its own
    state.marriage_points[0] = 40
    state._legal = None
    assert choice(state) != "claim"


# ---------------------------------------------------------------------- three and four players


def test_names_its_strongest_suit_as_trump() -> None:
    state = deal(
        SixtySix3(),
        ["AH TH KH 9S 9C JC QC 9D", "JH QH AS TS KS QS JS AC", "TC KC JD QD KD TD AD 9H"],
        dealer=2,
    )
    assert choice(state) == "trump H"


def test_asks_for_trump_from_below_when_weak() -> None:
    state = deal(
        SixtySix3(),
        ["9C JD 9S JH AH TH KH QH", "QS KS AS TS JS AC TC KC", "QC JC 9D QD KD TD AD 9H"],
        dealer=2,
    )
    assert choice(state) == "trump below"


def test_gives_points_to_a_partner_who_wins() -> None:
    state = deal(
        SixtySix3(),
        ["AH TH KH QH JH 9H AS TS", "9S JS QS KS AC TC KC AD", "QC JC 9C TD KD QD JD 9D"],
        dealer=2,
    )
    act(state, "trump S", "AH", "9S")  # the partner trumps the declarer's ace
    assert choice(state) == "play TD"


def test_gives_the_declarer_nothing() -> None:
    state = deal(
        SixtySix3(),
        ["AH TH KH QH JH AS TS 9S", "9H JS QS KS AC TC KC AD", "QC JC 9C TD KD QD JD 9D"],
        dealer=2,
    )
    act(state, "trump S", "AH", "9H")  # the declarer's ace wins
    assert choice(state) in {"play 9C", "play 9D"}


def test_concedes_only_a_hopeless_hand_before_the_first_card() -> None:
    hopeless = deal(
        SixtySix3(),
        ["9C JC QC 9D JD QD 9H JH", "AS TS KS QS JS 9S AC TC", "KC KD TD AD QH KH TH AH"],
        dealer=2,
    )
    act(hopeless, "trump S")
    assert choice(hopeless) == "concede"
    playable = deal(
        SixtySix3(),
        ["AS TS QC 9D JD QD 9H JH", "9C JC KS QS JS 9S AC TC", "KC KD TD AD QH KH TH AH"],
        dealer=2,
    )
    act(playable, "trump S")
    assert choice(playable) != "concede"


def test_calls_the_trump_ace_as_partner() -> None:
    state = deal(
        SixtySix4(),
        ["KS QS 9S JH AH 9C", "AS TS JS 9D JD QD", "TH KH QH 9H TC JC", "AC QC KC AD TD KD"],
        dealer=3,
    )
    act(state, "trump S")
    assert choice(state) == "partner AS"


def test_plays_solo_with_a_very_strong_hand() -> None:
    state = deal(
        SixtySix4(),
        ["AS TS KS QS AH 9C", "9S JS JH 9D JD QD", "TH KH QH 9H TC JC", "AC QC KC AD TD KD"],
        dealer=3,
    )
    act(state, "trump S")
    assert "partner AC" in [ACTION_NAMES[a] for a in state.legal_actions()]
    assert choice(state) == "solo"


# ---------------------------------------------------------------------- any variant, any state


@dataclass(frozen=True)
class FreeForAllOptions(Options):
    variant_name: ClassVar[str] = "free-for-all"

    target: int = option(5, "game points that end a match")


class FreeForAll(Variant):
    """A third-party-style variant: three seats each for itself, 8 cards each, trump from the
    dealer's last card, strict play; the first seat to 66 (else the most points) scores 1."""

    name = "free-for-all"
    seats = 3
    options_class = FreeForAllOptions

    def make_rules(self, options: Options) -> Rules:
        return Rules(
            seats=3,
            deck=FULL_DECK,
            deal_rounds=(4, 4),
            trump_from_dealer_last=True,
            strict_always=True,
        )

    def settle(self, state: DealState, end: DealEnd) -> Outcome:
        points = tuple(state.valid_points(s) for s in range(3))
        gp = [0, 0, 0]
        if end.kind == EndKind.REACHED:
            gp[end.seat] = 1
        elif points.count(max(points)) == 1:
            gp[points.index(max(points))] = 1
        return Outcome(Reason.REACHED_66, tuple(gp), points, tuple(state.tricks))


REGISTRY = build_registry()
CONFIGS: list[tuple[type[Variant], dict[str, object]]] = [
    (SixtySix, {}),
    (SixtySix, {"claim": "manual", "failed_close": "2or3", "tie": "draw"}),
    (SixtySix, {"talonless": True}),
    (SixtySix, {"marriages": False, "exchange_needs_trick": False}),
    (Schnapsen, {}),
    (Schnapsen, {"claim": "manual", "marriage_after_close": False}),
    (SixtySix3, {}),
    (SixtySix3, {"must_overtrump": True, "no66": "last_trick_wins"}),
    (SixtySix4, {}),
    (SixtySix4, {"trump_from_below": True, "solo_loss": "double"}),
    (FreeForAll, {}),
]


@given(
    st.sampled_from(CONFIGS),
    st.randoms(use_true_random=False),
    st.sampled_from(["0", "0.3"]),
)
def test_only_legal_actions_on_reachable_states(
    config: tuple[type[Variant], dict[str, object]], rnd: random.Random, noise: str
) -> None:
    """Seats mix random and heuristic play, so the heuristic meets states it would not make."""
    cls, options = config
    variant = cls.configure(None, options)
    seed = Seed(rnd.getrandbits(32))
    state = variant.new_deal(variant.deal(seed, ("h",), rnd.randrange(variant.seats)))
    bots = [HeuristicBot(s, seed, {"noise": noise}) for s in range(variant.seats)]
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        if rnd.random() < 0.3:
            action = rnd.choice(view.legal_actions)
        state.apply(action)


@pytest.mark.parametrize("check", BotKit(HeuristicBot).checks(), ids=str)
def test_bot_conformance(check: object) -> None:
    assert callable(check)
    check()


@pytest.mark.parametrize(
    "check", BotKit(HeuristicBot, params={"noise": "0.5"}, seed=7).checks(), ids=str
)
def test_bot_conformance_with_noise(check: object) -> None:
    assert callable(check)
    check()


def play(variant: Variant, seed: int, bot_seed: int, noise: str) -> list[tuple[int, int]]:
    state = variant.new_deal(variant.deal(Seed(seed), ("r",), 0))
    bots = [HeuristicBot(s, Seed(bot_seed), {"noise": noise}) for s in range(variant.seats)]
    while not state.is_over:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state.history


def test_same_seed_same_choices_and_noise_uses_the_seed() -> None:
    variant = SixtySix4()
    assert play(variant, 1, 5, "0.5") == play(variant, 1, 5, "0.5")
    assert any(play(variant, d, 5, "0.5") != play(variant, d, 6, "0.5") for d in range(5))
    # Without noise the seed plays no part: the choice is a function of the view.
    assert play(variant, 1, 5, "0") == play(variant, 1, 6, "0")


@pytest.mark.parametrize("noise", ["-0.1", "1.5", "lots"])
def test_bad_noise_is_one_clear_error(noise: str) -> None:
    with pytest.raises(UnknownBotError, match="noise must be a number from 0 to 1"):
        HeuristicBot(0, Seed(1), {"noise": noise})


def test_registered_as_a_plugin() -> None:
    assert REGISTRY.bot("heuristic") is HeuristicBot
    assert HeuristicBot.plugin == "sixtysix.bots.players.heuristic"


# ---------------------------------------------------------------------- the view alone


def test_choice_does_not_depend_on_cards_it_cannot_see() -> None:
    """Deal the cards the seat cannot see differently: same view, same choice."""
    rnd = random.Random(3)
    variant = SixtySix()
    for number in range(30):
        state = variant.new_deal(variant.deal(Seed(number), ("v",), number % 2))
        for _ in range(rnd.randrange(12)):
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))
        if state.is_over:
            continue
        seat = state.to_act
        view = state.view(seat)
        hidden = sorted(view.unseen())
        shuffled = hidden[:]
        rnd.shuffle(shuffled)
        swap = {int(h): int(c) for h, c in zip(hidden, shuffled, strict=True)}
        other = 1 - seat
        alt = state.copy()
        alt.hands[other] = mask_of(swap.get(c, c) for c in range(24) if state.hands[other] >> c & 1)
        alt.talon = [swap.get(c, c) for c in state.talon]
        alt._legal = None
        assert alt.view(seat) == view
        assert decide(alt.view(seat)) == decide(view)


# ---------------------------------------------------------------------- strength


def test_beats_random_clearly_in_two_player_games() -> None:
    """A small fixed-seed duel (the measured figures are in docs/benchmarks.md)."""
    for variant in (SixtySix(), Schnapsen()):
        summary = duel(
            variant,
            Contestant("heuristic", HeuristicBot),
            Contestant("random", RandomBot),
            deals=60,
            seed=Seed(11),
        )
        assert summary.win_rate[0].low is not None and summary.win_rate[0].low > 0.7
