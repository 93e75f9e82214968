"""Scripted players, a recording screen and a fake clock for driving the play loop."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console, RenderableType

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import NUM_CARDS
from sixtysix.core.rng import Seed
from sixtysix.core.view import View
from sixtysix.service.facts import hand_order
from sixtysix.service.terms import card_text


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class RecordingScreen:
    """Renders everything to plain text and keeps the countdown events."""

    def __init__(self, width: int = 120) -> None:
        self.buffer = io.StringIO()
        self.console = Console(
            file=self.buffer, width=width, color_system=None, force_terminal=False
        )
        self.said: list[str] = []
        self.countdowns: list[tuple[int, bool, bool]] = []
        #: The seat of each computer player's turn the screen was told about, in order.
        self.thinking_seats: list[int] = []
        #: How many of them were still being thought about (entered, not yet left).
        self.thinking_open = 0

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def say(self, text: str, style: str | None = None) -> None:
        self.said.append(text)
        self.console.print(text, markup=False, highlight=False)

    def command(self, text: str) -> None:
        self.said.append(text)
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    def countdown(self, seconds: int, warning: bool, first_warning: bool) -> None:
        self.countdowns.append((seconds, warning, first_warning))

    @contextmanager
    def thinking(self, seat: int) -> Iterator[None]:
        self.thinking_seats.append(seat)
        self.thinking_open += 1
        try:
            yield
        finally:
            self.thinking_open -= 1

    @property
    def text(self) -> str:
        return self.buffer.getvalue()


@dataclass
class Wait:
    """Let ``seconds`` pass on the fake clock while the person thinks."""

    seconds: float


class Interrupt:
    """Ctrl-C at the prompt."""


Step = str | Wait | Interrupt


@dataclass
class ScriptedInput:
    """Types the given lines; :class:`Wait` advances the clock (ticking each second),
    :class:`Interrupt` is Ctrl-C, the end of the script is the end of input."""

    steps: list[Step]
    clock: FakeClock = field(default_factory=FakeClock)
    prompts: int = 0
    views: list[View] = field(default_factory=list)

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        self.prompts += 1
        self.views.append(view)
        if tick is not None and tick():  # as the terminal does, first thing
            return None
        while self.steps:
            step = self.steps.pop(0)
            if isinstance(step, Interrupt):
                raise KeyboardInterrupt
            if isinstance(step, Wait):
                left = step.seconds
                while left > 0:
                    self.clock.advance(min(1.0, left))
                    left -= 1.0
                    if tick is not None and tick():
                        return None
                continue
            return step
        raise EOFError


def notations(view: View, action: int) -> list[str]:
    """Ways a person may type ``action`` at ``view``."""
    name = ACTION_NAMES[action]
    if action >= NUM_CARDS:
        out = [name, name.upper()]
        verb, _, arg = name.partition(" ")
        turkish = {
            "marry": "evlilik",
            "close": "kapat",
            "trump": "koz",
            "partner": "ortak",
            "solo": "yalnız",
            "concede": "bırak",
            "exchange": "değiş",
            "claim": "kafi",
        }
        out.append((turkish[verb] + " " + arg).strip())
        return out
    order = hand_order(view)
    text = card_text(action)
    return [
        str(order.index(action) + 1) if action in order else name,
        text,
        text.lower(),
        name,
        "play " + text,
    ]


class AutoInput:
    """A person who picks random legal actions (seeded) and types them in varied notation;
    now and then first types an illegal card or nonsense, to be re-prompted."""

    def __init__(self, seed: int, mistakes: bool = True, extra: Iterable[Step] = ()) -> None:
        self.stream = Seed(seed).stream(("auto-input",))
        self.mistakes = mistakes
        self.pending: list[Step] = list(extra)
        self.prompts = 0
        self.typed: list[str] = []
        self.illegal_tried: list[tuple[View, int]] = []
        self._last_view: View | None = None

    def read(self, prompt: str, view: View, tick: Callable[[], bool] | None) -> str | None:
        self.prompts += 1
        if self.pending:
            step = self.pending.pop(0)
            if isinstance(step, Interrupt):
                raise KeyboardInterrupt
            assert isinstance(step, str)
            self.typed.append(step)
            return step
        fresh = view is not self._last_view
        self._last_view = view
        if self.mistakes and fresh and self.stream.below(3) == 0:
            illegal = [c for c in view.hand if c not in view.legal_actions]
            if not illegal or self.stream.below(2):
                # a card it does not hold (one it cannot see or one already played)
                illegal = [c for c in range(NUM_CARDS) if c not in view.hand]
            if illegal:
                card = illegal[self.stream.below(len(illegal))]
                self.illegal_tried.append((view, int(card)))
                line = card_text(card)
                self.typed.append(line)
                return line
            self.typed.append("xyzzy")
            return "xyzzy"
        legal = view.legal_actions
        action = int(legal[self.stream.below(len(legal))])
        ways = notations(view, action)
        line = ways[self.stream.below(len(ways))]
        self.typed.append(line)
        return line
