"""A sixtysix-player/1 program in Python: one function, and the helper does the rest.

    sixtysix duel 66 'exec:python3 examples/python-player/player.py' random

``choose`` gets the seat's View (the same object an in-process bot gets, rebuilt from the
referee's message) and returns one of its legal actions.
"""

from sixtysix.core.view import View
from sixtysix.protocol.player import run_player


def choose(view: View) -> int:
    """Play the highest card offered (card plays are listed first, ascending), else act."""
    plays = [a for a in view.legal_actions if a.is_play]
    return max(plays, key=lambda a: a % 6) if plays else view.legal_actions[0]


if __name__ == "__main__":
    raise SystemExit(run_player(choose, name="highest-card"))
