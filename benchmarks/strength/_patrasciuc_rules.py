"""The parts of the second peer yardstick (``strength_vs_patrasciuc.py``) that need nothing of
cpatrasciuc/schnapsen-card-game: where its checkout is, our rules for its game, the one rule
of theirs no option of ours expresses, and who plays whom in a run (:class:`Pairing`, which
the run's worker processes receive before their code can be imported). Kept apart so that CI
can test them (``test_patrasciuc.py``) where their code is not installed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sixtysix.core.actions import MARRY
from sixtysix.core.cards import KING, QUEEN
from sixtysix.variants.schnapsen import Schnapsen

#: Our ``schnapsen`` options for their rules. Every one is our default, named here so that the
#: report says which rules were matched (see the module doc of ``_patrasciuc_adapter.py``).
PATRASCIUC_RULES: dict[str, object] = {
    "claim": "auto",
    "closing": True,
    "close_needs_trick": False,
    "exchange": True,
    "exchange_min_talon": 2,
    "exchange_needs_trick": False,
    "marriages": True,
    "marriage_after_close": True,
    "schneider_card_points_only": False,
    "target": 7,
}

#: Game points that end a Bummerl (their ``Bummerl.is_over``: more than 6).
BUMMERL = 7

#: Their players a run may name as the opponent.
THEIRS = ("mcts", "heuristic")
#: The opponent ``bot:SPEC``: one of our bots in the other seat too, through the same adapter.
OURS = "bot:"


def rival_of(opponent: str) -> str | None:
    """The spec of our bot named by ``opponent`` (``bot:SPEC``), or None for one of theirs."""
    return opponent.removeprefix(OURS) if opponent.startswith(OURS) else None


@dataclass(frozen=True)
class Pairing:
    """Who plays whom in a run, and how: the same for each of its Bummerls."""

    seed: int
    #: Our bot (a spec or @level).
    spec: str
    #: One of :data:`THEIRS`, or :data:`OURS` and a spec of ours.
    opponent: str
    #: Their MCTS's budget.
    permutations: int
    iterations: int
    #: Our bot told the opponent's hand before each decision (a yardstick).
    told: bool = False
    #: Our bots asked in their player's seat at each of its decisions (``_patrasciuc_shadow``).
    shadows: tuple[str, ...] = ()


def patrasciuc_variant() -> Schnapsen:
    return Schnapsen.configure(None, PATRASCIUC_RULES)


def source_dir(source: str | Path) -> Path:
    """The directory to import their ``model`` and ``ai`` packages from: a checkout's ``src``
    (or ``src`` itself). Why check: a wrong path would fail later with a puzzling
    ``ModuleNotFoundError: model`` inside a worker."""
    root = Path(source).expanduser().resolve()
    for candidate in (root / "src", root):
        if (candidate / "model" / "game_state.py").is_file() and (candidate / "ai").is_dir():
            return candidate
    raise SystemExit(
        f"error: {source} is not a checkout of cpatrasciuc/schnapsen-card-game"
        " (no src/model/game_state.py)"
    )


def use_source(source: str | Path) -> Path:
    """Put their ``src`` first on ``sys.path`` (idempotent: workers call it too)."""
    path = str(source_dir(source))
    if path not in sys.path:
        sys.path.insert(0, path)
    return Path(path)


def unmarried_leads(legal: Iterable[int], hand: int) -> set[int]:
    """Our legal leads their engine does not have: a king or queen led *without* marrying while
    the seat holds the pair (theirs announces the marriage whenever such a card is led)."""
    legal = set(legal)
    out: set[int] = set()
    for suit in range(4):
        if MARRY + suit not in legal:
            continue
        for rank in (KING, QUEEN):
            card = suit * 6 + rank
            if card in legal and hand >> card & 1:
                out.add(card)
    return out
