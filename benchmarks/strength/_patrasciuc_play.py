"""The lockstep rules check and the Bummerls of ``strength_vs_patrasciuc.py``, played in the
engine of cpatrasciuc/schnapsen-card-game (import only after
``_patrasciuc_rules.use_source``: it imports their packages at module level).

:func:`lockstep` deals each deal in their engine and builds the same deal in ours (their
hands, trump card and talon order as our :class:`~sixtysix.core.deal.DealSetup`), plays random
legal actions of theirs in both and compares, at every step, whose turn it is and the legal
actions (ours less the one difference of :func:`unmarried_leads`, counted apart), at the end
the winner and the game points; at every step it also builds the adapter's view of the seat to
act from their player's view and compares it with our engine's own view of that seat, and the
hand ``--told`` would tell that seat with our engine's hand of its opponent.

:func:`play_bummerl` plays one Bummerl twice in their engine, our bot against theirs: deal
``k`` of both from one shuffle with the same dealer seat, our bot in seat ONE in the first and
in seat TWO in the second, so each bot gets the other's cards and lead, for as long as both
Bummerls last (``opponent`` ``bot:SPEC``: one of our bots plays the other seat, through the
same adapter, which tells what their engine and the adapter do to our bots). The dealer
alternates, seat ONE leading deal 0. Every player sees only
``next_player_view()`` and the Bummerl's score, as in their own evaluation harness
(``src/ai/eval/eval.py``). Their players draw from Python's ``random`` and their compiled
search from the C library's ``rand`` (seeded from the clock when loaded); both are seeded
from ``--seed`` before every deal, so a run is reproducible. With ``told`` (a yardstick, never a
player) our bot is told the opponent's hand, read from their engine's full state, before each
of its decisions (``_told.py``): what knowing it would add against their player. Each deal is
also played in our engine beside theirs, action by action, and must end with the same game
points there; so each Bummerl comes back with its record in our notation, which ``sixtysix
replay`` and ``sixtysix analyse`` read. With ``shadows``, their player's decisions are also
answered by their player again and by our bots named (``_patrasciuc_shadow.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ai.cython_mcts_player.player import CythonMctsPlayer
from ai.heuristic_player import HeuristicPlayer
from ai.mcts_player_options import MctsPlayerOptions
from ai.merge_scoring_infos_func import average_score_with_tiebreakers
from ai.player import Player
from model.game_state import GameState
from model.player_action import PlayerAction, get_available_actions
from model.player_id import PlayerId
from model.player_pair import PlayerPair

from benchmarks.strength import _told
from benchmarks.strength._agreement import Choice
from benchmarks.strength._patrasciuc_adapter import (
    PID,
    SEAT,
    SixtySixPlayer,
    Tracker,
    build_view,
    our_action,
    our_steps,
    ours,
)
from benchmarks.strength._patrasciuc_rules import (
    BUMMERL,
    Pairing,
    patrasciuc_variant,
    rival_of,
    unmarried_leads,
)
from benchmarks.strength._patrasciuc_shadow import Shadows
from benchmarks.strength._peer_games import Bummerl, Game
from sixtysix.bots.levels import resolve_player
from sixtysix.core.actions import ACTIONS, EXCHANGE, MARRY
from sixtysix.core.cards import mask_of
from sixtysix.core.deal import DealSetup
from sixtysix.core.records import DealRecord, Record
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry

#: Their MCTS player at its best honest settings: ``Mcts100kIter`` of their final evaluation
#: (``src/ai/eval/players.py``, ``tuning_mcts_player.md``: 150 permutations of the unseen cards,
#: 667 iterations each, scores merged by ``average_score_with_tiebreakers``), one process.
PERMUTATIONS, ITERATIONS = 150, 667


def their_player(kind: str, pid: PlayerId, permutations: int, iterations: int) -> Player:
    if kind == "heuristic":
        return HeuristicPlayer(pid)
    if kind == "mcts":
        options = MctsPlayerOptions(
            num_processes=1,
            max_permutations=permutations,
            max_iterations=iterations,
            merge_scoring_info_func=average_score_with_tiebreakers,
        )
        return CythonMctsPlayer(pid, False, options)
    raise ValueError(f"unknown opponent {kind!r}")


def describe(kind: str, permutations: int, iterations: int) -> str:
    rival = rival_of(kind)
    if rival is not None:
        return f"our {rival} through the same adapter"
    if kind == "heuristic":
        return "HeuristicPlayer (default options)"
    return f"CythonMctsPlayer({permutations} permutations x {iterations} iterations, not cheating)"


def seed_their_randomness(key: str) -> None:
    """Seed Python's ``random`` and the C library's ``rand`` (their compiled search's)."""
    random.seed(key)
    libc = ctypes.CDLL(None)
    libc.srand(ctypes.c_uint(random.Random(key + "/c").getrandbits(32)))


class _Null(io.TextIOBase):
    def write(self, s: str) -> int:
        return len(s)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Their MCTS prints every permutation's scores to stdout unless Python runs with -O."""
    with contextlib.redirect_stdout(_Null()):
        yield


# ------------------------------------------------------------------------------- lockstep


@dataclass
class Lockstep:
    deals: int = 0
    steps: int = 0
    #: Differences found (legal actions, turn, end, view), each with its first example.
    differences: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    #: Steps where our engine also offers an unmarried king or queen lead (the known
    #: difference, not counted as a difference).
    unmarried: int = 0
    views: int = 0
    #: Views whose history lacks the opponent's exchange before the deal's first lead, where
    #: their view cannot show it (see the adapter's module doc), not counted as a difference.
    unseen_exchange: int = 0
    seconds: float = 0.0

    def differ(self, kind: str, example: str) -> None:
        self.differences[kind] += 1
        self.examples.setdefault(kind, example)

    def as_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "steps": self.steps,
            "views_compared": self.views,
            "differences": sum(self.differences.values()),
            "by_kind": dict(self.differences),
            "examples": self.examples,
            "steps_with_an_unmarried_king_or_queen_lead_of_ours": self.unmarried,
            "views_without_an_unseen_first_exchange": self.unseen_exchange,
            "seconds": round(self.seconds, 1),
        }


def our_setup(state: GameState, dealer: PlayerId) -> DealSetup:
    """Their fresh deal as ours: the same hands, trump card and talon (top card first)."""
    return DealSetup(
        SEAT[dealer],
        tuple(tuple(ours(c) for c in state.cards_in_hand[p]) for p in PID),
        ours(state.trump_card),
        tuple(ours(c) for c in state.talon),
    )


class Mirror:
    """Their deal played in our engine beside theirs: the same cards (:func:`our_setup`), each
    of their actions applied as ours. The lockstep checks it step by step; the Bummerls keep it
    to check the score and to record the deal."""

    def __init__(self, variant: Variant, theirs: GameState, dealer: PlayerId) -> None:
        self.state = variant.new_deal(our_setup(theirs, dealer))

    def follow(self, action: PlayerAction) -> None:
        for step in our_steps(action):
            if self.state.outcome is not None:
                break
            self.state.apply(step)

    def end_difference(self, theirs: GameState) -> str | None:
        """How our end of the deal differs from their finished one, or None."""
        points = (theirs.game_points.one, theirs.game_points.two)
        outcome = self.state.outcome
        if outcome is None:
            return "theirs over, ours not"
        if tuple(outcome.game_points) != points:
            return f"game points theirs {points}, ours {outcome.game_points}"
        return None

    def record(self) -> DealRecord:
        return DealRecord(self.state.setup, list(self.state.history))


def opponent_hand(state: GameState, pid: PlayerId) -> int:
    """``pid``'s hand in their full state, as our card mask (their hand keeps a card led to
    the current trick until the trick is over; ours does not)."""
    led = state.current_trick[pid]
    return mask_of(ours(c) for c in state.cards_in_hand[pid] if c != led)


def unseen_exchange(built: View, truth: View) -> bool:
    """Whether the views differ only by the opponent's exchange before the deal's first lead,
    missing from the adapter's history when a trump marriage explains the exchanged card."""
    if replace(built, history=truth.history) != truth:
        return False
    exchange = (1 - built.seat, ACTIONS[EXCHANGE])
    first_card = next(i for i, (_, a) in enumerate(truth.history) if a < MARRY)
    return (
        exchange in truth.history[:first_card]
        and tuple(h for h in truth.history if h != exchange) == built.history
    )


def lockstep(deals: int, seed: int) -> Lockstep:
    """Play ``deals`` random deals in both engines side by side (see the module doc)."""
    variant = patrasciuc_variant()
    rng = random.Random(f"{seed}/lockstep")
    out = Lockstep()
    start = time.perf_counter()
    for d in range(deals):
        dealer = PID[d % 2]
        theirs = GameState.new(dealer=dealer, random_seed=rng.getrandbits(64))
        mirror = Mirror(variant, theirs, dealer)
        state = mirror.state
        trackers = (Tracker(0), Tracker(1))
        where = f"deal {d}"
        while not theirs.is_game_over:
            out.steps += 1
            seat = SEAT[theirs.next_player]
            if state.to_act != seat:
                out.differ("turn", f"{where}: theirs {seat}, ours {state.to_act}")
                break
            legal = get_available_actions(theirs)
            mapped = {our_action(a) for a in legal}
            ours_legal = set(state.legal_actions())
            extra = unmarried_leads(ours_legal, state.hands[seat])
            out.unmarried += bool(extra)
            if mapped != ours_legal - extra:
                names = sorted(str(ACTIONS[a]) for a in mapped ^ (ours_legal - extra))
                out.differ("legal", f"{where} step {out.steps}: only one engine has {names}")
                break
            if opponent_hand(theirs, PID[1 - seat]) != state.hands[1 - seat]:
                out.differ("told", f"{where} step {out.steps}: the opponent's hand differs")
            view = theirs.next_player_view()
            tracker = trackers[seat]
            tracker.observe(view)
            built = build_view(view, tracker, variant)
            truth = replace(state.view(seat), legal_actions=built.legal_actions)
            out.views += 1
            if built != truth and unseen_exchange(built, truth):
                out.unseen_exchange += 1
            elif built != truth:
                fields = [
                    f for f in built.__dataclass_fields__ if getattr(built, f) != getattr(truth, f)
                ]
                first = fields[0]
                out.differ(
                    "view",
                    f"{where} step {out.steps}: fields {fields}; {first}: adapter"
                    f" {getattr(built, first)}, our engine {getattr(truth, first)}",
                )
            action = rng.choice(legal)
            tracker.mine(view, our_steps(action))
            theirs = action.execute(theirs)
            mirror.follow(action)
            where = f"deal {d} after {action!r}"
        out.deals += 1
        if not theirs.is_game_over:
            continue
        difference = mirror.end_difference(theirs)
        if difference is not None:
            out.differ("end", f"{where}: {difference}")
    out.seconds = time.perf_counter() - start
    return out


# ------------------------------------------------------------------------------- Bummerls


def play_bummerl(bummerl: int, pairing: Pairing) -> tuple[Bummerl, Bummerl]:
    """Bummerl ``bummerl`` twice from the same shuffles, our bot in seat ONE, then TWO
    (``pairing.told``: our bot told the opponent's hand before each decision, a yardstick)."""
    seed, told = pairing.seed, pairing.told
    if told:
        _told.install()
    variant = patrasciuc_variant()
    _, cls, params = resolve_player(pairing.spec, get_registry(), seats=2)
    rival = rival_of(pairing.opponent)
    if rival is not None:
        _, rival_cls, rival_params = resolve_player(rival, get_registry(), seats=2)
    dealing = random.Random(f"{seed}/bummerl/{bummerl}/shuffles")
    shuffles: list[int] = []
    played = []
    for g, ours_first in enumerate((True, False)):
        our_seat = 0 if ours_first else 1
        other: Player
        if rival is None:
            other = their_player(
                pairing.opponent, PID[1 - our_seat], pairing.permutations, pairing.iterations
            )
        score = PlayerPair(0, 0)
        games: list[Game] = []
        deals: list[DealRecord] = []
        choices: list[Choice] = []
        while max(score.one, score.two) < BUMMERL:
            k = len(games)
            while len(shuffles) <= k:
                shuffles.append(dealing.getrandbits(64))
            dealer = PID[1 - k % 2]  # seat ONE leads deal 0
            bot = cls(our_seat, Seed(seed).child(("patrasciuc", bummerl, g, k)), params)
            mine = SixtySixPlayer(bot, variant, our_seat, k)
            if rival is not None:
                rival_seed = Seed(seed).child(("patrasciuc/rival", bummerl, g, k))
                rival_bot = rival_cls(1 - our_seat, rival_seed, rival_params)
                other = SixtySixPlayer(rival_bot, variant, 1 - our_seat, k)
            players = (mine, other) if ours_first else (other, mine)
            seed_their_randomness(f"{seed}/bummerl/{bummerl}/{g}/{k}")
            state = GameState.new(dealer=dealer, random_seed=shuffles[k])
            mirror = Mirror(variant, state, dealer)
            their_times: list[float] = []
            shadows = None
            if pairing.shadows and rival is None:
                twin = their_player(
                    pairing.opponent, PID[1 - our_seat], pairing.permutations, pairing.iterations
                )
                shadows = Shadows(
                    pairing, twin, 1 - our_seat, k, (bummerl, g, k), seed_their_randomness
                )
            while not state.is_game_over:
                pid = state.next_player
                player = players[SEAT[pid]]
                view = state.next_player_view()
                if told and player is mine:
                    _told.tell(opponent_hand(state, PID[1 - our_seat]))
                begin = time.perf_counter()
                with quiet():
                    action = player.request_next_action(view, PlayerPair(score.one, score.two))
                _told.tell(None)
                if player is other:
                    their_times.append(time.perf_counter() - begin)
                legal = get_available_actions(state)
                if action not in legal:
                    raise RuntimeError(f"{action!r} is not legal")
                if shadows is not None and player is other:
                    key = f"{seed}/bummerl/{bummerl}/{g}/{k}/{len(their_times)}"
                    points = PlayerPair(score.one, score.two)
                    with quiet():
                        choice = shadows.ask(view, points, action, len(legal) > 1, key)
                    if choice is not None:
                        choices.append(choice)
                state = action.execute(state)
                mirror.follow(action)
            difference = mirror.end_difference(state)
            if difference is not None:
                raise RuntimeError(f"bummerl {bummerl}, deal {k}: {difference}")
            deals.append(mirror.record())
            points = state.game_points
            score.one += points.one
            score.two += points.two
            ours_pts = points[PID[our_seat]]
            closed = state.player_that_closed_the_talon
            closer = None if closed is None else ("ours" if closed == PID[our_seat] else "theirs")
            games.append(
                Game(
                    k,
                    dealer != PID[our_seat],
                    ours_pts > 0,
                    max(points.one, points.two),
                    tuple(mine.times),
                    tuple(their_times),
                    closer,
                )
            )
        totals = (score[PID[our_seat]], score[PID[1 - our_seat]])
        record = Record(variant.name, variant.options.diff(), None, deals)
        played.append(Bummerl(bummerl, ours_first, tuple(games), totals, record, tuple(choices)))
    return played[0], played[1]
