"""The game loop of ``sixtysix play``, independent of the terminal.

A :class:`Session` seats one person and computer players at a variant's table and plays a whole
match (to the target, or of a fixed number of deals). It reads the person's lines from an
:class:`InputSource` and writes to a :class:`Screen`; the terminal supplies real ones
(:mod:`sixtysix.play.terminal`), tests supply scripted input, a recording screen and a fake
clock. Everything shown to the person is drawn from that seat's view; bots get their own seat's
view and nothing else.

Test games allow undo and hints and have no timer. Rated games (RULES.md "Play on the Portal")
have a per-move time limit with a countdown, no undo or hints, and leaving the table (quit,
Ctrl-C, end of input, time out) is scored by the leaving rules; a finished or abandoned rated
match goes into the standings.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from rich.console import RenderableType
from rich.text import Text

from sixtysix.bots.base import Bot
from sixtysix.bots.external import match_over
from sixtysix.bots.seating import deal_notice
from sixtysix.core.actions import CONCEDE
from sixtysix.core.faults import PlayerFault
from sixtysix.core.match import take_turn
from sixtysix.core.match_state import MatchFacts, MatchState
from sixtysix.core.replay import Replay
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.autosave import AutoSave
from sixtysix.play.moves_help import help_text, show_rules
from sixtysix.play.narration import hint_table, introduce, narrate
from sixtysix.play.screen import InputSource, Screen
from sixtysix.service.confirm import concede_question, leave_question, leaving_warning
from sixtysix.service.confirm import question as ask
from sixtysix.service.explain import why_illegal
from sixtysix.service.facts import TableInfo, hand_order, points_shown
from sixtysix.service.input import Command, InputProblem, Kind, control_word, is_yes, parse_input
from sixtysix.service.narration import Seat, deal_heading
from sixtysix.service.review import call_analyser, load_analyser
from sixtysix.service.scoring_words import marriage_headline
from sixtysix.service.standings import Standings, leaving_score, match_score
from sixtysix.service.terms import action_text, fault_kind, seat_name
from sixtysix.service.timer import Clock, MoveTimer
from sixtysix.service.undo import last_action, take_back
from sixtysix.text.public import render_first_tricks
from sixtysix.text.render import render_choices, render_view
from sixtysix.text.render_outcome import (
    DealSummary,
    match_deals,
    render_match_summary,
    render_outcome,
)


class Ending(Enum):
    """How a session ended."""

    FINISHED = "finished"  # the match is over (target reached, or its deals played)
    SAVED = "saved"  # a test game stopped by quit or end of input, saved to resume
    INTERRUPTED = "interrupted"  # Ctrl-C in a test game, saved to resume
    LEFT = "left"  # a rated game left by quitting, Ctrl-C or end of input
    TIMED_OUT = "timed_out"  # a rated game left by running out of time


class _Leave(Exception):
    def __init__(self, ending: Ending, interrupted: bool = False) -> None:
        super().__init__(ending.value)
        self.ending = ending
        self.interrupted = interrupted


@dataclass
class GameSetup:
    variant: Variant
    seat: int
    bots: list[Bot | None]
    #: Bot spec per seat as shown at the table ("" for the person).
    labels: tuple[str, ...]
    seed: Seed
    rated: bool = False
    move_time: float | None = None
    #: What the standings file this game under: the opponents' level or bot names.
    level: str = ""


@dataclass
class SessionResult:
    ending: Ending
    totals: list[int]
    deals_completed: int
    winners: list[int] = field(default_factory=list)
    #: The standings score recorded for a rated game (None: nothing scored).
    score: int | None = None
    #: Ended by Ctrl-C (the command then exits with status 130).
    interrupted: bool = False


class Session(MatchFacts):
    #: The deals finished in this session, for the match summary.
    _deal_log: tuple[DealSummary, ...] = ()

    def __init__(
        self,
        setup: GameSetup,
        tr: Translator,
        source: InputSource,
        screen: Screen,
        *,
        clock: Clock = time.monotonic,
        autosave: AutoSave | None = None,
        standings: Standings | None = None,
        resume: Replay | None = None,
        pause: bool = False,
        auto_last: bool = False,
    ) -> None:
        self.setup = setup
        #: Wait at each deal's end until the person is ready (a screen, where it would scroll
        #: away); the move timer is not running meanwhile.
        self.pause = pause
        #: The person's last card plays itself (it is the one legal move).
        self.auto_last = auto_last
        self.variant = setup.variant
        self.me = setup.seat
        self.tr = tr
        self.source = source
        self.screen = screen
        self.clock = clock
        self.autosave = autosave
        self.standings = standings
        n = self.variant.seats
        if not 0 <= self.me < n:
            raise ValueError(f"no seat {self.me} in a {n}-seat game")
        if setup.rated and setup.move_time is None:
            raise ValueError("a rated game needs a move time")
        #: The match: its deals, record, totals, dealer and winners (a resumed game's, played
        #: on from the saved record, deals its later deals from this game's seed: the record's).
        self.match = resume.match if resume is not None else MatchState(self.variant, setup.seed)
        #: Take-backs made in each deal, numbering the seeded re-deals of :mod:`.undo`.
        self._undos: dict[int, int] = {}
        self._timer: MoveTimer | None = None
        #: Tells the ``exec:`` players each result, as the loop of every driver does.
        self._deal_notice = deal_notice(setup.bots)

    # ----------------------------------------------------------------- setup

    @property
    def state(self) -> DealState | None:
        """The deal being played (None between deals)."""
        return self.match.deal

    @property
    def show_points(self) -> bool:
        """Running points are public with automatic claims or ``open_scores`` (RULES.md)."""
        return points_shown(self.variant)

    # ----------------------------------------------------------------- the match

    def run(self) -> SessionResult:
        tr = self.tr
        if self.match.over:
            raise ValueError("this match is already over")
        fmt = self.variant.match_format
        introduce(
            self.screen,
            tr,
            variant=self.variant.name,
            target=fmt.target,
            deals=fmt.deals,
            seat=self.me,
            rated=self.setup.rated,
            move_time=int(self.setup.move_time or 0),
        )
        try:
            while True:
                state = self.state
                if state is None:
                    state = self._new_deal()
                self._save()
                self._play_deal()
                state = self.state
                assert state is not None and state.outcome is not None
                self._finish_deal(state)
                if self.match.over:
                    return self._finish_match(self.match.winners)
                self._save()
                self._wait_for_the_person(state.view(self.me))
        except _Leave as leave:
            return self._leave(leave.ending, leave.interrupted)
        except KeyboardInterrupt:  # Ctrl-C while a computer player thinks
            return self._leave(Ending.LEFT if self.setup.rated else Ending.INTERRUPTED, True)

    def _new_deal(self) -> DealState:
        number = self.match.dealt
        state = self.match.next_deal()
        self.screen.say("")
        deals = self.variant.match_format.deals
        heading = deal_heading(number + 1, deals, Seat(state.dealer))
        self.screen.say(heading.text(self.tr, self.me), "bold")
        return state

    def _save(self) -> None:
        if self.autosave is not None:
            self.autosave.save(self.record)

    def _info(self) -> TableInfo:
        return TableInfo(
            variant=self.variant.name,
            deal_number=len(self.record.deals),
            totals=tuple(self.totals),
            target=self.variant.target,
            deals=self.variant.match_format.deals,
            players=self.setup.labels,
            show_points=self.show_points,
            rated=self.setup.rated,
        )

    # ----------------------------------------------------------------- a deal

    def _play_deal(self) -> None:
        while True:
            state = self.state
            assert state is not None
            if state.is_over:
                return
            seat = state.to_act
            before = state.view(self.me)
            fault: PlayerFault | None = None
            if seat == self.me:
                chosen = self._human_turn(state)
                if chosen is None:  # undone: the state was rebuilt
                    continue
                action = chosen
                state.apply(action)
            else:
                bot = self.setup.bots[seat]
                assert bot is not None, f"no player for seat {seat}"
                # A bot's fault forfeits the deal (the one rule of core.faults).
                with self.screen.thinking(seat):
                    action, fault = take_turn(state, seat, bot.choose)
                if fault is not None:
                    # Saved as it ended: a resumed game does not play the deal on.
                    self.match.note_forfeit(fault.seat, fault.kind)
            self._save()
            if fault is not None:
                self._forfeited(fault)
                return
            self._narrate(seat, action, before, state.view(self.me))

    def _forfeited(self, fault: PlayerFault) -> None:
        """Say that a player faulted and forfeits the deal (the one rule of core.faults)."""
        text = self.tr._("{who} faulted ({kind}: {detail}) and forfeits the deal.")
        who = seat_name(self.tr, fault.seat, self.me)
        kind = fault_kind(self.tr)(fault.kind)
        self.screen.say(text.format(who=who, kind=kind, detail=fault.detail), "red")

    def _narrate(self, seat: int, action: int, before: View, after: View) -> None:
        narrate(self.screen, self.tr, self.me, seat, action, before, after)

    def _finish_deal(self, state: DealState) -> None:
        outcome = state.outcome
        assert outcome is not None
        if self._deal_notice is not None:
            self._deal_notice(state)
        self.match.settle()
        headline = marriage_headline(self.tr, state.history, outcome, state.trump, self.me)
        self._deal_log = (
            *self._deal_log,
            DealSummary(len(self.record.deals), state.dealer, outcome.reason, outcome.game_points),
        )
        # The deal is over: the cards still in the other hands are shown face up.
        view, hands = state.view(self.me), tuple(state.hands)
        shown = render_outcome(outcome, view, self.totals, self.tr, self.variant, headline, hands)
        self.screen.show(shown)

    # ----------------------------------------------------------------- the person

    def _wait_for_the_person(self, view: View) -> None:
        """Hold the end of a deal on the screen until the person presses Enter (no timer runs:
        the Portal's end-of-deal window); ``quit`` there leaves, as at a move."""
        self._timer = None
        while self.pause:
            line = self._read(self.tr._("Enter: the next deal") + " > ", view)
            if line is None or control_word(line) is not Kind.QUIT:
                return
            self._quit(view)

    def _quit(self, view: View) -> None:
        """Ask once before leaving (what it costs, at a rated game); leave on yes (raises)."""
        tr = self.tr
        if not self.setup.rated:
            question = tr._("Stop here? The game is saved and can be resumed")
            if self._confirm(question, view):
                raise _Leave(Ending.SAVED)
        else:
            warning = leaving_warning(tr, self.totals, self.completed, self.me)
            self.screen.say(warning, "yellow")
            if self._confirm(leave_question(tr), view):
                raise _Leave(Ending.LEFT)
        self.screen.say(tr._("Playing on."), "dim")

    def _human_turn(self, state: DealState) -> int | None:
        """The person's legal action, or None after an undo."""
        tr = self.tr
        view = state.view(self.me)
        if self.auto_last and len(view.hand) == 1 and len(view.legal_actions) == 1:
            return int(view.legal_actions[0])  # the last card, played by itself
        order = hand_order(view)
        self.screen.show(render_view(view, self._info(), tr))
        self.screen.show(render_choices(view, tr))
        timer: MoveTimer | None = None
        if self.setup.rated:
            assert self.setup.move_time is not None
            timer = MoveTimer(self.setup.move_time, self.clock)
        self._timer = timer
        prompt = tr._("Your move") + " > "
        while True:
            line = self._read(prompt, view)
            if line is None:
                continue
            try:
                command = parse_input(line, view, order, tr)
            except InputProblem as problem:
                self.screen.say(str(problem), "red")
                continue
            result = self._command(command, state, view)
            if result is not _AGAIN:
                return result  # type: ignore[return-value]

    def _read(self, prompt: str, view: View) -> str | None:
        """A line from the person against this move's timer (None: read again). Ctrl-C, the
        end of input and the time running out leave the table."""
        timer = self._timer
        try:
            line = self.source.read(prompt, view, self._ticker(timer))
        except KeyboardInterrupt:
            ending = Ending.LEFT if self.setup.rated else Ending.INTERRUPTED
            raise _Leave(ending, interrupted=True) from None
        except EOFError:
            raise _Leave(Ending.LEFT if self.setup.rated else Ending.SAVED) from None
        if timer is not None and (line is None or timer.expired()):
            raise _Leave(Ending.TIMED_OUT)
        return line

    def _confirm(self, question: str, view: View) -> bool:
        """Ask once before an irrevocable choice; only yes (y, yes, e, evet) goes ahead."""
        while True:
            line = self._read(ask(self.tr, question), view)
            if line is not None:
                return is_yes(line)

    def _ticker(self, timer: MoveTimer | None) -> Callable[[], bool] | None:
        if timer is None:
            return None

        def tick() -> bool:
            change = timer.poll()
            if change is not None:
                self.screen.countdown(*change)
            return timer.expired()

        return tick

    def _command(self, command: Command, state: DealState, view: View) -> object:
        tr = self.tr
        kind = command.kind
        if kind is Kind.HELP:
            self.screen.show(self._help(view))
            return _AGAIN
        if kind is Kind.TRICKS:
            self.screen.show(render_first_tricks(view, tr))
            return _AGAIN
        if kind is Kind.HINT:
            if self.setup.rated:
                self.screen.say(tr._("No hints in rated games."), "red")
            else:
                self._hint(view)
            return _AGAIN
        if kind is Kind.UNDO:
            if self.setup.rated:
                self.screen.say(tr._("No take-backs in rated games."), "red")
                return _AGAIN
            return None if self._undo(state) else _AGAIN
        if kind is Kind.RULES:
            self._rules()
            return _AGAIN
        if kind is Kind.QUIT:
            self._quit(view)
            return _AGAIN
        assert command.action is not None
        action = command.action
        if action not in view.legal_actions:
            self.screen.say(why_illegal(view, action, tr), "red")
            return _AGAIN
        cost = self.variant.conceded_points(view) if action == CONCEDE else None
        if action == CONCEDE and not self._confirm(concede_question(tr, cost, view.seat), view):
            self.screen.say(tr._("Not conceded: play on."), "dim")
            return _AGAIN
        return action

    def _rules(self) -> None:
        show_rules(self.screen, self.variant, self.tr)

    def _undo(self, state: DealState) -> bool:
        """Take back the person's last action in this deal (and the bots' replies), on a deal
        whose unseen cards are dealt afresh (:mod:`.undo`), so that nothing is peeked at."""
        tr = self.tr
        cut = last_action(state, self.me)
        if cut is None:
            self.screen.say(tr._("Nothing to undo in this deal."), "red")
            return False
        number = len(self.record.deals) - 1
        count = self._undos.get(number, 0)
        self._undos[number] = count + 1
        # Seeded games stay reproducible: a branch of the game's seed, apart from the deals'.
        stream = self.setup.seed.child(("undo", number, count)).stream(("take-back",))
        fresh = take_back(state, self.me, stream)
        if fresh is None:
            self.screen.say(
                tr._("That move cannot be taken back without giving away cards you have not seen."),
                "red",
            )
            return False
        self.match.retake(fresh)
        self._save()
        undone = state.history[cut][1]
        self.screen.say(
            tr._("Taken back: {action}.").format(action=action_text(tr, undone)), "cyan"
        )
        return True

    def _hint(self, view: View) -> None:
        tr = self.tr
        analyser = load_analyser()
        if analyser is None:
            self.screen.say(
                tr._("Hints need the expert analysis, which is not installed here."), "red"
            )
            return
        self.screen.say(tr._("Thinking..."), "dim")
        values = call_analyser(analyser, view, variant=self.variant)
        self.screen.show(hint_table(tr, [(int(a), float(v)) for a, v in values]))

    def _help(self, view: View) -> RenderableType:
        return Text(help_text(view, self.variant.rules, self.setup.rated, self.tr))

    # ----------------------------------------------------------------- endings

    def _finish_match(self, winners: Sequence[int]) -> SessionResult:
        match_over(self.setup.bots, self.totals, winners)
        tr = self.tr
        deals = match_deals(self.variant, self.record.deals[: self.completed], self._deal_log)
        self.screen.show(render_match_summary(deals, self.variant.seats, self.me, tr))
        names = ", ".join(seat_name(tr, s, self.me) for s in winners)
        self.screen.say(tr._("Match over. Winner: {names}.").format(names=names), "bold green")
        score: int | None = None
        if self.setup.rated:
            score = match_score(self.totals, self.me)
            self._record_result("finished", score)
        # The record after the standings: a failing write cannot lose the result.
        self._save()
        if score is not None:
            self.screen.say(
                tr._("Standings: {score:+d} for this match.").format(score=score), "bold"
            )
        self._saved_note(finished=True)
        return SessionResult(
            Ending.FINISHED, list(self.totals), self.completed, list(winners), score
        )

    def _leave(self, ending: Ending, interrupted: bool = False) -> SessionResult:
        tr = self.tr
        score: int | None = None
        if ending not in (Ending.LEFT, Ending.TIMED_OUT):
            self._save()
            self._saved_note(finished=False)
            return SessionResult(ending, list(self.totals), self.completed, [], None, interrupted)
        if ending is Ending.TIMED_OUT:
            self.screen.say(tr._("Time is up: you have left the table."), "bold red")
        else:
            self.screen.say(tr._("You have left the table."), "bold red")
        score = leaving_score(self.totals, self.completed, self.me)
        # Into the standings before the record is written: a failing write cannot lose it.
        self._record_result("left", score)
        self._save()
        if score is None:
            self.screen.say(
                tr._("You led on the completed deals: the match is not scored."), "yellow"
            )
        else:
            self.screen.say(tr._("Standings: {score:+d} (left the table).").format(score=score))
        self._saved_note(finished=True)
        return SessionResult(ending, list(self.totals), self.completed, [], score, interrupted)

    def _record_result(self, ending: str, score: int | None) -> None:
        if self.standings is None:
            return
        self.standings.add(
            variant=self.variant.name,
            level=self.setup.level,
            seats=self.variant.seats,
            seat=self.me,
            ending=ending,
            score=score,
            deals=self.completed,
            totals=self.totals,
        )

    def _saved_note(self, finished: bool) -> None:
        if self.autosave is None:
            return
        tr = self.tr
        path = shlex.quote(str(self.autosave.path))
        if finished or self.setup.rated:
            self.screen.say(tr._("The game record is in {path}.").format(path=path), "dim")
        else:
            self.screen.say(tr._("Game saved. Continue it with:"), "bold")
            self.screen.command("sixtysix play --resume " + path)


_AGAIN = object()
