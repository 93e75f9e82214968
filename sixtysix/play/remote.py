"""A person's seat at a remote table, on the terminal's screen.

:class:`RemoteTable` turns the server's checked messages (:mod:`sixtysix.table.incoming`) into
what the person sees, drawn as ``sixtysix play`` draws (:mod:`sixtysix.text.render`, the
narration of :mod:`sixtysix.service.narration`, the help and the one yes/no question of
:mod:`sixtysix.service.confirm`), and the lines the person types (read by
:func:`~sixtysix.service.input.parse_input`) into messages for the server. It does no I/O of its
own: the seat's loop (:mod:`sixtysix.play.join`) feeds it and sends what it returns, so it
is tested with plain lists. The views it draws are the seat's own, rebuilt with
:func:`~sixtysix.protocol.messages.decode_view`; the server is the referee, this side only
helps the person (a move it knows to be illegal is explained and not sent). An ``event`` is
told when its ``update`` arrives, from the views before and after it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape
from rich.text import Text

from sixtysix.core.actions import ACTION_NAMES, CONCEDE, parse_action
from sixtysix.core.cards import mask_of, parse_card
from sixtysix.core.errors import SixtySixError
from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import N_, Translator
from sixtysix.play import remote_texts as texts
from sixtysix.play.moves_help import help_text, show_rules
from sixtysix.play.narration import hint_table, introduce, narrate
from sixtysix.play.remote_chat import ChatSide
from sixtysix.play.screen import Screen
from sixtysix.plugins.manager import Registry, variant_from
from sixtysix.protocol.messages import Message, ProtocolError, decode_view
from sixtysix.service.confirm import concede_question, leave_question, leaving_warning, question
from sixtysix.service.explain import why_illegal
from sixtysix.service.facts import TableInfo, hand_order, points_shown
from sixtysix.service.input import InputProblem, Kind, control_word, is_yes, parse_input
from sixtysix.service.narration import announcement, deal_heading
from sixtysix.service.scoring_words import marriage_headline
from sixtysix.service.terms import action_text, seat_name, word
from sixtysix.service.timer import Clock, MoveTimer
from sixtysix.table import wire
from sixtysix.table.incoming import ServerProtocolError
from sixtysix.table.wire import CHAT_ERRORS, HARD_ERRORS, PAUSED_SAVE
from sixtysix.text.public import render_first_tricks
from sixtysix.text.render import render_choices
from sixtysix.text.render import render_view as draw_view
from sixtysix.text.render_outcome import render_outcome


@dataclass
class Reply:
    """What one typed line asks of the network side."""

    send: list[Message] = field(default_factory=list)
    #: The view to compute a hint for (test tables, the person's own move).
    hint: View | None = None
    #: The person asked to leave the table (``leave`` is in ``send``).
    leave: bool = False


#: What the person is told for each reason a table refuses ``undo`` (``no_undo``).
NO_UNDO_SAID = {
    wire.NO_UNDO_RATED: N_("No take-backs in rated games."),
    wire.NO_UNDO_SHARED: N_(
        "No take-back here: another person or a program at the table has seen your move"
        " (take-backs are for one person with the server's bots)."
    ),
    wire.NO_UNDO_NOTHING: N_("Nothing to take back in this deal yet."),
    wire.NO_UNDO_UNSEEN: N_(
        "That move cannot be taken back: dealing the unseen cards afresh would contradict what"
        " you have seen."
    ),
}


class RemoteTable(ChatSide):
    """The person's side of one seat: the screen state and the commands (the chat's in
    :class:`~sixtysix.play.remote_chat.ChatSide`)."""

    def __init__(
        self,
        tr: Translator,
        screen: Screen,
        registry: Registry,
        prompt: Callable[[str], None],
        *,
        clock: Clock = time.monotonic,
        pause: bool = False,
        auto_last: bool = False,
    ) -> None:
        self.tr = tr
        #: Hold the end of a deal on the screen until the person presses Enter; the next
        #: deal's messages wait meanwhile (``_held``), and the server is told ``ready``.
        self.pause = pause
        self._held: list[Message] | None = None
        #: The person's last card plays itself (it is the one legal move).
        self.auto_last = auto_last
        #: The server takes ``ready`` (its welcome says so).
        self.server_ready = False
        #: Messages for the server that no typed line asked for (the network loop sends them
        #: after each message from the server): ``ready``, a last card played by itself.
        self.outbox: list[Message] = []
        self.screen = screen
        self.registry = registry
        self.prompt = prompt
        self.clock = clock
        self.table = ""
        self.me = 0
        self.name = ""
        self.rated = False
        self.move_time: int | None = None
        #: What the table does when a person leaves a running match (None: an older server).
        self.on_leave: str | None = None
        self.players: list[str] = []
        self.connected: list[bool] = []
        self.left: list[bool] = []
        self.variant: Variant | None = None
        self.target = 0
        self.deals: int | None = None
        self.deal_number = 0
        #: Deals finished in this match (what leaving a rated match is scored on).
        self.completed = 0
        self.totals: list[int] = []
        self.view: View | None = None
        self.my_turn = False
        self.timer: MoveTimer | None = None
        #: The match is over or this seat has left: the session ends.
        self.done = False
        #: The one line to end with, after an error that closes the connection.
        self.fatal: str | None = None
        #: This seat has left the table (the server still sends its standings, then closes).
        self.has_left = False
        #: A ``welcome`` came: an error before it refused the join itself.
        self.table_seated = False
        #: The yes/no question waiting for its answer: its text, what yes does, what no says.
        self._question: tuple[str, Callable[[], Reply], str] | None = None
        #: The public action told by the server's last ``event``, narrated with its ``update``.
        self._event: tuple[int, int] | None = None
        self._waiting_shown: int | None = None
        #: The prompt is on the screen, waiting for a line.
        self._prompted = False
        self.init_chat()

    # ------------------------------------------------------------------ server messages

    def on_message(self, message: Message) -> None:
        """Show one checked message from the server.

        A message that arrives while the prompt waits for the person's move is written on a
        line of its own, and the prompt is asked again below it.
        """
        handler = getattr(self, "_on_" + message["type"], None)
        if handler is None or not self.chat_shown(message):
            return
        if self._held is not None and message["type"] != "chat":
            if message["type"] not in ("match_over", "error", "left", "standings"):
                self._held.append(message)  # the next deal waits for the person
                return
            self.outbox += self._release()
        quiet = message["type"] == "timer"
        if self._prompted and not quiet:
            self.prompt("\n")
            self._prompted = False
        handler(message)
        if not self._prompted and not quiet:
            self._again()

    def _on_welcome(self, m: Message) -> None:
        tr = self.tr
        self.table_seated = True
        self.table, self.me, self.name = m["table"], m["seat"], m["name"]
        self.rated, self.move_time = m["rated"], m["move_time"]
        self.server_ready = m["ready"]
        self.on_leave = m["on_leave"]
        self._set_players(m["players"])
        if m["reconnected"]:
            text = tr._("Back at table {table}, seat {seat}: the game goes on where it was.")
        else:
            text = tr._("You sit at table {table}, seat {seat}, as {name}.")
        self.screen.say(text.format(table=self.table, seat=self.me, name=self.name), "bold")
        self.chat_welcome(m)

    def _on_match(self, m: Message) -> None:
        tr = self.tr
        try:
            self.variant = variant_from(self.registry, m["variant"], m["options"])
        except (SixtySixError, TypeError, ValueError) as exc:  # unknown variant, bad option
            raise ServerProtocolError(
                f"the server plays {m['variant']!r}, which this client cannot show ({exc})"
            ) from None
        if m["seats"] != self.variant.seats or m["seat"] >= m["seats"]:
            raise ServerProtocolError("the server's match message does not fit its variant")
        self.me, self.target, self.deals = m["seat"], m["target"], m["deals"]
        if len(self.totals) != m["seats"]:
            self.totals = [0] * m["seats"]
        if len(self.players) != m["seats"]:
            self._set_players([""] * m["seats"])
        introduce(
            self.screen,
            tr,
            variant=self.variant.name,
            target=self.target,
            deals=self.deals,
            seat=self.me,
            rated=self.rated,
            move_time=self.move_time,
        )

    def _on_deal(self, m: Message) -> None:
        self._seat_check(m["dealer"])
        self.deal_number = m["number"]
        self.completed = max(0, m["number"] - 1)
        self.view = None
        self._event = None
        self.my_turn = False
        self._waiting_shown = None
        heading = deal_heading(m["number"], self.deals, self._who(m["dealer"]))
        self.screen.say("")
        self.screen.say(heading.text(self.tr, self.me), "bold")

    def _on_event(self, m: Message) -> None:
        seat = self._seat_check(m["seat"])
        action = int(parse_action(m["action"]))
        if self.view is None:  # no view to tell it from: the bare announcement
            self.screen.say(announcement(seat, self.me, action, None).text(self.tr, self.me))
            return
        self._event = (seat, action)  # told with the cards it shows once the update comes

    def _on_update(self, m: Message) -> None:
        view = self._decode(m["view"], [])
        before = self.view
        event, self._event = self._event, None
        self.view = view
        if view.to_act != self.me or view.is_over:
            self.my_turn = False
            self.timer = None
        if before is None or before.seat != view.seat:
            return
        tr = self.tr
        if len(view.history) < len(before.history):  # a take-back
            mine = [a for s, a in before.history[len(view.history) :] if s == self.me]
            if mine:
                self.screen.say(
                    tr._("Taken back: {action}.").format(action=action_text(tr, mine[0])), "cyan"
                )
            return
        if event is not None:
            narrate(self.screen, tr, self.me, *event, before, view)

    def _on_decide(self, m: Message) -> None:
        view = self._decode(m["view"], m["legal"])
        if view.to_act != self.me:
            raise ServerProtocolError("the server asked for a move out of this seat's turn")
        self.view = view
        self.my_turn = True
        self.timer = None  # a rated table's timer message follows the decision
        self._waiting_shown = None
        if self.auto_last and len(view.hand) == 1 and len(view.legal_actions) == 1:
            self.outbox += self._send_action(int(view.legal_actions[0])).send  # plays itself
            return
        self.screen.show(draw_view(view, self._info(), self.tr))
        self.screen.show(render_choices(view, self.tr))
        self.ask()

    def _on_result(self, m: Message) -> None:
        tr = self.tr
        res = m["result"]
        n = len(self.totals)
        if not all(len(res[k]) == n for k in ("game_points", "points", "tricks")):
            raise ServerProtocolError("the server's result does not fit the table")
        try:
            reason = Reason(res["reason"])
        except ValueError:
            raise ServerProtocolError(f"an unknown result reason {res['reason']!r}") from None
        outcome = Outcome(
            reason, tuple(res["game_points"]), tuple(res["points"]), tuple(res["tricks"])
        )
        for s in range(n):
            self.totals[s] += outcome.game_points[s]
        self.completed = self.deal_number
        self.my_turn = False
        self.timer = None
        view = self.view
        if view is None:
            raise ServerProtocolError("a result before any view of the deal")
        headline = marriage_headline(tr, view.history, outcome, view.trump, self.me)
        hands = m["hands"]
        if len(hands) != n:
            raise ServerProtocolError("the server's result does not fit the table")
        masks = [mask_of(parse_card(c) for c in cards) for cards in hands]
        assert self.variant is not None
        shown = render_outcome(outcome, view, self.totals, tr, self.variant, headline, masks)
        self.screen.show(shown)
        if self.pause:
            self._held = []

    def _on_match_over(self, m: Message) -> None:
        for s in m["winners"]:
            self._seat_check(s)
        if len(m["totals"]) == len(self.totals):
            self.totals = list(m["totals"])
        self.done = True
        self.my_turn = False
        if not m["winners"]:
            if not self.has_left:
                self.screen.say(self.tr._("The match is over: a person left the table."), "bold")
            return
        names = ", ".join(self._who(s) for s in m["winners"])
        self.screen.say(self.tr._("Match over. Winner: {names}.").format(names=names), "bold green")

    def _on_seats(self, m: Message) -> None:
        players, connected, left = m["players"], m["connected"], m["left"]
        if not len(players) == len(connected) == len(left):
            raise ServerProtocolError("the server's seats message has lists of unequal length")
        tr = self.tr
        before = (list(self.connected), list(self.left), list(self.players))
        self.players, self.connected, self.left = list(players), list(connected), list(left)
        if len(before[0]) != len(connected):
            return
        for s in range(len(connected)):
            if s == self.me or left[s]:
                continue
            if connected[s] and not before[0][s]:
                if before[2][s]:
                    text = tr._("{who} is back.")
                else:
                    text = tr._("{who} has joined the table.")
            elif before[0][s] and not connected[s]:
                text = tr._("{who} lost the connection; the seat is kept for a while.")
            else:
                continue
            self.screen.say(text.format(who=self._who(s)), "dim")

    def _on_waiting(self, m: Message) -> None:
        seats = [self._seat_check(s) for s in m["for"]]
        if seats:
            who = ", ".join(self._who(s) for s in seats)
            self.screen.say(
                self.tr._("Waiting for players: {who}. Share the table: {table}.").format(
                    who=who, table=self.table
                ),
                "dim",
            )

    def _on_timer(self, m: Message) -> None:
        if m["seat"] == self.me and m["seconds"] > 0:
            self.timer = MoveTimer(m["seconds"], self.clock)

    def _on_error(self, m: Message) -> None:
        tr = self.tr
        code = m["code"]
        if code in HARD_ERRORS or (code == "server" and not self.table_seated):
            self.fatal = self.error_line(code, m["message"])
            return
        if code == "paused":
            text = tr._("The table is paused: nothing was done. It goes on by itself.")
        elif code == "not_your_turn":
            text = tr._("It is not your turn.")
        elif code == "illegal":
            text = tr._("The server refused that move: it is not allowed now.")
        elif code == "no_undo":
            text = self._no_undo(m["message"])
        elif code == "not_started":
            text = tr._("The match has not started yet.")
        elif code in CHAT_ERRORS:
            text = self.chat_refusal(code)
        else:
            text = tr._("The server refused that: {message}").format(message=m["message"])
        self.screen.say(text, "red")
        if self.my_turn:
            self.ask()

    def _on_left(self, m: Message) -> None:
        tr = self.tr
        seat = self._seat_check(m["seat"])
        if seat < len(self.left):
            self.left[seat] = True
        if seat == self.me:
            if m["reason"] == "timeout":
                self.screen.say(tr._("Time is up: you have left the table."), "bold red")
            else:
                self.screen.say(tr._("You have left the table."), "bold red")
            self.has_left = True
            self.my_turn = False
            return
        self.screen.say(
            tr._("{who} has left the table ({reason}).").format(
                who=self._who(seat), reason=texts.left_reason(tr, m["reason"])
            ),
            "yellow",
        )

    def _on_paused(self, m: Message) -> None:
        """The server cannot save the table: nothing happens at it until ``resumed`` (the
        move timer waits too)."""
        self.timer = None
        if m["reason"] == PAUSED_SAVE:
            text = self.tr._("The server cannot save the table now: it waits, then goes on.")
        else:
            text = self.tr._("The table waits: {reason}").format(reason=m["reason"])
        self.screen.say(text, "bold yellow")

    def _on_resumed(self, m: Message) -> None:
        self.screen.say(self.tr._("The server can save again: the table goes on."), "bold")

    def _on_standings(self, m: Message) -> None:
        tr = self.tr
        score = m["score"]
        if self.has_left:
            self.done = True
            if score is None and not self.rated:
                return  # test tables score nothing
        if score is None:
            self.screen.say(tr._("Standings: this match is not scored."), "bold")
        else:
            self.screen.say(
                tr._("Standings: {score:+d} for this match.").format(score=score), "bold"
            )

    # ------------------------------------------------------------------ the person

    def ask(self) -> None:
        """Prompt for the person's move, or the answer to the question asked (at a rated
        table, below a line for the countdown)."""
        if self._held is not None:
            prompt = self.tr._("Enter: the next deal") + " > "
        elif self._question is not None:
            prompt = question(self.tr, self._question[0])
        else:
            prompt = self.tr._("Your move") + " > "
        self._prompted = True
        self.prompt(("\n" if self.rated else "") + prompt)

    def on_line(self, line: str) -> Reply:
        """What one line typed by the person asks for."""
        self._prompted = False  # the line's end moved the cursor below the prompt
        tr = self.tr
        if self._held is not None:  # any line: the person has read the deal's end
            ready = self._release()
            if not line.strip():
                return Reply(send=ready)
            reply = self.on_line(line)  # and a command too (quit, say ...)
            return Reply(send=ready + reply.send, hint=reply.hint, leave=reply.leave)
        if self._question is not None:
            _, yes, no = self._question
            self._question = None
            if is_yes(line):
                return yes()
            self.screen.say(no, "dim")
            self._again()
            return Reply()
        chat = self.chat_line(line)
        if chat is not None:  # sent: the server's echo (or refusal) prompts again
            if not chat:
                self._again()
            return Reply(send=chat)
        view = self.view
        try:
            command = parse_input(line, view, hand_order(view), tr) if view else None
        except InputProblem as problem:
            self._refuse(str(problem))
            return Reply()
        if command is None:  # no deal on the screen yet: only leaving makes sense
            if control_word(line) is Kind.QUIT:
                return self._quit()
            self.screen.say(
                tr._("The match has not started yet; {quit} leaves the table.").format(
                    quit=word(tr, "quit")
                ),
                "dim",
            )
            if control_word(line) is Kind.HELP:
                self.screen.show(Text(self.chat_help()))
            return Reply()
        assert view is not None and self.variant is not None
        if command.kind is Kind.HELP:
            rules = self.variant.rules
            self.screen.show(Text(help_text(view, rules, self.rated, tr, now=self.my_turn)))
            self.screen.show(Text(self.chat_help()))
            self._again()
            return Reply()
        if command.kind is Kind.TRICKS:
            self.screen.show(render_first_tricks(view, tr))
            self._again()
            return Reply()
        if command.kind is Kind.RULES:
            show_rules(self.screen, self.variant, tr)
            self._again()
            return Reply()
        if command.kind is Kind.QUIT:
            return self._quit()
        if command.kind is Kind.UNDO:
            if self.rated:
                self._refuse(tr._("No take-backs in rated games."))
                return Reply()
            return Reply(send=[{"type": "undo"}])
        if not self.my_turn:
            self._refuse(self._not_yet())
            return Reply()
        if command.kind is Kind.HINT:
            if self.rated:
                self._refuse(tr._("No hints in rated games."))
                return Reply()
            return Reply(hint=view)
        assert command.action is not None
        if command.action not in view.legal_actions:
            self._refuse(why_illegal(view, command.action, tr))
            return Reply()
        if command.action == CONCEDE:
            cost = self.variant.conceded_points(view)
            question = concede_question(tr, cost, self.me)
            self._ask(question, self._concede, tr._("Not conceded: play on."))
            return Reply()
        return self._send_action(command.action)

    def _send_action(self, action: int) -> Reply:
        self.my_turn = False  # sent once: a second line before the answer is no second move
        return Reply(send=[{"type": "action", "action": ACTION_NAMES[action]}])

    def _concede(self) -> Reply:
        view = self.view
        if not self.my_turn or view is None or CONCEDE not in view.legal_actions:
            self._refuse(self._not_yet())  # the turn passed while the question waited
            return Reply()
        return self._send_action(CONCEDE)

    def _not_yet(self) -> str:
        view = self.view
        if view is None or view.is_over:
            return self.tr._("The deal is over.")
        return self.tr._("It is not your turn: the table waits for {who}.").format(
            who=self._who(view.to_act)
        )

    def _no_undo(self, reason: str) -> str:
        """Why the table took nothing back, in the person's words."""
        said = NO_UNDO_SAID.get(reason)
        if said is None:  # a newer server's reason: as it said it
            return self.tr._("The server takes nothing back now: {reason}").format(reason=reason)
        return self.tr._(said)

    def _quit(self) -> Reply:
        """Say once what leaving costs, then ask (y/n), as ``sixtysix play`` does."""
        tr = self.tr
        if self.rated:
            warning = leaving_warning(tr, self.totals, self.completed, self.me)
        else:
            warning = tr._("Leaving is for good: the others are told.")
        if self.on_leave == "end" and self.view is not None:
            warning += " " + tr._("The match ends for everyone at the table.")
        elif self.on_leave == "bot" and self.view is not None:
            warning += " " + tr._("A bot plays your seat to the end of the match.")
        keep = tr._("Ctrl-C instead closes the connection and keeps your seat for a while.")
        self.screen.say(warning + " " + keep, "yellow")
        self._ask(leave_question(tr), self._leave, tr._("Playing on."))
        return Reply()

    def _leave(self) -> Reply:
        if self.has_left or self.done:
            return Reply()
        return Reply(send=[{"type": "leave"}], leave=True)

    def _ask(self, text: str, yes: Callable[[], Reply], no: str) -> None:
        self._question = (text, yes, no)
        self.ask()

    def _refuse(self, text: str) -> None:
        self.screen.say(text, "red")
        self._again()

    def _again(self) -> None:
        """Prompt again when a line is wanted: the person's move, or an answer."""
        if self.my_turn or self._question is not None or self._held is not None:
            self.ask()

    def _release(self) -> list[Message]:
        """End the pause at a deal's end: the messages held are shown, and the server (if it
        takes it) is told the person is ready."""
        held, self._held = self._held or [], None
        for message in held:
            self.on_message(message)
        return [{"type": "ready"}] if self.server_ready else []

    def show_hint(self, values: Sequence[tuple[int, float]] | None) -> None:
        """The expert's values of each move (None: the analysis is not installed here)."""
        if values is None:
            self._refuse(self.tr._("Hints need the expert analysis, which is not installed here."))
            return
        self.screen.show(hint_table(self.tr, values))
        self._again()

    def waiting_for(self) -> int | None:
        """The seat the deal waits for, when it is not this one."""
        view = self.view
        if self.done or view is None or view.is_over or view.to_act == self.me:
            return None
        return view.to_act

    def show_waiting(self) -> None:
        """Say once per turn whom the table waits for (a person, a program or a bot)."""
        seat = self.waiting_for()
        if seat is None or seat == self._waiting_shown:
            return
        self._waiting_shown = seat
        if seat < len(self.connected) and not self.connected[seat] and self._is_person(seat):
            text = self.tr._("Waiting for {who}, whose connection is lost...")
        else:
            text = self.tr._("Waiting for {who}...")
        self.screen.say(text.format(who=self._who(seat)), "dim")

    def tick(self) -> None:
        """Draw the countdown of this seat's move, when one runs."""
        if self.timer is not None and self.my_turn:
            change = self.timer.poll()
            if change is not None:
                self.screen.countdown(*change)

    def set_totals(self, totals: Sequence[int]) -> None:
        """The match totals so far (from the table listing, when joining mid-match)."""
        self.totals = list(totals)

    def error_line(self, code: str, message: str) -> str:
        """The one line for an error that ends the connection."""
        return texts.error_line(self.tr, code, message, self.name, self.table)

    # ------------------------------------------------------------------ helpers

    def _set_players(self, players: Sequence[str]) -> None:
        self.players = list(players)
        if len(self.connected) != len(players):  # unknown until the next seats message
            self.connected, self.left = [], []

    def _is_person(self, seat: int) -> bool:
        label = self.players[seat] if seat < len(self.players) else ""
        return not label.startswith(("@", "exec:"))

    def _who(self, seat: int) -> str:
        name = seat_name(self.tr, seat, self.me)
        if seat == self.me or seat >= len(self.players) or not self.players[seat]:
            return name
        return f"{name} ({self.players[seat]})"

    def _seat_check(self, seat: int) -> int:
        n = len(self.totals) or len(self.players)
        if n and seat >= n:
            raise ServerProtocolError(f"the server named seat {seat} at a table of {n}")
        return seat

    def _decode(self, raw: dict[str, Any], legal: Sequence[str]) -> View:
        if self.variant is None:
            raise ServerProtocolError("the server sent a view before the match")
        try:
            view = decode_view(raw, legal, self.registry)
        except ProtocolError as exc:
            raise ServerProtocolError(f"the server sent {exc}") from None
        if view.seat != self.me:
            raise ServerProtocolError("the server sent another seat's view")
        if view.seats != self.variant.seats:
            raise ServerProtocolError("the server sent a view of another table")
        return view

    def _info(self) -> TableInfo:
        variant = self.variant
        assert variant is not None
        show_points = points_shown(variant)
        # render_view writes the labels as Rich markup: a server's "[" is text, not a style
        labels = tuple("" if s == self.me else escape(p) for s, p in enumerate(self.players))
        return TableInfo(
            variant=variant.name,
            deal_number=self.deal_number,
            totals=tuple(self.totals),
            target=self.target,
            deals=self.deals,
            players=labels,
            show_points=show_points,
            rated=self.rated,
        )
