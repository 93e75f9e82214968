"""The local best response: a player that exploits one fixed bot, for measuring exploitability.

A best response to a bot is the strategy that scores most against it; what it scores is the
bot's *exploitability*. Computing it exactly needs the whole game tree, far beyond reach here,
so this is the approximation poker programs are measured with (Lisý and Bowling, 2017,
"Equilibrium approximation quality of current no-limit poker bots"): the **local best
response** (LBR), a player that knows the bot's strategy (it may ask copies of the bot) but
not its cards. At each of its decisions with a choice LBR

1. imagines the hidden cards: ``worlds`` complete deals consistent with **its own view**
   only, drawn by the project's sampler (:class:`~sixtysix.bots.inference.sampling.Sampler`),
   every layout of the unseen cards equally likely (all of them, when there are no more);
2. weighs each imagined deal by how well it explains the bot's play so far: the deal is
   replayed from its start and, at each of the bot's past decisions with a choice, a *shadow*
   copy of the bot is asked what it would have played from the view the bot had in that deal.
   One answer per view estimates the bot's action probabilities, softened (the bot plays the
   shadow's answer with probability :data:`TRUST`, any other legal action with the rest), and
   read against the hypothesis that the bot plays at random
   (:func:`~sixtysix.bots.inference.play.chance_of_random`), so that a random bot's deals are
   weighed evenly rather than by the luck of its shadow's draws;
3. values each legal action by **play-outs against the bot**: the weighted deals are resampled
   to ``playouts`` draws (a deal drawn again gets its face-down talon shuffled anew beyond the
   next trick's cards), the action is played in each, and the deal is played on by a shadow in
   the bot's seat and the ``policy`` (the ``heuristic``) in LBR's, each seeing only its own
   view of the imagined deal. While the talon is open the shadow makes the bot's first
   ``horizon`` decisions with a choice and the policy the rest (a searching bot thinks longest
   there); once the talon is closed or gone the shadow plays on to the end. The value is LBR's
   game points minus the bot's; with numba (the ``fast`` extra) it is blended (``search``
   share) with the compiled search's value of each action on the same deals (one trick of
   look-ahead, then the fitted evaluation; exact after a close), as the expert blends its own
   play-outs: the policy's play-outs undervalue lines that need better play from LBR later,
   the search values each deal face up;
4. plays the action of the highest value, unless the policy's own choice is within ``margin``
   game points of it: few play-outs are noisy, and the policy's choice is the sound default.

Where LBR's view locates every card (two players, the talon gone) there is one deal and
nothing to weigh: LBR then searches every line of its own actions to the end of the deal, the
bot's reply at each of its turns asked of a shadow, and plays the best response exactly (for
a bot whose answer the view decides; up to ``endgame_nodes`` positions, else it plays out).

Honesty: LBR receives only its seat's view; the bot is a black box asked through views. The
shadows are copies of the bot's class with the bot's parameters, but with seeds of LBR's own
(a ``seed`` parameter of the bot is dropped for them): nothing reaches LBR from the true bot,
its seed or the true deal's hidden cards. A shadow is asked about views of imagined deals out
of the order the true bot sees views, which is exact for a bot whose choice depends on the
view and its own randomness (every built-in bot), and an approximation for one with a memory
across calls.

Cost, which is the bot's answers when the bot is slow: every shadow answer is kept for the
rest of the game, keyed by the view and the shadow (the same view comes back in the play-outs
of the next decision, and in each reshuffled play-out of a deal); forced moves are never
asked; the reading stops asking about a deal once it is :data:`BEHIND` the best one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sixtysix.bots.base import Bot
from sixtysix.bots.inference.play import PlayLikelihood, chance_of_random, resample
from sixtysix.bots.inference.sampling import Sampler
from sixtysix.bots.players.expert import compiled_search_for
from sixtysix.bots.search.search_evaluation import deal_value
from sixtysix.bots.search.state_copy import fast_copy
from sixtysix.core.actions import ACTIONS, Action
from sixtysix.core.answers import canonical_action
from sixtysix.core.faults import forfeit
from sixtysix.core.rng import Seed, Stream
from sixtysix.core.state import DealState, Phase
from sixtysix.core.view import View
from sixtysix.sim.duel import Contestant

#: Imagined deals drawn (and weighed by the bot's play) per decision.
WORLDS = 8
#: Play-outs per legal action per decision, on deals resampled from the weighted ones.
PLAYOUTS = 24
#: The bot's decisions with a choice that a shadow makes in each play-out while the talon is
#: open; the policy plays the bot's seat for the rest of the open talon (0: the shadow plays
#: every one).
HORIZON = 1
#: Probability that the bot plays what its shadow answers for a view (the rest spread over the
#: other legal actions): one query per decision estimates its policy, softened so that a
#: stochastic bot's deal is made less likely by a surprise, never impossible.
TRUST = 0.9
#: Prior probability that the bot plays uniformly at random, revised by its play.
RANDOM_PRIOR = 0.1
#: Game points by which an action's value must beat the policy's own choice for LBR to play
#: it instead (0: the best value alone): a guard against the noise of few play-outs.
MARGIN = 0.3
#: The compiled search's share of an action's value (the play-outs have the rest; 0:
#: play-outs alone), and the nodes it searches per decision (as many as the expert's).
SEARCH_SHARE = 0.5
SEARCH_NODES = 300_000
#: Positions searched, at most, for an exact best response once LBR's view locates every card
#: (0: never search; play out instead).
ENDGAME_NODES = 20_000
#: How much less likely than the best world (a factor of 100, as a log) a world may fall
#: before the reading stops asking about it.
BEHIND = math.log(100.0)
#: The shadow slot that reads the bot's past play (play-outs use slots 0, 1, ...).
READER = -1


@dataclass(frozen=True)
class Settings:
    """LBR's knobs (see the module doc and the constants for each)."""

    worlds: int = WORLDS
    playouts: int = PLAYOUTS
    horizon: int = HORIZON
    trust: float = TRUST
    random_prior: float = RANDOM_PRIOR
    margin: float = MARGIN
    endgame_nodes: int = ENDGAME_NODES
    search_share: float = SEARCH_SHARE


def shadow_copy(bot: Contestant, seat: int, seed: Seed) -> Bot:
    """A copy of ``bot`` with ``seed``, not the true bot's: a ``seed`` parameter, which would
    fix the copy's randomness to the true bot's, is dropped."""
    params = {k: v for k, v in bot.params.items() if k != "seed"}
    return bot.cls(seat, seed, params)


@dataclass
class Counters:
    """What LBR did in a game: its decisions with a choice, the imagined deals it weighed,
    the play-outs it played, the shadow queries it made (the cost that counts with a slow
    bot: those reading past play, those asked while the talon was open, where a searching bot
    thinks longest), the answers it found already kept, and the decisions it searched to the
    end of the deal."""

    decisions: int = 0
    worlds: int = 0
    playouts: int = 0
    queries: int = 0
    read: int = 0
    open: int = 0
    reused: int = 0
    endgames: int = 0

    def add(self, other: Counters) -> None:
        self.decisions += other.decisions
        self.worlds += other.worlds
        self.playouts += other.playouts
        self.queries += other.queries
        self.read += other.read
        self.open += other.open
        self.reused += other.reused
        self.endgames += other.endgames


def open_talon(state: DealState) -> bool:
    """Whether cards are still drawn after each trick (a talon left, nobody closed it)."""
    return state.closed_by < 0 and state.talon_size > 0


def reshuffled(world: DealState, stream: Stream) -> DealState:
    """``world`` with its face-down talon in another uniformly random order, but for the
    cards drawn after the current trick: the bot's next view (and so a shadow's answer to
    it) stays the same whatever the order of the rest."""
    keep = world.n
    rest = len(world.talon) - keep
    if rest < 2:
        return world
    copy = fast_copy(world)
    talon = copy.talon
    for i in range(rest - 1, 0, -1):
        j = stream.below(i + 1)
        talon[keep + i], talon[keep + j] = talon[keep + j], talon[keep + i]
    return copy


def answer_of(bot: Bot, view: View) -> int:
    """``bot``'s answer for ``view`` as a plain legal action, or -1 if it faulted (raised, or
    answered what is not legal): in a play-out that forfeits the deal, as in a real one."""
    try:
        return canonical_action(bot.choose(view), view.seat, view.legal_actions)
    except Exception:  # whatever a bot raises is its fault, never LBR's crash
        return -1


class Shadows:
    """Copies of the bot, asked about views of imagined deals, their answers kept by view.

    Slot ``k`` is one copy with a seed of its own (drawn from LBR's seed), created when first
    asked; the same view asked of the same slot again gets the kept answer.
    """

    def __init__(self, bot: Contestant, seat: int, seed: Seed, counters: Counters) -> None:
        self.bot = bot
        self.seat = seat
        self.seed = seed
        self.counters = counters
        self._copies: dict[int, Bot] = {}
        self._kept: dict[tuple[int, View], int] = {}

    def ask(self, slot: int, view: View) -> int:
        key = (slot, view)
        kept = self._kept.get(key)
        if kept is not None:
            self.counters.reused += 1
            return kept
        copy = self._copies.get(slot)
        if copy is None:
            seed = self.seed.child(("shadow", slot))
            copy = self._copies[slot] = shadow_copy(self.bot, self.seat, seed)
        self.counters.queries += 1
        if slot == READER:
            self.counters.read += 1
        if view.talon_size and view.closed_by is None:
            self.counters.open += 1
        answer = self._kept[key] = answer_of(copy, view)
        return answer


class LocalBestResponse:
    """LBR for ``seat`` against ``bot`` in the other seat of a two-player game (see the module
    doc). A player: :meth:`choose` takes LBR's view and nothing else."""

    def __init__(
        self,
        seat: int,
        seed: Seed,
        bot: Contestant,
        policy: Contestant,
        settings: Settings | None = None,
    ) -> None:
        self.seat = seat
        self.bot_seat = 1 - seat
        self.seed = seed
        self.settings = settings or Settings()
        self.counters = Counters()
        self.shadows = Shadows(bot, self.bot_seat, seed.child(("shadows",)), self.counters)
        self.policy = [policy.make(s, seed.child(("policy", s))) for s in range(2)]
        self._nodes = 0

    # ------------------------------------------------------------------ the decision

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        self.counters.decisions += 1
        stream = self.seed.stream(("decision", len(view.history)))
        worlds, kept = self.beliefs(view, stream)
        if len(worlds) == 1 and self.settings.endgame_nodes > 0:
            found = self.endgame(worlds[0])
            if found is not None:
                self.counters.endgames += 1
                return ACTIONS[found]
        plays = self.plays(worlds, kept, stream)
        draws = sum(times for _, _, times in plays)
        values: dict[int, float] = {}
        for a in legal:
            code = int(a)
            total = 0.0
            for w, deal, times in plays:
                total += times * self.play_out(deal, code, w)
            values[code] = total / draws
        self.counters.playouts += len(plays) * len(legal)
        share = self.settings.search_share
        if share > 0:
            searched = self.search_values(worlds, kept)
            if searched is not None:
                values = {a: (1 - share) * v + share * searched[a] for a, v in values.items()}
        top = max(values.values())
        best = [a for a in values if values[a] >= top - 1e-9]
        if len(best) > 1 or self.settings.margin > 0:
            preferred = answer_of(self.policy[self.seat], view)
            if preferred in values and values[preferred] >= top - self.settings.margin - 1e-9:
                return ACTIONS[preferred]
        return ACTIONS[best[0]]

    def beliefs(self, view: View, stream: Stream) -> tuple[list[DealState], list[int]]:
        """Imagined deals consistent with ``view``, and how many play-outs each gets.

        Every consistent deal when there are at most ``worlds`` of them, else ``worlds``
        uniform draws; weighed by the bot's play (:meth:`read`) and resampled to
        ``playouts`` draws in proportion.
        """
        settings = self.settings
        playouts = max(1, settings.playouts)
        sampler = Sampler(view)
        size = sampler.count * sampler.orders
        if size == 1:
            return [sampler.sample(stream)], [playouts]
        if size <= settings.worlds and view.phase != Phase.TRUMP_CALL:
            worlds = list(sampler.layouts())
        else:
            worlds = [sampler.sample(stream) for _ in range(max(1, settings.worlds))]
        self.counters.worlds += len(worlds)
        readings = self.read_all(worlds)
        _, weights = chance_of_random(readings, settings.random_prior)
        return worlds, resample(weights, playouts, stream)

    def plays(
        self, worlds: list[DealState], kept: list[int], stream: Stream
    ) -> list[tuple[int, DealState, int]]:
        """The deals to play out: ``(world, deal, draws it stands for)``.

        A world drawn again in the resampling is played out again with its face-down talon
        shuffled anew (nobody sees its order): more of the luck of the draw, for the price of
        the bot's first reply, asked once (the same shadow is asked the same view). Where
        there is no order left to shuffle, one play-out stands for every draw.
        """
        plays: list[tuple[int, DealState, int]] = []
        for w, times in enumerate(kept):
            if not times:
                continue
            if len(worlds[w].talon) - worlds[w].n < 2:
                plays.append((w, worlds[w], times))
                continue
            plays.append((w, worlds[w], 1))
            plays.extend((w, reshuffled(worlds[w], stream), 1) for _ in range(times - 1))
        return plays

    def read(self, world: DealState) -> PlayLikelihood:
        """How well ``world`` explains the bot's play (see :meth:`read_all`)."""
        return self.read_all([world])[0]

    def read_all(self, worlds: list[DealState]) -> list[PlayLikelihood]:
        """How well each world explains the bot's play: the log-probability of its actions
        in the world's history under the softened shadow, and under uniformly random play.

        The worlds are read a decision of the bot at a time, all of them at its first, then
        at its second...; a world already :data:`BEHIND` less likely than the best one is
        read no further, its remaining decisions counted as misses: it would carry too little
        weight to matter, and a slow bot's answers are the cost of the reading.
        """
        trust = self.settings.trust
        hit = math.log(trust)
        bot = self.bot_seat
        # Each world's decisions of the bot with a choice: the view it had, what it did, and
        # how many actions it had.
        decisions: list[list[tuple[View, int, int]]] = []
        by_chance: list[float] = []
        for world in worlds:
            state = world.redealt()
            found = []
            for s, a in world.history:
                if s == bot:
                    legal = state.legal_actions()
                    if len(legal) > 1:
                        found.append((state.view(s), a, len(legal)))
                state.apply_legal(a)
            decisions.append(found)
            by_chance.append(-sum(math.log(n) for _, _, n in found))
        by_model = [0.0] * len(worlds)
        alive = [w for w in range(len(worlds)) if decisions[w]]
        depth = 0
        while alive:
            for w in alive:
                view, a, n = decisions[w][depth]
                if self.shadows.ask(READER, view) == a:
                    by_model[w] += hit
                else:
                    by_model[w] += math.log((1.0 - trust) / (n - 1))
            depth += 1
            best = max(by_model[w] for w in alive)
            for w in alive:
                if by_model[w] < best - BEHIND:
                    for _, _, n in decisions[w][depth:]:
                        by_model[w] += math.log((1.0 - trust) / (n - 1))
            alive = [w for w in alive if len(decisions[w]) > depth and by_model[w] >= best - BEHIND]
        return [PlayLikelihood(m, c) for m, c in zip(by_model, by_chance, strict=True)]

    def play_out(self, world: DealState, action: int, slot: int) -> float:
        """LBR's game points minus the bot's when LBR plays ``action`` in ``world`` and the
        deal is played on: a shadow (``slot``) in the bot's seat, the policy in LBR's (and in
        the bot's beyond the horizon)."""
        state = fast_copy(world)
        state.apply_legal(action)
        horizon = self.settings.horizon
        asked = 0
        while state.phase != Phase.OVER:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_legal(legal[0])
                continue
            seat = state.to_act
            if seat == self.bot_seat and (horizon <= 0 or asked < horizon or not open_talon(state)):
                asked += open_talon(state)
                answer = self.shadows.ask(slot, state.view(seat))
            else:
                answer = answer_of(self.policy[seat], state.view(seat))
            if answer < 0:
                forfeit(state, seat)
                break
            state.apply_legal(answer)
        return float(deal_value(state, self.seat))

    def search_values(self, worlds: list[DealState], kept: list[int]) -> dict[int, float] | None:
        """Each action's mean value by the compiled search of the kept deals (one trick of
        look-ahead while the talon is open, then the fitted evaluation; exact after a close),
        or None without the compiled search (numba) for this game."""
        search = compiled_search_for(worlds[0].variant)
        if search is None:
            return None
        draws = sum(kept)
        per_draw = max(1, SEARCH_NODES // draws)
        totals: dict[int, float] = {}
        for world, times in zip(worlds, kept, strict=True):
            if not times:
                continue
            found = search.action_values(world, self.seat, per_draw * times, 1)
            for a, v in found.values.items():
                totals[a] = totals.get(a, 0.0) + times * v
        return {a: v / draws for a, v in totals.items()}

    # ------------------------------------------------------------------ complete information

    def endgame(self, world: DealState) -> int | None:
        """The action of the best response in ``world``, the one deal LBR's view allows: every
        line of LBR's actions searched to the end of the deal, the bot's reply at each of its
        turns asked of a shadow (slot 0). None when the search needs more than
        ``endgame_nodes`` positions (the play-outs decide then)."""
        self._nodes = self.settings.endgame_nodes
        best = -math.inf
        choice: int | None = None
        for a in self._ordered(world):
            child = fast_copy(world)
            child.apply_legal(a)
            value = self._value(child)
            if value is None:
                return None
            if value > best:
                best, choice = value, a
        return choice

    def _ordered(self, state: DealState) -> list[int]:
        """LBR's legal actions, the policy's choice first (ties go to it)."""
        legal = state.legal_actions()
        first = answer_of(self.policy[self.seat], state.view(self.seat))
        return sorted(legal, key=lambda a: a != first)

    def _value(self, state: DealState) -> float | None:
        """LBR's game points minus the bot's from ``state`` on, LBR playing its best and the
        bot as its shadow answers; None past the node budget."""
        while state.phase != Phase.OVER:
            self._nodes -= 1
            if self._nodes < 0:
                return None
            legal = state.legal_actions()
            seat = state.to_act
            if len(legal) == 1:
                state.apply_legal(legal[0])
            elif seat == self.bot_seat:
                answer = self.shadows.ask(0, state.view(seat))
                if answer < 0:
                    forfeit(state, seat)
                    break
                state.apply_legal(answer)
            else:
                best = -math.inf
                for a in self._ordered(state):
                    child = fast_copy(state)
                    child.apply_legal(a)
                    value = self._value(child)
                    if value is None:
                        return None
                    best = max(best, value)
                return best
        return float(deal_value(state, self.seat))
