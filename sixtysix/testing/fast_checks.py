"""Checks of the compiled rules against the generic engine, for a variant they play.

The two-player games have one compiled statement of their rules for speed
(:mod:`sixtysix.compiled`, numba), under the simulator's random games and the expert's search.
Whenever it takes a variant's games, these checks hold it to the engine game by game: the same
simulated games, the same legal actions and outcomes in compiled play, the same action values
as the generic search in endgames.
"""

from __future__ import annotations

from sixtysix.bots import compiled
from sixtysix.bots.base import Bot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.bots.search.solver import Solver, fast_copy
from sixtysix.compiled.position import play_random as play_compiled
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.sim.games import play_game
from sixtysix.sim.simulate import fast_path
from sixtysix.testing.play import MAX_STEPS, describe, fail, play_random, random_deal

#: Cards per hand at most in an endgame the generic search solves for comparison.
ENDGAME_CARDS = 4


def _random_bots(variant: Variant) -> list[tuple[type[Bot], dict[str, str]]]:
    return [(RandomBot, {}) for _ in range(variant.seats)]


def fast_simulation_applies(variant: Variant) -> bool:
    """Whether the simulator plays ``variant``'s random games on the compiled rules."""
    return fast_path(variant, _random_bots(variant)) is not None


def compiled_search_applies(variant: Variant) -> bool:
    """Whether the expert searches ``variant`` with the compiled search (numba installed)."""
    return compiled.available() and compiled.supports(variant)


def check_fast_simulation(variant: Variant, seed: Seed, games: int = 64) -> None:
    """The compiled random games are exactly the generic engine's games, one by one."""
    bots = _random_bots(variant)
    fast = fast_path(variant, bots)
    if fast is None:
        return
    for f in fast.results(seed, 0, games):
        g = play_game(variant, bots, seed, f.index)
        if g != f:
            raise fail(
                f"{describe(variant)}: simulated game {g.index} differs between the generic"
                f" engine ({g.outcome}) and the compiled rules ({f.outcome})"
            )


def check_compiled_play(variant: Variant, seed: Seed, deals: int = 8) -> None:
    """The compiled rules offer the engine's legal actions and score the engine's outcome
    from every position of random deals, and the compiled search values endgames as the
    generic search does."""
    if not compiled_search_applies(variant):
        return
    search = compiled.CompiledSearch(variant)
    where = describe(variant)
    for d in range(deals):
        state = random_deal(variant, seed, d)
        stream = seed.stream(("compiled", d))
        steps = 0
        while not state.is_over:
            words = [w >> 32 for w in seed.words(("compiled", d, steps), 64)]
            moves, (reason, *game_points) = play_compiled(variant, state, words)
            ref = fast_copy(state)
            for i, (count, action) in enumerate(moves):
                legal = ref.legal_actions()
                if (count, action) != (len(legal), legal[words[i] % len(legal)]):
                    raise fail(
                        f"{where}: deal {d} after {steps} actions, move {i}: the compiled rules"
                        f" offer {count} actions and play {action}, the engine {legal}"
                    )
                ref.apply_legal(action)
            outcome = ref.outcome
            if outcome is None or (reason, tuple(game_points)) != (
                outcome.reason,
                outcome.game_points,
            ):
                raise fail(
                    f"{where}: deal {d} after {steps} actions: the compiled rules score"
                    f" {reason} {game_points}, the engine {outcome}"
                )
            if _endgame(state):
                _check_endgame(search, state, f"{where}: deal {d}")
            play_random(state, stream, len(state.history) + 1)
            steps += 1
            if steps > MAX_STEPS:
                raise fail(f"{where}: deal {d} did not end after {MAX_STEPS} actions")


def _endgame(state: DealState) -> bool:
    return state.strict and max(h.bit_count() for h in state.hands) <= ENDGAME_CARDS


def _check_endgame(search: compiled.CompiledSearch, state: DealState, where: str) -> None:
    seat = state.to_act
    got, exact, _ = search.action_values(state, seat, node_limit=0)
    want = Solver(seat).action_values(fast_copy(state))
    if not exact or got != want:
        raise fail(
            f"{where}: the compiled search values {got}, the generic search {want}"
            f" (seat {seat}, {len(state.history)} actions played)"
        )
