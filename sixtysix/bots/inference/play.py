"""Reading the other seats' play: which imagined deals explain what they did.

The sampler (:mod:`sixtysix.bots.inference.sampling`) draws every deal consistent with the *rules*
equally often: a deal in which the opponent led a low card while holding the king and queen of
trumps counts as much as one in which he could not declare. People do not play like that, and
neither do bots. Weighting each imagined deal by how likely the other seats' actions were in
it, under a model of a reasonable player, is the classic cure (the "inference" of the strong
Skat and bridge programs).

The model here is the registered ``heuristic`` bot, softened: a seat plays what the heuristic
would have played in its place with probability ``trust``, and any other legal action with
the rest shared out. The heuristic sees only that seat's view *of the imagined deal*, so the
weight uses nothing the weighing seat may not know: the imagined deal, the public history.
Softening keeps the weights honest against players who are not the heuristic (a person, a
random bot): an action the model did not expect makes a deal less likely, never impossible.

The same replay also prices the play as if it were uniformly random, so that the two readings
can be weighed against each other (:func:`chance_of_random`): how likely it is that the
opponent is no reasonable player at all, which changes what the best move against it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from sixtysix.bots.base import Bot
from sixtysix.core.rng import Stream
from sixtysix.core.state import DealState, Phase

#: Default probability that a seat plays the model's choice.
TRUST = 0.7


class PlayLikelihood(NamedTuple):
    """How well one imagined deal explains the other seats' play, under two models."""

    #: Log-probability of their actions under the softened ``model``.
    model: float
    #: Log-probability of their actions had they played uniformly at random.
    random: float


def read_play(
    deal: DealState, seat: int, model: Sequence[Bot], trust: float = TRUST
) -> PlayLikelihood:
    """Log-probabilities of the other seats' actions in ``deal``'s history, under ``model``
    and under uniformly random play.

    ``deal`` is an imagined deal already played up to the present (as the sampler builds
    them); it is replayed from its setup, asking the model at every decision of another seat
    that had a choice.
    """
    state = deal.redealt()
    hit = math.log(trust)
    by_model = by_chance = 0.0
    for s, a in deal.history:
        if s != seat and state.phase == Phase.PLAY:
            legal = state.legal_actions()
            if len(legal) > 1:
                by_chance -= math.log(len(legal))
                if model[s].choose(state.view(s)) == a:
                    by_model += hit
                else:
                    by_model += math.log((1.0 - trust) / (len(legal) - 1))
        state.apply_legal(a)
    return PlayLikelihood(by_model, by_chance)


def chance_of_random(readings: Sequence[PlayLikelihood], prior: float) -> tuple[float, list[float]]:
    """The probability that the other seats play at random rather than like the model, given
    their play in the imagined deals ``readings`` (drawn alike from the view), and each deal's
    log-weight under that mixture of the two players.

    A seat whose play the model keeps failing to predict is far more likely random than a
    reasonable player: against it the searching seat need not fear the best reply at every
    turn (the expert then searches expecting a random reply with this probability).
    """
    if not readings:
        return prior, []
    if prior <= 0.0 or prior >= 1.0:
        chosen = [r.random if prior >= 1.0 else r.model for r in readings]
        return min(max(prior, 0.0), 1.0), chosen
    top = max(max(r.model, r.random) for r in readings)
    by_model = [(1.0 - prior) * math.exp(r.model - top) for r in readings]
    by_chance = [prior * math.exp(r.random - top) for r in readings]
    total = sum(by_model) + sum(by_chance)
    weights = [math.log(max(m + c, 1e-300)) + top for m, c in zip(by_model, by_chance, strict=True)]
    return sum(by_chance) / total, weights


def resample(log_weights: Sequence[float], count: int, stream: Stream) -> list[int]:
    """How many times to keep each deal: ``count`` draws in proportion to the weights
    (systematic resampling: one random offset, so the counts are as even as the weights
    allow)."""
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    total = sum(weights)
    step = total / count
    position = stream.random() * step
    kept = [0] * len(weights)
    cumulative = 0.0
    i = 0
    for _ in range(count):
        while i < len(weights) - 1 and cumulative + weights[i] <= position:
            cumulative += weights[i]
            i += 1
        kept[i] += 1
        position += step
    return kept


__all__ = ["TRUST", "PlayLikelihood", "chance_of_random", "read_play", "resample"]
